#include "tscope/text_words.hpp"

#include <cctype>
#include <cstdio>
#include <cstring>

namespace tscope {

std::string counted(std::uint64_t n, const std::string& one, const std::string& many) {
    return grouped(n) + " " + (n == 1 ? one : many);
}

ByteSize parse_byte_size(const std::string& text) {
    std::size_t end = 0;
    while (end < text.size() && text[end] >= '0' && text[end] <= '9') ++end;
    std::string suffix;
    for (std::size_t i = end; i < text.size(); ++i)
        suffix.push_back(static_cast<char>(std::toupper(static_cast<unsigned char>(text[i]))));
    if (end == 0) return {};
    const char* letters = "KMGT";
    std::uint64_t scale = 1;
    if (!suffix.empty() && suffix != "B") {
        const char* at = suffix.size() <= 3 ? std::strchr(letters, suffix[0]) : nullptr;
        if (!at) return {};
        const int power = static_cast<int>(at - letters) + 1;
        const std::string rest = suffix.substr(1);
        // "M" and "MIB" are MiB (what --memory-limit 512M always meant); "MB" is 10^6, as shown
        const bool binary = rest.empty() || rest == "IB";
        if (!binary && rest != "B") return {};
        for (int p = 0; p < power; ++p) scale *= binary ? 1024 : 1000;
    }
    ByteSize out;
    out.valid = true;
    std::uint64_t n = 0;
    for (std::size_t i = 0; i < end; ++i) {
        const auto digit = static_cast<std::uint64_t>(text[i] - '0');
        if (n > (UINT64_MAX - digit) / 10) return {0, true, true};
        n = n * 10 + digit;
    }
    if (n > UINT64_MAX / scale) return {0, true, true};
    out.bytes = n * scale;
    return out;
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
