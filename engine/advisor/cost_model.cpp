// What a kernel costs, per format, counted as the engine's kernels do the work (cpu/*_cpu.cpp):
//   stream:  the format's arrays read in order (its storage, predicted_storage), the output
//            written, per-thread output copies zeroed and summed (OutputRows);
//   compute: passes over factor rows (R doubles each: a gather-multiply, a sum, an add into the
//            output), counted per loop as the kernels write them; SpTV's multiply-add per nonzero;
//   miss:    the rows of those passes that come from a matrix larger than half the last-level
//            cache (the other half holds the streams), at their share of the matrix beyond it;
//   cached:  the share of the streams that fits in half the cache (charged as cached work)
//   nodes:   tree nodes a recursive walk visits (calls, scratch set-up, pointer loads);
//   steps:   iterations of a flat loop that set up work (SpTV fibers, HiCOO blocks, HLS tiles);
//   cells:   the 16^3 cells HLS expands and tests per dense tile, zeros included;
//   minority: those cells whose zero test goes the less common way (a mispredicted branch).
#include "cost_model.hpp"

#include <algorithm>
#include <cmath>

#include "tscope/formats/hls_format.hpp"
#include "tscope/kernels/spttm.hpp"

// Numbers are counted at the CPU kernels' 8 bytes on the GPU too, where the device holds values,
// factor rows and vectors in fp32 (and the bench's cuda rows count them at 4): counted at 4 there
// (values in the format's storage, rows, SpTV's vector and results, SpTTM's and TTMc's outputs),
// the regrade of the H200 evaluation (docs/bench/scripts/advisor_regrade.py on gpu-advisor.json,
// session 44) gave MTTKRP's rankings a mean tau_b of 0.817 against 0.826 (uniform-5d's fell from
// 0.94 to 0.82 as two formats' predictions came within the 5% tie; Last.fm's BLCO and HLS took
// their measured order) and SpTV's the same 0.42: no better, so the GPU's prior weights keep the
// count they were set with.
namespace tscope::detail {

namespace {

class Ledger {
public:
    explicit Ledger(const TrafficInput& in) : in_(in), p_(in.profile), row_(static_cast<double>(in.rank) * 8.0) {}

