// Loading and saving tensors, whatever the file format. The format is recognised from the
// file's first bytes (a .tsb magic, a gzip magic, else FROSTT text), never from its name.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "tscope/run_control.hpp"
#include "tscope/tensor/coo_tensor.hpp"

namespace tscope {

struct LoadOptions {
    ValueType values = ValueType::F64;
    // A .tsb keeps the value type it was stored with (a --float cache stays fp32, half the memory
    // of converting it); `values` then applies to text files only.
    bool keep_stored_values = false;
};

// What happened while loading: shown by `info` and the GUI's overview.
struct LoadInfo {
    std::string path;
    std::string format;              // "tns", "tns.gz" or "tsb"
    std::uint64_t file_bytes = 0;    // on disk
    std::uint64_t text_bytes = 0;    // parsed text (after gunzip); 0 for tsb
    std::uint64_t lines = 0;         // lines of text, comments included
    bool header = false;             // the file gave its dims (order/dims header or "# dims:")
    std::vector<bool> zero_based;    // per mode: indices were 0-based (SPLATT's rule: a 0 seen)
    std::uint64_t duplicates_summed = 0;  // entries merged into others
    std::uint64_t zeros_dropped = 0;      // entries of value zero (stored so, or summed to it), left out
    double read_seconds = 0;         // reading (and gunzip) the bytes
    double parse_seconds = 0;        // parsing, building the tensor, summing duplicates
    double load_seconds = 0;         // all of it
};

struct LoadedTensor {
    CooTensor tensor;
    LoadInfo info;
};

LoadedTensor load_tensor(const std::string& path, const LoadOptions& options = {},
                         RunControl& control = no_control());

// Writes by the name's extension: .tsb (binary cache), .tns.gz (gzip text), else .tns text.
// The file appears complete or not at all (written to a temporary name, then renamed).
void save_tensor(const CooTensor& t, const std::string& path, RunControl& control = no_control());

}  // namespace tscope
