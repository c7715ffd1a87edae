// The format registry: one row per storage format, expanded from format_list.hpp. Everything
// that lists, names or builds formats (the CLI, the survey, the views, the tests) reads these
// rows, so a format added to the list appears everywhere at once.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "tscope/formats/format.hpp"

namespace tscope {

struct FormatEntry {
    using Builder = std::unique_ptr<SparseFormat> (*)(const CooTensor&, const FormatOptions&, RunControl&);

    FormatKind kind;
    const char* name;         // as the CLI, the JSON and the GUI spell it
    bool per_mode;            // built once per mode; false: one copy serves every mode
    // The FormatOptions it reads, as the CLI's option names ("mode-order,fiber-threshold").
    const char* parameters;
    bool teaching_view;       // format_anatomy can show its arrays
    int min_order;            // build_format refuses lower orders in words
    // Builds it with the index width and value type the tensor needs (format_uses_32bit, the
    // tensor's value type). build_format() checks the options and times the build around it.
    Builder build;
};

// Every format, in display order (the list's order).
const std::vector<FormatEntry>& format_registry();
const FormatEntry& format_entry(FormatKind kind);

}  // namespace tscope
