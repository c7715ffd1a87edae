// The distributed CPD-ALS (tscope/decomp/cpd_distributed.hpp): mm-csf-mttkrp Alg. 1 on every
// rank over its block, with the medium-grained exchanges of Smith & Karypis (IPDPS 2016,
// Alg. 2): after each local MTTKRP the partial rows go to their owners (reduce), the owners
// solve and normalise, the Gram matrix and column norms are summed over all ranks, and the
// updated rows return to the ranks that touch them (expand).
#include "tscope/decomp/cpd_distributed.hpp"

#include <sched.h>
#include <unistd.h>
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <memory>
#ifdef _OPENMP
#include <omp.h>
#endif

#include "cuda/device_scope.hpp"
#include "decomp/cpd_fit.hpp"
#include "decomp/cpd_init.hpp"
#include "decomp/dense_linalg.hpp"
#include "decomp/distributed_block.hpp"
#include "decomp/fit_loop.hpp"
#include "decomp/mpi_comm.hpp"
#include "decomp/row_ownership.hpp"
#include "tscope/checks.hpp"
#include "tscope/cuda/device.hpp"
#include "tscope/io/tsb_format.hpp"
#include "tscope/kernels/kernel_registry.hpp"
#include "tscope/kernels/mttkrp.hpp"
#include "tscope/parallel_errors.hpp"
#include "tscope/tensor/coo_ops.hpp"

namespace tscope {

bool mpi_built() { return true; }

MpiSession::MpiSession(int& argc, char**& argv) {
    // Open MPI's mpirun, MPICH's Hydra and PMIx launchers each set one of these in every rank
    started_alone_ = !std::getenv("OMPI_COMM_WORLD_SIZE") && !std::getenv("PMI_SIZE") && !std::getenv("PMIX_RANK");
    int provided = 0;
    MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);  // OpenMP threads make no MPI calls
    MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
    MPI_Comm_size(MPI_COMM_WORLD, &size_);
    MPI_Comm host;
    MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, rank_, MPI_INFO_NULL, &host);
    MPI_Comm_rank(host, &local_rank_);
    MPI_Comm_free(&host);
}

MpiSession::~MpiSession() { MPI_Finalize(); }

void MpiSession::abort_job(int status) const {
    MPI_Abort(MPI_COMM_WORLD, status);
    std::_Exit(status);  // MPI_Abort does not return; were it to, this rank still ends
}

void agreed_on_all_ranks(const std::function<void()>& work) {
    double unused = 0;
    detail::MpiComm(MPI_COMM_WORLD, &unused).agreed(work);
}

void agreed_on_rank_zero(const std::function<void()>& work) {
    double unused = 0;
    detail::MpiComm(MPI_COMM_WORLD, &unused).agreed_on_root(work);
}

