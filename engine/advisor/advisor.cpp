// The advisor: turns each format's traffic (cost_model.cpp) into seconds with the machine's
// bandwidth and a few weights, ranks the formats, and says why in a sentence.
#include <algorithm>
#include <cmath>
#include <cstdio>

#include "cost_model.hpp"
#include "formats/format_builders.hpp"  // the builders' refusals
#include "kernels/gpu_level_order.hpp"
#include "tscope/advisor/advisor.hpp"
#include "tscope/checks.hpp"
#include "tscope/error.hpp"
#include "tscope/formats/alto_format.hpp"
#include "tscope/formats/format_registry.hpp"
#include "tscope/formats/hls_format.hpp"
#include "tscope/kernels/sptv.hpp"
#include "tscope/tensor/coo_ops.hpp"
#include "tscope/text_words.hpp"

namespace tscope {

namespace {

// What each term costs in streamed bytes (a streamed byte costs 1 at the measured copy
// bandwidth): a byte of vector work on cached rows, a byte from a matrix beyond the cache, a
// step of a recursive tree walk, a step of a flat loop, an HLS cell.
struct Weights {
    double compute;
    double miss;
    double node;
    double step;
    double cell;
    double minority;  // a dense-tile cell whose zero test goes the less common way
};

// CPU (omp): fitted once by non-negative least squares on relative error
// (docs/bench/scripts/advisor_fit.py) over the per-mode omp MTTKRP and SpTV rows of the first three
// tensors marked "fit" in docs/bench/cpu-advisor.json (uniform order 3, power-law order 3,
// blocks order 4: 113 rows), measured on this project's shared 2-core AMD EPYC VM with one
// thread (3 rounds, 10 repeats). The fit gave compute 0.65, node 610, step 1.3; no fitting
// tensor has a factor beyond the cache, so miss (4) is a prior. The cell weight was a prior (2)
// too until a fit tensor with dense HLS tiles joined (blocks-3d-tiles, tiles a quarter full):
// fitted alone with the others held (advisor_fit.py --only cells), it came out 89: one tile
// fill cannot tell a cell's cost from that of the zero test's mispredicted outcomes, which
// grow with the fill up to half full, so blocks-3d's tiles (near half full) were predicted at
// 0.83 of their measured time. With a second fit tensor of the same blocks a twelfth full
// (blocks-3d-sparse-tiles), the two fitted together (--only cells,minority, 6 rows, session
// 22): 30 a cell and 379 a minority outcome, about 13 ns, a branch miss and the work that
// follows it. Refitted in session 24, all six together, on all five fit tensors (201 rows, the
// record of 025c687: minima of 5 MTTKRP and 25 SpTV repeats, 3 rounds): compute 0.597 (0.65),
// node 552 (610), step 31.6 (1.3), cell 34.3 (30.2), minority 345 (379). The step weight 1.3 came from
// the first fit (three tensors, medians of 10 repeats, SpTV's fiber loop as it was then); with it
// SpTV came out at a median 0.48 of its measured time (0.20-0.85) and MTTKRP at 1.20 (0.43-1.59),
// with these 0.70 (0.34-2.04) and 1.05 (0.79-1.26); the rankings held or improved (MTTKRP tau_b >=
// 0.8 on 14 of 15 tensors, from 13; SpTV 15 of 15). The evaluation in the same file covers ten
// tensors that were not used for fitting. Refitted in session 74 (advisor_fit.py on that
// session's record of 5492d4a, the kernels of today, HOCSR's row walk and its branch term
// counted): compute 0.610, node 824, step 28.9, cell 21.4, minority 467. With the session-24
// weights the same measurement had MTTKRP's tau_b >= 0.8 on 8 of the 10 held-out tensors (mean
// 0.89; COO and HiCOO had grown faster against the trees since); measured again with these
// (docs/bench/cpu-advisor-session74.json), 10 of 10 (mean 0.96, every predicted best the
// measured best) and SpTV 15 of 15 at 1.00.
constexpr Weights kCpuWeights{0.610, 4.0, 824.0, 28.9, 21.4, 467.0};
// GPU (cuda): priors, not fitted: cached rows at the copy rate, a miss four times a streamed byte
// (scattered sectors), a walk step one 32-byte sector, a cell a byte (32 since session 77,
// below). Measured on one H200 in
// session 25 (advisor_eval.py --backend cuda): the rankings agreed at a mean tau_b of 0.17
// (MTTKRP) and 0.06 (SpTV) (docs/bench/gpu-advisor-h200-de48527.json); a non-negative fit of
// these six weights on the five fit tensors left every ranking as it was (rms relative error
// 0.60: the terms are the CPU kernels' and miss the GPU's fixed costs). Costing what the GPU
// kernels do where the model had left it out (BLCO's walk, HOCSR's every-tuple offsets, HLS's
// sparse walk) and filling the device with CSF's groups took them to 0.48 and 0.48 (4ce94fc), and
// running CSF trees of short fibers as B-CSF's MTTKRP to 0.61 and 0.46 (session 26, 7d4a68c,
// docs/bench/gpu-advisor.json), and costing the CSF family as its GPU kernel (cost_model.cpp,
// gpu_tree_mttkrp) MTTKRP's to 0.72 on the same measurements (gpu-advisor-regraded.json). With
// small trees cut to the device (session 27, 9467d01; B-CSF, MM-CSF and CSF 1.8-5.2x faster on the
// real tensors), measured again: 0.83 and 0.42 (docs/bench/gpu-advisor.json). Session 75, after
// the kernels of sessions 28-74, on those 15 and three of 20M nonzeros: 0.71 and 0.61
// (gpu-advisor-session75.json); with SpTV's CSR product fixed for rows of more than one nonzero
// and MM-CSF's leaf adds and HLS's fp64 adds charged as measured (cost_model.cpp), on five
// tensors neither was chosen on: 0.90 and 0.92 (gpu-advisor-session75-check.json). Session 76,
// with COO's modes other than the first charged one more pass and HLS's sparse part on COO's
// kernels, on the same five: 0.94 and 0.92 (gpu-advisor-session76-check.json). Session 77, after
// COO's and BLCO's teams were sized to small tensors (BLCO then within 1.0-1.1x the best time on
// powerlaw-4d, uniform-5d, powerlaw-5d and blocks-5d): 0.75 and 0.80 on the 15, 0.88 and 0.91 on the
// five (gpu-advisor-session77.json, -check.json, call 2); with a heavy row's queued atomics in the
// trees and no unpacking pass for BLCO and COO (cost_model.cpp), 0.76 and 0.83 on the 15, 0.92 and
// 0.95 on the five (-session77c.json, -session77c-check.json, call 3). There HLS measured 2.3-3.2x
// the best time on the four blocks tensors with dense tiles, predicted 1.05-1.3x: a dense-tile
// cell charged 1, 4, 16, 32, 64 and 128 bytes, regraded on calls 2-3, gave MTTKRP 0.76, 0.78,
// 0.79, 0.81, 0.83 and 0.81 over call 3's 15 (0.83, 0.84, 0.86, 0.88, 0.88, 0.86 over call 2's),
// and on the five 0.92 up to 32 (at 64 and 128: 0.92 and 0.89 on call 3's, 0.90 and 0.87 on
// call 2's; gpu-advisor-session77-regrades.json): 32, a sector a cell. Measured with it (call 4, -session77d.json, -check.json): 0.81
// and 0.87 on the 15, 0.92 and 0.99 on the five.
constexpr Weights kGpuWeights{1.0, 4.0, 32.0, 8.0, 32.0, 0.0};

const Weights& weights_for(Backend b) { return b == Backend::Cuda ? kGpuWeights : kCpuWeights; }

// The term-by-term seconds of a traffic (the reasons compare them).
struct Terms {
    double stream = 0, compute = 0, miss = 0, nodes = 0, steps = 0, cells = 0;
    double total() const { return stream + compute + miss + nodes + steps + cells; }
};

Terms terms_of(const Traffic& t, const Weights& w, double bandwidth_gbps) {
    const double bps = bandwidth_gbps * 1e9;
    return {(t.stream_bytes - t.cached_bytes + w.compute * t.cached_bytes) / bps, w.compute * t.compute_bytes / bps, w.miss * t.miss_bytes / bps, w.node * t.nodes / bps,
            w.step * t.steps / bps, (w.cell * t.cells + w.minority * t.minority) / bps};
}

std::string fmt(const char* f, double x) {
    char buf[64];
    std::snprintf(buf, sizeof buf, f, x);
    return buf;
}
// A time ratio as people write it: 1.04x, 2.7x, 1,100x (not "%.2g"'s 1.1e+03x, nor "1x" for 1.004).
std::string ratio(double x) {
    if (x >= 1e15 || !std::isfinite(x)) return fmt("%.3gx", x);  // past llround's range
    if (x >= 99.95) return grouped(static_cast<std::uint64_t>(std::llround(x))) + "x";
    return fmt(x < 9.995 ? "%.2fx" : "%.1fx", x);  // the form picked after rounding: not "10.00x"
}
// How f's predicted time compares with the best's: "tied with CSF" within half a percent (one
// wording, where "1x" and "predicted tied" had said it two ways), else "1.23x the time of CSF".
std::string against_best(double seconds, double best_seconds, const std::string& best) {
    if (seconds <= best_seconds * 1.005) return "tied with " + best;
    return ratio(seconds / best_seconds) + " the time of " + best;
}
// "1 nonzero" or "3.2 nonzeros": a mean count with its noun.
std::string nonzeros(double x);
// A mean count as people write it: 3.21, 48.5, 2000 (not "%.3g"'s 2e+03).
std::string amount(double x) {
    if (x >= 1e15 || !std::isfinite(x)) return fmt("%.3g", x);
    return x >= 999.5 ? grouped(static_cast<std::uint64_t>(std::llround(x))) : fmt("%.3g", x);  // 999.6: not "1e+03"
}
std::string nonzeros(double x) { return amount(x) + (amount(x) == "1" ? " nonzero" : " nonzeros"); }

// Why a format cannot run for this tensor (its builder's refusals, from the counts), or "".
std::string refusal(const TensorProfile& p, KernelKind kernel, Backend backend, FormatKind kind, const std::vector<int>& modes) {
    if (!kernel_supports(kernel, backend, kind))
        return std::string(backend_name(backend)) + " has no " + kernel_name(kernel) + " kernel for " + format_name(kind);
    const FormatEntry& e = format_entry(kind);
    if (p.order() < e.min_order) return std::string(e.name) + " needs a tensor of order " + std::to_string(e.min_order) + " or more";
    if (kernel == KernelKind::SpTV && p.order() < 2)
        return "SpTV needs a tensor of order 2 or more";  // kernels/sptv.cpp's own
    if (kind == FormatKind::HLS && !p.hls_defined) return hls_refusal(p.dims);
    if (kind == FormatKind::ALTO) {  // the builder's own refusal: an index of over 128 bits
        try {
            alto_layout(p.dims);
        } catch (const InputError& e) {
            return e.what();
        }
    }
    for (int m : modes) {
        const auto mu = static_cast<std::size_t>(m);
        // the builders' own refusals (format_builders.hpp), on the trees SpTV builds
        if (kind == FormatKind::HOCSR && kernel == KernelKind::SpTV)
            if (std::string why = hocsr_refusal(p.dims, sptv_options(kind, p.order(), m).mode_order); !why.empty()) return why;
        if (kind == FormatKind::HOCFS_ELL) {
            const std::vector<int> order = sptv_options(FormatKind::CSF, p.order(), m).mode_order;  // p.sptv_trees'
            if (std::string why = hocfs_ell_refusal(order, p.nnz, p.sptv_trees[mu].ell_cells, p.index_max());
                !why.empty())
                return why;
        }
    }
    return "";
}

// ---- reasons ----------------------------------------------------------------------------------

// The nonzeros per fiber over the sweep's fibers (every mode's nonzeros over all their fibers),
// what the loop's cost per fiber follows: MovieLens's modes hold 1.54, 39.8 and 1, and their
// plain mean (14.1) had suggested long fibers where 99% of those the sweep visits hold 1 or 2.
double mean_fiber_nnz(const TensorProfile& p, const std::vector<int>& modes) {
    double fibers = 0;
    for (int m : modes) fibers += static_cast<double>(p.stats.modes[static_cast<std::size_t>(m)].fibers);
    return fibers > 0 ? static_cast<double>(p.nnz) * static_cast<double>(modes.size()) / fibers : 0;
}

// nonzeros per node of CSF's fiber level over the trees MTTKRP walks (all their nonzeros over
// all their fiber nodes, as mean_fiber_nnz); an order-1 tensor has no fiber level (its trees are
// the nonzeros alone), and this is not asked
double csf_fiber_nnz(const TensorProfile& p, const std::vector<int>& modes) {
    if (p.order() < 2) throw std::logic_error("csf_fiber_nnz: an order-1 tensor's trees have no fiber level");
    double nnz = 0, fibers = 0;
    for (int m : modes) {
        const TreeCounts& c = p.csf_trees[static_cast<std::size_t>(m)];
        nnz += static_cast<double>(c.nnz);
        fibers += static_cast<double>(std::max<std::uint64_t>(1, c.nodes[c.nodes.size() - 2]));
    }
    return fibers > 0 ? nnz / fibers : 0;
}

std::string sptv_reason(const TensorProfile& p, const FormatAdvice& f, const FormatAdvice& best, const std::vector<int>& modes,
                        bool is_best, Backend backend) {
    const std::string fibers = "fibers average " + nonzeros(mean_fiber_nnz(p, modes));
    const std::string name = format_name(f.format);
    if (f.format == FormatKind::HOCFS_ELL) {
        std::uint64_t cells = 0;
        for (int m : modes) cells += p.sptv_trees[static_cast<std::size_t>(m)].ell_cells;
        const double pad = static_cast<double>(cells) / (static_cast<double>(p.nnz) * static_cast<double>(modes.size())) - 1;
        return "ELL pads each slice's fibers to the slice's longest (" + fmt("%.0f%%", 100 * pad) +
               " padding) and keeps 32 bytes of row bookkeeping per fiber: " + fibers + ", so it moves " +
               human_bytes(f.bytes_moved) +
               (is_best ? "" : " against " + human_bytes(best.bytes_moved) + " for " + format_name(best.format));
    }
    if (f.format == FormatKind::HOCSR) {  // its own loop over every row (hocfs Alg. 4; cuda/sptv_tuples.cuh)
        const std::string moved =
            std::string(backend == Backend::Cuda ? "HOCSR's GPU kernel" : "HOCSR's loop (hocfs Alg. 4)") +
            " reads the row offset of every index tuple of the other modes, most of them "
            "empty rows: it moves " +
            human_bytes(f.bytes_moved);
        if (is_best) return moved + "; predicted fastest";
        return moved + " against " + human_bytes(best.bytes_moved) + " for " + format_name(best.format) +
               "; predicted " + against_best(f.seconds, best.seconds, format_name(best.format));
    }
    // the other four run one loop (fiber_sums) over index, value and offset arrays of the same
    // widths (cost_model.cpp)
    const std::string pointer = std::to_string(p.index_bytes * 8) + "-bit fiber pointer";
    const std::string loop = fibers + ": " + name + " runs the CSR loop over an index and a value per nonzero and a " +
                             pointer + " and a result per fiber, " + human_bytes(f.bytes_moved) + " per sweep";
    if (is_best)
        return loop +
               (backend == Backend::Cuda
                    ? "; COO, CFB, HOCFS-CSR and CSF run the same product and are predicted tied (the smaller first)"
                    : "; COO, CFB, HOCFS-CSR and CSF run the same loop and are predicted tied (the smaller first)");
    const bool same_loop = best.format == FormatKind::COO || best.format == FormatKind::CFB ||
                           best.format == FormatKind::HOCFS_CSR || best.format == FormatKind::CSF;
    if (same_loop && f.seconds <= best.seconds * 1.0001)
        return loop + "; the same loop as " + std::string(format_name(best.format)) + ", predicted tied";
    return loop + "; predicted " + against_best(f.seconds, best.seconds, format_name(best.format));
}

// "CSF's fibers average 3.2 nonzeros", or "" for an order-1 tensor, where CSF is refused
std::string csf_fibers_phrase(const TensorProfile& p, const std::vector<int>& modes) {
    return p.order() < 2 ? "" : "CSF's fibers average " + nonzeros(csf_fiber_nnz(p, modes));
}

std::string mttkrp_phrase(const TensorProfile& p, FormatKind k, const std::vector<int>& modes, Backend backend) {
    const std::string fibers = csf_fibers_phrase(p, modes);
    switch (k) {
    case FormatKind::COO:
        return (p.order() == 1
                    ? std::string("COO reads no factor row")
                    : "COO reads " + counted(static_cast<std::uint64_t>(p.order() - 1), "factor row", "factor rows")) +
               " and adds one output row per nonzero" +
               (fibers.empty()
                    ? ""
                    : " (" + fibers +
                          ": a tree would read one row per fiber instead of per nonzero for its upper modes)");
    case FormatKind::BLCO:
        return "BLCO walks its nonzeros as COO does, each index unpacked from one 64-bit key: " +
               counted(static_cast<std::uint64_t>(p.order() - 1), "factor row", "factor rows") +
               " read and one output row added per nonzero" + (fibers.empty() ? "" : " (" + fibers + ")");
    case FormatKind::ALTO:
        return "ALTO keeps one copy in the order of its interleaved index, so nonzeros that follow each other share "
               "rows; " +
               std::string(p.order() == 3 ? "each nonzero is one fused loop (out += x a .* b)"
                                          : "each nonzero is one loop per mode (q = x a, q .*= the others, out += q)") +
               ", against COO's " + std::to_string(p.order() + 1);
    case FormatKind::HiCOO: {
        const double per_block = static_cast<double>(p.nnz) / static_cast<double>(std::max<std::uint64_t>(1, p.hicoo_blocks));
        const std::string held = p.hicoo_blocks == 1 ? "HiCOO's one block holds all " + nonzeros(per_block) + ", "
                                                     : "HiCOO's " + grouped(p.hicoo_blocks) + " blocks hold " +
                                                           nonzeros(per_block) + " each, ";
        return held + (per_block < 8 ? "too few to reuse factor rows" : "reusing rows within a block") +
               ", and it still adds one output row per nonzero";
    }
    case FormatKind::CSF:
    case FormatKind::BCSF: {
        // short fibers: the walk pays a node (a call, a zeroed sum, a product) for about every
        // nonzero, which costs more than sharing the upper rows saves
        const bool short_fibers = csf_fiber_nnz(p, modes) < 2;
        const std::string name = k == FormatKind::CSF ? "CSF" : "B-CSF";
        const std::string split = k == FormatKind::CSF ? ""
                                                       : " (B-CSF is CSF with fibers over " +
                                                             std::to_string(p.options.bcsf_fiber_threshold) + " split)";
        return fibers +
               (short_fibers
                    ? ": " + name + "'s fiber level costs more than it saves (a tree node per nonzero or so)"
                    : ": " + name + " rooted at each mode reads an upper factor row once per fiber, not per nonzero") +
               split;
    }
    case FormatKind::MMCSF: {
        std::string parts;
        for (const TreeCounts& c : p.mmcsf_parts)
        {
            const double share = 100.0 * static_cast<double>(c.nnz) / static_cast<double>(p.nnz);
            // whole percents but at the ends, where <1% and 100% had read as summing past 100
            const std::string pct = share < 0.5 ? "<1%" : share > 99.5 && share < 100 ? ">99%" : fmt("%.0f%%", share);
            parts += (parts.empty() ? "" : ", ") + pct + " with mode " + std::to_string(c.order.back() + 1) +
                     " at the leaves";
        }
        return "MM-CSF keeps one copy (" + parts + "): for most modes the mode sits below the root, so its rows are shared, " +
               std::string(backend == Backend::Cuda ? "added by an atomic per node (which the GPU's lanes do not wait for)"
                                                    : "added per node and summed from per-thread copies");
    }
    case FormatKind::HLS: {
        const double share = p.nnz ? static_cast<double>(p.hls_dense_nnz) / static_cast<double>(p.nnz) : 0;
        const double per_tile = p.hls_dense_tiles ? static_cast<double>(p.hls_dense_nnz) / static_cast<double>(p.hls_dense_tiles) : 0;
        // the GPU's sparse part is no fused pass but COO's kernels (cuda/hls_sparse_kernel.hpp)
        const std::string sparse_walk =
            backend == Backend::Cuda
                ? "to the sparse part, which the GPU runs on COO's kernels"
                : "element-wise, in one fused pass per nonzero (COO makes " + std::to_string(p.order() + 1) + ")";
        if (p.hls_dense_tiles == 0)
            return "HLS: no 16^3 tile reaches the dense threshold of " + std::to_string(p.options.hls_threshold) +
                   " nonzeros, so every nonzero goes " + sparse_walk;
        const double rare = static_cast<double>(p.hls_dense_minority) / static_cast<double>(p.hls_dense_tiles);
        // one decimal, as the Density tab says it (0.056% read "0%" here and "0.1%" there, sweep 70c C11)
        return "HLS: " + fmt("%.1f%%", 100 * share) + " of the nonzeros lie in " +
               counted(p.hls_dense_tiles, "dense 16^3 tile", "dense 16^3 tiles") + " (" + fmt("%.0f", per_tile) +
               " per tile, each walked as 4096 cells, " + fmt("%.0f", rare) +
               " of whose zero tests go the rarer way, a mispredicted branch each); the rest go " +
               (backend == Backend::Cuda ? std::string("to COO's kernels") : std::string("element-wise as in COO"));
    }
    default: return format_name(k);
    }
}

std::string mttkrp_reason(const TensorProfile& p, const FormatAdvice& f, const FormatAdvice& best, const std::vector<int>& modes,
                          bool is_best, Backend backend) {
    const std::string phrase = mttkrp_phrase(p, f.format, modes, backend);
    if (is_best) return phrase + "; predicted fastest";
    return phrase + "; predicted " + against_best(f.seconds, best.seconds, format_name(best.format));
}

// `least` is the supported row that moves the fewest bytes: the fastest need not be it, where
// another's work per nonzero costs more than its bytes save (HLS's tiles on TTMc), and it had
// been called "the least" whatever the others moved (sweep 70c C4).
std::string reason_for(const TensorProfile& p, KernelKind kernel, Backend backend, const FormatAdvice& f,
                       const FormatAdvice& best, const FormatAdvice& least, const std::vector<int>& modes) {
    const bool is_best = &f == &best;
    if (kernel == KernelKind::SpTV) return sptv_reason(p, f, best, modes, is_best, backend);
    if (kernel == KernelKind::MTTKRP) return mttkrp_reason(p, f, best, modes, is_best, backend);
    const std::string moved = format_name(f.format) + std::string(" moves ") + human_bytes(f.bytes_moved);
    const std::string model = "a rough model for " + std::string(kernel_title(kernel));
    if (is_best && least.bytes_moved < f.bytes_moved)
        return moved + "; predicted fastest: " + format_name(least.format) + " moves less (" +
               human_bytes(least.bytes_moved) + ") but its work per nonzero costs more (" + model + ")";
    if (is_best) return moved + ", the least; predicted fastest (" + model + ")";
    return moved + " against " + human_bytes(best.bytes_moved) + " for " + format_name(best.format) + "; predicted " +
           against_best(f.seconds, best.seconds, format_name(best.format));
}

// How rough the GPU ranking is: each kernel's agreement with one H200's measurements where the
// GPU evaluation covered it (docs/bench/gpu-advisor.json), else that it was not measured.
std::string gpu_caveat(KernelKind kernel) {
    const std::string head = "a rough ranking: ";
    if (kernel == KernelKind::MTTKRP || kernel == KernelKind::SpTV)
        return head + "against one H200's measurements the GPU predictions agreed at a mean Kendall tau of " +
               (kernel == KernelKind::MTTKRP ? "0.92 for MTTKRP" : "0.99 for SpTV") +
               " on five tensors (docs/bench/gpu-advisor-session77d-check.json), the CPU's at 0.96 for MTTKRP and 1.0 "
               "for SpTV "
               "on ten (cpu-advisor-session74.json); bench measures";
    return head + "the GPU predictions for " + kernel_title(kernel) +
           " have not been measured against a GPU (MTTKRP's agreed at a mean Kendall tau of 0.92); bench measures";
}

// Where the cuda CSF and B-CSF trees of the modes asked for take the GPU's level order (a tiny
// mode at the leaves, kernels/gpu_level_order.cpp) rather than SPLATT's, which the model costs:
// its charge of a level's row gathers (one a fiber) does not see the parents' rows that a tree's
// next fibers find in cache, which is where that order gains. MM-CSF's partitions likewise (a
// tiny mode just above the leaves), whichever modes are asked. Says so, with what was measured;
// empty elsewhere.
std::string level_order_caveat(const TensorProfile& p, const AdviceRequest& request, const std::vector<int>& modes,
                               const MachineFigures& machine) {
    if (request.backend != Backend::Cuda || request.kernel != KernelKind::MTTKRP || !p.options.mode_order.empty())
        return {};
    std::string moved;
    for (int m : modes) {
        const std::vector<int> gpu = gpu_level_order(p.dims, m, request.rank, machine.cache_bytes);
        if (gpu == default_mode_order(p.dims, m)) continue;
        if (!moved.empty()) moved += ", ";
        moved += "mode " + std::to_string(m + 1) + " (" + levels_text(gpu) + ")";
    }
    std::string why;
    if (!moved.empty())
        why = "CSF's and B-CSF's trees for " + moved +
              " run on the GPU with a tiny mode at the leaves, where the model costs SPLATT's order: "
              "on delicious-4d's shape that order took 8-10% less time on one H100 (docs/bench/h100-session96.json)";
    if (const auto orders = gpu_mmcsf_orders(p.dims, request.rank, machine.cache_bytes); !orders.empty())
        why += std::string(why.empty() ? "" : "; ") + "MM-CSF's " + partition_levels_text(orders) +
               " run on the GPU with a tiny mode just above the leaves, where the model costs the paper's: on "
               "delicious-4d's shape those took 5.5% less time over the four modes on one H200 and 8.4% on one "
               "H100 (docs/bench/h200-session97.json, h100-session97.json)";
    return why;
}

// Why bench would refuse the run, where its dense operands (a factor per mode, or SpTV's
// vector, and TTMc's R^(N-1)-wide outputs beside the tensor, as bench's check_ttmc_outputs_fit
// asks) cannot be held on this machine; empty where they can. The ranking still compares the
// formats, but says so: it had ranked runs of zettabytes as if they could run (sweep 65), and
// TTMc runs of 42 GB on a 25 GB machine (sweep 75a F9).
std::string operands_unheld(const TensorProfile& profile, const AdviceRequest& request, const std::vector<int>& modes) {
    try {
        const long double tensor =
            static_cast<long double>(profile.nnz) * (profile.order() * profile.index_bytes + profile.value_bytes);
        if (request.kernel == KernelKind::TTMc)
            for (int m : modes) {
                const long double cols = std::pow(static_cast<long double>(request.rank), profile.order() - 1);
                check_fits_memory(
                    cols * static_cast<long double>(profile.dims[static_cast<std::size_t>(m)]) * 8.0L + tensor,
                    "TTMc's output for mode " + std::to_string(m + 1) + " at rank " + std::to_string(request.rank) +
                        ", beside the tensor,");
            }
        if (request.kernel == KernelKind::SpTV)
            check_per_index_fits(profile.dims, 1, "its vector");
        else
            check_factors_fit(
                profile.dims, request.rank,
                static_cast<long double>(profile.nnz) * (profile.order() * profile.index_bytes + profile.value_bytes));
    } catch (const InputError& e) {
        return std::string("this run cannot be held here, and bench would refuse it (") + e.what() +
               "): the ranking only compares the formats";
    }
    return {};
}

}  // namespace

Advice advise(const TensorProfile& profile, const AdviceRequest& request, const MachineFigures& machine) {
    if (request.backend == Backend::CpuRef)
        throw InputError("advise: cpu-ref times the serial oracle on the coordinates, whatever the format; ask for omp or cuda");
    if (request.rank == 0) throw InputError("--rank must be at least 1");
    const std::vector<int> modes = request.modes.empty() ? natural_modes(profile.order()) : request.modes;
    for (int m : modes) check_mode(m, profile.order());
    Advice advice;
    advice.request = request;
    advice.request.modes = modes;
    advice.machine = machine;
    const Weights& w = weights_for(request.backend);
    for (FormatKind kind : available_formats()) {
        if (!kernel_supports(request.kernel, request.backend, kind)) continue;
        FormatAdvice f;
        f.format = kind;
        f.refusal = refusal(profile, request.kernel, request.backend, kind, modes);
        f.supported = f.refusal.empty();
        if (f.supported) {
            std::uint64_t storage = 0;
            for (int m : modes) {
                bool exact = true;
                storage += predicted_storage(profile, request.kernel, kind, m, &exact, request.rank);
                f.storage_exact = f.storage_exact && exact;
                if (!format_is_per_mode(kind)) break;  // one copy serves every mode
                // the bench builds it once for MTTKRP and TTMc (SpTV and SpTTM contract or unfold a mode)
                if (kind == FormatKind::COO &&
                    (request.kernel == KernelKind::MTTKRP || request.kernel == KernelKind::TTMc))
                    break;
            }
            f.storage_bytes = storage;
            for (int m : modes) {
                ModePrediction mp;
                mp.mode = m;
                mp.traffic = detail::kernel_traffic({profile, request.kernel, kind, m, request.rank, machine});
                mp.bytes_moved = mp.traffic.stream_bytes + mp.traffic.miss_bytes;  // what crosses the memory bus
                mp.seconds = terms_of(mp.traffic, w, machine.bandwidth_gbps).total();
                f.bytes_moved += mp.bytes_moved;
                f.seconds += mp.seconds;
                f.modes.push_back(mp);
            }
        }
        advice.ranking.push_back(std::move(f));
    }
    // Formats predicted alike (equal as floats, 24 bits: the same loop over the same bytes) go by
    // their storage, smallest first: among SpTV's four tied CSR formats the first listed, COO, had
    // been recommended at 6.0 MB over CSF's 5.0 (sweep 75a F5).
    std::stable_sort(advice.ranking.begin(), advice.ranking.end(), [](const FormatAdvice& a, const FormatAdvice& b) {
        if (a.supported != b.supported) return a.supported;
        if (!a.supported) return false;
        const auto sa = static_cast<float>(a.seconds), sb = static_cast<float>(b.seconds);
        return sa != sb ? sa < sb : a.storage_bytes < b.storage_bytes;
    });
    if (advice.ranking.empty() || !advice.ranking.front().supported) {
        advice.summary = std::string("no format runs ") + kernel_title(request.kernel) + " on " + backend_name(request.backend) +
                         " for this tensor";
        for (FormatAdvice& f : advice.ranking) f.reason = f.refusal;
        return advice;
    }
    const FormatAdvice& best = advice.ranking.front();
    const FormatAdvice* least = &best;
    for (const FormatAdvice& f : advice.ranking)
        if (f.supported && f.bytes_moved < least->bytes_moved) least = &f;
    for (FormatAdvice& f : advice.ranking)
        f.reason =
            f.supported ? reason_for(profile, request.kernel, request.backend, f, best, *least, modes) : f.refusal;
    advice.summary = std::string(format_name(best.format)) + " for " + kernel_title(request.kernel) + " on " +
                     backend_name(request.backend) + ": " + best.reason;
    if (request.backend == Backend::Cuda) advice.caveat = gpu_caveat(request.kernel);
    if (const std::string why = level_order_caveat(profile, request, modes, machine); !why.empty())
        advice.caveat += (advice.caveat.empty() ? "" : "; ") + why;
    if (const std::string why = operands_unheld(profile, request, modes); !why.empty())
        advice.caveat = why + (advice.caveat.empty() ? "" : "; " + advice.caveat);
    return advice;
}

double kendall_tau(const std::vector<double>& a, const std::vector<double>& b, double tolerance) {
    if (a.size() != b.size()) throw InputError("kendall_tau: lists of different lengths");
    const std::size_t n = a.size();
    if (n < 2) return 1;
    auto sign = [&](double x, double y) {
        const double scale = std::max(std::fabs(x), std::fabs(y));
        if (std::fabs(x - y) <= tolerance * scale) return 0;
        return x < y ? -1 : 1;
    };
    double concordant = 0, discordant = 0, pairs = 0, ties_a = 0, ties_b = 0;
    for (std::size_t i = 0; i < n; ++i)
        for (std::size_t j = i + 1; j < n; ++j) {
            const int sa = sign(a[i], a[j]), sb = sign(b[i], b[j]);
            pairs += 1;
            ties_a += sa == 0;
            ties_b += sb == 0;
            if (sa * sb > 0) concordant += 1;
            if (sa * sb < 0) discordant += 1;
        }
    const double denom = std::sqrt((pairs - ties_a) * (pairs - ties_b));
    if (denom == 0) return ties_a == pairs && ties_b == pairs ? 1.0 : 0.0;
    return (concordant - discordant) / denom;
}

}  // namespace tscope
