// The .tns parser's entry point for text already in a sentinel-terminated buffer (no copy).
// Private to the engine.
#pragma once

#include "file_util.hpp"
#include "tscope/io/tns_format.hpp"

namespace tscope::detail {

LoadedTensor parse_tns_buffer(const ByteBuffer& buffer, const std::string& name, const LoadOptions& options,
                              RunControl& control);

// Text blocks of a stream: 64 MiB unless a test asks for less (LoadOptions::stream_block_bytes).
inline constexpr std::size_t kStreamBlockBytes = std::size_t{64} << 20;

// Parses .tns text read in one pass from `in` (gzip inflated as it comes, a pipe, stdin), in
// blocks of about block_bytes (0: kStreamBlockBytes) cut at line ends. Memory: one block (or
// the longest line, if longer) plus the nonzeros kept. A .tsb in the stream is an InputError.
LoadedTensor parse_tns_stream(TextStream& in, const std::string& name, const LoadOptions& options,
                              RunControl& control, std::size_t block_bytes = 0);

// After duplicates were summed (`summed` > 0): InputError naming the file and the coordinate
// (as the file numbers it) when a sum left the value type's range (two 1e308 make inf; one
// stored inf is refused as it is read). Shared by the text and the .tsb readers.
void check_summed_values(const CooTensor& t, std::uint64_t summed, const LoadInfo& info, const std::string& name);

}  // namespace tscope::detail