namespace {

using Clock = std::chrono::steady_clock;
double since(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }

// One mode as this rank sees it: the rows its nonzeros touch, who owns what in its layer, and
// the rows it trades with each peer of the layer.
struct ModeLayout {
    MPI_Comm layer = MPI_COMM_NULL;
    std::vector<std::uint64_t> touched;  // global rows, ascending
    detail::RowExchange x;
    std::vector<std::uint64_t> partials_out, partials_in;  // rows per peer (the reduce; the expand is the reverse)
    ModeLayout() = default;
    ModeLayout(const ModeLayout&) = delete;
    ModeLayout& operator=(const ModeLayout&) = delete;
    ~ModeLayout() {
        if (layer != MPI_COMM_NULL) MPI_Comm_free(&layer);
    }
};

// The block's rows of one mode, ascending, and its nonzeros' indices renumbered to positions
// in that list (the local tensor the kernels run on: its factors hold only touched rows).
std::vector<std::uint64_t> compact_mode(CooTensor& t, int m, std::uint64_t begin, std::uint64_t end) {
    std::vector<std::uint64_t> rows;
    t.visit([&](auto itag, auto) {
        using I = typename decltype(itag)::type;
        auto& col = t.indices<I>(m);
        std::vector<std::uint32_t> local(end - begin, 0);  // 1 + position, 0 for untouched
        for (std::uint64_t z = 0; z < t.nnz(); ++z) local[col[z] - begin] = 1;
        for (std::uint64_t i = 0; i < local.size(); ++i)
            if (local[i]) rows.push_back(begin + i), local[i] = static_cast<std::uint32_t>(rows.size());
        for (std::uint64_t z = 0; z < t.nnz(); ++z) col[z] = static_cast<I>(local[col[z] - begin] - 1);
    });
    return rows;
}

// The local tensor: touched rows only (each mode at least one row, so an empty block is a valid shape).
CooTensor local_tensor(const CooTensor& block, const std::vector<std::vector<std::uint64_t>>& touched) {
    std::vector<std::uint64_t> dims;
    for (const auto& rows : touched) dims.push_back(std::max<std::uint64_t>(1, rows.size()));
    CooTensor t(dims, block.index_width(), block.value_type());
    t.resize(block.nnz());
    block.visit([&](auto itag, auto vtag) {
        using I = typename decltype(itag)::type;
        using V = typename decltype(vtag)::type;
        for (int m = 0; m < block.order(); ++m) std::copy(block.indices<I>(m).begin(), block.indices<I>(m).end(), t.indices<I>(m).begin());
        std::copy(block.values<V>().begin(), block.values<V>().end(), t.values<V>().begin());
    });
    return t;
}

DenseMatrix host_gram(const DenseMatrix& a, std::uint64_t rank) {
    if (a.rows == 0) {
        DenseMatrix g(rank, rank);
        g.fill(0.0);
        return g;
    }
    return linalg::gram(a);
}

// The rows `lists` name (one list per peer, in order), packed back to back for the exchange.
std::vector<double> pack_rows(const DenseMatrix& m, const std::vector<std::vector<std::uint64_t>>& lists) {
    std::uint64_t total = 0;
    for (const auto& rows : lists) total += rows.size();
    std::vector<double> out(total * m.cols);
    double* dst = out.data();
    for (const auto& rows : lists) {
        const auto count = static_cast<std::int64_t>(rows.size());
#pragma omp parallel for schedule(static)
        for (std::int64_t j = 0; j < count; ++j)
            std::copy(m.row(rows[static_cast<std::size_t>(j)]), m.row(rows[static_cast<std::size_t>(j)]) + m.cols, dst + static_cast<std::uint64_t>(j) * m.cols);
        dst += rows.size() * m.cols;
    }
    return out;
}

// Each column's sum of squares, the rows split over the threads.
std::vector<double> column_squares(const DenseMatrix& m) {
    std::vector<double> total(m.cols, 0.0);
    ParallelErrors errors;  // a thread's sums not allocated
#pragma omp parallel
    {
        std::vector<double> mine;
        const bool ready = errors.run([&] { mine.assign(m.cols, 0.0); });
        // every thread takes its share of the loop, ready or not
#pragma omp for schedule(static) nowait
        for (std::int64_t i = 0; i < static_cast<std::int64_t>(m.rows); ++i)
            if (ready)
                for (std::uint64_t c = 0; c < m.cols; ++c)
                    mine[c] += m.at(static_cast<std::uint64_t>(i), c) * m.at(static_cast<std::uint64_t>(i), c);
#pragma omp critical
        if (ready)
            for (std::uint64_t c = 0; c < m.cols; ++c) total[c] += mine[c];
    }
    errors.rethrow();
    return total;
}

std::vector<std::uint64_t> as_counts(const std::vector<std::vector<std::uint64_t>>& lists) {
    std::vector<std::uint64_t> counts;
    for (const auto& l : lists) counts.push_back(l.size());
    return counts;
}

int bound_cores() {
    cpu_set_t set;
    CPU_ZERO(&set);
    return sched_getaffinity(0, sizeof set, &set) == 0 ? CPU_COUNT(&set) : 0;
}

// The ranks of the job on this rank's host (a collective: every rank calls it).
int ranks_on_this_host() {
    MPI_Comm host;
    MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &host);
    int n = 1;
    MPI_Comm_size(host, &n);
    MPI_Comm_free(&host);
    return n;
}

int online_cores() {
    const long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n > 0 ? static_cast<int>(n) : 0;
}

int omp_threads() {
#ifdef _OPENMP
    return omp_get_max_threads();
#else
    return 1;
#endif
}

