// The registry's rows, expanded from format_list.hpp, and the lookups that read them.
#include "tscope/formats/format_registry.hpp"

#include <algorithm>
#include <cctype>

#include "format_builders.hpp"
#include "tscope/formats/format_visit.hpp"

namespace tscope {

namespace {

#define TSCOPE_FORMAT_ROW(kind, name, cls, per_mode, builder, parameters, teaching, min_order)            \
    FormatEntry{FormatKind::kind, name, per_mode, parameters, teaching, min_order,                         \
                [](const CooTensor& t, const FormatOptions& o, RunControl& c) -> std::unique_ptr<SparseFormat> { \
                    return with_format_types(t, [&](auto i, auto v) {                                      \
                        return detail::builder<decltype(i), decltype(v)>(t, o, c);                         \
                    });                                                                                    \
                }},

const std::vector<FormatEntry> kRegistry = {TSCOPE_FORMATS(TSCOPE_FORMAT_ROW)};
#undef TSCOPE_FORMAT_ROW

std::string lower(std::string s) {
    std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return s;
}

}  // namespace

const std::vector<FormatEntry>& format_registry() { return kRegistry; }

const FormatEntry& format_entry(FormatKind kind) {
    for (const auto& e : kRegistry)
        if (e.kind == kind) return e;
    throw Error("format kind " + std::to_string(static_cast<int>(kind)) + " has no registry row");
}

const char* format_name(FormatKind kind) {
    for (const auto& e : kRegistry)
        if (e.kind == kind) return e.name;
    return "?";
}

FormatKind parse_format(const std::string& name) {
    for (const auto& e : kRegistry)
        if (lower(name) == lower(e.name)) return e.kind;
    if (lower(name) == "hocoo") return FormatKind::COO;  // hocfs Sec. 5.1's name for it
    std::string known;
    for (const auto& e : kRegistry) known += std::string(known.empty() ? "" : ", ") + e.name;
    throw InputError("unknown format '" + name + "' (known: " + known + ")");
}

bool format_is_per_mode(FormatKind kind) { return format_entry(kind).per_mode; }

std::vector<FormatKind> available_formats() {
    std::vector<FormatKind> kinds;
    for (const auto& e : kRegistry) kinds.push_back(e.kind);
    return kinds;
}

}  // namespace tscope
