#include "tscope/decomp/decomposition.hpp"

#include <algorithm>
#include <cctype>

#include "tscope/error.hpp"

namespace tscope {

const char* decomp_method_name(DecompMethod m) {
    switch (m) {
    case DecompMethod::Cpd: return "cpd";
    case DecompMethod::Tucker: return "tucker";
    case DecompMethod::FasterTucker: return "fastertucker";
    }
    return "?";
}

DecompMethod parse_decomp_method(const std::string& name) {
    std::string s = name;
    std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return std::tolower(c); });
    if (s == "cpd" || s == "cp" || s == "cpd-als") return DecompMethod::Cpd;
    if (s == "tucker" || s == "hooi") return DecompMethod::Tucker;
    if (s == "fastertucker" || s == "faster-tucker") return DecompMethod::FasterTucker;
    throw InputError("unknown method '" + name + "' (expected cpd, tucker or fastertucker)");
}

}  // namespace tscope