class DistributedCpd {
public:
    DistributedCpd(const std::string& path, const DistributedCpdOptions& options, const IterationCallback& on_iteration)
        : o_(options.cpd), world_(MPI_COMM_WORLD, &report_.comm_s), on_iteration_(on_iteration) {
        check_options(options);
        const auto start = Clock::now();
        LoadOptions load;
        load.keep_stored_values = o_.backend == Backend::Cuda;  // as the single-process CLI loads it
        world_.agreed([&] { check_factors_fit_file(path); });
        detail::DistributedBlock block = detail::distribute_tsb(world_, path, options.grid_text, load);
        // every rank knows the sums: a uniform refusal, in the single process's words
        require_nonzeros(path, block.nnz, block.zeros_dropped, "decompose");
        result_.grid = block.grid, result_.dims = block.tensor.dims(), result_.nnz = block.nnz;
        result_.duplicates_summed = block.duplicates_summed, result_.zeros_dropped = block.zeros_dropped;
        report_.read_s = block.read_s, report_.distribute_s = block.distribute_s;
        report_.nnz = block.tensor.nnz();
        world_.agreed(
            [&] { check_factors_fit(result_.dims, o_.rank, static_cast<long double>(block.tensor.bytes())); });
        norm_x_ = world_.sum(squared_norm(block.tensor));  // the same sum on every rank, so all refuse alike
        check_values_decomposable(norm_x_, result_.nnz, "CPD");
        if (o_.backend == Backend::Cuda) world_.agreed([&] { check_values_fit_gpu(block.tensor); });  // fp32 there
        lay_out_modes(block);
        const auto built = Clock::now();
        world_.agreed([&] { build_kernels(block); });
        report_.build_s = since(built);
        start_factors();
        result_.setup_seconds = since(start);
        start_ = start;
    }

    // The factors' room, from the file's header, before any rank reads its part: a mode of 1e12
    // ended in "std::bad_alloc" while the parts were counted, where the single process refuses
    // in words (sweep 66a F6). A file that is no .tsb is left for distribute_tsb to name.
    void check_factors_fit_file(const std::string& path) const {
        TsbHeader header;
        try {
            header = read_tsb_header(path);
        } catch (const Error&) {
            return;
        }
        check_factors_fit(header.dims, o_.rank, 0);
    }

    DistributedCpdResult run(bool gather) {
        CpdResult& r = result_.cpd;
        report_.comm_s = 0;  // the setup's collectives are in its read and distribute times
        const IterationCallback report = rank0_callback();  // FitLoop keeps a reference to it
        detail::FitLoop loop(start_, o_.max_iters, o_.tolerance, report, no_control());
        for (int it = 1; it <= o_.max_iters; ++it) {
            const auto t0 = Clock::now();
            IterationReport parts;
            parts.mttkrp_seconds = parts.dense_seconds = 0;
            for (int n = 0; n < order(); ++n) update_mode(n, parts);
            const auto t2 = Clock::now();
            const double inner = world_.sum(last_inner_);
            r.fit = detail::fit_from(norm_x_, norm_x_ + detail::model_norm_squared(grams_, r.lambda) - 2 * inner);
            parts.fit_seconds = since(t2);
            if (loop.converged(it, t0, r.fit, r.iterations, parts)) {
                r.converged = true;
                break;
            }
        }
        if (gather) gather_factors();
        gather_reports();
        result_.ranks = world_.size();
        r.setup_seconds = result_.setup_seconds;
        r.build_seconds = report_.build_s;
        return std::move(result_);
    }

private:
    int order() const { return static_cast<int>(result_.dims.size()); }
    std::size_t um(int m) const { return static_cast<std::size_t>(m); }

    void check_options(const DistributedCpdOptions& options) const {
        world_.agreed([&] {
            if (o_.rank == 0 || o_.max_iters < 1) throw InputError("CPD needs a rank and at least one iteration");
            if (o_.restarts != 1) throw InputError("--restarts does not apply to --distributed yet: run one start");
            if (o_.init != CpdInit::Random)
                throw InputError("--distributed starts from random factors: nvecs needs every nonzero of a mode in one process");
            if (o_.backend == Backend::CpuRef) throw InputError("--distributed runs on omp or cuda");
            if (!kernel_supports(KernelKind::MTTKRP, o_.backend, o_.format))
                throw InputError(std::string("MTTKRP has no ") + backend_name(o_.backend) + " kernel for " + format_name(o_.format));
            if (o_.backend == Backend::Cuda && !query_gpu().available)
                throw Error("--backend cuda: " + query_gpu().reason);
            detail::mpi_message_bytes();  // a bad TENSORSCOPE_MPI_MESSAGE_BYTES is refused here, on every rank
            (void)options;
        });
    }

