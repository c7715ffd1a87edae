#include "tscope/text_words.hpp"

#include <cstdio>

namespace tscope {

std::string counted(std::uint64_t n, const std::string& one, const std::string& many) {
    return grouped(n) + " " + (n == 1 ? one : many);
}

std::string grouped(std::uint64_t n) {
    const std::string digits = std::to_string(n);
    std::string out;
    for (std::size_t i = 0; i < digits.size(); ++i) {
        if (i > 0 && (digits.size() - i) % 3 == 0) out.push_back(',');
        out.push_back(digits[i]);
    }
    return out;
}

std::string human_bytes(long double bytes) {
    const char* units[] = {"B", "kB", "MB", "GB", "TB", "PB", "EB", "ZB", "YB"};
    long double x = bytes;
    int u = 0;
    while (x >= 1000 && u < 8) x /= 1000, ++u;
    char buf[64];
    std::snprintf(buf, sizeof buf, u == 0 ? "%.0Lf %s" : u < 8 || x < 1e6L ? "%.1Lf %s" : "%.3Lg %s", x, units[u]);
    return buf;
}

std::string one_line(const std::string& text) {
    std::string out;
    out.reserve(text.size());
    for (const char ch : text) {
        const auto c = static_cast<unsigned char>(ch);
        if (c >= 0x20 && c != 0x7f) {
            out.push_back(ch);
        } else if (c == '\n') {
            out += "\\n";
        } else if (c == '\t') {
            out += "\\t";
        } else {
            char hex[8];
            std::snprintf(hex, sizeof hex, "\\x%02x", c);
            out += hex;
        }
    }
    return out;
}

}  // namespace tscope
