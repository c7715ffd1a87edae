#include "tscope/bench/kernel_bench.hpp"

#include <algorithm>
#include <chrono>
#include <cstring>

#include "cuda/gpu_mttkrp.hpp"
#include "tscope/bench/machine.hpp"
#include "tscope/cuda/device.hpp"
#include "tscope/error.hpp"
#include "tscope/kernels/mttkrp.hpp"
#include "tscope/kernels/spttm.hpp"
#include "tscope/kernels/sptv.hpp"
#include "tscope/kernels/ttmc.hpp"
#include "tscope/tensor/coo_ops.hpp"

namespace tscope {

namespace {

using Clock = std::chrono::steady_clock;

constexpr struct {
    KernelKind kind;
    const char* name;
} kKernels[] = {{KernelKind::SpTV, "sptv"}, {KernelKind::SpTTM, "spttm"}, {KernelKind::MTTKRP, "mttkrp"}, {KernelKind::TTMc, "ttmc"}};

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    const std::size_t n = v.size();
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

std::string device_of(Backend b) {
    const MachineInfo m = describe_machine();
    if (b == Backend::Cuda) return m.gpu;
    return m.cpu_model + ", " + std::to_string(b == Backend::CpuRef ? 1 : m.omp_threads) + " thread" +
           (b == Backend::CpuRef || m.omp_threads == 1 ? "" : "s");
}

// MTTKRP moves at least: the format once, every other factor once, the output once.
std::uint64_t mttkrp_bytes(const CooTensor& t, const StorageReport& storage, std::uint64_t rank) {
    std::uint64_t bytes = storage.bytes();
    for (int m = 0; m < t.order(); ++m) bytes += t.dim(m) * rank * sizeof(double);  // the other factors and the output
    return bytes;
}

}  // namespace

const char* kernel_name(KernelKind k) {
    for (const auto& e : kKernels)
        if (e.kind == k) return e.name;
    return "?";
}

KernelKind parse_kernel(const std::string& name) {
    for (const auto& e : kKernels)
        if (name == e.name) return e.kind;
    throw InputError("unknown kernel '" + name + "' (known: sptv, spttm, mttkrp, ttmc)");
}

double measure_copy_bandwidth() {
    const std::size_t n = std::size_t{256} << 20;
    Column<char> a(n), b(n);
    std::memset(a.data(), 1, n);
    std::memset(b.data(), 2, n);  // touch both: page faults stay out of the timing
    double best = 0;
    for (int r = 0; r < 5; ++r) {
        const auto start = Clock::now();
        std::memcpy(b.data(), a.data(), n);
        const double s = std::chrono::duration<double>(Clock::now() - start).count();
        best = std::max(best, 2.0 * static_cast<double>(n) / s / 1e9);
    }
    return best;
}

double measure_gpu_copy_bandwidth() {
    if (!query_gpu().available) return 0;
    return gpu::copy_bandwidth_gbps();
}

std::vector<BenchResult> run_bench(const CooTensor& t, const BenchRequest& request, RunControl& control) {
    const bool is_sptv = request.kernel == KernelKind::SpTV;
    const bool is_spttm = request.kernel == KernelKind::SpTTM;
    const bool is_ttmc = request.kernel == KernelKind::TTMc;
    if (request.rank == 0) throw InputError("--rank must be at least 1");
    if (request.repeat < 1) throw InputError("--repeat must be at least 1");
    const std::vector<int> modes = request.modes.empty() ? natural_modes(t.order()) : request.modes;
    for (int m : modes)
        if (m < 0 || m >= t.order())
            throw InputError("mode " + std::to_string(m + 1) + " is out of range: the tensor has " + std::to_string(t.order()) + " modes");
    std::vector<DenseMatrix> factors = request.factors;
    if (factors.empty())
        for (int m = 0; m < t.order(); ++m) factors.push_back(random_matrix(t.dim(m), request.rank, std::uint64_t(m) + 1));
    auto supported = [&](Backend b, FormatKind k) {
        if (is_spttm) return k == FormatKind::COO && spttm_supports(b, k);  // SspTTM needs an sCOO input: tests only
        if (is_ttmc) return ttmc_supports(b, k);
        return is_sptv ? sptv_supports(b, k) : mttkrp_supports(b, k);
    };
    std::vector<FormatKind> kinds = request.formats;
    if (kinds.empty())  // "all": the formats that some requested backend runs this kernel on
        for (FormatKind k : available_formats())
            if (std::any_of(request.backends.begin(), request.backends.end(), [&](Backend b) { return b != Backend::CpuRef && supported(b, k); }))
                kinds.push_back(k);

    std::vector<std::vector<double>> vectors;  // SpTV: one random vector per mode
    for (int m = 0; m < t.order(); ++m) {
        const DenseMatrix v = random_matrix(t.dim(m), 1, 101 + std::uint64_t(m));
        vectors.emplace_back(v.data.begin(), v.data.end());
    }
    std::vector<std::optional<CooTensor>> sptv_reference_of(static_cast<std::size_t>(t.order()));
    std::vector<std::optional<DenseMatrix>> reference(static_cast<std::size_t>(t.order()));
    auto reference_for = [&](int mode) -> const DenseMatrix& {
        auto& r = reference[static_cast<std::size_t>(mode)];
        if (!r) {
            r.emplace(t.dim(mode), request.rank);
            mttkrp_reference(t, mode, factors, *r);
        }
        return *r;
    };

    std::vector<BenchResult> results;
    for (FormatKind kind : kinds) {
        // formats built for one mode are rebuilt per mode (the mode at the root: SPLATT-ALL);
        // the others (COO is sorted but serves every mode; MM-CSF, HiCOO, HLS) are built once
        // (a given CSF mode order means one copy for every mode: SPLATT-ONE)
        // SpTV builds every format to contract the mode: always one build per mode
        const bool rebuild = is_sptv || is_spttm || (is_ttmc && kind == FormatKind::CSF) ||
                             (format_is_per_mode(kind) && kind != FormatKind::COO && request.options.mode_order.empty());
        int built_for = -1;
        std::unique_ptr<SparseFormat> format;
        for (int mode : modes) {
            for (Backend backend : request.backends) {
                control.check();
                BenchResult row;
                row.kernel = request.kernel;
                row.format = kind;
                row.backend = backend;
                row.mode = mode;
                row.rank = is_sptv ? 1 : request.rank;
                row.device = device_of(backend);
                if (!supported(backend, kind)) {
                    row.error = std::string(backend_name(backend)) + " has no " + kernel_name(request.kernel) +
                                " kernel for " + format_name(kind);
                    results.push_back(std::move(row));
                    continue;
                }
                try {
                    if (!format || (rebuild && built_for != mode)) {
                        FormatOptions o = is_sptv    ? sptv_options(kind, t.order(), mode)
                                          : is_spttm ? spttm_options(t.order(), mode)
                                          : (is_ttmc && kind == FormatKind::CSF) ? ttmc_options(t.order(), mode)
                                                     : request.options;
                        if (is_ttmc && kind != FormatKind::CSF) o.hls_threshold = request.options.hls_threshold;
                        if (!is_sptv && !is_spttm && !is_ttmc) o.mode = mode;
                        if (is_sptv) o.bcsf_fiber_threshold = request.options.bcsf_fiber_threshold;
                        format = build_format(kind, t, o, control);
                        built_for = mode;
                    }
                    row.build_seconds = format->build_seconds();
                    if (is_ttmc)
                        row.output = DenseMatrix(t.dim(mode), ttmc_columns(factors, mode));
                    else if (!is_sptv)
                        row.output = DenseMatrix(t.dim(mode), request.rank);
                    CooTensor sptv_out;
                    std::unique_ptr<SparseFormat> spttm_out;
                    std::optional<SpttmPlan> plan;  // SpTTM: preprocessing once, as the paper times it
                    if (is_spttm && backend != Backend::CpuRef) plan = SpttmPlan::prepare(*format, mode, request.rank);
                    const auto& v = vectors[static_cast<std::size_t>(mode)];
                    // cpu-ref times the oracle itself, on the tensor's coordinates
                    std::vector<double> kernel_times, transfer_times;
                    DeviceTiming timing;
                    auto run = [&] {
                        if (is_ttmc)
                            backend == Backend::CpuRef ? ttmc_reference(t, mode, factors, row.output)
                                                       : ttmc(backend, *format, mode, factors, row.output, control);
                        else if (is_spttm && plan)
                            plan->compute(factors[static_cast<std::size_t>(mode)], control);
                        else if (is_spttm)
                            spttm_out = spttm_reference(t, mode, factors[static_cast<std::size_t>(mode)]);
                        else if (is_sptv)
                            sptv_out = backend == Backend::CpuRef ? sptv_reference(t, mode, v)
                                                                  : sptv(backend, *format, mode, v, control);
                        else if (backend == Backend::CpuRef)
                            mttkrp_reference(t, mode, factors, row.output);
                        else {
                            mttkrp(backend, *format, mode, factors, row.output, control, &timing);
                            if (backend == Backend::Cuda) {
                                kernel_times.push_back(timing.kernel_s);
                                transfer_times.push_back(timing.upload_s + timing.download_s);
                            }
                        }
                    };
                    run();  // warm-up
                    for (int r = 0; r < request.repeat; ++r) {
                        const auto start = Clock::now();
                        run();
                        row.seconds.push_back(std::chrono::duration<double>(Clock::now() - start).count());
                    }
                    row.median_s = median(row.seconds);
                    if (!kernel_times.empty()) {  // the GPU: kernels and transfers apart (the warm-up excluded)
                        kernel_times.erase(kernel_times.begin());
                        transfer_times.erase(transfer_times.begin());
                        row.seconds = kernel_times;
                        row.median_s = median(kernel_times);
                        row.transfer_s = median(transfer_times);
                    }
                    if (is_ttmc) {
                        const double cols = static_cast<double>(row.output.cols);
                        row.gflops = 2.0 * static_cast<double>(t.nnz()) * cols / row.median_s / 1e9;
                        row.bytes_moved = format->storage().bytes() + row.output.data.size() * sizeof(double);
                        for (int m = 0; m < t.order(); ++m)
                            if (m != mode) row.bytes_moved += t.dim(m) * request.rank * sizeof(double);
                        if (request.check) {
                            DenseMatrix ref(t.dim(mode), row.output.cols);
                            ttmc_reference(t, mode, factors, ref);
                            row.max_rel_error = max_relative_error(row.output, ref);
                        }
                    } else if (is_spttm) {
                        const SparseFormat& out = plan ? plan->result() : *spttm_out;
                        row.gflops = 2.0 * static_cast<double>(t.nnz()) * static_cast<double>(request.rank) / row.median_s / 1e9;
                        // the format, U and the semi-sparse result once
                        row.bytes_moved = format->storage().bytes() + t.dim(mode) * request.rank * sizeof(double) +
                                          out.storage().bytes();
                        if (request.check)
                            row.max_rel_error = semi_sparse_max_relative_error(
                                out, *spttm_reference(t, mode, factors[static_cast<std::size_t>(mode)]));
                    } else if (is_sptv) {
                        row.rank = 1;
                        row.gflops = 2.0 * static_cast<double>(t.nnz()) / row.median_s / 1e9;
                        // the format, the vector, and the result (coordinates and values) once
                        row.bytes_moved = format->storage().bytes() + t.dim(mode) * sizeof(double) + sptv_out.bytes();
                        if (request.check) {
                            auto& ref = sptv_reference_of[static_cast<std::size_t>(mode)];
                            if (!ref) ref = sptv_reference(t, mode, v);
                            row.max_rel_error = sparse_max_relative_error(sptv_out, *ref);
                        }
                    } else {
                        row.gflops = 3.0 * static_cast<double>(t.nnz()) * static_cast<double>(request.rank) / row.median_s / 1e9;
                        row.bytes_moved = mttkrp_bytes(t, format->storage(), request.rank);
                        if (request.check) row.max_rel_error = max_relative_error(row.output, reference_for(mode));
                    }
                    row.gbps = static_cast<double>(row.bytes_moved) / row.median_s / 1e9;
                    row.ran = true;
                } catch (const Cancelled&) {
                    throw;
                } catch (const Error& e) {  // a shape the format refuses, no device, ...
                    row.error = e.what();
                }
                results.push_back(std::move(row));
            }
        }
    }
    return results;
}

}  // namespace tscope