    IterationCallback rank0_callback() const {
        if (world_.rank() != 0 || !on_iteration_) return {};
        return on_iteration_;
    }

    // Touched rows, layer communicators, owners and exchange lists, mode by mode.
    void lay_out_modes(detail::DistributedBlock& block) {
        for (int m = 0; m < order(); ++m) {
            auto mode = std::make_unique<ModeLayout>();
            const int layer = block.coords[um(m)];
            const std::uint64_t begin = block.cuts[um(m)][static_cast<std::size_t>(layer)];
            const std::uint64_t end = block.cuts[um(m)][static_cast<std::size_t>(layer) + 1];
            mode->touched = compact_mode(block.tensor, m, begin, end);
            MPI_Comm_split(MPI_COMM_WORLD, layer, world_.rank(), &mode->layer);
            const detail::MpiComm comm(mode->layer, &report_.comm_s);
            const auto touched = comm.all_gather(mode->touched);
            const std::vector<int> owners = detail::assign_row_owners(begin, end, touched);
            mode->x = detail::plan_row_exchange(comm.rank(), begin, owners, touched);
            mode->partials_out = as_counts(mode->x.send);
            mode->partials_in = as_counts(mode->x.receive);
            report_.rows_sent += mode->x.rows_sent();
            report_.rows_received += mode->x.rows_received();
            report_.rows_touched += mode->touched.size();
            report_.rows_owned += mode->x.owned.size();
            modes_.push_back(std::move(mode));
        }
    }

    void build_kernels(const detail::DistributedBlock& block) {
        std::vector<std::vector<std::uint64_t>> touched;
        for (const auto& mode : modes_) touched.push_back(mode->touched);
        local_ = local_tensor(block.tensor, touched);
        if (o_.backend == Backend::Cuda) {
            report_.gpu = gpu_for_rank();
            gpu::engine_device() = report_.gpu;
        }
        if (local_.nnz() == 0) return;  // an empty block: its partial rows are all zero
        for (int m = 0; m < (format_is_per_mode(o_.format) ? order() : 1); ++m) {
            FormatOptions fo;
            fo.mode = m;
            formats_.push_back(build_format(o_.format, local_, fo));
        }
        for (const auto& f : formats_) plans_.emplace_back(o_.backend, *f, o_.rank);
    }

