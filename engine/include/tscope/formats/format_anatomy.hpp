// A format laid open for teaching (small tensors only): every array's contents, and for every
// nonzero the cells it occupies in every array (its indices, the pointers and counts of the
// slices and fibers it belongs to, its value). Values are as stored in memory: 0-based
// indices and offsets (the papers print them 1-based).
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "tscope/formats/format.hpp"

namespace tscope {

struct AnatomyArray {
    std::string name;     // the paper's name, as in StorageReport
    std::string meaning;
    std::vector<std::string> cells;
};

struct AnatomyEntry {
    std::vector<std::uint64_t> coord;  // original modes, 0-based
    double value = 0;
    std::vector<std::pair<std::uint32_t, std::uint64_t>> cells;  // (array, position) it occupies
};

struct FormatAnatomy {
    std::string format;
    std::vector<AnatomyArray> arrays;
    std::vector<AnatomyEntry> entries;  // in storage order
};

// InputError for more than max_nnz nonzeros, and for formats without a teaching layout (HLS,
// sCOO), saying why.
FormatAnatomy format_anatomy(const SparseFormat& format, std::uint64_t max_nnz = 500);

}  // namespace tscope
