// The same tensor in two numberings side by side (the Reorder view of issue 25): its file order
// and a relabelling's, each with a two-mode density map, the storage of chosen formats (HiCOO's
// block count, HLS's dense 16^3 tiles) and an MTTKRP sweep time per chosen format.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "tscope/formats/format_survey.hpp"
#include "tscope/reorder/relabelling.hpp"
#include "tscope/run_control.hpp"
#include "tscope/tensor/density_map.hpp"

namespace tscope {

struct ReorderSide {
    DensityMap map;
    std::vector<FormatRow> storage;                 // one row per storage format (mode 1 for per-mode ones)
    std::optional<std::uint64_t> hicoo_blocks;      // where HiCOO was surveyed
    std::optional<std::uint64_t> hls_dense_tiles;   // order 3: 16^3 tiles at HLS's threshold
    // omp, every mode once, median per mode; the faster of two rounds timed in turn with the other order
    std::vector<std::pair<FormatKind, double>> mttkrp_sweep_s;
};

struct ReorderComparison {
    Relabelling relabelling;
    ReorderSide before, after;
};

struct ReorderCompareRequest {
    ReorderMethod method = ReorderMethod::Lexi;
    int iters = kLexiIterations;
    std::uint64_t seed = 1;
    int map_x = 0, map_y = 1;
    std::vector<FormatKind> storage_formats;  // empty: COO, CSF, B-CSF, HiCOO (and HLS for order 3)
    std::vector<FormatKind> mttkrp_formats;   // empty: no MTTKRP runs
    std::uint64_t rank = 16;
    int repeat = 3;
};

// Stages: "file order: ...", "reordering", "<method>: ..."; cancellable between every step.
ReorderComparison compare_reordering(const CooTensor& t, const ReorderCompareRequest& request, RunControl& control = no_control());

}  // namespace tscope
