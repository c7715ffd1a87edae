// Parsing of the small numbers users type (CLI options, GUI fields).
#pragma once

#include <cstdint>
#include <string>
#include <system_error>
#include <vector>

namespace tscope {

// A non-negative integer; accepts k / M / G suffixes (decimal: 5M = 5,000,000).
// InputError naming `what` otherwise.
std::uint64_t parse_count(const std::string& text, const std::string& what);
// The whole of `text` as a double, blanks around it, a leading '+' and hex floats ("0x1p-10")
// allowed as std::stod allowed them, and subnormals (1e-320) read as such, which std::stod
// refused as out of range: std::errc() on success, result_out_of_range beyond
// double's range either way (1e400, 1e-400), invalid_argument for anything else. "inf" and
// "nan" parse: the caller says whether they may.
std::errc parse_double(const std::string& text, double& out);
// "12,34,5" -> {12, 34, 5}; each at least 1.
std::vector<std::uint64_t> parse_count_list(const std::string& text, const std::string& what);

}  // namespace tscope
