// The fuzzers' entry points, shared by the libFuzzer targets (clang, TS_BUILD_FUZZERS) and by
// test_fuzz_replay (any compiler, a normal ctest suite), so that every corpus file is replayed
// through exactly the code the fuzzers ran. Each entry returns normally for any input the
// program handles as it should (loaded, or refused with an InputError); anything else (another
// exception, a crash, a broken invariant) aborts, which both libFuzzer and the replay report.
#pragma once

#include <cstddef>
#include <cstdint>

namespace tsfuzz {

// The .tns text reader on a regular file (parse_tns_buffer).
int tns_text(const std::uint8_t* data, std::size_t size);
// The streaming reader: byte 0 picks the text block size (small, so that lines cross blocks)
// and whether the rest is gzip-compressed by the harness (the parser is reached) or fed as
// it is (gzip's own checks are reached: truncated or corrupt streams).
int tns_gz(const std::uint8_t* data, std::size_t size);
// The .tsb reader: byte 0's bits say whether the harness writes the magic and fixes the header
// and payload checksums, so that mutations get past them to the header's and the contents'
// own checks; the rest is the file.
int tsb(const std::uint8_t* data, std::size_t size);
// tensorscope-cli's option parsing: the input is argv, one argument a line, the first the
// command; the command's options are parsed as the command does, then every value through
// the parser the command uses, checking what they return.
int cli_options(const std::uint8_t* data, std::size_t size);

}  // namespace tsfuzz
