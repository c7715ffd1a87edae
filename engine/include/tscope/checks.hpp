// The argument checks every kernel, format and command shares, written once so that they
// say the same thing everywhere.
#pragma once

#include <string>

namespace tscope {

// InputError "<label> <mode + 1> is out of range: the tensor has <order> modes" unless
// 0 <= mode < order (mode is 0-based; users see modes numbered from 1).
void check_mode(int mode, int order, const std::string& label = "mode");
// Error with query_gpu()'s reason where this process has no usable GPU.
void require_gpu();

}  // namespace tscope
