// The .tns parser's entry point for text already in a sentinel-terminated buffer (no copy).
// Private to the engine.
#pragma once

#include "file_util.hpp"
#include "tscope/io/tns_format.hpp"

namespace tscope::detail {

LoadedTensor parse_tns_buffer(const ByteBuffer& buffer, const std::string& name, const LoadOptions& options,
                              RunControl& control);

}  // namespace tscope::detail
