// Plain-text tables and number formatting for the CLI's human-readable output.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "tscope/text_words.hpp"  // grouped, human_bytes

namespace tscope::cli {

// Fixed or scientific, whichever reads better, with `digits` significant digits.
std::string number(double x, int digits = 3);

class TextTable {
public:
    explicit TextTable(std::vector<std::string> header) : rows_{std::move(header)} {}
    void add(std::vector<std::string> row) { rows_.push_back(std::move(row)); }
    // A long text (a refusal's reason) printed under the table, so that it does not widen a
    // column: returns the marker to put in the cell, "[1]", "[2]", ..., the same one for a text
    // given before.
    std::string note(std::string text);
    // Columns padded to their widest cell; the first column left-aligned, the rest right; the
    // notes below.
    std::string render() const;

private:
    std::vector<std::vector<std::string>> rows_;
    std::vector<std::string> notes_;
};

}  // namespace tscope::cli
