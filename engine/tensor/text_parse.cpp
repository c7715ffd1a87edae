#include "tscope/text_parse.hpp"

#include <charconv>
#include <sstream>

#include "tscope/error.hpp"

namespace tscope {

std::uint64_t parse_count(const std::string& text, const std::string& what) {
    std::uint64_t scale = 1;
    std::string digits = text;
    while (!digits.empty() && digits.back() == ' ') digits.pop_back();
    while (!digits.empty() && digits.front() == ' ') digits.erase(digits.begin());
    if (!digits.empty()) {
        switch (digits.back()) {
        case 'k': case 'K': scale = 1000; break;
        case 'M': scale = 1000000; break;
        case 'G': scale = 1000000000; break;
        default: break;
        }
        if (scale != 1) digits.pop_back();
    }
    if (digits.empty() || digits.find_first_not_of("0123456789") != std::string::npos)
        throw InputError(what + ": expected a non-negative integer, got '" + text + "'");
    std::uint64_t x = 0;
    const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), x);
    if (ec == std::errc::result_out_of_range || x > UINT64_MAX / scale)
        throw InputError(what + ": '" + text + "' is too large (at most 18446744073709551615)");
    return x * scale;
}

std::errc parse_double(const std::string& text, double& out) {
    const auto blank = [](char c) { return c == ' ' || c == '\t'; };
    const char* first = text.data();
    const char* last = text.data() + text.size();
    while (first != last && blank(*first)) ++first;  // "1.5, 2" and a tab, as std::stod read them
    while (last != first && blank(last[-1])) --last;
    const bool plus = first != last && *first == '+';
    first += plus ? 1 : 0;
    if (first == last || (plus && (*first == '+' || *first == '-'))) return std::errc::invalid_argument;
    const bool minus = *first == '-';
    const char* digits = first + (minus ? 1 : 0);
    double x = 0;
    // hex floats ("0x1p-10"), as std::stod took them: from_chars reads them without the prefix
    const bool hex = last - digits > 2 && digits[0] == '0' && (digits[1] == 'x' || digits[1] == 'X') &&
                     digits[2] != '-' && digits[2] != '+';
    auto [end, ec] =
        hex ? std::from_chars(digits + 2, last, x, std::chars_format::hex) : std::from_chars(first, last, x);
    if (hex && minus) x = -x;
    if (ec == std::errc::result_out_of_range) return ec;
    if (ec != std::errc() || end != last) return std::errc::invalid_argument;
    out = x;
    return std::errc();
}

std::vector<std::uint64_t> parse_count_list(const std::string& text, const std::string& what) {
    std::vector<std::uint64_t> out;
    // getline drops a trailing empty item ("5,5," would read as two entries), so empty items are
    // refused here, wherever they are.
    if (!text.empty() && (text.back() == ',' || text.front() == ',' || text.find(",,") != std::string::npos))
        throw InputError(what + ": an entry is empty in '" + text + "'");
    std::stringstream ss(text);
    std::string item;
    while (std::getline(ss, item, ',')) {
        const std::uint64_t x = parse_count(item, what);
        if (x == 0) throw InputError(what + ": every entry must be at least 1, got '" + text + "'");
        out.push_back(x);
    }
    if (out.empty()) throw InputError(what + ": expected a comma-separated list, got '" + text + "'");
    return out;
}

}  // namespace tscope
