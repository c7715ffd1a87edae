// FROSTT .tns text: one nonzero per line, N 1-based indices then a value, whitespace separated;
// '#' starts a comment line. Extensions accepted on input:
//  - 0-based indices, detected per mode as SPLATT does (a mode containing a 0 is 0-based);
//  - a ParTI / B-CSF header: a line with the order, then a line with the N dims;
//  - a leading comment "# dims: I J K" (written by us, so trailing empty slices survive);
//  - CRLF line ends; duplicate coordinates (their values are summed and counted).
#pragma once

#include <string>
#include <string_view>

#include "tscope/io/tensor_io.hpp"

namespace tscope {

// Parses .tns text held in memory. `name` is used in error messages.
LoadedTensor parse_tns(std::string_view text, const std::string& name, const LoadOptions& options = {},
                       RunControl& control = no_control());

// Formats a tensor as .tns text (1-based, "# dims:" comment, shortest round-trip values).
std::string format_tns(const CooTensor& t, RunControl& control = no_control());

}  // namespace tscope
