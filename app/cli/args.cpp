#include "args.hpp"

#include <sstream>

#include "tscope/error.hpp"

namespace tscope::cli {

Args::Args(int argc, char** argv, int first, const std::string& command, std::set<std::string> valued,
           std::set<std::string> flags)
    : command_(command) {
    for (int i = first; i < argc; ++i) {
        std::string a = argv[i];
        if (a.size() > 1 && a[0] == '-' && !(a.size() > 1 && std::isdigit(static_cast<unsigned char>(a[1])))) {
            std::string name = a, inline_value;
            bool has_inline = false;
            if (const auto eq = a.find('='); eq != std::string::npos && a.rfind("--", 0) == 0) {
                name = a.substr(0, eq);
                inline_value = a.substr(eq + 1);
                has_inline = true;
            }
            if (valued.count(name)) {
                if (has_inline) {
                    values_[name] = inline_value;
                } else {
                    if (i + 1 >= argc) throw InputError(command + ": option " + name + " needs a value");
                    values_[name] = argv[++i];
                }
            } else if (flags.count(name) && !has_inline) {
                flags_set_.insert(name);
            } else {
                throw InputError(command + ": unknown option " + name + " (try tensorscope-cli help)");
            }
        } else {
            positionals_.push_back(a);
        }
    }
}

const std::string& Args::positional(std::size_t i, const std::string& what) const {
    if (i >= positionals_.size()) throw InputError(command_ + ": missing " + what);
    return positionals_[i];
}

void Args::expect_positionals(std::size_t n) const {
    if (positionals_.size() > n)
        throw InputError(command_ + ": unexpected argument '" + positionals_[n] + "'");
}

std::optional<std::string> Args::value(const std::string& name) const {
    auto it = values_.find(name);
    if (it == values_.end()) return std::nullopt;
    return it->second;
}

std::string Args::value_or(const std::string& name, const std::string& fallback) const {
    return value(name).value_or(fallback);
}

std::uint64_t Args::integer(const std::string& name, std::uint64_t fallback, std::uint64_t lo, std::uint64_t hi) const {
    auto v = value(name);
    if (!v) return fallback;
    const std::uint64_t x = parse_count(*v, name);
    if (x < lo || x > hi)
        throw InputError(command_ + ": " + name + " must be between " + std::to_string(lo) + " and " +
                         std::to_string(hi) + ", got " + *v);
    return x;
}

std::uint64_t parse_count(const std::string& text, const std::string& option) {
    std::uint64_t scale = 1;
    std::string digits = text;
    if (!digits.empty()) {
        switch (digits.back()) {
        case 'k': case 'K': scale = 1000; break;
        case 'M': scale = 1000000; break;
        case 'G': scale = 1000000000; break;
        default: break;
        }
        if (scale != 1) digits.pop_back();
    }
    if (digits.empty() || digits.find_first_not_of("0123456789") != std::string::npos || digits.size() > 19)
        throw InputError(option + ": expected a non-negative integer, got '" + text + "'");
    const std::uint64_t x = std::stoull(digits);
    if (x > UINT64_MAX / scale) throw InputError(option + ": '" + text + "' is too large");
    return x * scale;
}

std::vector<std::uint64_t> parse_list(const std::string& text, const std::string& option) {
    std::vector<std::uint64_t> out;
    std::stringstream ss(text);
    std::string item;
    while (std::getline(ss, item, ',')) {
        const std::uint64_t x = parse_count(item, option);
        if (x == 0) throw InputError(option + ": every entry must be at least 1, got '" + text + "'");
        out.push_back(x);
    }
    if (out.empty()) throw InputError(option + ": expected a comma-separated list, got '" + text + "'");
    return out;
}

}  // namespace tscope::cli
