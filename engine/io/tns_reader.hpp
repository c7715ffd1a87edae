// The .tns parser's entry point for text already in a sentinel-terminated buffer (no copy).
// Private to the engine.
#pragma once

#include <functional>

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

// Entries of a stream handed over in batches, for a caller that cannot hold them all (the
// bounded convert). The indices are as the file numbers them: the base is known only at the end.
// One of idx32/idx64 holds a column per mode (idx64 once an index needed 64 bits), one of
// f32/f64 the values; the receiver owns them.
struct EntryBatch {
    int order = 0;
    std::uint64_t first_entry = 0;  // in file order
    bool last = false;              // the stream has ended: no batch follows
    // Per mode, the largest index read so far: at least every index of this batch.
    std::vector<std::uint64_t> max_index;
    std::vector<Column<std::uint32_t>> idx32;
    std::vector<Column<std::uint64_t>> idx64;
    Column<float> f32;
    Column<double> f64;
    std::uint64_t size() const { return f32.empty() ? f64.size() : f32.size(); }
};

// What a spilled stream turned out to be once read to its end (bounds already checked).
// When everything fitted one batch, nothing was spilled: `whole` holds the tensor exactly as
// parse_tns_stream returns it (duplicates summed, zeros dropped, counted in info).
struct StreamShape {
    std::vector<std::uint64_t> dims;
    std::vector<std::uint64_t> base;  // per mode: 1 for a 1-based mode, 0 for a 0-based one
    LoadInfo info;                    // spilled: duplicates and zeros are the receiver's to count
    bool fitted = false;
    CooTensor whole;
};

// Parses like parse_tns_stream, but whenever `spill_at(order)` entries are held, hands them to
// `spill` and lets go of them (the last ones at the end, marked `last`), so memory holds one
// batch and one block of text. Every check of the in-memory reader is made; summing duplicates
// is left to the receiver. A stream that fits one batch is returned whole instead. Columns the
// receiver leaves in the batch (it need not take them) are reused for the next one.
StreamShape parse_tns_stream_spilling(TextStream& in, const std::string& name, const LoadOptions& options,
                                      RunControl& control, const std::function<std::uint64_t(int)>& spill_at,
                                      const std::function<void(EntryBatch&&)>& spill, std::size_t block_bytes = 0);

// After duplicates were summed (`summed` > 0): InputError naming the file and the coordinate
// (as the file numbers it) when a sum left the value type's range (two 1e308 make inf; one
// stored inf is refused as it is read). Shared by the text and the .tsb readers.
void check_summed_values(const CooTensor& t, std::uint64_t summed, const LoadInfo& info, const std::string& name);

}  // namespace tscope::detail
