#include "tscope/reorder/relabelling.hpp"

#include <algorithm>
#include <chrono>
#include <functional>
#include <mutex>
#include <numeric>

#include "reorder/reorder_methods.hpp"
#include "tensor/random.hpp"
#include "tscope/checks.hpp"
#include "tscope/error.hpp"
#include "tscope/formats/format.hpp"
#include "tscope/parallel_errors.hpp"

namespace tscope {

namespace {

std::vector<std::uint64_t> counts(const CooTensor& t, int mode) {
    std::vector<std::uint64_t> c(t.dim(mode), 0);
    t.visit([&](auto itag, auto) {
        for (const auto i : t.indices<typename decltype(itag)::type>(mode)) ++c[i];
    });
    return c;
}

// Indices by descending nonzero count, ties by old id (stable, so the result is deterministic).
std::vector<std::uint64_t> by_degree(const CooTensor& t, int mode) {
    const std::vector<std::uint64_t> c = counts(t, mode);
    std::vector<std::uint64_t> order(c.size());
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&](std::uint64_t a, std::uint64_t b) { return c[a] > c[b]; });
    return order;
}

std::vector<std::uint64_t> shuffled(std::uint64_t n, detail::Rng& rng) {
    std::vector<std::uint64_t> order(n);
    std::iota(order.begin(), order.end(), 0);
    for (std::uint64_t k = n; k > 1; --k) std::swap(order[k - 1], order[rng.next() % k]);  // Fisher-Yates
    return order;
}

// Lexi-Order (lexi_order.cpp) from two starts, the file's order and the degree sort, keeping
// the result with fewer HiCOO blocks. Neither start wins on every tensor (docs/bench/
// cpu-reorder-starts.json, 2 rounds, 128^N blocks): from the file's order MovieLens gets 207
// blocks, Last.fm 13,394 and JF17K 287; from the degree sort 195, 16,047 and 277. Lexi-Order is
// a local heuristic: it refines the numbering it is given, so a start that already groups the
// heavy indices helps where activity is the structure (MovieLens) and hurts where communities
// are (Last.fm, whose file order keeps related tags together).

void lexi_from_better_start(const CooTensor& t, int max_iters, Relabelling& r, RunControl& control) {
    detail::ModeOrders file, degree;
    for (int m = 0; m < t.order(); ++m) {
        file.emplace_back(t.dim(m));
        std::iota(file.back().begin(), file.back().end(), 0);
        degree.push_back(by_degree(t, m));
    }
    int file_rounds = 0, degree_rounds = 0;
    detail::ModeOrders from_file, from_degree;
    ParallelErrors errors;
    // progress in mode steps, both runs together, at most max_iters rounds each; a cancel stops
    // each run at its next step (one thread at a time talks to the control), and so does the
    // other run's failure (whose error is the one raised)
    const std::uint64_t steps = 2 * static_cast<std::uint64_t>(max_iters) * static_cast<std::uint64_t>(t.order());
    std::uint64_t done = 0;
    std::mutex talking;
    const std::function<void()> step = [&] {
        if (errors.failed()) throw Cancelled();
        const std::lock_guard<std::mutex> lock(talking);
        control.check();
        control.progress(++done, steps);
    };
    // The two runs side by side, a thread each: most of a run is serial (the rows' lexical sort,
    // the unfolding's scatter). On the 5M power-law tensor (2 cores) the pair took 1.43 s so,
    // against 1.92 one after the other (each with its rows' sorts on both threads); one run 0.86 s.
#pragma omp parallel sections num_threads(2)
    {
#pragma omp section
        errors.run([&] { from_file = detail::lexi_order(t, std::move(file), max_iters, &file_rounds, step); });
#pragma omp section
        errors.run([&] { from_degree = detail::lexi_order(t, std::move(degree), max_iters, &degree_rounds, step); });
    }
    errors.rethrow();
    const auto bits = static_cast<unsigned>(FormatOptions{}.hicoo_bits);  // HiCOO's default blocks
    r.blocks_from_file = detail::blocks_under(t, from_file, bits);
    r.blocks_from_degree = detail::blocks_under(t, from_degree, bits);
    r.from_degree = r.blocks_from_degree < r.blocks_from_file;
    r.old_id = r.from_degree ? std::move(from_degree) : std::move(from_file);
    r.iterations = r.from_degree ? degree_rounds : file_rounds;
}

}  // namespace

