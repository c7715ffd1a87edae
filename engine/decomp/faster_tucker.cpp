// FasterTucker (cufastertucker Alg. 2-5) on the CPU. Each mode n has a B-CSF tree whose leaves
// are mode n (its modes cycled: n+1, ..., n-1, n, as the paper's (n + d) % N). A worker takes a
// slice; going down the tree it multiplies the reusable intermediates C(m) = A(m) B(m) of the
// modes on its path (Alg. 4 lines 21-27), so that at a fiber it holds
// P(r) = prod_{m != n} c(m)_{i_m, r}; the shared intermediate w = B(n) P (Alg. 4 lines 14-24)
// then serves every nonzero of the fiber. Factor rows are updated in place while other workers
// read them (Hogwild, as on the GPU); the reads and writes are relaxed atomics, so the race is
// the algorithm's and not undefined behaviour.
#include "tscope/decomp/faster_tucker.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>

#include "../tensor/random.hpp"
#include "cuda/gpu_faster_tucker.hpp"
#include "faster_tucker_rows.hpp"
#include "kernels/csf_flatten.hpp"
#include "tscope/checks.hpp"
#include "tscope/cuda/device.hpp"
#include "tscope/error.hpp"
#include "tscope/formats/format_visit.hpp"
#include "tscope/parallel_errors.hpp"
#include "tscope/tensor/coo_ops.hpp"

#ifdef _OPENMP
#include <omp.h>
#endif

namespace tscope {

namespace {

using Clock = std::chrono::steady_clock;
double since(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }

int thread_count() {
#ifdef _OPENMP
    return omp_get_max_threads();
#else
    return 1;
#endif
}
int thread_id() {
#ifdef _OPENMP
    return omp_get_thread_num();
#else
    return 0;
#endif
}

double load(const double& x) { return std::atomic_ref<const double>(x).load(std::memory_order_relaxed); }
void store(double& x, double v) { std::atomic_ref<double>(x).store(v, std::memory_order_relaxed); }

// A factor row's SGD step (Eq. 9-10) written with explicit fma, so that the compiler's own
// contraction choices (FMA hardware, x86-64-v3) cannot make the two schedules' bits differ.
// Eq. 10's descent, a += lr (e w - reg a) with e = x - x̂: Alg. 4 lines 12-13 print the step
// as a -= lr (e G{a} w + reg a), a sign (and a stray factor) that would climb the error.
double dot_step(double acc, double a, double w) { return std::fma(a, w, acc); }
double sgd_step(double aj, double e, double wj, const FasterTuckerOptions& o) {
    return std::fma(o.lr_a, std::fma(e, wj, -(o.reg_a * aj)), aj);
}

struct Model {
    std::vector<DenseMatrix> a, b, c;  // A(n), B(n), C(n) = A(n) B(n)
    std::uint64_t R = 0;

