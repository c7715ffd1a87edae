// Loading and saving tensors, whatever the file format. The format is recognised from the
// file's first bytes (a .tsb magic, a gzip magic, else FROSTT text), never from its name.
#pragma once

#include <cstddef>
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
    // Text read as a stream (.tns.gz, pipes, stdin) is parsed in blocks of this many bytes
    // (0: 64 MiB). Tests set it small to cross many block boundaries.
    std::size_t stream_block_bytes = 0;
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

// InputError where the tensor has no nonzeros, naming the file and, where every entry was a 0
// left out, saying so: "nothing to `what`" (bench had run no row and exited 0, sweep 65).
void require_nonzeros(const LoadedTensor& loaded, const std::string& what);
// The same from the counts, where no one process holds the tensor (the distributed CPD).
void require_nonzeros(const std::string& path, std::uint64_t nnz, std::uint64_t zeros_dropped, const std::string& what);

// What a file holds, told from its first bytes as load_tensor tells it: a .tsb, gzip, plain
// text; Stream for "-", pipes and FIFOs, which cannot be looked into without being consumed.
enum class FileKind { Tsb, Gzip, Text, Stream };
FileKind file_kind(const std::string& path);

// `path` may be "-" (stdin), a pipe or a FIFO: read once, front to back (gzip recognised by its
// magic bytes, else text; a .tsb needs a real file). A .tns.gz is inflated and parsed block by
// block, so memory holds one block of text plus the nonzeros kept.
LoadedTensor load_tensor(const std::string& path, const LoadOptions& options = {},
                         RunControl& control = no_control());

// The format a tensor is written in, told by the name's extension in any case (.tsb, .TSB):
// .tsb is the binary cache; .tns, .txt or none is text, and gzip text with .gz after them.
// Any other extension (out.csv, out.mtx) promises a format we do not write: an InputError.
enum class OutputFormat { Tsb, Text, GzipText };
OutputFormat output_format(const std::string& path);

// Refuses (InputError) a name output_format does not accept.
void check_tensor_output_name(const std::string& path);

// Writes in the name's output_format; other extensions are refused. The file appears complete or not at all
// (written to a temporary name, then renamed).
void save_tensor(const CooTensor& t, const std::string& path, RunControl& control = no_control());

}  // namespace tscope
