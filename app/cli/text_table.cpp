#include "text_table.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace tscope::cli {

std::string number(double x, int digits) {
    char buf[48];
    const double a = std::fabs(x);
    if (x == 0 || (a >= 1e-3 && a < 1e6))
        std::snprintf(buf, sizeof buf, "%.*g", std::max(digits, static_cast<int>(std::log10(std::max(a, 1.0))) + 1), x);
    else
        std::snprintf(buf, sizeof buf, "%.*e", digits - 1, x);
    return buf;
}

std::string TextTable::note(std::string text) {
    // a reason said before keeps its number: 18 rows without a GPU had 18 notes of one sentence
    auto it = std::find(notes_.begin(), notes_.end(), text);
    if (it == notes_.end()) it = notes_.insert(notes_.end(), std::move(text));
    std::string marker = "[";  // appended, not "[" + ...: GCC 12 warns (-Wrestrict) on that temporary
    marker += std::to_string(it - notes_.begin() + 1);
    marker += ']';
    return marker;
}

std::string TextTable::render() const {
    std::vector<std::size_t> width;
    for (const auto& row : rows_) {
        if (width.size() < row.size()) width.resize(row.size(), 0);
        for (std::size_t c = 0; c < row.size(); ++c) width[c] = std::max(width[c], row[c].size());
    }
    std::string out;
    for (const auto& row : rows_) {
        std::string line;
        for (std::size_t c = 0; c < row.size(); ++c) {
            const std::string pad(width[c] - row[c].size(), ' ');
            if (c == 0) {
                line += row[c];
                line += pad;
            } else {
                line.append(2, ' ');
                line += pad;
                line += row[c];
            }
        }
        while (!line.empty() && line.back() == ' ') line.pop_back();
        out += line;
        out += '\n';
    }
    if (!notes_.empty()) out += '\n';
    for (std::size_t k = 0; k < notes_.size(); ++k) {
        out += '[';
        out += std::to_string(k + 1);
        out += "] ";
        out += notes_[k];
        out += '\n';
    }
    return out;
}

}  // namespace tscope::cli