    void refresh(int n) {  // Alg. 3 for one mode
        const DenseMatrix& an = a[static_cast<std::size_t>(n)];
        const DenseMatrix& bn = b[static_cast<std::size_t>(n)];
        DenseMatrix& cn = c[static_cast<std::size_t>(n)];
#pragma omp parallel for schedule(static)
        for (std::uint64_t i = 0; i < an.rows; ++i)
            for (std::uint64_t r = 0; r < R; ++r) {
                double s = 0;
                for (std::uint64_t j = 0; j < an.cols; ++j) s += an.at(i, j) * bn.at(j, r);
                cn.at(i, r) = s;
            }
    }
    double predict(const CooTensor& t, std::uint64_t z) const {
        double sum = 0;
        for (std::uint64_t r = 0; r < R; ++r) {
            double p = 1;
            for (int m = 0; m < t.order(); ++m) p *= c[static_cast<std::size_t>(m)].at(t.index(m, z), r);
            sum += p;
        }
        return sum;
    }
};

// The sweep of one mode over its B-CSF tree: `leaf` gets (w, i_n, x) for each nonzero of a
// fiber, then `fiber_end` gets the fiber's node number, its P and its w. Once a cancel is asked
// the remaining slices are passed over (the caller's check then ends the run): a cancel had
// waited for the epoch's end, 7-10 s at rank 128 on 2M nonzeros (sweep 65b).
template <class I, class V, class Leaf, class FiberEnd>
void sweep_fibers(const CsfFormat<I, V>& csf, const Model& model, const DenseMatrix& bn, const RunControl& control,
                  Leaf&& leaf, FiberEnd&& fiber_end) {
    const int levels = static_cast<int>(csf.fids.size());
    const std::uint64_t R = model.R, J = bn.rows;
    const std::uint64_t slices = csf.nodes(0);
    ParallelErrors errors;  // a thread's buffers not allocated
#pragma omp parallel
    {
        std::vector<double> prefix, w;
        errors.run([&] { prefix.resize(static_cast<std::size_t>(levels) * R), w.resize(J); });
        // descend from node `node` at level l (l <= levels - 2), prefix of level l-1 in `above`
        auto visit = [&](auto&& self, int l, std::uint64_t node, const double* above) -> void {
            double* p = prefix.data() + static_cast<std::size_t>(l) * R;
            const double* c = model.c[static_cast<std::size_t>(csf.order[static_cast<std::size_t>(l)])].row(csf.fids[static_cast<std::size_t>(l)][node]);
            for (std::uint64_t r = 0; r < R; ++r) p[r] = above ? above[r] * c[r] : c[r];
            const auto& ptr = csf.fptr[static_cast<std::size_t>(l)];
            if (l == levels - 2) {  // a fiber: the shared intermediate w = B(n) P, then its nonzeros
                for (std::uint64_t j = 0; j < J; ++j) {
                    double s = 0;
                    for (std::uint64_t r = 0; r < R; ++r) s += bn.at(j, r) * p[r];
                    w[j] = s;
                }
                for (std::uint64_t e = ptr[node]; e < ptr[node + 1]; ++e)
                    leaf(w.data(), static_cast<std::uint64_t>(csf.fids.back()[e]), static_cast<double>(csf.vals[e]));
                fiber_end(node, static_cast<const double*>(p), static_cast<const double*>(w.data()));
                return;
            }
            for (std::uint64_t ch = ptr[node]; ch < ptr[node + 1]; ++ch) self(self, l + 1, ch, p);
        };
#pragma omp for schedule(dynamic, 4)
        for (std::uint64_t s = 0; s < slices; ++s)
            if (!errors.failed() && !control.cancelled()) visit(visit, 0, s, nullptr);
    }
    errors.rethrow();
}

// One mode's factor update (Alg. 4): a_{i_n} += lr (e w - reg a_{i_n}) per nonzero.
template <class I, class V>
void update_factor(const CsfFormat<I, V>& csf, Model& model, int n, const FasterTuckerOptions& o,
                   const RunControl& control) {
    if (csf.order.back() != n) throw Error("FasterTucker's tree for mode " + std::to_string(n + 1) + " has another mode at its leaves");
    DenseMatrix& an = model.a[static_cast<std::size_t>(n)];
    const std::uint64_t J = an.cols;
    sweep_fibers(
        csf, model, model.b[static_cast<std::size_t>(n)], control,
        [&](const double* w, std::uint64_t i, double x) {
            double* a = an.row(i);
            double pred = 0;
            for (std::uint64_t j = 0; j < J; ++j) pred = dot_step(pred, load(a[j]), w[j]);
            const double e = x - pred;
            for (std::uint64_t j = 0; j < J; ++j) store(a[j], sgd_step(load(a[j]), e, w[j], o));
        },
        [](std::uint64_t, const double*, const double*) {});
}

// The same update in the ordered schedule (faster_tucker_rows.hpp): every fiber's w first, then
// one worker per factor row, its nonzeros in tree order. Equals update_factor on one thread.
// w_all (fibers x J) is the caller's, kept across modes and epochs: it can be gigabytes.
template <class I, class V>
void update_factor_ordered(const CsfFormat<I, V>& csf, const ft_rows::RowOrder& rows, Model& model, int n,
                           const FasterTuckerOptions& o, std::vector<double>& w_all, const RunControl& control) {
    DenseMatrix& an = model.a[static_cast<std::size_t>(n)];
    const std::uint64_t J = an.cols;
    w_all.resize(std::max<std::size_t>(w_all.size(), csf.nodes(static_cast<int>(csf.fids.size()) - 2) * J));
    sweep_fibers(
        csf, model, model.b[static_cast<std::size_t>(n)], control, [](const double*, std::uint64_t, double) {},
        [&](std::uint64_t f, const double*, const double* w) { std::copy(w, w + J, w_all.data() + f * J); });
#pragma omp parallel for schedule(dynamic, 16)
    for (std::uint64_t i = 0; i < an.rows; ++i) {
        double* a = an.row(i);
        for (std::uint64_t k = rows.row_ptr[i]; k < rows.row_ptr[i + 1]; ++k) {
            const double* w = w_all.data() + static_cast<std::uint64_t>(rows.fiber[k]) * J;
            double pred = 0;
            for (std::uint64_t j = 0; j < J; ++j) pred = dot_step(pred, a[j], w[j]);
            const double e = static_cast<double>(csf.vals[rows.pos[k]]) - pred;
            for (std::uint64_t j = 0; j < J; ++j) a[j] = sgd_step(a[j], e, w[j], o);
        }
    }
}

// One mode's core update (Alg. 5): the gradient of B(n) summed over the training set, then
// one step B(n) -= lr (grad / |Omega| + reg B(n)). The gradient is Eq. 11's, -e a (s q_r);
// Alg. 5 line 16 prints it without the minus sign.
template <class I, class V>
void update_core(const CsfFormat<I, V>& csf, Model& model, int n, const FasterTuckerOptions& o, std::uint64_t train_nnz,
                 const RunControl& control) {
    DenseMatrix& bn = model.b[static_cast<std::size_t>(n)];
    const DenseMatrix& an = model.a[static_cast<std::size_t>(n)];
    const std::uint64_t J = bn.rows, R = bn.cols;
    std::vector<DenseMatrix> grads(static_cast<std::size_t>(thread_count()), DenseMatrix(J, R));
    for (DenseMatrix& g : grads) g.fill(0.0);
    // P is the fiber's: its nonzeros sum -e a_{i_n} first, and the J x R outer product with P
    // is added once per fiber (Alg. 5 line 16, regrouped)
    std::vector<std::vector<double>> sums(static_cast<std::size_t>(thread_count()), std::vector<double>(J, 0.0));
    sweep_fibers(
        csf, model, bn, control,
        [&](const double* w, std::uint64_t i, double x) {
            const double* a = an.row(i);
            double pred = 0;
            for (std::uint64_t j = 0; j < J; ++j) pred += a[j] * w[j];
            const double e = x - pred;
            std::vector<double>& s = sums[static_cast<std::size_t>(thread_id())];
            for (std::uint64_t j = 0; j < J; ++j) s[j] -= e * a[j];
        },
        [&](std::uint64_t, const double* p, const double*) {
            std::vector<double>& s = sums[static_cast<std::size_t>(thread_id())];
            DenseMatrix& g = grads[static_cast<std::size_t>(thread_id())];
            for (std::uint64_t j = 0; j < J; ++j) {
                double* gj = g.row(j);
                for (std::uint64_t r = 0; r < R; ++r) gj[r] += s[j] * p[r];
                s[j] = 0;
            }
        });
    for (std::uint64_t j = 0; j < J; ++j)
        for (std::uint64_t r = 0; r < R; ++r) {
            double g = 0;
            for (const DenseMatrix& gt : grads) g += gt.at(j, r);
            bn.at(j, r) -= o.lr_b * (g / static_cast<double>(train_nnz) + o.reg_b * bn.at(j, r));
        }
}

struct Errors {
    double rmse = 0, mae = 0;
};

// Summed in blocks of a fixed size, then the blocks in order: the same bits with any number of
// threads (an OpenMP reduction's order follows the threads, and the errors of one run differed
// in their last bits between --threads 1 and 2, sweep 70b B11).
Errors errors(const CooTensor& t, const Model& model) {
    if (t.nnz() == 0) return {NAN, NAN};
    constexpr std::uint64_t kBlock = 4096;
    const std::uint64_t blocks = (t.nnz() + kBlock - 1) / kBlock;
    std::vector<double> se(blocks, 0.0), ae(blocks, 0.0);
#pragma omp parallel for schedule(static)
    for (std::int64_t b = 0; b < static_cast<std::int64_t>(blocks); ++b) {
        const auto k = static_cast<std::uint64_t>(b);
        double s = 0, a = 0;
        for (std::uint64_t z = k * kBlock; z < std::min(t.nnz(), (k + 1) * kBlock); ++z) {
            const double e = t.value(z) - model.predict(t, z);
            s += e * e;
            a += std::fabs(e);
        }
        se[k] = s, ae[k] = a;
    }
    double s = 0, a = 0;
    for (std::uint64_t k = 0; k < blocks; ++k) s += se[k], a += ae[k];
    return {std::sqrt(s / static_cast<double>(t.nnz())), a / static_cast<double>(t.nnz())};
}

// Seeded split of the nonzeros: each one goes to the test set with probability `fraction`.
void split(const CooTensor& t, double fraction, std::uint64_t seed, CooTensor& train, CooTensor& test) {
    std::vector<std::uint8_t> is_test(t.nnz());
    detail::Rng rng(seed * 0x2545f4914f6cdd1dULL + 7);
    std::uint64_t tests = 0;
    for (std::uint64_t z = 0; z < t.nnz(); ++z) tests += is_test[z] = rng.uniform() < fraction;
    train = CooTensor(t.dims());
    test = CooTensor(t.dims());
    train.resize(t.nnz() - tests);
    test.resize(tests);
    std::vector<std::uint64_t> coord(static_cast<std::size_t>(t.order()));
    std::uint64_t a = 0, b = 0;
    for (std::uint64_t z = 0; z < t.nnz(); ++z) {
        for (int m = 0; m < t.order(); ++m) coord[static_cast<std::size_t>(m)] = t.index(m, z);
        if (is_test[z]) test.set(b++, coord, t.value(z));
        else train.set(a++, coord, t.value(z));
    }
}

// Divergence, in words. SGD's steps grow with the values too: values of 1e20 diverged at
// once whatever rates the message asked to lower (sweep 65), so values far from 1 are named.
[[noreturn]] void diverged(int epoch, const CooTensor& train) {
    const double largest = train.visit([&]<class I, class V>(TypeTag<I>, TypeTag<V>) {
        double m = 0;
        for (const V v : train.values<V>()) m = std::max(m, std::fabs(static_cast<double>(v)));
        return m;
    });
    std::string why =
        "FasterTucker diverged at epoch " + std::to_string(epoch) + ": lower the learning rates (--lr-a, --lr-b)";
    if (largest > 1e3) {
        char value[32];
        std::snprintf(value, sizeof value, "%.3g", largest);
        why += std::string(", or scale the values nearer 1 (the largest is ") + value + ")";
    }
    throw Error(why);
}

template <class Fn>
void with_tree(const SparseFormat& f, Fn&& fn) {
    visit_format(f, overloaded{[&]<class I>(const BcsfFormat<I, double>& b) { fn(b.csf); },
                               [](const SparseFormat&) { throw Error("FasterTucker expected a B-CSF tree of doubles"); }});
}

// The cuda backend: the same trees, split and start, on the device (fp32); errors are summed
// there too. Reports go out as on the CPU.
void run_on_gpu(const std::vector<std::unique_ptr<SparseFormat>>& trees, const std::vector<ft_rows::RowOrder>& rows,
                const CooTensor& train, const CooTensor& test, Model& model, const FasterTuckerOptions& o, FasterTuckerResult& res, const IterationCallback& on_iteration, RunControl& control,
                Clock::time_point start) {
    require_gpu();
    for (auto d : train.dims())
        if (d >= (1ull << 32)) throw InputError("FasterTucker on the GPU needs every mode shorter than 2^32");
    std::vector<csf_flat::FlatTree> flat;
    std::vector<std::vector<int>> orders;
    for (const auto& f : trees)
        with_tree(*f, [&](const auto& csf) {
            flat.push_back(csf_flat::flatten(csf));
            orders.push_back(csf.order);
        });
    std::vector<gpu::Fibers> views;
    for (std::size_t n = 0; n < flat.size(); ++n) views.push_back(flat[n].view(orders[n]));
    const csf_flat::FlatCoo tr = csf_flat::flatten(train), te = csf_flat::flatten(test);
    std::vector<std::vector<float>> a, b;
    std::vector<const float*> ap, bp;
    std::vector<std::uint64_t> js;
    for (std::size_t n = 0; n < model.a.size(); ++n) {
        a.emplace_back(model.a[n].data.begin(), model.a[n].data.end());
        b.emplace_back(model.b[n].data.begin(), model.b[n].data.end());
        ap.push_back(a.back().data()), bp.push_back(b.back().data());
        js.push_back(model.a[n].cols);
    }
    std::vector<std::vector<float>> row_vals(rows.size());  // the ordered schedule's values, in row order
    std::vector<gpu::RowEntries> row_views;
    for (std::size_t n = 0; n < rows.size(); ++n) {
        const ft_rows::RowOrder& r = rows[n];
        row_vals[n].resize(r.pos.size());
        for (std::size_t k = 0; k < r.pos.size(); ++k) row_vals[n][k] = flat[n].vals[r.pos[k]];
        gpu::RowEntries v;
        v.rows = r.row_ptr.size() - 1, v.nnz = r.pos.size();
        v.row_ptr = r.row_ptr.data(), v.fiber = r.fiber.data(), v.vals = row_vals[n].data();
        row_views.push_back(v);
    }
    gpu::FasterTuckerDevice dev(train.dims(), js, model.R, views, row_views, tr.view(), te.view(), ap, bp);
    res.setup_seconds = since(start);
    const double n_train = static_cast<double>(train.nnz()), n_test = static_cast<double>(test.nnz());
    for (int epoch = 1; epoch <= o.epochs; ++epoch) {
        control.check();
        const auto t0 = Clock::now();
        dev.epoch(static_cast<float>(o.lr_a), static_cast<float>(o.lr_b), static_cast<float>(o.reg_a), static_cast<float>(o.reg_b));
        const gpu::FtErrors e = dev.errors();
        IterationReport rep;
        rep.iter = epoch;
        rep.iter_seconds = since(t0);
        rep.train_rmse = std::sqrt(e.train_se / n_train), rep.train_mae = e.train_ae / n_train;
        rep.test_rmse = n_test > 0 ? std::sqrt(e.test_se / n_test) : NAN;
        rep.test_mae = n_test > 0 ? e.test_ae / n_test : NAN;
        rep.seconds = since(start);
        if (!std::isfinite(rep.train_rmse)) diverged(epoch, train);
        res.iterations.push_back(rep);
        if (on_iteration) on_iteration(rep);
        control.progress(static_cast<std::uint64_t>(epoch), static_cast<std::uint64_t>(o.epochs));
    }
    std::vector<float*> aw, bw;
    for (std::size_t n = 0; n < a.size(); ++n) aw.push_back(a[n].data()), bw.push_back(b[n].data());
    dev.download(aw, bw);
    for (std::size_t n = 0; n < a.size(); ++n) {
        for (std::uint64_t i = 0; i < a[n].size(); ++i) model.a[n].data[i] = a[n][i];
        for (std::uint64_t i = 0; i < b[n].size(); ++i) model.b[n].data[i] = b[n][i];
    }
}

}  // namespace

const char* ft_schedule_name(FtSchedule s) { return s == FtSchedule::Ordered ? "ordered" : "hogwild"; }

FtSchedule parse_ft_schedule(const std::string& name) {
    if (name == "hogwild") return FtSchedule::Hogwild;
    if (name == "ordered") return FtSchedule::Ordered;
    throw InputError("unknown FasterTucker schedule '" + name + "' (expected hogwild or ordered)");
}

FasterTuckerResult faster_tucker(const CooTensor& t, const FasterTuckerOptions& o, const IterationCallback& on_iteration,
                                 RunControl& control) {
    const int order = t.order();
    if (order < 3) throw InputError("FasterTucker needs a tensor of order 3 or more");
    if (o.backend == Backend::CpuRef) throw InputError("FasterTucker runs on the omp or cuda backend");
    if (o.j_ranks.empty() || (o.j_ranks.size() != 1 && o.j_ranks.size() != static_cast<std::size_t>(order)))
        throw InputError("FasterTucker needs one J, or one per mode");
    if (o.r_rank == 0 || o.epochs < 1) throw InputError("FasterTucker needs R >= 1 and at least one epoch");
    if (!(o.test_fraction >= 0 && o.test_fraction < 1)) throw InputError("the test fraction must be in [0, 1)");
    // SGD on values near 1e308 overflows at once: say so, not "lower the learning rates"
    check_values_decomposable(squared_norm(t), t.nnz(), "FasterTucker");
    if (o.backend == Backend::Cuda) check_values_fit_gpu(t);  // its SGD is fp32
    for (int n = 0; n < order; ++n) {  // A(n) (I_n x J_n) and B(n) (J_n x R), before any allocation
        const std::uint64_t J = o.j_ranks[o.j_ranks.size() == 1 ? 0 : static_cast<std::size_t>(n)];
        check_dense_fits(t.dim(n), J,
                         "mode " + std::to_string(n + 1) + "'s factor A(" + std::to_string(n + 1) + ") of " +
                             std::to_string(J) + " columns over its " + std::to_string(t.dim(n)) + " indices");
        check_dense_fits(J, o.r_rank,
                         "the core matrix B(" + std::to_string(n + 1) + ") of " + std::to_string(J) + " x " +
                             std::to_string(o.r_rank));
    }
    const auto start = Clock::now();
    FasterTuckerResult res;
    control.stage("splitting train/test");
    CooTensor train, test;
    split(t, o.test_fraction, o.seed, train, test);
    if (train.nnz() == 0) throw InputError("the training set is empty");
    res.train_nnz = train.nnz(), res.test_nnz = test.nnz();
    for (std::uint64_t z = 0; z < train.nnz(); ++z) res.global_mean += train.value(z);
    res.global_mean /= static_cast<double>(train.nnz());
    double se = 0;
    for (std::uint64_t z = 0; z < test.nnz(); ++z) se += (test.value(z) - res.global_mean) * (test.value(z) - res.global_mean);
    res.mean_predictor_test_rmse = test.nnz() ? std::sqrt(se / static_cast<double>(test.nnz())) : NAN;

    control.stage("building B-CSF trees");
    std::vector<std::unique_ptr<SparseFormat>> trees;
    for (int n = 0; n < order; ++n) {
        FormatOptions fo;
        for (int d = 1; d <= order; ++d) fo.mode_order.push_back((n + d) % order);  // leaves: mode n
        fo.mode = fo.mode_order.front();
        fo.bcsf_fiber_threshold = o.fiber_threshold;
        trees.push_back(build_format(FormatKind::BCSF, train, fo, control));
    }
    std::vector<ft_rows::RowOrder> rows;  // the ordered schedule's, per mode
    if (o.schedule == FtSchedule::Ordered)
        for (int n = 0; n < order; ++n)
            with_tree(*trees[static_cast<std::size_t>(n)], [&](const auto& csf) {
                rows.push_back(ft_rows::row_order(csf.fptr.back(), csf.fids.back(), t.dim(n)));
            });
    // start near the mean: a.b_r ~ J s^2 / 4 per mode, so x^ ~ R (J s^2 / 4)^N ~ mean
    Model model;
    model.R = o.r_rank;
    const double per_mode = std::pow(std::max(1e-12, std::fabs(res.global_mean)) / static_cast<double>(o.r_rank), 1.0 / order);
    for (int n = 0; n < order; ++n) {
        const std::uint64_t J = o.j_ranks.size() == 1 ? o.j_ranks.front() : o.j_ranks[static_cast<std::size_t>(n)];
        if (J == 0) throw InputError("J must be at least 1");
        const double s = std::sqrt(4 * per_mode / static_cast<double>(J));
        DenseMatrix a = random_matrix(t.dim(n), J, o.seed + 101 * std::uint64_t(n));
        DenseMatrix b = random_matrix(J, o.r_rank, o.seed + 103 * std::uint64_t(n) + 1);
        for (std::uint64_t i = 0; i < a.data.size(); ++i) a.data[i] *= s;
        for (std::uint64_t i = 0; i < b.data.size(); ++i) b.data[i] *= s;
        model.a.push_back(std::move(a));
        model.b.push_back(std::move(b));
        model.c.emplace_back(t.dim(n), o.r_rank);
        model.refresh(n);
    }
    res.setup_seconds = since(start);

    control.stage("FasterTucker");
    if (o.backend == Backend::Cuda) {
        run_on_gpu(trees, rows, train, test, model, o, res, on_iteration, control, start);
        res.a = std::move(model.a);
        res.b = std::move(model.b);
        return res;
    }
    std::vector<double> w_scratch;  // the ordered schedule's shared intermediates
    for (int epoch = 1; epoch <= o.epochs; ++epoch) {
        control.check();
        const auto t0 = Clock::now();
        for (int n = 0; n < order; ++n) {  // Alg. 2 lines 5-14
            with_tree(*trees[static_cast<std::size_t>(n)], [&](const auto& csf) {
                if (rows.empty())
                    update_factor(csf, model, n, o, control);
                else
                    update_factor_ordered(csf, rows[static_cast<std::size_t>(n)], model, n, o, w_scratch, control);
            });
            control.check();  // a step cut short by a cancel ends the run here
            model.refresh(n);
        }
        for (int n = 0; n < order; ++n) {  // lines 15-22
            with_tree(*trees[static_cast<std::size_t>(n)],
                      [&](const auto& csf) { update_core(csf, model, n, o, train.nnz(), control); });
            control.check();
            model.refresh(n);
        }
        IterationReport rep;
        rep.iter = epoch;
        rep.iter_seconds = since(t0);
        const Errors tr = errors(train, model), te = errors(test, model);
        rep.train_rmse = tr.rmse, rep.train_mae = tr.mae, rep.test_rmse = te.rmse, rep.test_mae = te.mae;
        rep.seconds = since(start);
        if (!std::isfinite(tr.rmse)) diverged(epoch, train);
        res.iterations.push_back(rep);
        if (on_iteration) on_iteration(rep);
        control.progress(static_cast<std::uint64_t>(epoch), static_cast<std::uint64_t>(o.epochs));
    }
    res.a = std::move(model.a);
    res.b = std::move(model.b);
    return res;
}

double faster_tucker_predict(const FasterTuckerResult& m, const std::uint64_t* coord) {
    const std::uint64_t R = m.b.front().cols;
    double sum = 0;
    for (std::uint64_t r = 0; r < R; ++r) {
        double p = 1;
        for (std::size_t n = 0; n < m.a.size(); ++n) {
            double ab = 0;
            for (std::uint64_t j = 0; j < m.a[n].cols; ++j) ab += m.a[n].at(coord[n], j) * m.b[n].at(j, r);
            p *= ab;
        }
        sum += p;
    }
    return sum;
}

}  // namespace tscope
