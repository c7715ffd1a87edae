// The .tsb reader's checks, shared by the whole-file reader and the part reader of the
// distributed CPD (tsb_part.cpp). Private to engine/io.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "tscope/error.hpp"
#include "tscope/io/tsb_format.hpp"

namespace tscope {

InputError bad_tsb(const std::string& path, const std::string& what);
// Parses and checks a header from its first `available` bytes.
TsbHeader parse_tsb_header(const std::string& path, const char* p, std::size_t available, std::uint64_t file_bytes);
// Indices within the dims, values finite; entry numbers in messages count from first_entry.
void check_tsb_contents(const CooTensor& t, const std::string& path, std::uint64_t first_entry);
// The value type `options` asks for (a double beyond float's range refused, not made inf).
void convert_tsb_values(CooTensor& t, const LoadOptions& options, const std::string& path, std::uint64_t first_entry);
// The header of a .tsb of these dims, widths and nonzeros, checksum included: what write_tsb and
// the bounded convert (which writes its arrays in place first) put at the front.
std::string tsb_header_bytes(const std::vector<std::uint64_t>& dims, IndexWidth width, ValueType values, std::uint64_t nnz);
// zlib's CRC-32, continued from `crc`.
std::uint32_t tsb_crc(std::uint32_t crc, const void* data, std::size_t bytes);

}  // namespace tscope
