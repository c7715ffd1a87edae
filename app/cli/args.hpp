// A small command-line parser for tensorscope-cli's subcommands: positionals, --name VALUE
// options and --flag switches, each command declaring what it accepts so that typos are
// errors rather than silently ignored.
#pragma once

#include <algorithm>
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "tscope/formats/format.hpp"

namespace tscope::cli {

class Args {
public:
    // argv[first..argc) are parsed. `valued` options take a value; `flags` don't.
    // Short aliases ("-o") are written as they are typed.
    Args(int argc, char** argv, int first, const std::string& command, std::set<std::string> valued,
         std::set<std::string> flags);

    const std::vector<std::string>& positionals() const { return positionals_; }
    // The i-th positional; InputError naming `what` when missing.
    const std::string& positional(std::size_t i, const std::string& what) const;
    void expect_positionals(std::size_t n) const;

    bool flag(const std::string& name) const { return flags_set_.count(name) > 0; }
    // The option or flag was on the command line.
    bool given(const std::string& name) const { return flag(name) || values_.count(name) > 0; }
    // Refuses (InputError "NAME applies to WHERE") an option given where it would be read by
    // nothing: a run that ignored it would look as if it had taken it.
    void refuse_unless(bool applies, const std::string& name, const std::string& where) const;
    std::optional<std::string> value(const std::string& name) const;
    std::string value_or(const std::string& name, const std::string& fallback) const;
    // An integer option within [lo, hi].
    std::uint64_t integer(const std::string& name, std::uint64_t fallback, std::uint64_t lo = 0,
                          std::uint64_t hi = UINT64_MAX) const;

private:
    std::string command_;
    std::vector<std::string> positionals_;
    std::map<std::string, std::string> values_;
    std::set<std::string> flags_set_;
};

// "a,b,c" -> {parse(a), parse(b), parse(c)}; "all" -> {} (callers read empty as everything).
template <class T, class Parse>
std::vector<T> parse_names(const std::string& text, Parse parse) {
    std::vector<T> out;
    if (text == "all") return out;
    std::size_t start = 0;
    for (;;) {
        const auto comma = text.find(',', start);
        const T item = parse(text.substr(start, comma == std::string::npos ? std::string::npos : comma - start));
        if (std::find(out.begin(), out.end(), item) == out.end()) out.push_back(item);  // "mttkrp,mttkrp" runs once
        if (comma == std::string::npos) break;
        start = comma + 1;
    }
    return out;
}

// The format options that formats, bench and decompose share (--mode-order/--csf-order,
// --fiber-threshold, --hicoo-bits, --hls-threshold), each checked against its range and, with
// the tensor, by validate_options: one validator, so no command lets through what another refuses.
FormatOptions parse_format_options(const Args& args, const CooTensor& t);
// Refuses (InputError) a format option that none of `formats` reads (the registry's parameters;
// empty `formats`: every format, which some read): --hls-threshold with --format COO did nothing.
// Their values are checked too, as far as they can be without the tensor.
void check_format_parameters(const Args& args, const std::vector<FormatKind>& formats);
// InputError where the input `path` cannot be a readable file: missing, a folder, or not
// readable ("-", stdin, always passes). Nothing is opened (a FIFO's open would wait for a
// writer): for commands that check something costly (a GPU) before they read the file, so that
// a wrong name is not hidden behind it.
void check_input_exists(const std::string& path);
// Said where --rank is given to SpTV alone, which would not read it.
inline constexpr const char* kRankIsNotSptvs =
    "--rank applies to --kernel mttkrp, spttm and ttmc: SpTV multiplies by a vector (rank 1)";
// --mode's list read as far as it can be without the tensor (numbers from 1): before the load.
void check_mode_syntax(const Args& args);
// --factors DIR before the load: a folder, and its mode1.mat readable (InputError naming it).
void check_factor_dir(const std::string& dir);
// Creates DIR if needed and proves it writable with a temporary file, before any work: a bad
// --write destination is exit 2 at once, not a failure after the run.
void check_output_dir(const std::string& dir, const std::string& option = "--write");
// Refuses "-" as an output's name (InputError): it reads as standard output, which no command
// writes a tensor to; a file of that name is not what was meant. Refuses too, before any work,
// an empty name, one past NAME_MAX, a folder, and a folder that is missing or not writable.
void check_output_name(const std::string& output);
// Refuses (InputError) any of `outputs` that is the file `input` by another name (a path through
// a link, a hard link; "-": the file standard input reads): what the user gave to be read is
// never written over. `option` names where the output's name came from, `role` what `input` is,
// for the message.
void check_not_input(const std::string& input, const std::vector<std::string>& outputs, const std::string& option,
                     const std::string& role = "the input file");

// "--mode 1,3" -> {0, 2} for a tensor of `order` modes; "all" -> {} (every mode). InputError
// naming the mode out of range.
std::vector<int> parse_modes(const std::string& text, int order);
// "64M", "1G", "65536"; "auto" -> 0.
std::uint64_t parse_bytes(const std::string& text, const std::string& what);
// --gpus N|all: a count of at least 1, or 0 for all.
int parse_gpus(const Args& args);
// --part-nnz: 0 (the reader's own size) or at least 100; a part of 1 nonzero made a streamed read
// of 3M nonzeros run past two minutes on per-part work alone (sweep 66a F12).
std::uint64_t parse_part_nnz(const Args& args);

}  // namespace tscope::cli
