#include "tscope/bench/kernel_bench.hpp"

#include <algorithm>
#include <chrono>
#include <cstring>
#include <functional>
#include <map>
#include <optional>
#include <set>

#ifdef _OPENMP
#include <omp.h>
#endif

#include "bench/bench_median.hpp"
#include "bench/mttkrp_row.hpp"
#include "bench/multi_gpu_bench.hpp"
#include "bench/streamed_bench.hpp"
#include "cuda/env_switch.hpp"
#include "cuda/gpu_gather.hpp"
#include "cuda/gpu_mttkrp.hpp"
#include "formats/format_builders.hpp"
#include "kernels/gpu_level_order.hpp"
#include "tscope/bench/machine.hpp"
#include "tscope/bench/roofline.hpp"
#include "tscope/checks.hpp"
#include "tscope/cuda/device.hpp"
#include "tscope/error.hpp"
#include "tscope/failed_allocation.hpp"
#include "tscope/formats/format_visit.hpp"
#include "tscope/kernels/mttkrp.hpp"
#include "tscope/kernels/spttm.hpp"
#include "tscope/kernels/sptv.hpp"
#include "tscope/kernels/ttmc.hpp"
#include "tscope/tensor/coo_ops.hpp"

namespace tscope {

namespace {

using Clock = std::chrono::steady_clock;

std::string device_of(Backend b) {
    const MachineInfo m = describe_machine();
    if (b == Backend::Cuda) return m.gpu;
    return m.cpu_model + ", " + std::to_string(b == Backend::CpuRef ? 1 : m.omp_threads) + " thread" +
           (b == Backend::CpuRef || m.omp_threads == 1 ? "" : "s");
}

}  // namespace

namespace {

// The host copy rate over two buffers of n bytes each.
double copy_rate(std::size_t n) {
    Column<char> a(n), b(n);
    std::memset(a.data(), 1, n);
    std::memset(b.data(), 2, n);  // touch both: page faults stay out of the timing
    // measured as the kernels are: a warm-up, then the median of five (a best-of would compare a
    // quiet instant of this shared machine with the kernels' typical one)
    std::vector<double> gbps;
    for (int r = 0; r < 6; ++r) {
        const auto start = Clock::now();
        // with the kernels' threads, each copying its share: one core alone may not saturate memory
#pragma omp parallel
        {
#ifdef _OPENMP
            const auto t = static_cast<std::size_t>(omp_get_thread_num()), T = static_cast<std::size_t>(omp_get_num_threads());
#else
            const std::size_t t = 0, T = 1;
#endif
            const std::size_t lo = n / T * t, hi = t + 1 == T ? n : n / T * (t + 1);
            std::memcpy(b.data() + lo, a.data() + lo, hi - lo);
        }
        const double s = std::chrono::duration<double>(Clock::now() - start).count();
        if (r > 0) gbps.push_back(2.0 * static_cast<double>(n) / s / 1e9);
    }
    std::sort(gbps.begin(), gbps.end());
    return gbps[gbps.size() / 2];
}

}  // namespace

double measure_copy_bandwidth() {
    // 2 x 256 MiB, well past any cache; where memory (or ulimit -v) cannot give them, smaller
    // down to 2 x 32 MiB, still past most last-level caches, and below that none (0: the rows
    // carry no copy bound). Under 800 MB every bench had failed on this probe alone, even on
    // MovieLens (sweep 68a A5).
    for (std::size_t n = std::size_t{256} << 20;; n /= 2) {
        try {
            const double gbps = copy_rate(n);
            release_column_cache();  // its buffers, kept for reuse, would hold memory the bench needs
            return gbps;
        } catch (const std::bad_alloc&) {
            (void)take_failed_allocation_size();  // the probe's own size, not one to report
            if (n <= (std::size_t{32} << 20)) return 0;
        }
    }
}

double measure_gpu_copy_bandwidth() {
    if (!query_gpu().available) return 0;
    return gpu::copy_bandwidth_gbps();
}

double measure_gpu_gather_bandwidth() {
    if (!query_gpu().available) return 0;
    return gpu::gather_bandwidth_gbps();
}

double measure_gpu_add_bandwidth() {
    if (!query_gpu().available) return 0;
    return gpu::add_bandwidth_gbps();
}

namespace {

// What the harness needs of a kernel: where it runs, how to build a format for a mode, one
// run, and what a run costs and how far it is from the oracle. One subclass per kernel.
class KernelCase {
public:
    KernelCase(const CooTensor& t, const BenchRequest& r, const std::vector<DenseMatrix>& factors)
        : t_(t), req_(r), factors_(factors) {}
    virtual ~KernelCase() = default;
    virtual bool supports(Backend b, FormatKind k) const = 0;
    // The options to build `kind` for `mode`, and whether each mode needs its own build.
    virtual FormatOptions options(FormatKind kind, int mode) const = 0;
    // The options for backend b's rows: options() unless that backend's kernels want another
    // tree (a row is timed on a format built with these; MTTKRP's cuda rows, gpu_level_order).
    virtual FormatOptions options_for(FormatKind kind, int mode, Backend) const { return options(kind, mode); }
    virtual bool per_mode_build(FormatKind kind) const = 0;
    virtual std::unique_ptr<SparseFormat> build(FormatKind kind, int mode, Backend b, RunControl& c) const {
        return build_format(kind, t_, options_for(kind, mode, b), c);
    }
    virtual std::uint64_t rank() const { return req_.rank; }
    // Makes the run callable; it may fill `timing` (GPU).
    virtual std::function<void(DeviceTiming&)> prepare(const SparseFormat& f, int mode, Backend b, RunControl& c) = 0;
    // flops of one run, bytes it must move, and (with check) the error of the last run.
    virtual double flops(int mode) const = 0;
    // The bytes the kernel must move at least. Dense operands and results count at the
    // backend's precision (value_bytes): the cuda kernels read and write fp32.
    virtual std::uint64_t bytes(const SparseFormat& f, int mode, Backend b) const = 0;
    // The oracle behind error() is serial: it checks `c` as it goes.
    virtual double error(int mode, RunControl& c) = 0;
    // The dense result of the last run, for --write (none for sparse results).
    virtual const DenseMatrix* output() const { return nullptr; }
    // SpTV on cuda: the vector's entries the prepared run packs ahead of it.
    virtual std::uint64_t vector_packed() const { return 0; }
    virtual HotRowUse hot_rows(int) const { return {}; }
    // The GPU kernels to compare for a (backend, format), each run as its own row; {""}: one.
    virtual std::vector<std::string> variants(Backend, FormatKind) const { return {""}; }
    // cuda MTTKRP: the prepared run's traffic where it goes over shared-memory tiles.
    virtual std::optional<SharedTileTraffic> shared_tiles(int) const { return std::nullopt; }
    void set_variant(const std::string& v) { variant_ = v; }

protected:
    const CooTensor& t_;
    const BenchRequest& req_;
    std::string variant_;
    const std::vector<DenseMatrix>& factors_;
    const DenseMatrix& u(int mode) const { return factors_[static_cast<std::size_t>(mode)]; }
    // The rows of `mode`'s dense operand (factor, vector) a kernel must read at least: one per
    // distinct index, counted once per tensor and mode.
    std::uint64_t row_bytes(int mode, std::uint64_t cols, Backend b) const {
        auto it = distinct_.find(mode);
        if (it == distinct_.end()) it = distinct_.emplace(mode, distinct_indices(t_, mode)).first;
        return it->second * cols * value_bytes(b);
    }
    // Every factor but `except`'s, gathered row by row.
    std::uint64_t factor_row_bytes(int except, Backend backend) const {
        std::uint64_t b = 0;
        for (int m = 0; m < t_.order(); ++m)
            if (m != except) b += row_bytes(m, req_.rank, backend);
        return b;
    }
    static std::uint64_t value_bytes(Backend b) { return b == Backend::Cuda ? sizeof(float) : sizeof(double); }
    // The format's arrays: on cuda with fp32 values, as the kernels' copy of the format holds
    // them (the host's doubles were counted 8 bytes each until session 43); else as stored.
    static std::uint64_t format_bytes(const SparseFormat& f, Backend b) {
        const StorageReport s = f.storage();
        return b == Backend::Cuda ? s.bytes_with_values_of(sizeof(float)) : s.bytes();
    }

private:
    mutable std::map<int, std::uint64_t> distinct_;
};

// The dense oracles of MTTKRP and TTMc: one cpu-ref run per mode, whatever the formats and
// backends compared with it. compute fills a fresh matrix, kept once it returns: a cancel
// leaves no half-made oracle.
class DenseOracles {
public:
    template <class Compute>
    const DenseMatrix& at(int mode, std::uint64_t rows, std::uint64_t cols, Compute&& compute) {
        DenseMatrix& ref = refs_[mode];
        if (ref.data.empty()) {
            DenseMatrix computed(rows, cols);
            compute(computed);
            ref = std::move(computed);
        }
        return ref;
    }

private:
    std::map<int, DenseMatrix> refs_;
};

class MttkrpCase : public KernelCase {
public:
    using KernelCase::KernelCase;
    bool supports(Backend b, FormatKind k) const override { return kernel_supports(KernelKind::MTTKRP, b, k); }
    FormatOptions options(FormatKind, int mode) const override {
        FormatOptions o = req_.options;
        o.mode = mode;
        return o;
    }
    // cuda's CSF and B-CSF trees in the GPU's level order, where it differs from SPLATT's (a
    // tiny mode at the leaves: kernels/gpu_level_order.cpp); the omp and cpu-ref rows of the same
    // mode then get a tree of their own in SPLATT's order. Cuda's MM-CSF likewise takes the GPU's
    // partition orders (gpu_mmcsf_orders).
    FormatOptions options_for(FormatKind kind, int mode, Backend b) const override {
        FormatOptions o = options(kind, mode);
        if (b == Backend::Cuda && per_mode_build(kind) && (kind == FormatKind::CSF || kind == FormatKind::BCSF)) {
            const std::vector<int> gpu = gpu_level_order(t_.dims(), mode, req_.rank, query_gpu().l2_bytes);
            if (gpu != default_mode_order(t_, mode)) o.mode_order = gpu;
        }
        if (b == Backend::Cuda && kind == FormatKind::MMCSF)
            o.mmcsf_orders = gpu_mmcsf_orders(t_.dims(), req_.rank, query_gpu().l2_bytes);
        return o;
    }
    // per-mode formats are rebuilt with the mode at the root (SPLATT-ALL) unless a mode order
    // is given (one copy: SPLATT-ONE); COO, MM-CSF, HiCOO and HLS serve every mode
    bool per_mode_build(FormatKind k) const override {
        return format_is_per_mode(k) && k != FormatKind::COO && req_.options.mode_order.empty();
    }
    // cuda: the format goes to the device once a row, as SpTV's and SpTTM's plans do, and each run
    // counts that upload among its transfers, as a one-off call pays it. Uploading it for every
    // run (the warm-up and each repeat) ran the same kernels, each row paying the host's
    // preparation and the copy six times: a bench of MM-CSF's three modes on the uniform shape
    // took 56-66 s (H200, session 29).
    std::function<void(DeviceTiming&)> prepare(const SparseFormat& f, int mode, Backend b, RunControl& c) override {
        out_ = DenseMatrix(t_.dim(mode), req_.rank);
        plan_.reset();  // the last row's device copy goes before this row's is made
        if (b == Backend::CpuRef) return [this, mode, &c](DeviceTiming&) { mttkrp_reference(t_, mode, factors_, out_, c); };
        if (b != Backend::Cuda) return [this, &f, mode, b, &c](DeviceTiming& timing) { mttkrp(b, f, mode, factors_, out_, c, &timing); };
        plan_.emplace(b, f, req_.rank);
        return [this, mode, &c](DeviceTiming& timing) {
            plan_->compute(mode, factors_, out_, c, &timing);
            timing.upload_s += plan_->upload_seconds();
        };
    }
    double flops(int) const override { return 3.0 * static_cast<double>(t_.nnz()) * static_cast<double>(req_.rank); }
    // the format, the other modes' factor rows, the whole output written
    std::uint64_t bytes(const SparseFormat& f, int mode, Backend b) const override {
        return format_bytes(f, b) + factor_row_bytes(mode, b) + t_.dim(mode) * req_.rank * value_bytes(b);
    }
    double error(int mode, RunControl& c) override {
        return max_relative_error(out_, oracles_.at(mode, t_.dim(mode), req_.rank, [&](DenseMatrix& ref) {
            mttkrp_reference(t_, mode, factors_, ref, c);
        }));
    }
    const DenseMatrix* output() const override { return &out_; }
    std::optional<SharedTileTraffic> shared_tiles(int mode) const override {
        return plan_ ? plan_->shared_tiles(mode, req_.rank) : std::nullopt;
    }
    HotRowUse hot_rows(int mode) const override { return plan_ ? plan_->hot_rows(mode, req_.rank) : HotRowUse{}; }

private:
    DenseMatrix out_;
    DenseOracles oracles_;
    std::optional<MttkrpPlan> plan_;
};

class SptvCase : public KernelCase {
public:
    SptvCase(const CooTensor& t, const BenchRequest& r, const std::vector<DenseMatrix>& factors) : KernelCase(t, r, factors) {
        // only the modes asked for (every mode's took 5.2 GB for an unasked mode 2e8 long, sweep 65)
        vectors_.resize(static_cast<std::size_t>(t.order()));
        for (int m : r.modes.empty() ? natural_modes(t.order()) : r.modes) {
            const DenseMatrix v = random_matrix(t.dim(m), 1, 101 + std::uint64_t(m));
            vectors_[static_cast<std::size_t>(m)].assign(v.data.begin(), v.data.end());
        }
    }
    bool supports(Backend b, FormatKind k) const override { return kernel_supports(KernelKind::SpTV, b, k); }
    FormatOptions options(FormatKind kind, int mode) const override {
        FormatOptions o = sptv_options(kind, t_.order(), mode);
        o.bcsf_fiber_threshold = req_.options.bcsf_fiber_threshold;
        return o;
    }
    bool per_mode_build(FormatKind) const override { return true; }  // built to contract the mode
    std::uint64_t rank() const override { return 1; }
    std::function<void(DeviceTiming&)> prepare(const SparseFormat& f, int mode, Backend b, RunControl& c) override {
        const auto& v = vectors_[static_cast<std::size_t>(mode)];
        plan_.reset();
        if (b == Backend::CpuRef) return [this, mode, &v](DeviceTiming&) { out_ = sptv_reference(t_, mode, v); };
        // the result's layout (and, on cuda, the format's upload) is the plan's preparation, as
        // for SpTTM
        plan_ = SptvPlan::prepare(f, mode, b);
        return [this, &v, &c](DeviceTiming& timing) { plan_->compute(v, c, &timing); };
    }
    std::uint64_t vector_packed() const override { return plan_ ? plan_->vector_packed() : 0; }
    double flops(int) const override { return 2.0 * static_cast<double>(t_.nnz()); }
    // omp: what the plan's values kernel walks, the vector and the result's values (the layout
    // is prepared); otherwise the format, the vector and the whole result
    std::uint64_t bytes(const SparseFormat& f, int mode, Backend b) const override {
        const std::uint64_t vector = row_bytes(mode, 1, b);
        if (plan_ && plan_->bytes_per_compute()) return plan_->bytes_per_compute() + vector;
        // cuda: the host lays out the result's coordinates (as the omp plan prepares them), the
        // kernel writes one fp32 value per fiber
        if (b == Backend::Cuda) return format_bytes(f, b) + vector + result().nnz() * value_bytes(b);
        return format_bytes(f, b) + vector + result().bytes();
    }
    double error(int mode, RunControl&) override {
        auto it = refs_.find(mode);
        if (it == refs_.end()) it = refs_.emplace(mode, sptv_reference(t_, mode, vectors_[static_cast<std::size_t>(mode)])).first;
        return sparse_max_relative_error(result(), it->second);
    }

private:
    const CooTensor& result() const { return plan_ ? plan_->result() : out_; }
    std::vector<std::vector<double>> vectors_;
    std::optional<SptvPlan> plan_;
    CooTensor out_;
    std::map<int, CooTensor> refs_;
};

// SpTTM times the computation only: sorting, f_ptr and allocating the result are the paper's
// preprocessing (spttm Sec. 4.1), done once in prepare(). On COO it is SpTTM (Alg. 1); on sCOO
// it is SspTTM (Alg. 5), the second product of a Tucker TTM chain: its input is X times
// another mode's matrix (rank R), made by SpTTM when the format is "built".
class SpttmCase : public KernelCase {
public:
    using KernelCase::KernelCase;
    bool supports(Backend b, FormatKind k) const override { return kernel_supports(KernelKind::SpTTM, b, k); }
    FormatOptions options(FormatKind, int mode) const override { return spttm_options(t_.order(), mode); }
    bool per_mode_build(FormatKind) const override { return true; }
    std::unique_ptr<SparseFormat> build(FormatKind kind, int mode, Backend b, RunControl& c) const override {
        if (kind != FormatKind::sCOO) return KernelCase::build(kind, mode, b, c);
        if (t_.order() < 2) throw InputError("SspTTM on sCOO needs a tensor of order 2 or more (the product of a TTM chain)");
        const auto start = Clock::now();
        const int first = chain_mode(mode);
        // X sorted (others, mode, first): the chunks of X x_first U come out sorted with `mode`
        // last among the sparse modes, the order Alg. 5 reads them in, as a Tucker chain plans it
        FormatOptions o;
        for (int m = 0; m < t_.order(); ++m)
            if (m != mode && m != first) o.mode_order.push_back(m);
        o.mode_order.push_back(mode);
        o.mode_order.push_back(first);
        o.mode = o.mode_order.front();
        const auto x = build_format(FormatKind::COO, t_, o, c);
        SpttmPlan plan = SpttmPlan::prepare(*x, first, req_.rank);
        plan.compute(u(first), c);
        auto y = plan.take_result();
        y->set_build_seconds(std::chrono::duration<double>(Clock::now() - start).count());
        return y;
    }
    std::function<void(DeviceTiming&)> prepare(const SparseFormat& f, int mode, Backend b, RunControl& c) override {
        plan_.reset();
        ref_out_.reset();
        input_ = &f;
        input_values_ = t_.nnz();
        visit_format(f, overloaded{[&]<class I>(const ScooFormat<I, double>& y) { input_values_ = y.vals.size(); },
                                   [](const SparseFormat&) {}});
        if (b == Backend::CpuRef) {
            if (f.kind() == FormatKind::sCOO) {
                return [this, mode, &f](DeviceTiming&) { ref_out_ = spttm_reference(f.to_coo(), mode, u(mode)); };
            }
            return [this, mode](DeviceTiming&) { ref_out_ = spttm_reference(t_, mode, u(mode)); };
        }
        const SpttmVariant v = variant_.empty() ? SpttmVariant::WarpBatches : parse_spttm_variant(variant_);
        plan_ = SpttmPlan::prepare(f, mode, req_.rank, b, v);
        return [this, mode, &c](DeviceTiming& timing) { plan_->compute(u(mode), c, &timing); };
    }
    // 2 R per input value (Eq. 3): nnz for SpTTM, chunks x R for SspTTM's dense chunks
    double flops(int) const override { return 2.0 * static_cast<double>(input_values_) * static_cast<double>(req_.rank); }
    // omp: what the plan's kernel walks and writes, and U; cuda: the format, U, the result
    std::uint64_t bytes(const SparseFormat& f, int mode, Backend b) const override {
        const std::uint64_t u_bytes = row_bytes(mode, req_.rank, b);
        if (plan_ && plan_->bytes_per_compute()) return plan_->bytes_per_compute() + u_bytes;
        // cuda: the plan lays out the result's chunks on the host (the paper's preprocessing),
        // the kernel writes their fp32 values
        if (b == Backend::Cuda) return format_bytes(f, b) + u_bytes + result_values() * value_bytes(b);
        return format_bytes(f, b) + u_bytes + result().storage().bytes();
    }
    std::vector<std::string> variants(Backend b, FormatKind k) const override {
        if (b != Backend::Cuda || k != FormatKind::COO) return {""};
        std::vector<std::string> names;
        for (SpttmVariant v : req_.spttm_variants.empty() ? std::vector<SpttmVariant>(std::begin(kSpttmVariants), std::end(kSpttmVariants))
                                                           : req_.spttm_variants)
            names.push_back(spttm_variant_name(v));
        return names;
    }
    double error(int mode, RunControl&) override {
        const bool chained = input_->kind() == FormatKind::sCOO;
        auto& ref = (chained ? chain_refs_ : refs_)[mode];
        if (!ref) ref = spttm_reference(chained ? input_->to_coo() : t_, mode, u(mode));
        return semi_sparse_max_relative_error(result(), *ref);
    }

private:
    // The mode multiplied before `mode` in the chain: the last other mode.
    int chain_mode(int mode) const { return sspttm_chain_mode(t_.order(), mode); }
    std::map<int, std::unique_ptr<SemiSparse>> refs_, chain_refs_;
    const SparseFormat* input_ = nullptr;
    std::uint64_t input_values_ = 0;
    const SparseFormat& result() const { return plan_ ? plan_->result() : *ref_out_; }
    std::uint64_t result_values() const {  // the dense chunks' values, zeros included
        std::uint64_t n = 0;
        visit_format(result(), overloaded{[&]<class I, class V>(const ScooFormat<I, V>& y) { n = y.vals.size(); },
                                          [](const SparseFormat&) {}});
        return n;
    }
    std::optional<SpttmPlan> plan_;
    std::unique_ptr<SparseFormat> ref_out_;
};

class TtmcCase : public KernelCase {
public:
    using KernelCase::KernelCase;
    bool supports(Backend b, FormatKind k) const override { return kernel_supports(KernelKind::TTMc, b, k); }
    FormatOptions options(FormatKind kind, int mode) const override {
        FormatOptions o = kind == FormatKind::CSF ? ttmc_options(t_.order(), mode) : req_.options;
        if (kind != FormatKind::CSF) o.mode = mode;
        if (kind == FormatKind::HLS) o.hls_threshold = req_.options.hls_ttmc_threshold;  // SpTTMChain's own
        return o;
    }
    bool per_mode_build(FormatKind kind) const override { return kind == FormatKind::CSF; }  // rooted at the mode
    std::function<void(DeviceTiming&)> prepare(const SparseFormat& f, int mode, Backend b, RunControl& c) override {
        const std::uint64_t cols = ttmc_columns(factors_, mode);
        check_dense_fits(t_.dim(mode), cols,
                         "TTMc's output for mode " + std::to_string(mode + 1) + " (" + std::to_string(t_.dim(mode)) +
                             " x " + std::to_string(cols) + ")");  // before the allocation
        out_ = DenseMatrix();  // the last mode's, given back before the next is taken
        out_ = DenseMatrix(t_.dim(mode), cols);
        if (b == Backend::CpuRef) return [this, mode, &c](DeviceTiming&) { ttmc_reference(t_, mode, factors_, out_, c); };
        return [this, &f, mode, b, &c](DeviceTiming& timing) { ttmc(b, f, mode, factors_, out_, c, &timing); };
    }
    double flops(int) const override { return 2.0 * static_cast<double>(t_.nnz()) * static_cast<double>(out_.cols); }
    std::uint64_t bytes(const SparseFormat& f, int mode, Backend b) const override {
        return format_bytes(f, b) + out_.data.size() * value_bytes(b) + factor_row_bytes(mode, b);
    }
    double error(int mode, RunControl& c) override {
        return max_relative_error(out_, oracles_.at(mode, t_.dim(mode), out_.cols, [&](DenseMatrix& ref) {
            ttmc_reference(t_, mode, factors_, ref, c);
        }));
    }
    const DenseMatrix* output() const override { return &out_; }

private:
    DenseMatrix out_;
    DenseOracles oracles_;
};

std::unique_ptr<KernelCase> make_case(const CooTensor& t, const BenchRequest& r, const std::vector<DenseMatrix>& f) {
    switch (r.kernel) {
    case KernelKind::MTTKRP: return std::make_unique<MttkrpCase>(t, r, f);
    case KernelKind::SpTV: return std::make_unique<SptvCase>(t, r, f);
    case KernelKind::SpTTM: return std::make_unique<SpttmCase>(t, r, f);
    case KernelKind::TTMc: return std::make_unique<TtmcCase>(t, r, f);
    }
    return nullptr;
}

// The request's own limits and what its factors, or SpTV's vectors, take, before any allocation.
void check_request(const CooTensor& t, const BenchRequest& request, const std::vector<int>& modes) {
    if (request.rank == 0) throw InputError("--rank must be at least 1");
    if (request.repeat < 1) throw InputError("--repeat must be at least 1");
    for (int m : modes)
        check_mode(m, t.order());
    if (request.kernel == KernelKind::SpTV) {
        std::vector<std::uint64_t> lengths(static_cast<std::size_t>(t.order()), 0);  // by mode, so messages name it
        for (int m : modes) lengths[static_cast<std::size_t>(m)] = t.dim(m);
        check_per_index_fits(lengths, 2, "its vector and its copy");
    } else {
        check_factors_fit(t.dims(), request.rank, static_cast<long double>(t.bytes()));
    }
    validate_options(t, request.options);  // what `formats` refuses, bench refuses too
}

// The request's factors, or random ones drawn by the file's ids (SpTV takes none).
std::vector<DenseMatrix> bench_factors(const CooTensor& t, const BenchRequest& request) {
    std::vector<DenseMatrix> factors = request.factors;
    if (factors.empty() && request.kernel != KernelKind::SpTV)
        for (int m = 0; m < t.order(); ++m)
            factors.push_back(random_matrix_by_ids(ids_of_mode(request.original_ids, m), t.dim(m), request.rank, std::uint64_t(m) + 1));
    return factors;
}

// TTMc: every mode's output, beside the tensor, before the first mode runs.
void check_ttmc_outputs_fit(const CooTensor& t, const BenchRequest& request, const std::vector<int>& modes,
                            const std::vector<DenseMatrix>& factors) {
    long double all = 0, largest = 0;
    for (int m : modes) {
        const long double bytes =
            static_cast<long double>(ttmc_columns(factors, m)) * static_cast<long double>(t.dim(m)) * 8.0L;
        check_fits_memory(bytes + static_cast<long double>(t.bytes()),
                          "TTMc's output for mode " + std::to_string(m + 1) + " at rank " +
                              std::to_string(request.rank) + ", beside the tensor,");
        all += bytes, largest = std::max(largest, bytes);
    }
    if (request.check)  // the serial results are kept, one per mode, for every format's rows to be checked against
        check_fits_memory(all + largest + static_cast<long double>(t.bytes()),
                          "TTMc at rank " + std::to_string(request.rank) +
                              " with --check (the serial result of every mode, kept to check each row, and one output, "
                              "beside the tensor)");
}

// The roofline's machine figures, measured (once per process) before any kernel runs, not
// between the rows they judge.
void measure_machine(const BenchRequest& request) {
    for (Backend b : request.backends) {
        if (b == Backend::Cuda && !query_gpu().available) continue;
        copy_bandwidth_for(b);
        if (request.kernel == KernelKind::MTTKRP || request.kernel == KernelKind::SpTTM) gather_bandwidth_for(b);
        if (b != Backend::Cuda) cpu_peak();
    }
}

// The formats asked for; "all" is those that some requested backend runs this kernel on.
std::vector<FormatKind> formats_to_run(const BenchRequest& request, const KernelCase& kernel) {
    if (!request.formats.empty()) return request.formats;
    std::vector<FormatKind> kinds;
    for (FormatKind k : available_formats())
        if (std::any_of(request.backends.begin(), request.backends.end(),
                        [&](Backend b) { return b != Backend::CpuRef && kernel.supports(b, k); }))
            kinds.push_back(k);
    return kinds;
}

// Why a row cannot run before anything is built, or "": no device (whatever the format), no
// kernel for the format on the backend, or values the GPU's fp32 cannot hold.
std::string why_not_run(const KernelCase& kernel, KernelKind kind_of_kernel, Backend backend, FormatKind kind,
                        const std::string& gpu_refusal) {
    if (backend == Backend::Cuda && !query_gpu().available) return query_gpu().reason;
    if (!kernel.supports(backend, kind))
        return std::string(backend_name(backend)) + " has no " + kernel_name(kind_of_kernel) + " kernel for " +
               format_name(kind);
    if (backend == Backend::Cuda) return gpu_refusal;
    return {};
}

// Times one row after a warm-up run: its median, on cuda the kernels and the transfers apart.
void time_row(BenchResult& row, const std::function<void(DeviceTiming&)>& run, int repeat, RunControl& control) {
    std::vector<double> kernel_times, transfer_times;
    DeviceTiming timing;
    control.check();
    run(timing);  // warm-up
    for (int r = 0; r < repeat; ++r) {
        control.check();  // a cancel waits one run at most, not the row's repeats
        const auto start = Clock::now();
        run(timing);
        row.seconds.push_back(std::chrono::duration<double>(Clock::now() - start).count());
        kernel_times.push_back(timing.kernel_s);
        transfer_times.push_back(timing.upload_s + timing.download_s);
    }
    row.median_s = detail::median_of(row.seconds);
    if (row.backend == Backend::Cuda) {
        row.seconds = kernel_times;
        row.median_s = detail::median_of(kernel_times);
        row.transfer_s = detail::median_of(transfer_times);
    }
}

}  // namespace

std::vector<BenchResult> run_bench(const CooTensor& t, const BenchRequest& request, RunControl& control) {
    const std::vector<int> modes = request.modes.empty() ? natural_modes(t.order()) : request.modes;
    check_request(t, request, modes);
    const std::vector<DenseMatrix> factors = bench_factors(t, request);
    if (request.kernel == KernelKind::TTMc) check_ttmc_outputs_fit(t, request, modes, factors);
    // the cuda rows' values, fp32 there: their rows say why they did not run (the others run)
    const bool cuda =
        std::find(request.backends.begin(), request.backends.end(), Backend::Cuda) != request.backends.end();
    const std::string gpu_refusal = cuda ? gpu_value_refusal(t) : std::string();
    if ((request.stream || request.gpus || !request.gpu_slots.empty()) && !gpu_refusal.empty())
        throw InputError(gpu_refusal);
    if (request.stream) {
        if (request.gpus || !request.gpu_slots.empty()) throw InputError("--stream runs on one GPU: leave --gpus out");
        return detail::run_streamed_bench(t, request, modes, factors, control);
    }
    if (request.gpus || !request.gpu_slots.empty()) {
        auto rows = detail::run_multi_gpu_bench(t, request, modes, factors, control);
        for (BenchResult& row : rows) fill_roofline(row);
        return rows;
    }
    const std::unique_ptr<KernelCase> kernel = make_case(t, request, factors);
    measure_machine(request);
    const std::vector<FormatKind> kinds = formats_to_run(request, *kernel);

    // the rows to come, for progress: the Kernels tab's bar read 0% with 8 of 42 rows in (sweep 66b M2)
    std::uint64_t planned = 0;
    for (FormatKind kind : kinds)
        for (Backend backend : request.backends) planned += modes.size() * kernel->variants(backend, kind).size();
    control.stage("benchmarking");
    control.progress(0, planned);
    std::vector<BenchResult> results;
    std::set<int> kept;  // the modes whose output a row holds (keep_outputs)
    const auto keep = [&](BenchResult&& row) {
        results.push_back(std::move(row));
        control.progress(results.size(), planned);
        if (request.on_result) request.on_result(results.back());
    };
    for (FormatKind kind : kinds) {
        std::unique_ptr<SparseFormat> format;
        int built_for = -1;
        FormatOptions built_with;  // the options' mode order and MM-CSF levels it was built with
        for (int mode : modes) {
            for (Backend backend : request.backends)
            for (const std::string& variant : kernel->variants(backend, kind)) {
                control.check();
                kernel->set_variant(variant);
                BenchResult row;
                row.variant = variant;
                row.kernel = request.kernel;
                row.format = kind;
                row.backend = backend;
                row.mode = mode;
                row.rank = kernel->rank();
                row.device = device_of(backend);
                if (std::string why = why_not_run(*kernel, request.kernel, backend, kind, gpu_refusal); !why.empty()) {
                    row.error = std::move(why);
                    keep(std::move(row));
                    continue;
                }
                try {
                    const FormatOptions with = kernel->options_for(kind, mode, backend);
                    const std::vector<int>& order = with.mode_order;
                    const bool other_build =
                        with.mode_order != built_with.mode_order || with.mmcsf_orders != built_with.mmcsf_orders;
                    if (!format || other_build || (kernel->per_mode_build(kind) && built_for != mode)) {
                        format.reset();  // the last tree goes before the next is built
                        format = kernel->build(kind, mode, backend, control);
                        built_for = mode;
                        built_with = with;
                    }
                    row.build_seconds = format->build_seconds();
                    // cpu-ref times the oracle itself, on the tensor's coordinates
                    time_row(row, kernel->prepare(*format, mode, backend, control), request.repeat, control);
                    row.gflops = kernel->flops(mode) / row.median_s / 1e9;
                    row.bytes_moved = kernel->bytes(*format, mode, backend);
                    row.gbps = static_cast<double>(row.bytes_moved) / row.median_s / 1e9;
                    RowTraffic rows = row_traffic(t, *format, mode, request.kernel, backend, row.rank);
                    if (const auto tiles = kernel->shared_tiles(mode)) {
                        row.path = detail::shared_tiles_path(tiles->nonzeros, t.nnz());
                        rows = tile_row_traffic(rows, *tiles, t.nnz(), row.rank);
                    }
                    if (order != kernel->options(kind, mode).mode_order) detail::add_path(row.path, levels_text(order));
                    if (!with.mmcsf_orders.empty())
                        detail::add_path(row.path, partition_levels_text(with.mmcsf_orders));
                    row.gather_bytes = rows.gathered;
                    row.add_bytes = rows.added;
                    row.vector_packed = kernel->vector_packed();
                    const HotRowUse hot = kernel->hot_rows(mode);
                    row.hot_rows = hot.rows, row.hot_copies = hot.copies;
                    if (request.check) row.max_rel_error = kernel->error(mode, control);
                    if (const DenseMatrix* out = kernel->output();
                        out && request.keep_outputs && kept.insert(mode).second)
                        row.output = *out;
                    row.ran = true;
                    fill_roofline(row);  // after the timings: its first call may measure the machine
                } catch (const Cancelled&) {
                    throw;
                } catch (const Error& e) {  // a shape the format refuses, no device, ...
                    row.error = e.what();
                }
                keep(std::move(row));
            }
        }
    }
    return results;
}

std::string format_label(const BenchResult& r, bool with_path) {
    std::string s = format_name(r.format);
    if (!r.variant.empty()) s.append(" [").append(r.variant).append("]");
    if (with_path && !r.path.empty()) s.append(" (").append(r.path).append(")");
    return s;
}

}  // namespace tscope