    // One GPU per rank of a host, round robin where ranks outnumber GPUs.
    int gpu_for_rank() const {
        int local = 0;
        MPI_Comm host;
        MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, world_.rank(), MPI_INFO_NULL, &host);
        MPI_Comm_rank(host, &local);
        MPI_Comm_free(&host);
        return local % std::max(1, query_gpu().count);
    }

    // The single process's random start (every rank draws each whole matrix, keeps its rows).
    void start_factors() {
        CpdResult& r = result_.cpd;
        r.lambda.assign(o_.rank, 1.0);
        for (int m = 0; m < order(); ++m) {
            const DenseMatrix full = detail::random_initial_factor(result_.dims[um(m)], o_.rank, o_.seed, m);
            grams_.push_back(linalg::gram(full));
            const auto& rows = modes_[um(m)]->touched;
            DenseMatrix mine(local_.dim(m), o_.rank);
            mine.fill(0.0);
            for (std::size_t i = 0; i < rows.size(); ++i) std::copy(full.row(rows[i]), full.row(rows[i]) + o_.rank, mine.row(i));
            factors_.push_back(std::move(mine));
        }
        owned_.resize(static_cast<std::size_t>(order()));
    }

    void update_mode(int n, IterationReport& parts) {
        ModeLayout& mode = *modes_[um(n)];
        const detail::MpiComm layer(mode.layer, &report_.comm_s);
        const std::uint64_t R = o_.rank;
        auto t = Clock::now();
        DenseMatrix m_local(local_.dim(n), R);
        m_local.fill(0.0);
        world_.agreed([&] {
            if (!plans_.empty()) plans_[plans_.size() == 1 ? 0 : um(n)].compute(n, factors_, m_local);
        });
        const double mttkrp = since(t);
        parts.mttkrp_seconds += mttkrp;
        report_.compute_s += mttkrp;

        // reduce: partial rows to their owners
        const detail::RowExchange& x = mode.x;
        const std::vector<double> in = layer.exchange_rows(pack_rows(m_local, x.send), mode.partials_out, mode.partials_in, R);

        t = Clock::now();
        DenseMatrix own(x.owned.size(), R);
        own.fill(0.0);
        const auto owned = static_cast<std::int64_t>(x.owned.size());
#pragma omp parallel for schedule(static)
        for (std::int64_t k = 0; k < owned; ++k) {
            const std::int64_t from = x.owned_local[static_cast<std::size_t>(k)];
            if (from >= 0) std::copy(m_local.row(static_cast<std::uint64_t>(from)), m_local.row(static_cast<std::uint64_t>(from)) + R,
                                     own.row(static_cast<std::uint64_t>(k)));
        }
        // a peer's partial rows are distinct, so each peer's block is added on every thread
        const double* src = in.data();
        for (const auto& rows : x.receive) {
            const auto count = static_cast<std::int64_t>(rows.size());
#pragma omp parallel for schedule(static)
            for (std::int64_t j = 0; j < count; ++j) {
                double* dst = own.row(rows[static_cast<std::size_t>(j)]);
                const double* from = src + static_cast<std::uint64_t>(j) * R;
                for (std::uint64_t c = 0; c < R; ++c) dst[c] += from[c];
            }
            src += rows.size() * R;
        }
        DenseMatrix m_own = n == order() - 1 ? own : DenseMatrix();
        // solve: every rank holds the same V, so every rank takes the same path (Cholesky or not)
        const DenseMatrix v = detail::hadamard_of_others(grams_, n);
        bool exact = true;
        world_.agreed([&] {
            DenseMatrix probe(1, R);
            probe.fill(0.0);
            exact = own.rows ? linalg::solve_spd_right(own, v) : linalg::solve_spd_right(probe, v);
        });
        if (!exact) ++result_.cpd.pseudo_inverse_solves;
        std::vector<double> norms = column_squares(own);
        double dense = since(t);
        world_.sum(norms.data(), static_cast<int>(R));
        t = Clock::now();
        for (double& s : norms) s = std::sqrt(s);
        const auto own_rows = static_cast<std::int64_t>(own.rows);
#pragma omp parallel for schedule(static)
        for (std::int64_t i = 0; i < own_rows; ++i)
            for (std::uint64_t c = 0; c < R; ++c)
                if (norms[c] > 0) own.at(static_cast<std::uint64_t>(i), c) /= norms[c];
        result_.cpd.lambda = norms;
        DenseMatrix g = host_gram(own, R);
        dense += since(t);
        world_.sum(g.data.data(), static_cast<int>(R * R));
        grams_[um(n)] = std::move(g);

        // expand: the owners' updated rows back to the ranks that touch them
        const std::vector<double> back = layer.exchange_rows(pack_rows(own, x.receive), mode.partials_in, mode.partials_out, R);
        t = Clock::now();
        DenseMatrix& a = factors_[um(n)];
#pragma omp parallel for schedule(static)
        for (std::int64_t k = 0; k < owned; ++k) {
            const std::int64_t to = x.owned_local[static_cast<std::size_t>(k)];
            if (to >= 0) std::copy(own.row(static_cast<std::uint64_t>(k)), own.row(static_cast<std::uint64_t>(k)) + R, a.row(static_cast<std::uint64_t>(to)));
        }
        src = back.data();
        for (const auto& rows : x.send) {
            const auto count = static_cast<std::int64_t>(rows.size());
#pragma omp parallel for schedule(static)
            for (std::int64_t j = 0; j < count; ++j)
                std::copy(src + static_cast<std::uint64_t>(j) * R, src + static_cast<std::uint64_t>(j + 1) * R, a.row(rows[static_cast<std::size_t>(j)]));
            src += rows.size() * R;
        }
        if (n == order() - 1) {  // <X, X^> from the last mode's MTTKRP (cpd_als.cpp's fit)
            double sum = 0;
#pragma omp parallel for schedule(static) reduction(+ : sum)
            for (std::int64_t i = 0; i < own_rows; ++i)
                for (std::uint64_t c = 0; c < R; ++c)
                    sum += m_own.at(static_cast<std::uint64_t>(i), c) * own.at(static_cast<std::uint64_t>(i), c) * norms[c];
            last_inner_ = sum;
        }
        dense += since(t);
        parts.dense_seconds += dense;
        report_.compute_s += dense;
        owned_[um(n)] = std::move(own);
    }

    // Rank 0 receives every mode's owned rows and places them by their global row.
    void gather_factors() {
        CpdResult& r = result_.cpd;
        const std::uint64_t R = o_.rank;
        for (int m = 0; m < order(); ++m) {
            const ModeLayout& mode = *modes_[um(m)];
            const DenseMatrix& own = owned_[um(m)];
            // 64-bit sizes: a mode may have 2^31 rows or more (sweep 71a F2); the time is the
            // output's, not the iterations' communication
            double untimed = 0;
            const detail::MpiComm world(MPI_COMM_WORLD, &untimed);
            const std::vector<std::vector<std::uint64_t>> rows = world.gather(mode.x.owned);
            const std::vector<double> all = world.gather(own.data.data(), own.data.size());
            if (world_.rank() != 0) continue;
            DenseMatrix f(result_.dims[um(m)], R);
            f.fill(0.0);
            std::size_t k = 0;
            for (const auto& list : rows)
                for (std::uint64_t row : list) std::copy(all.data() + k * R, all.data() + (k + 1) * R, f.row(row)), ++k;
            r.factors.push_back(std::move(f));
        }
    }

    void gather_reports() {
        constexpr int kFields = 15;
        const double mine[kFields] = {static_cast<double>(report_.nnz),
                                      static_cast<double>(report_.rows_sent),
                                      static_cast<double>(report_.rows_received),
                                      static_cast<double>(report_.rows_touched),
                                      static_cast<double>(report_.rows_owned),
                                      static_cast<double>(report_.gpu),
                                      report_.read_s,
                                      report_.distribute_s,
                                      report_.build_s,
                                      report_.compute_s,
                                      report_.comm_s,
                                      static_cast<double>(bound_cores()),
                                      static_cast<double>(omp_threads()),
                                      static_cast<double>(ranks_on_this_host()),
                                      static_cast<double>(online_cores())};
        std::vector<double> all(static_cast<std::size_t>(kFields * world_.size()));
        MPI_Gather(mine, kFields, MPI_DOUBLE, all.data(), kFields, MPI_DOUBLE, 0, MPI_COMM_WORLD);
        if (world_.rank() != 0) return;
        for (int q = 0; q < world_.size(); ++q) {
            const double* f = all.data() + static_cast<std::size_t>(q) * kFields;
            RankReport rr;
            rr.nnz = static_cast<std::uint64_t>(f[0]), rr.rows_sent = static_cast<std::uint64_t>(f[1]);
            rr.rows_received = static_cast<std::uint64_t>(f[2]), rr.rows_touched = static_cast<std::uint64_t>(f[3]);
            rr.rows_owned = static_cast<std::uint64_t>(f[4]), rr.gpu = static_cast<int>(f[5]);
            rr.read_s = f[6], rr.distribute_s = f[7], rr.build_s = f[8], rr.compute_s = f[9], rr.comm_s = f[10];
            rr.cores = static_cast<int>(f[11]), rr.threads = static_cast<int>(f[12]);
            rr.host_ranks = static_cast<int>(f[13]), rr.host_cores = static_cast<int>(f[14]);
            result_.per_rank.push_back(rr);
        }
    }

    CpdOptions o_;
    RankReport report_;
    detail::MpiComm world_;
    IterationCallback on_iteration_;
    DistributedCpdResult result_;
    std::vector<std::unique_ptr<ModeLayout>> modes_;
    CooTensor local_;
    std::vector<std::unique_ptr<SparseFormat>> formats_;
    std::vector<MttkrpPlan> plans_;
    std::vector<DenseMatrix> factors_, grams_;
    double norm_x_ = 0, last_inner_ = 0;
    std::vector<DenseMatrix> owned_;  // each mode's owned rows, as last updated
    Clock::time_point start_;
};

}  // namespace

DistributedCpdResult cpd_als_distributed(const std::string& path, const DistributedCpdOptions& options,
                                         const IterationCallback& on_iteration) {
    DistributedCpd run(path, options, on_iteration);
    return run.run(options.gather_factors);
}

}  // namespace tscope
