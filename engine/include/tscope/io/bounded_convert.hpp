// Converting a text tensor (.tns, .tns.gz, a pipe) to .tsb in bounded memory: the tensor may be
// larger than the machine's memory (issue 18, item 3).
//
// An external merge sort. The text is parsed block by block (the reader's parser, every check
// included); whenever a memory budget's worth of nonzeros is held, they are packed into 64-bit
// keys, sorted by coordinate and written to a temporary run file next to the output, on a
// worker thread while the parser reads on (buffers reused from run to run; coordinates too
// wide for 64 bits go as records of indices instead). Once the text is read
// (the dims and each mode's base are known only then), the runs are merged: equal coordinates
// are summed in file order (the same sums, bit for bit, as the in-memory reader), zeros are
// dropped, and the result goes straight into the .tsb's arrays, sorted by coordinate. A text
// that fits the budget is converted as the in-memory convert does, unless its first lines are
// out of order: then it goes through about eight runs, which sort it faster than a sorted
// permutation of the whole tensor. Either way it is the same file, byte for byte. The output
// appears whole or not at all.
//
// Memory: the budget (the parser's columns, two key buffers and the sort's scratch), one block
// of text and a buffer per run. Disk: the runs, about the output's size, next to the output
// while the merge runs. One thread beside the reader's.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "tscope/io/tensor_io.hpp"
#include "tscope/run_control.hpp"

namespace tscope {

struct BoundedConvertOptions {
    ValueType values = ValueType::F64;
    // Bytes of nonzeros held at once (their columns, keys and the sort's scratch); 0: the default.
    std::uint64_t memory_bytes = 0;
    // Text blocks (0: the stream reader's 64 MiB, or less under a small budget). Tests set it.
    std::size_t stream_block_bytes = 0;
};

struct BoundedConvertReport {
    LoadInfo info;                    // as load_tensor reports it (duplicates, zeros, bases, times)
    std::vector<std::uint64_t> dims;
    std::uint64_t nnz = 0;            // written
    std::uint64_t memory_bytes = 0;   // the budget used
    std::uint64_t batch_bytes = 0;    // held a run: the budget, or less for text out of order (below)
    std::uint64_t runs = 0;           // sorted runs (1: everything fitted the budget; no temporary file)
    std::uint64_t run_file_bytes = 0; // written to temporary run files
    double merge_seconds = 0;         // merging the runs into the output
    double seconds = 0;               // all of it
};

// A quarter of the physical memory, between 64 MiB and 4 GiB.
std::uint64_t default_convert_memory();

// Converts `in` (text, gzip or not; "-" for stdin) to the .tsb `out`. Bad text is a ParseError
// naming the file and line, as the reader's; a budget too small for one block of text
// (< 1 MiB) is an InputError.
BoundedConvertReport convert_text_to_tsb(const std::string& in, const std::string& out,
                                         const BoundedConvertOptions& options = {}, RunControl& control = no_control());

}  // namespace tscope
