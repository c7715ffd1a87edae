// The format advisor (issue 20): from a tensor's statistics alone (no format built, no kernel
// run) it predicts, for a kernel and a backend, each format's storage, the bytes the kernel
// moves and its time, ranks the formats and says why in a sentence.
//
// The statistics are those of tensor_stats.hpp (slices, fibers, their lengths) plus the counts
// the formats' storage formulas need and TensorStats does not hold: the nodes of every tree level
// (distinct index prefixes in the tree's mode order), the B-CSF fiber pieces, the HOCFS-ELL
// padded cells, the HiCOO blocks, the HLS dense tiles (hls_tile_map), the MM-CSF partition sizes
// (its own partition rule). All are counts over sorted index tuples: no format is built.
//
// The time model (cost_model.cpp) charges each run with the bytes it streams, the factor rows it
// gathers and scatters (cheap while the matrix fits the last-level cache, dear when it does not)
// and HLS's dense-tile cells, all in bytes at the machine's measured copy bandwidth
// (machine_figures.cpp). Its few weights were fitted once on this project's CPU measurements
// (docs/bench/cpu-advisor.json says which tensors); docs/bench/scripts/advisor_eval.py checks the
// ranking against `bench` on tensors that were not used for fitting.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "tscope/formats/format.hpp"
#include "tscope/kernels/backend.hpp"
#include "tscope/kernels/kernel_registry.hpp"
#include "tscope/run_control.hpp"
#include "tscope/tensor/coo_tensor.hpp"
#include "tscope/tensor/tensor_stats.hpp"

namespace tscope {

// The levels of one tree (CSF, HOCFS, an MM-CSF partition) over a mode order, root first.
struct TreeCounts {
    std::vector<int> order;
    std::vector<std::uint64_t> nodes;  // per level: distinct prefixes; the last level is the nonzeros
    std::uint64_t nnz = 0;
    std::uint64_t split_fibers = 0;    // B-CSF: fibers (the level above the nonzeros) cut at the threshold
    std::uint64_t ell_blocks = 0;      // HOCFS-ELL: the fibers' parents (one block for order 2)
    std::uint64_t ell_cells = 0;       // HOCFS-ELL: sum over blocks of fibers x the block's longest fiber
    std::uint64_t max_slice_nnz = 0;   // B-CSF's slice bins: bit_width of this
};

// Everything the model reads about a tensor.
struct TensorProfile {
    std::vector<std::uint64_t> dims;
    std::uint64_t nnz = 0;
    std::uint32_t index_bytes = 4;  // the formats' index width (format_uses_32bit)
    // that index type's largest value (the builders refuse arrays that would outgrow it)
    std::uint64_t index_max() const { return index_bytes == 4 ? 0xffffffffull : ~std::uint64_t{0}; }
    std::uint32_t value_bytes = 8;
    TensorStats stats;
    FormatOptions options;                 // thresholds the counts were taken with
    std::vector<TreeCounts> csf_trees;     // per mode: CSF rooted at the mode (SPLATT's order)
    std::vector<TreeCounts> sptv_trees;    // per mode: the other modes ascending, the mode last
    std::vector<TreeCounts> mmcsf_parts;   // MM-CSF's non-empty partitions, leaf mode last
    std::uint64_t hicoo_blocks = 0;
    bool hls_defined = false;              // order 3
    std::uint64_t hls_tiles = 0, hls_dense_tiles = 0, hls_dense_nnz = 0;
    std::uint64_t hls_dense_minority = 0;  // summed over dense tiles: the rarer of nonzero and zero cells
    std::uint64_t hls_ttmc_dense_tiles = 0, hls_ttmc_dense_nnz = 0;  // at options.hls_ttmc_threshold
    std::uint32_t hls_index_bytes = 4;
    double seconds = 0;                    // time to gather all this
    // A profile gathered in bounded memory from a file (profile_tsb, streamed_profile.hpp): per
    // mode, its own trees in HOCFS's default order (the mode, then the others ascending), as the
    // Formats survey builds HOCFS; which counts are estimates (sketched); and what could not be
    // determined at all, with the reason. A loaded tensor's profile has none of these.
    std::vector<TreeCounts> root_trees;
    struct Sketched {
        bool any = false;  // the profile is a streamed one
        std::vector<bool> fibers, csf_trees, sptv_trees, root_trees;  // per mode
        std::vector<std::string> sptv_ell_missing, root_ell_missing;  // per mode: "" where counted
        std::string mmcsf_missing, hls_missing;
    } sketched;

