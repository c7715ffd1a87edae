// What every format costs for a tensor: builds each (format, mode) in turn, records its storage
// and build time, optionally checks the round trip, and frees it before the next. This is what
// `tensorscope-cli formats` prints and the GUI's Formats tab plots.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "tscope/formats/format.hpp"

namespace tscope {

struct FormatRow {
    FormatKind kind;
    int mode = 0;                  // 0-based; -1 for formats that serve every mode (built once)
    bool built = false;
    std::string error;             // why it was not built (a shape it refuses, ...)
    bool out_of_memory = false;    // it was not built for want of memory (the command exits 1)
    StorageReport storage;
    std::vector<std::pair<std::string, std::string>> parameters;
    double build_seconds = 0;
    std::optional<bool> roundtrip_ok;  // set when verified
    std::string roundtrip_error;
    // A tensor too large to load (streamed_profile.hpp): nothing built, the storage predicted from
    // its counts (storage: one array, the total), an estimate where a count it needs is sketched.
    bool predicted = false;
    bool estimate = false;
};

struct SurveyRequest {
    std::vector<FormatKind> formats;  // empty: available_formats()
    std::vector<int> modes;           // empty: every mode
    FormatOptions options;            // mode is overridden per row
    bool verify = false;
};

std::vector<FormatRow> survey_formats(const CooTensor& t, const SurveyRequest& request,
                                      RunControl& control = no_control());

}  // namespace tscope
