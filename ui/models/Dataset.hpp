// What the explorer shows: one loaded (or generated) tensor with its load report and
// statistics. Built off the GUI thread, then shared read-only by every panel.
#pragma once

#include <QString>
#include <algorithm>
#include <memory>

#include "tscope/io/tensor_io.hpp"
#include "tscope/tensor/coo_tensor.hpp"
#include "tscope/tensor/tensor_stats.hpp"

namespace tsui {

struct Dataset {
    QString title;   // file name or "generated: ..."
    QString source;  // full path, or the generator spec
    bool generated = false;
    tscope::CooTensor tensor;
    tscope::LoadInfo load;
    tscope::TensorStats stats;
    // A .tsb larger than the memory a loaded tensor may take (issue 18): never loaded. `tensor`
    // then has the dims and types but no nonzeros; the statistics come from a streamed pass
    // (exact slice figures; fibers not computed); the Overview and Density show it, streamed.
    bool streamed = false;
    std::uint64_t streamedNnz = 0;
    bool streamedInOrder = true;      // the file in coordinate order: duplicates ruled out (StreamedStats::in_order)
    std::uint64_t streamedBytes = 0;  // what loading it would take
    bool fibersEstimated = false;     // stats' fiber figures from a pass over the file: exact or sketched
    std::vector<bool> fibersExact;    // per mode, with fibersEstimated: counted exactly (else a sketch's count and mean)
    std::vector<bool> fibersSampled;  // per mode not exact: its lengths (mean, spread, histogram) from a sample of fibers
    QString fibersWhy;                // why a mode after the first is only sketched (empty: none is)
    std::uint64_t memoryLimit = 0;    // what a loaded tensor may take, which it exceeds
    QString convertedTo;              // a text file converted to this .tsb in the cache first
    std::string streamedFile;         // the .tsb read in parts
    std::uint64_t nonzeros() const { return streamed ? streamedNnz : tensor.nnz(); }
    // Nonzeros a streamed pass reads at a time (set with `streamed`).
    std::uint64_t partNnz = 0;
};

using DatasetPtr = std::shared_ptr<const Dataset>;

}  // namespace tsui
