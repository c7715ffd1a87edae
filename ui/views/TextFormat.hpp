// Number formatting for labels and tables: grouped integers, sizes, short decimals.
#pragma once

#include <QString>
#include <cstdint>
#include <vector>

namespace tsui {

QString grouped(std::uint64_t n);
QString humanBytes(std::uint64_t bytes);
// Three significant digits, switching to scientific notation for tiny or huge values.
QString shortNumber(double x);
QString dimsText(const std::vector<std::uint64_t>& dims);

}  // namespace tsui
