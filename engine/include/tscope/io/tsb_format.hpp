// .tsb: Tensorscope's binary cache of a CooTensor, for fast reloads.
//
// Layout (little-endian):
//   magic "\x89TSB\r\n\x1a\n" | u32 version | u32 order | u32 index bytes (4|8) |
//   u32 value bytes (4|8) | u64 nnz | u64 dims[order] | u32 CRC-32 of the header so far |
//   indices of mode 1..N (nnz each) | values (nnz) | u32 CRC-32 of the payload
// The header CRC lets a corrupt nnz be caught before anything is allocated for it.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "tscope/io/tensor_io.hpp"

namespace tscope {

inline constexpr std::uint32_t kTsbVersion = 1;
inline constexpr char kTsbMagic[8] = {'\x89', 'T', 'S', 'B', '\r', '\n', '\x1a', '\n'};

// A .tsb file's header, checked (magic, version, CRC, widths, dims, and the file's size against it).
struct TsbHeader {
    std::vector<std::uint64_t> dims;
    IndexWidth width = IndexWidth::U32;
    ValueType values = ValueType::F64;
    std::uint64_t nnz = 0;
    std::size_t header_bytes = 0;   // where the payload starts
    std::uint64_t file_bytes = 0;
    // What one nonzero takes once loaded: its indices and its value.
    std::uint64_t bytes_per_nnz() const {
        return dims.size() * (width == IndexWidth::U32 ? 4 : 8) + (values == ValueType::F32 ? 4 : 8);
    }
};
TsbHeader read_tsb_header(const std::string& path);

LoadedTensor read_tsb(const std::string& path, const LoadOptions& options = {}, RunControl& control = no_control());
void write_tsb(const CooTensor& t, const std::string& path, RunControl& control = no_control());

}  // namespace tscope
