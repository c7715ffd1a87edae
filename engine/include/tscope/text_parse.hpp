// Parsing of the small numbers users type (CLI options, GUI fields).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace tscope {

// A non-negative integer; accepts k / M / G suffixes (decimal: 5M = 5,000,000).
// InputError naming `what` otherwise.
std::uint64_t parse_count(const std::string& text, const std::string& what);
// "12,34,5" -> {12, 34, 5}; each at least 1.
std::vector<std::uint64_t> parse_count_list(const std::string& text, const std::string& what);

}  // namespace tscope