ReorderMethod parse_reorder_method(const std::string& name) {
    if (name == "random") return ReorderMethod::Random;
    if (name == "degree") return ReorderMethod::Degree;
    if (name == "lexi") return ReorderMethod::Lexi;
    if (name == "bfs-mcs") return ReorderMethod::BfsMcs;
    throw InputError("unknown reorder method '" + name + "' (expected lexi, bfs-mcs, degree or random)");
}

const char* reorder_method_name(ReorderMethod m) {
    switch (m) {
    case ReorderMethod::Random: return "random";
    case ReorderMethod::Degree: return "degree";
    case ReorderMethod::Lexi: return "lexi";
    case ReorderMethod::BfsMcs: return "bfs-mcs";
    }
    return "?";
}

Relabelling compute_relabelling(const CooTensor& t, ReorderMethod method, std::uint64_t seed, int max_iters,
                                RunControl& control) {
    if (max_iters < 1) throw InputError("--iters for reordering must be at least 1");
    check_per_index_fits(t.dims(), 2, "reordering's old and new id of each");  // before any table of them
    const auto start = std::chrono::steady_clock::now();
    Relabelling r;
    r.method = method;
    detail::Rng rng(seed * 0x9e3779b97f4a7c15ULL + 5);
    if (method == ReorderMethod::Lexi) lexi_from_better_start(t, max_iters, r, control);
    if (method == ReorderMethod::BfsMcs) r.old_id = detail::bfs_mcs(t, control);
    for (int m = 0; m < t.order(); ++m) {
        if (method == ReorderMethod::Random) r.old_id.push_back(shuffled(t.dim(m), rng));
        if (method == ReorderMethod::Degree) r.old_id.push_back(by_degree(t, m));
        std::vector<std::uint64_t> inverse(t.dim(m));
        for (std::uint64_t k = 0; k < inverse.size(); ++k) inverse[r.old_id[static_cast<std::size_t>(m)][k]] = k;
        r.new_id.push_back(std::move(inverse));
    }
    r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return r;
}

void apply_relabelling(CooTensor& t, const Relabelling& r) {
    if (static_cast<int>(r.new_id.size()) != t.order()) throw InputError("a relabelling of another order than the tensor's");
    auto relabel = [&]<class I>(TypeTag<I>) {
        for (int m = 0; m < t.order(); ++m) {
            if (r.new_id[static_cast<std::size_t>(m)].size() != t.dim(m)) throw InputError("a relabelling of other dims than the tensor's");
            Column<I>& idx = t.indices<I>(m);
            const std::vector<std::uint64_t>& to = r.new_id[static_cast<std::size_t>(m)];
#pragma omp parallel for schedule(static)
            for (std::uint64_t n = 0; n < t.nnz(); ++n) idx[n] = static_cast<I>(to[idx[n]]);
        }
    };
    if (t.index_width() == IndexWidth::U32) relabel(TypeTag<std::uint32_t>{});
    else relabel(TypeTag<std::uint64_t>{});
}

DenseMatrix rows_to_original(const Relabelling& r, int mode, const DenseMatrix& rows) {
    const std::vector<std::uint64_t>& old_id = r.old_id.at(static_cast<std::size_t>(mode));
    if (rows.rows != old_id.size()) throw InputError("rows_to_original: the matrix has another row count than the mode's dim");
    DenseMatrix out(rows.rows, rows.cols);
    for (std::uint64_t k = 0; k < rows.rows; ++k)
        for (std::uint64_t c = 0; c < rows.cols; ++c) out.at(old_id[k], c) = rows.at(k, c);
    return out;
}

}  // namespace tscope