    // `passes` vector passes over rows of `mode`'s factor (or output), `random` of them reaching
    // rows at random (the rest re-use a row already in cache).
    void rows(int mode, double passes, double random) {
        t_.compute_bytes += passes * row_;
        t_.miss_bytes += random * row_ * miss_share(mode, factor_bytes(mode) * copies_);
    }
    // Adds into output rows (a read and a write each; `random` of them not in cache, all by
    // default), in each thread's copy when shared.
    void scatter(int mode, double rows_added, bool private_copies, double random = -1) {
        const double saved = copies_;
        copies_ = private_copies ? static_cast<double>(std::max(1, in_.machine.threads)) : 1.0;
        rows(mode, rows_added, random < 0 ? 2 * rows_added : random);
        copies_ = saved;
    }
    void hot(double passes) { t_.compute_bytes += passes * row_; }
    void stream(double bytes) { t_.stream_bytes += bytes; }
    // The output matrix zeroed, and with private copies each thread's copy zeroed and summed in.
    void output(int mode, bool private_copies) {
        stream(factor_bytes(mode));
        if (private_copies && in_.machine.threads > 1) copies(mode, in_.machine.threads);
    }
    // n copies of the output's rows (at most) zeroed and summed into it.
    void copies(int mode, double n) { stream(2.0 * n * factor_bytes(mode)); }
    void nodes(double n) { t_.nodes += n; }
    void steps(double n) { t_.steps += n; }
    void cells(double n) { t_.cells += n; }
    void minority(double n) { t_.minority += n; }
    void flops(double n) { t_.flops += n; }
    void elements(double n, int mode) {  // SpTV: a multiply-add per entry, v (mode's length) gathered
        t_.compute_bytes += 8 * n;
        t_.miss_bytes += 8 * n * miss_share(mode, static_cast<double>(p_.dims[static_cast<std::size_t>(mode)]) * 8);
    }
    // A run whose streams fit in half the cache reads them from the cache on every repeat (as
    // the benches run, and as a CPD sweep or power iteration re-reads them): that share is
    // charged as cached work, not at the memory's copy rate.
    Traffic take() {
        t_.cached_bytes = t_.stream_bytes * (1 - miss_fraction(t_.stream_bytes));
        return t_;
    }
    double row() const { return row_; }
    double factor_bytes(int mode) const { return static_cast<double>(p_.dims[static_cast<std::size_t>(mode)]) * row_; }

private:
    double miss_fraction(double matrix_bytes) const {
        const double cache = 0.5 * static_cast<double>(in_.machine.cache_bytes);
        return matrix_bytes <= cache ? 0.0 : 1.0 - cache / matrix_bytes;
    }
    // The share of the gathers of a mode's rows (a matrix of matrix_bytes, copies included) that
    // miss the cache. The rows used most stay cached: a power-law mode's heavy rows are read
    // from the cache however large the matrix, so the misses are the accesses to all but the
    // rows that fit, most used first, taken from the mode's slice sizes (the log2 histogram,
    // each slice counted at its bin's middle). Where every row is used alike this is the
    // uniform 1 - cache / matrix; on the steep power-law tensor of the evaluation that charged
    // the trees 2.2-3x and ALTO 5x their measured time (docs/bench/cpu-advisor.json, 84d0524).
    double miss_share(int mode, double matrix_bytes) const {
        const double uniform = miss_fraction(matrix_bytes);
        const CountDistribution& slices = p_.stats.modes[static_cast<std::size_t>(mode)].slice_nnz;
        if (uniform == 0.0 || slices.log2_histogram.empty()) return uniform;
        const auto& h = slices.log2_histogram;
        const auto middle = [](std::size_t b) { return 1.5 * std::ldexp(1.0, static_cast<int>(b)) - 0.5; };
        double fit = static_cast<double>(p_.dims[static_cast<std::size_t>(mode)]) * (1.0 - uniform);  // rows that fit
        double hot = 0, all = 0;
        for (std::size_t b = h.size(); b-- > 0;) {
            const double take = std::clamp(fit, 0.0, static_cast<double>(h[b]));
            hot += take * middle(b), all += static_cast<double>(h[b]) * middle(b);
            fit -= take;
        }
        // shares of the binned estimate, whose total is near nnz: with 60,000 uniform nonzeros
        // over 20,000 rows of which 10,000 fit, 0.273 against 0.276 by the exact counts (0.203
        // when the binned hot part was divided by the exact nnz)
        return all > 0 ? std::clamp(1.0 - hot / all, 0.0, uniform) : uniform;
    }

