// CPD-ALS with everything resident on the GPU (cpd_device.cpp). Private to engine/decomp.
#pragma once

#include <vector>

#include "tscope/decomp/cpd_als.hpp"

namespace tscope::detail {

// The formats the device CPD builds on the GPU: COO, CSF, B-CSF and MM-CSF.
bool cpd_runs_on_device(FormatKind format);
// Every start of o.restarts (cpd_init.hpp's start_options) on one tensor side, set up once.
// norm_x: ||X||^2, which the caller computed in the host's precision.
std::vector<CpdResult> cpd_als_device(const CooTensor& t, const CpdOptions& o, double norm_x,
                                      const IterationCallback& on_iteration, RunControl& control);

}  // namespace tscope::detail
