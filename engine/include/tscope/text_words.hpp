// Counts and sizes as people read them, for every message that names one: the engine's
// refusals, the advisor's reasons and the CLI's tables share these, so "1.3 MB" and
// "1,234,567" read the same everywhere. (The window words them through QLocale.)
#pragma once

#include <cstdint>
#include <string>

namespace tscope {

// 1234567 -> "1,234,567"
std::string grouped(std::uint64_t n);
// 1 -> "1 core", 8 -> "8 cores": a count with its noun, never "core(s)".
std::string counted(std::uint64_t n, const std::string& one, const std::string& many);
// A short human size, "1.3 MB", in decimal units up to YB: an advisor's byte count may pass
// 2^64 (it printed "0 B", a double past 2^64 cast to an integer, sweep 65), so the count is a
// long double.
std::string human_bytes(long double bytes);
// A size as a user writes it: "65536", "64M", "1G", "64MiB" (K, M, G, T and KiB ... TiB are
// binary), "512MB", "2GB" (kB, MB, GB, TB are decimal, as every size the program shows is);
// case does not matter. `valid` is false for any other text; `too_large` where it names 2^64
// bytes or more (then `bytes` is 0).
struct ByteSize {
    std::uint64_t bytes = 0;
    bool valid = false;
    bool too_large = false;
};
ByteSize parse_byte_size(const std::string& text);
// The suffixes parse_byte_size takes, for a message that refuses another.
inline constexpr const char* kByteSizeSuffixes = "K, M, G, T or KiB ... TiB (binary), kB, MB, GB, TB (decimal)";

// A message as one line of plain text: control characters (a newline or an escape sequence in a
// file's name) as \n, \t or \xNN, so that "error: ..." stays the one line a script reads and
// nothing reaches the terminal as a command (sweep 70b B17). Bytes from 0x80 on stay (UTF-8).
std::string one_line(const std::string& text);

}  // namespace tscope