    int order() const { return static_cast<int>(dims.size()); }
};

// Gathers the profile; the options' thresholds (B-CSF, HiCOO bits, HLS) are those the formats use.
TensorProfile profile_tensor(const CooTensor& t, const FormatOptions& options = {}, RunControl& control = no_control());

// What the model knows of the machine a backend runs on.
struct MachineFigures {
    Backend backend = Backend::Omp;
    std::string device;          // in words
    double bandwidth_gbps = 0;   // copy bandwidth, bytes read plus written
    std::string source;          // "measured now", or the recording it comes from
    std::uint64_t cache_bytes = 0;  // last-level cache (CPU) or L2 (GPU)
    int threads = 1;
};
// The host's figures: measure_copy_bandwidth() once per process (later calls reuse it).
MachineFigures cpu_figures();
// The GPU's: measured where a GPU is present, else the recorded H100 figures (docs/bench/h100*.json).
MachineFigures gpu_figures();
MachineFigures machine_figures(Backend backend);

// What one run costs, split by how it is paid for (the model's terms).
struct Traffic {
    double stream_bytes = 0;   // read or written in order: the format's arrays, the outputs
    double cached_bytes = 0;   // the part of stream_bytes a repeated run finds in the cache
    double compute_bytes = 0;  // vector work on data in cache: each pass over a factor row (R doubles)
                               // or, for SpTV, each nonzero's multiply-add (8 bytes)
    double miss_bytes = 0;     // rows read or added into at random from matrices larger than the cache
    double nodes = 0;          // steps of a recursive tree walk (CSF-family MTTKRP and TTMc): calls, scratch set-up
    double steps = 0;          // steps of a flat loop that do no vector work: SpTV fibers, HiCOO blocks, HLS tiles
    double cells = 0;          // HLS: dense-tile cells walked (zeros included)
    double minority = 0;       // HLS: dense-tile cells whose zero test goes the less common way
    double flops = 0;          // for the report (the bench's COO basis)
};

// One (format, mode) prediction. mode is 0-based.
struct ModePrediction {
    int mode = 0;
    Traffic traffic;
    double bytes_moved = 0;  // the kernel's bytes: streamed plus gathered and scattered rows
    double seconds = 0;
};

// One format's line of the ranking: the sum over the requested modes (a CPD sweep for MTTKRP).
struct FormatAdvice {
    FormatKind format;
    bool supported = true;
    std::string refusal;             // why it cannot run (order, backend), when not supported
    std::uint64_t storage_bytes = 0; // every mode's copy for per-mode formats, one copy otherwise
    bool storage_exact = true;       // equal to the built format's storage().bytes()
    double bytes_moved = 0;
    double seconds = 0;
    std::vector<ModePrediction> modes;
    std::string reason;              // one sentence
};

struct AdviceRequest {
    KernelKind kernel = KernelKind::MTTKRP;
    Backend backend = Backend::Omp;
    std::vector<int> modes;  // empty: every mode
    std::uint64_t rank = 32;
};

struct Advice {
    AdviceRequest request;
    MachineFigures machine;
    std::vector<FormatAdvice> ranking;  // supported formats fastest first, then the refused ones
    std::string summary;                // the winner and why
    std::string caveat;                 // how far to trust the ranking, where it is known to be rough
};

// The prediction for every format the backend runs the kernel on. InputError for a cpu-ref
// backend (it times the oracle on coordinates, whatever the format) or a bad mode.
Advice advise(const TensorProfile& profile, const AdviceRequest& request, const MachineFigures& machine);

// The model's storage for a format as `kernel` builds it for `mode` (0-based; ignored by one-copy
// formats; SpTV's formats contract the mode, MTTKRP's trees are rooted at it), in bytes with real
// widths; exact says whether the statistics determine it exactly. `rank`: SpTTM's on sCOO is the
// input SspTTM reads at that rank, a TTM chain's product (0: formats' sCOO, dims[mode] values a fiber).
std::uint64_t predicted_storage(const TensorProfile& profile, KernelKind kernel, FormatKind kind, int mode,
                                bool* exact = nullptr, std::uint64_t rank = 0);

// The tree of a mode order over the nonzeros (or the listed ones): the counts of TreeCounts.
TreeCounts tree_counts(const CooTensor& t, const std::vector<int>& order, std::uint64_t fiber_threshold,
                       const std::vector<std::uint64_t>* subset = nullptr);

// Kendall's tau-b between two score lists (ties allowed); pairs whose scores differ by less than
// `tolerance` (relative) count as tied. 1 for fewer than two items.
double kendall_tau(const std::vector<double>& a, const std::vector<double>& b, double tolerance = 0);

}  // namespace tscope
