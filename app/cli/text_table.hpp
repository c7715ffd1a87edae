// Plain-text tables and number formatting for the CLI's human-readable output.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace tscope::cli {

// 1234567 -> "1,234,567"
std::string grouped(std::uint64_t n);
// A short human size, "1.3 MB", in decimal units up to YB: an advisor's byte count may pass 2^64 (it printed "0 B",
// a double past 2^64 cast to an integer, sweep 65), so the count is a long double.
std::string human_bytes(long double bytes);
// Fixed or scientific, whichever reads better, with `digits` significant digits.
std::string number(double x, int digits = 3);

class TextTable {
public:
    explicit TextTable(std::vector<std::string> header) : rows_{std::move(header)} {}
    void add(std::vector<std::string> row) { rows_.push_back(std::move(row)); }
    // A long text (a refusal's reason) printed under the table, so that it does not widen a
    // column: returns the marker to put in the cell, "[1]", "[2]", ...
    std::string note(std::string text);
    // Columns padded to their widest cell; the first column left-aligned, the rest right; the
    // notes below.
    std::string render() const;

private:
    std::vector<std::vector<std::string>> rows_;
    std::vector<std::string> notes_;
};

}  // namespace tscope::cli