    const TrafficInput& in_;
    const TensorProfile& p_;
    double row_;
    double copies_ = 1;
    Traffic t_;
};

double storage(const TrafficInput& in) {
    return static_cast<double>(predicted_storage(in.profile, in.kernel, in.format, in.mode, nullptr, in.rank));
}

// ---- MTTKRP (cpu/mttkrp_cpu.cpp) --------------------------------------------------------------

// CsfMttkrp computing `mode` at its level L of a tree: nodes above L pass their prefix product
// down (one pass each: the row times the prefix); below L each inner node zeroes its sum, takes
// its children's and multiplies in its row (three passes), each nonzero adds value x row (one);
// level L's nodes add their row into the output: owned by the root's thread at L = 0, shared
// below (into per-thread copies). Every node is a step of the walk.
void tree_mttkrp(Ledger& g, const TreeCounts& c, int mode, std::uint64_t fiber_nodes, bool private_copies) {
    const int n = static_cast<int>(c.order.size());
    const int L = static_cast<int>(std::find(c.order.begin(), c.order.end(), mode) - c.order.begin());
    for (int l = 0; l < n; ++l) {
        const double nodes = static_cast<double>(l == n - 2 ? fiber_nodes : c.nodes[static_cast<std::size_t>(l)]);
        const int m = c.order[static_cast<std::size_t>(l)];
        if (l < n - 1) g.nodes(nodes);
        if (l == L) {
            if (L == 0)
                g.hot(2 * nodes), g.stream(nodes * g.row());  // zero, add its own row once
            else if (L == n - 1)
                g.scatter(mode, nodes, private_copies);  // value x prefix into the row
            else
                g.hot(2 * nodes), g.scatter(mode, nodes, private_copies);
        } else if (l < L) {
            g.rows(m, nodes, nodes);
        } else if (l == n - 1) {
            g.rows(m, 0.5 * nodes, nodes);  // the fiber's sum stays in registers: loads, no stores
        } else {
            g.rows(m, 3 * nodes, nodes);
        }
    }
}

// The GPU's fiber kernel (cuda/mttkrp_fiber_teams.cuh, team_fiber_group and team_flat_group) on one tree
// for `mode` at its level L: a team of lanes per group of fibers, not the CPU's recursive walk
// with its three passes per inner node. Each fiber loads its ancestors' ids (a node step) and
// gathers the rows of the levels above it other than L (its prefix); each nonzero gathers its
// leaf row, or, where L is the leaf level, adds value x prefix into the output by an atomic.
// Above the leaves a team adds its sum by an atomic whenever the output row changes: about once
// per node of level L, and once more per group of 8 fibers. An atomic whose result is unused is a
// reduction the lane does not wait for: charged as one pass over a row in cache. Charged as a
// read and a write at L2 (two misses), MM-CSF, whose partitions add below their roots, came out
// last on 12 of the 15 tensors and the mean tau_b fell to 0.33; as one pass, 0.72. Costed as the
// CPU's walk, MM-CSF, which takes fewer passes there, was predicted fastest on 12 of the 15
// tensors of the GPU evaluation and measured fastest on 4 (mean tau_b 0.61; docs/bench/
// gpu-advisor.json, session 26, regraded by docs/bench/scripts/advisor_regrade.py).
// Where L is the leaf level each nonzero's row is added by atomics, charged since session 75 at
// kGpuAddedRow passes: session 59 measured one such row at 1.9 gathered ones (1.069 ms against
// 0.568 for the same rows gathered, docs/bench/h200-leaf-adds-session59.json). At one pass
// MM-CSF was predicted fastest on 10 of the 18 tensors of session 75's GPU evaluation and
// measured third on 7 of them, behind CSF and B-CSF; at two (and HLS's fp64 adds below), the
// predicted best was within 1.18x of the measured best on all 18 and the mean tau_b rose from
// 0.71 to 0.84 (docs/bench/gpu-advisor-session75-regraded.json).
constexpr double kGpuAddedRow = 2.0;
// The adds of one output row queue on its address: a power-law mode's heaviest row takes its
// share (heavy_share: its nonzeros over the tensor's) of the tree's atomics one after another
// (at the root, where each node is a row, its one node's add and its share of the fibers'
// groups; counted as a share of every node there, as first committed, the rankings below were
// the same: review 77 F-1).
// Charged at kGpuQueuedAdd passes each (25 passes of a 256-byte row at the copy rate: about 1.5
// ns on an H200). Without it the trees were predicted as fast on power-law tensors as on uniform
// ones, where they measure up to 1.6x slower (powerlaw-4d's CSF 36-40 us a mode against
// uniform-4d's 24, docs/bench/gpu-advisor-session77.json), and MM-CSF, whose leaf partitions add
// every nonzero of a heavy row, was predicted best on check-powerlaw-4d, where it measures 1.32x
// B-CSF. Weights of 5-80 passes tried by advisor_regrade.py on call 2's measurements, with
// BLCO's and COO's pass for v = x dropped (mttkrp below): 25 gave MTTKRP's best mean tau_b on the
// five check tensors, 0.92 against 0.87 with that pass dropped and no queued adds, and 0.83
// against 0.75 on the 15 (30: 0.83 and 0.91; docs/bench/gpu-advisor-session77-regrades.json).
constexpr double kGpuQueuedAdd = 25.0;
void gpu_tree_mttkrp(Ledger& g, const TreeCounts& c, int mode, std::uint64_t fibers, double heavy_share) {
    const int n = static_cast<int>(c.order.size());
    const int L = static_cast<int>(std::find(c.order.begin(), c.order.end(), mode) - c.order.begin());
    const auto F = static_cast<double>(fibers), Z = static_cast<double>(c.nnz);
    g.nodes(F);
    for (int l = 0; l < n - 1; ++l)
        if (l != L) g.rows(c.order[static_cast<std::size_t>(l)], F, F);
    const double adds = L == n - 1   ? Z
                        : L == n - 2 ? F
                                     : static_cast<double>(c.nodes[static_cast<std::size_t>(L)]) + F / 8;
    // the heaviest row's part of those adds: its share of each level's, but at the root, where
    // a node is a row, its one node's add and its fibers' groups
    const double queued = L == 0 && n > 2 ? 1 + F / 8 * heavy_share : adds * heavy_share;
    g.hot(kGpuQueuedAdd * queued);
    if (L == n - 1) {
        g.hot(kGpuAddedRow * Z);  // an atomic per nonzero
        return;
    }
    g.rows(c.order[static_cast<std::size_t>(n - 1)], Z, Z);
    g.hot(adds);  // its atomics
}

// The rows a loop over nonzeros in HiCOO's block order touches: every nonzero reads N-1 factor
// rows and adds into one output row, but only a row's first touch in each 2^b block misses.
// `passes`: each of those rows is a loop of its own (HiCOO); else the caller counts the loops.
void blocked_rows(Ledger& g, const TensorProfile& p, int m, double Z, bool private_copies, bool passes = true) {
    const double blocks = static_cast<double>(p.hicoo_blocks), edge = std::ldexp(1.0, p.options.hicoo_bits);
    const double loops = passes ? Z : 0;
    for (int k = 0; k < p.order(); ++k) {
        const double first = std::min(Z, blocks * std::min(edge, static_cast<double>(p.dims[static_cast<std::size_t>(k)])));
        if (k == m)
            g.scatter(m, loops, private_copies, 2 * first);
        else
            g.rows(k, loops, first);
    }
    g.output(m, private_copies);
}

// One of ALTO's loops above order 3 (rank compiled in, rows prefetched) against one of COO's.
constexpr double kAltoUnrolledLoop = 0.84;

void mttkrp(Ledger& g, const TrafficInput& in) {
    const TensorProfile& p = in.profile;
    const int N = p.order(), m = in.mode;
    const auto Z = static_cast<double>(p.nnz);
    const bool cuda = in.machine.backend == Backend::Cuda;
    g.stream(storage(in));
    g.flops(3.0 * Z * static_cast<double>(in.rank));
    const double heavy = Z > 0 && static_cast<std::size_t>(m) < p.stats.modes.size()
                             ? static_cast<double>(p.stats.modes[static_cast<std::size_t>(m)].slice_nnz.max) / Z
                             : 0;
    switch (in.format) {
    case FormatKind::COO:  // per nonzero: v = x, times N-1 rows, added into the output row
    case FormatKind::BLCO:
        // BLCO (GPU only) walks its nonzeros as COO does, the index unpacked from its 64-bit key:
        // N-1 rows gathered and one output row added per nonzero. Uncosted before session 25, it
        // came out at the time of its stream alone and first on every tensor of the GPU
        // evaluation (docs/bench/gpu-advisor-h200-de48527.json), where it measures 1.5-2.5x B-CSF.
        // On the GPU neither walk takes the CPU loop's pass for v = x: since session 77, with
        // their teams sized to small tensors, BLCO measures 1.0-2.8x the best format's time on the
        // 15 tensors and was predicted 1.4-3.6x with that pass, 1.2-2.7x without
        // (gpu-advisor-session77.json, regraded).
        if (!cuda) g.hot(Z);
        // COO on the GPU (cuda/mttkrp_coo_teams.cuh) sums each run of one output row in a team's
        // registers: on mode 1, which the bench's COO is sorted by, a run is a slice; on the
        // others nearly every nonzero flushes, in fp64 or after a tile sort. One more pass per
        // nonzero there: charged as BLCO, COO ranked level with it on every tensor of session 75's
        // GPU evaluation, where it measures 1.5-1.9x BLCO's time on those modes of the 20M-nonzero
        // tensors (1.1x on mode 1); with it MTTKRP's mean tau_b went from 0.84 to 0.89 over the 18
        // tensors and from 0.90 to 0.95 over the five check tensors, regraded
        // (gpu-advisor-session75-regraded-final.json, gpu-advisor-session75-check-regraded.json).
        if (cuda && in.format == FormatKind::COO && m != 0) g.hot(Z);
        for (int k = 0; k < N; ++k)
            if (k != m) g.rows(k, Z, Z);
        g.scatter(m, Z, true);
        g.output(m, true);
        return;
    case FormatKind::ALTO: {
        // A loop per nonzero in the order of a Z-curve over all modes: nonzeros that follow each
        // other share their indices' high bits, so, as for HiCOO's 2^b blocks (the same curve cut
        // at 2^b), only a row's first touch in each block goes to memory; no block loop. Its
        // loops as cpu/mttkrp_alto.cpp writes them: at order 3 one fused loop (out += x a .* b),
        // above q = x a, q .*= each further row, out += q (N loops). The fused loop is counted
        // by its row accesses against COO's, as HLS's sparse pass is: 4 (a, b, out read and
        // written) to COO's 10 in four loops, so 1.6 of COO's loops. Counted as one, ALTO came
        // out at 0.63-0.84 of its measured time at order 3 and was picked on blocks-3d-tiles
        // where CSF and B-CSF measure 1.14x faster (docs/bench/cpu-advisor.json at 095d90c). The first partition adds
        // into the output itself and each other one into a buffer over its own interval (Sec.
        // 4.2), so a thread's adds go to one matrix's worth of rows, not to T copies; the other
        // T - 1 buffers are zeroed and summed (charged at the mode's length: an upper bound).
        // Above order 3 each of the N loops has the rank compiled in (ranks 16, 32 and 64) and the
        // rows of 32 nonzeros ahead prefetched, where COO's loops take the rank at run time and
        // wait on each row: fitted on blocks-4d (the one fit tensor above order 3), such a loop
        // costs 0.84 of COO's. Counted as COO's loops, ALTO came out at 0.80-0.83 of COO's time
        // at orders 4 and 5 where it measures 0.64-0.70 on every tensor (cpu-advisor.json at
        // 2f7e268), and was ranked level with CSF on blocks-4d, where it measures 1.45x faster.
        const bool unrolled = in.machine.backend == Backend::Omp && (in.rank == 16 || in.rank == 32 || in.rank == 64);
        g.hot(N == 3 ? 1.6 * Z : (unrolled ? kAltoUnrolledLoop : 1.0) * N * Z);
        blocked_rows(g, p, m, Z, false, false);
        g.copies(m, in.machine.threads - 1);
        return;
    }
    case FormatKind::HiCOO:
        // COO's loop per nonzero, block by block: a block's nonzeros share at most 2^b rows per
        // mode, so only the first touch of a row in a block goes to memory
        g.steps(static_cast<double>(p.hicoo_blocks));
        g.hot(Z);
        blocked_rows(g, p, m, Z, true);
        return;
    case FormatKind::CSF: {  // rooted at the mode (SPLATT-ALL): the slice algorithm
        const TreeCounts& c = p.csf_trees[static_cast<std::size_t>(m)];
        // on the GPU its long fibers are split at upload, as B-CSF's are in its build
        if (cuda)
            gpu_tree_mttkrp(g, c, m, c.split_fibers, heavy);
        else tree_mttkrp(g, c, m, c.nodes[static_cast<std::size_t>(N - 2)], false);
        g.output(m, false);
        return;
    }
    case FormatKind::BCSF: {
        const TreeCounts& c = p.csf_trees[static_cast<std::size_t>(m)];
        if (cuda)
            gpu_tree_mttkrp(g, c, m, c.split_fibers, heavy);
        else tree_mttkrp(g, c, m, c.split_fibers, false);
        g.output(m, false);
        return;
    }
    case FormatKind::MMCSF: {  // every partition, the mode at whatever level it sits
        bool shared = false;
        for (const TreeCounts& c : p.mmcsf_parts) shared = shared || c.order.front() != m;
        for (const TreeCounts& c : p.mmcsf_parts) {
            if (cuda)  // the GPU splits its long fibers as B-CSF's
                gpu_tree_mttkrp(g, c, m, c.split_fibers, heavy);
            else tree_mttkrp(g, c, m, c.nodes[static_cast<std::size_t>(N - 2)], shared);
        }
        g.output(m, shared && !cuda);
        return;
    }
    case FormatKind::HLS: {
        // sparse nonzeros in one fused pass (v = x ra rb) and an add; each dense tile expanded
        // and tested cell by cell, its nonzeros adding x B-row into a 16-row buffer, and each
        // non-empty slice of the tile reducing 16 rows against A's and adding one output row.
        // The sparse pass is counted by its row accesses against COO's: COO's four loops make
        // 10 (v = x; v .*= a; v .*= b; out += v), the fused pass and the add 6, so 2.4 of COO's
        // loops, the add's one charged by scatter. Counted as one loop, HLS came out at 0.69-0.83
        // of its measured time on the tensors without dense tiles and ranked ahead of CSF and
        // B-CSF, behind which it measures (docs/bench/cpu-advisor.json, session 21).
        const double dense = static_cast<double>(p.hls_dense_nnz), tiles = static_cast<double>(p.hls_dense_tiles);
        const double sparse = Z - dense;
        // On the GPU the sparse part is no fused pass but COO's walk (cuda/gpu_hls.cu), N-1 rows
        // gathered per nonzero: counted as the CPU's pass, HLS came out first on uniform-3d, where
        // it measures 1.4x COO and 4.3x B-CSF (docs/bench/gpu-advisor-h200-de48527.json)
        // Since session 76 the sparse part runs on COO's kernels (cuda/gpu_hls.cu; since session 77
        // on small parts too); in HLS's tile order a run of one output row is short on
        // every mode, so it is charged as COO's modes other than the first: one more pass per
        // nonzero. (Before, an fp64 atomic a column and nonzero made it 1.6-13x COO's time; the
        // same charge ranked it behind COO there, docs/bench/gpu-advisor-session75.json.) It now
        // measures 0.86-1.44x the COO format's time on the uniform and power-law tensors of
        // session 76's GPU calls (docs/bench/h200-session76.json), the most on mode 1, along
        // which the bench's COO is sorted.
        g.hot(cuda ? 2 * sparse : 1.4 * sparse);
        for (int k = 0; k < N; ++k)
            if (k != m) g.rows(k, cuda ? sparse : 0, sparse);
        g.scatter(m, sparse, true);
        const double slices = tiles > 0 ? tiles * std::min(16.0, dense / tiles) : 0;
        g.cells(2.0 * tiles * kHlsTileCells);
        // the zero test of every cell is a branch whose less common outcome a predictor misses:
        // a tile's nonzeros where it is under half full, its zeros where over. Charged at the
        // cell rate alone, tiles near half full (blocks-3d, 1,875 nonzeros a tile) came out at
        // 0.83 of their measured time and ahead of COO and HiCOO, which measure faster
        // (cpu-advisor.json at 1e500fd).
        g.minority(static_cast<double>(p.hls_dense_minority));
        g.steps(tiles);
        g.hot(dense + 16 * slices);
        g.scatter(m, slices, true);
        g.output(m, true);
        return;
    }
    default: return;
    }
}

// ---- SpTV (cpu/sptv_cpu.cpp: the plan's values kernel) --------------------------------------

void sptv(Ledger& g, const TrafficInput& in) {
    const TensorProfile& p = in.profile;
    const auto m = static_cast<std::size_t>(in.mode);
    const double Z = static_cast<double>(p.nnz), I = p.index_bytes, V = p.value_bytes;
    const double F = static_cast<double>(p.stats.modes[m].fibers);
    g.flops(2 * Z);
    if (in.format == FormatKind::HOCFS_ELL) {
        // per fiber: its block, first row and row count (3 x 8 bytes), a division for the block's
        // width, its result; per padded cell an index, a value and the padding test
        const TreeCounts& c = p.sptv_trees[m];
        g.stream(F * 32 + static_cast<double>(c.ell_cells) * (I + V) + static_cast<double>(c.ell_blocks + 1) * I);
        g.elements(static_cast<double>(c.ell_cells), in.mode);
        g.steps(2 * F);  // a fiber's sum and store, and the division for its block's width
        return;
    }
    // COO, CFB, HOCFS-CSR and CSF all run fiber_sums (cpu/sptv_cpu.cpp), one instantiation for
    // them all: per nonzero an index (I bytes, col[z]) and a value (V, val[z]) read in order and
    // one gather of v; per fiber two offsets of I bytes (COO's fiber starts and CFB's summed
    // fiber counts are built at the index width, as HOCFS-CSR's Ap and CSF's fptr are), a sum and
    // one 8-byte store of out[q], no atomics (each fiber is one result entry). The four do the
    // same work on data of the same size and are predicted tied (the evaluation's 5% tie rule
    // compares them as tied). Before the offsets were one width, the two groups measured 2-9%
    // apart, either way round by tensor and binary; now within 1%
    // (docs/bench/cpu-sptv-offset-widths.json).
    // HOCSR reads the offsets of every index tuple, most of them empty rows, as hocfs Alg. 4
    // does: on the GPU (cuda/sptv_tuples.cuh, sptv_kept_rows.cuh; uncounted, HOCSR was predicted
    // level with the others and measured 0.6-11x them on one H200, 10.6x on powerlaw-3d,
    // docs/bench/gpu-advisor-h200-de48527.json) and since session 74 on the CPU (all_row_sums,
    // where the plan had kept the non-empty rows): its whole row pointer is streamed.
    // The row walk's test "is this row empty?" goes the rarer way, a mispredicted branch,
    // once per row of the rarer kind: session 74's evaluation measured HOCSR at 4.6x its
    // prediction on MovieLens (2.0 ms a sweep against 0.44), whose 2.15M rows fit in the cache
    // and hold 167K non-empty ones; Last.fm's 303M rows stream.
    const bool all_tuples = in.format == FormatKind::HOCSR;
    const double pointer_bytes = all_tuples ? storage(in) - Z * (I + V) : (F + 1) * I;
    g.stream(pointer_bytes + Z * (I + V) + F * 8);
    if (all_tuples) g.minority(std::min(F, pointer_bytes / I - 1 - F));
    g.elements(Z, in.mode);
    g.steps(F);  // a fiber's range, sum and store
}

// ---- SpTTM and TTMc (rougher: not part of the evaluation) -------------------------------------

void spttm(Ledger& g, const TrafficInput& in) {
    const TensorProfile& p = in.profile;
    const auto m = static_cast<std::size_t>(in.mode);
    const double Z = static_cast<double>(p.nnz), R = static_cast<double>(in.rank), I = p.index_bytes;
    const double F = static_cast<double>(p.stats.modes[m].fibers);
    if (in.format == FormatKind::sCOO) {
        // SspTTM: the input holds a chunk of R values per fiber of the chain's first mode; each
        // chunk meets a row of U (R passes of R); the result holds an R x R chunk per index of
        // the modes left sparse: at order 3 the third mode's slices (MovieLens's mode 1: 1,682
        // chunks, where counting one per input chunk, 100,000, had put 819 MB of output against
        // the 41 MB bench moved, sweep 75a F1); above, at most one per input chunk
        const int first = sspttm_chain_mode(p.order(), in.mode);
        const double chunks = static_cast<double>(p.stats.modes[static_cast<std::size_t>(first)].fibers);
        double out_chunks = chunks;
        if (p.order() == 3) {
            const int left = 3 - in.mode - first;  // the one sparse mode left
            out_chunks = static_cast<double>(p.stats.modes[static_cast<std::size_t>(left)].slices);
        }
        g.stream(storage(in) + out_chunks * R * R * 8);  // the chain's product, then the result
        g.rows(in.mode, chunks * R, chunks);
        g.steps(chunks);
        g.flops(2 * chunks * R * R);
        return;
    }
    g.stream(storage(in) + F * (R * 8 + (p.order() - 1) * I));  // X, then one dense fiber of R per mode-n fiber
    g.rows(in.mode, Z, Z);
    g.steps(F);
    g.flops(2 * Z * R);
}

void ttmc(Ledger& g, const TrafficInput& in) {
    const TensorProfile& p = in.profile;
    const int N = p.order(), m = in.mode;
    const double Z = static_cast<double>(p.nnz), R = static_cast<double>(in.rank);
    const double width = std::pow(R, N - 1);  // the output's columns: R^(N-1)
    const double out = static_cast<double>(p.dims[static_cast<std::size_t>(m)]) * width * 8;
    g.stream(storage(in) + out);
    g.flops(2 * Z * width);
    if (in.format == FormatKind::CSF) {
        // the Kronecker products are built once per tree node: level l's nodes touch R^(N-l) values
        const TreeCounts& c = p.csf_trees[static_cast<std::size_t>(m)];
        for (int l = 1; l < N; ++l) g.hot(static_cast<double>(c.nodes[static_cast<std::size_t>(l)]) * std::pow(R, N - l) / R);
        for (int l = 0; l + 1 < N; ++l) g.nodes(static_cast<double>(c.nodes[static_cast<std::size_t>(l)]));
        return;
    }
    // COO (and HLS, whose omp TTMc walks its nonzeros likewise): a Kronecker row per nonzero
    for (int k = 0; k < N; ++k)
        if (k != m) g.rows(k, 0, Z);
    g.hot(2 * Z * width / R);
}

}  // namespace

Traffic kernel_traffic(const TrafficInput& in) {
    Ledger g(in);
    switch (in.kernel) {
    case KernelKind::MTTKRP: mttkrp(g, in); break;
    case KernelKind::SpTV: sptv(g, in); break;
    case KernelKind::SpTTM: spttm(g, in); break;
    case KernelKind::TTMc: ttmc(g, in); break;
    }
    return g.take();
}

}  // namespace tscope::detail
