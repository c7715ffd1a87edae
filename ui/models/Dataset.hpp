// What the explorer shows: one loaded (or generated) tensor with its load report and
// statistics. Built off the GUI thread, then shared read-only by every panel.
#pragma once

#include <QString>
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
};

using DatasetPtr = std::shared_ptr<const Dataset>;

}  // namespace tsui
