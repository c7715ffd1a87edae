#include "args.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <climits>
#include <cstring>
#include <filesystem>
#include <fstream>

#include "tscope/checks.hpp"
#include "tscope/error.hpp"
#include "tscope/formats/format_registry.hpp"
#include "tscope/io/temp_cleanup.hpp"
#include "tscope/io/tensor_io.hpp"
#include "tscope/text_parse.hpp"
#include "tscope/text_words.hpp"

namespace tscope::cli {

Args::Args(int argc, char** argv, int first, const std::string& command, std::set<std::string> valued,
           std::set<std::string> flags)
    : command_(command) {
    for (int i = first; i < argc; ++i) {
        std::string a = argv[i];
        if (a == "--") {  // the end of the options, as POSIX has it: a file may then start with '-' (sweep 70b B4)
            while (++i < argc) positionals_.push_back(argv[i]);
            break;
        }
        if (a.size() > 1 && a[0] == '-' && !(a.size() > 1 && std::isdigit(static_cast<unsigned char>(a[1])))) {
            std::string name = a, inline_value;
            bool has_inline = false;
            if (const auto eq = a.find('='); eq != std::string::npos && a.rfind("--", 0) == 0) {
                name = a.substr(0, eq);
                inline_value = a.substr(eq + 1);
                has_inline = true;
            }
            if (valued.count(name)) {
                if (has_inline) {
                    values_[name] = inline_value;
                } else {
                    if (i + 1 >= argc) throw InputError(command + ": option " + name + " needs a value");
                    values_[name] = argv[++i];
                }
            } else if (flags.count(name) && !has_inline) {
                flags_set_.insert(name);
            } else {
                throw InputError(command + ": unknown option " + name + " (try tensorscope-cli help)");
            }
        } else {
            positionals_.push_back(a);
        }
    }
}

const std::string& Args::positional(std::size_t i, const std::string& what) const {
    if (i >= positionals_.size()) throw InputError(command_ + ": missing " + what);
    return positionals_[i];
}

void Args::expect_positionals(std::size_t n) const {
    if (positionals_.size() > n)
        throw InputError(command_ + ": unexpected argument '" + positionals_[n] + "'");
}

std::optional<std::string> Args::value(const std::string& name) const {
    auto it = values_.find(name);
    if (it == values_.end()) return std::nullopt;
    return it->second;
}

std::string Args::value_or(const std::string& name, const std::string& fallback) const {
    return value(name).value_or(fallback);
}

void Args::refuse_unless(bool applies, const std::string& name, const std::string& where) const {
    if (!applies && given(name)) throw InputError(name + " applies to " + where);
}

std::uint64_t Args::integer(const std::string& name, std::uint64_t fallback, std::uint64_t lo, std::uint64_t hi) const {
    auto v = value(name);
    if (!v) return fallback;
    const std::uint64_t x = parse_count(*v, name);
    if (x < lo || x > hi)
        throw InputError(command_ + ": " + name + " must be between " + std::to_string(lo) + " and " +
                         std::to_string(hi) + ", got " + *v);
    return x;
}

namespace {

// The format options' values, as far as they can be checked without the tensor.
FormatOptions format_option_values(const Args& args) {
    FormatOptions o;
    if (auto order = args.value("--mode-order") ? args.value("--mode-order") : args.value("--csf-order"))
        for (std::uint64_t m : parse_count_list(*order, "--mode-order")) o.mode_order.push_back(static_cast<int>(std::min<std::uint64_t>(m, INT_MAX)) - 1);
    o.bcsf_fiber_threshold = args.integer("--fiber-threshold", o.bcsf_fiber_threshold, 1);
    o.hicoo_bits = static_cast<int>(args.integer("--hicoo-bits", static_cast<std::uint64_t>(o.hicoo_bits), 1, 16));
    if (args.value("--hls-threshold"))  // the one threshold the user gave, for every kernel
        o.hls_threshold = o.hls_ttmc_threshold = args.integer("--hls-threshold", o.hls_threshold, 1);
    return o;
}

}  // namespace

FormatOptions parse_format_options(const Args& args, const CooTensor& t) {
    const FormatOptions o = format_option_values(args);
    validate_options(t, o);
    return o;
}

void check_format_parameters(const Args& args, const std::vector<FormatKind>& formats) {
    for (const char* option : {"mode-order", "csf-order", "fiber-threshold", "hicoo-bits", "hls-threshold"}) {
        if (formats.empty() || !args.given(std::string("--") + option)) continue;
        const std::string parameter = std::string(option) == "csf-order" ? "mode-order" : option;
        std::string readers;
        bool read = false;
        for (const FormatEntry& e : format_registry()) {
            const std::string list = std::string(",") + e.parameters + ",";
            if (list.find("," + parameter + ",") == std::string::npos) continue;
            readers += (readers.empty() ? "" : ", ") + std::string(e.name);
            read |= std::find(formats.begin(), formats.end(), e.kind) != formats.end();
        }
        if (!read)
            throw InputError(std::string("--") + option + " applies to " + readers +
                             ", and --format names none of them");
    }
    (void)format_option_values(args);  // their values too, before the load (sweep 70b B9)
}

void check_input_exists(const std::string& path) {
    if (path == "-") return;
    struct stat st {};
    if (::stat(path.c_str(), &st) != 0 || ::access(path.c_str(), R_OK) != 0)
        throw InputError("cannot open '" + path + "': " + std::strerror(errno));
    if (S_ISDIR(st.st_mode)) throw InputError("cannot read '" + path + "': it is a directory");
}

void check_mode_syntax(const Args& args) {
    const std::string modes = args.value_or("--mode", "all");
    if (modes == "all") return;
    (void)parse_count_list(modes, "--mode");  // entries from 1; the range waits for the tensor
}

void check_factor_dir(const std::string& dir) {
    if (dir.empty()) throw InputError("--factors: the folder's name is empty");
    struct stat st {};
    if (::stat(dir.c_str(), &st) != 0) throw InputError("--factors " + dir + ": " + std::strerror(errno));
    if (!S_ISDIR(st.st_mode))
        throw InputError("--factors " + dir + ": not a folder (it holds mode1.mat, mode2.mat, ...)");
    const std::string first = (std::filesystem::path(dir) / "mode1.mat").string();
    if (::access(first.c_str(), R_OK) != 0)
        throw InputError("--factors " + dir + ": cannot read " + first + " (" + std::strerror(errno) + ")");
}

void check_output_dir(const std::string& dir, const std::string& option) {
    if (dir.empty())
        throw InputError(option +
                         ": the folder's name is empty");  // it read as '/' or 'Invalid argument' (sweep 70b B13)
    std::error_code ec;
    // the levels that do not exist yet, outermost first, as create_directories walks the path
    // (new/sub/.. makes new/sub too): removed again if the command fails
    std::vector<std::filesystem::path> missing;
    std::filesystem::path prefix;
    for (const std::filesystem::path& part : std::filesystem::path(dir)) {
        prefix /= part;
        if (part == "." || part == ".." || part.empty() || std::filesystem::exists(prefix, ec)) continue;
        missing.push_back(prefix);
    }
    std::filesystem::create_directories(dir, ec);
    if (ec) throw InputError(option + " " + dir + ": cannot create it (" + ec.message() + ")");
    for (const std::filesystem::path& p : missing) tscope::detail::list_created_dir(p.c_str());
    const std::filesystem::path probe = std::filesystem::path(dir) / (".tensorscope-write-test-" + std::to_string(::getpid()));
    {
        std::ofstream f(probe);
        if (!f) throw InputError(option + " " + dir + ": cannot write there");
    }
    std::filesystem::remove(probe, ec);
}

namespace {

// Whether `path` names the file standard input reads.
bool is_stdin(const std::string& path) {
    struct stat in {
    }, out{};
    return ::fstat(0, &in) == 0 && ::stat(path.c_str(), &out) == 0 && in.st_dev == out.st_dev &&
           in.st_ino == out.st_ino;
}

// Whether a and b name one file: the same file on disk, or (where one does not exist yet) the
// same path once links and dots are resolved.
bool same_file(const std::string& a, const std::string& b) {
    std::error_code ec, ea, eb;
    if (std::filesystem::equivalent(a, b, ec)) return true;
    const auto ca = std::filesystem::weakly_canonical(a, ea), cb = std::filesystem::weakly_canonical(b, eb);
    return !ea && !eb && ca == cb;
}

}  // namespace

void check_output_name(const std::string& output) {
    if (output.empty()) throw InputError("the output file's name is empty");  // after the work, exit 1 (sweep 70b B12)
    if (output == "-")
        throw InputError(
            "'-' as the output: tensors are not written to standard output; give a file name (./- for a file named -)");
    check_tensor_output_name(output);
    // where it goes, before the work: a missing folder was found once the tensor was made
    const std::filesystem::path path(output);
    if (path.filename().string().size() > NAME_MAX)
        throw InputError("cannot write '" + output + "': " + std::strerror(ENAMETOOLONG));
    struct stat st {};
    if (::stat(output.c_str(), &st) == 0 && S_ISDIR(st.st_mode))
        throw InputError("cannot write '" + output + "': it is a folder");
    std::error_code ec;  // a link is written through: its target's folder takes the rename (review 70 R4)
    std::filesystem::path where = std::filesystem::weakly_canonical(path, ec);
    if (ec) where = path;
    const std::string dir = where.has_parent_path() ? where.parent_path().string() : ".";
    if (::access(dir.c_str(), W_OK | X_OK) != 0)
        throw InputError("cannot write '" + output + "': " + std::strerror(errno) + " (its folder " + dir + ")");
}

void check_not_input(const std::string& input, const std::vector<std::string>& outputs, const std::string& option,
                     const std::string& role) {
    for (const std::string& out : outputs) {
        if (input == "-" ? is_stdin(out) : same_file(input, out))
            throw InputError(option + ": '" + out + "' is " + role + (input == "-" ? " (on standard input)" : "") +
                             "; refusing to overwrite it");
    }
}

std::vector<int> parse_modes(const std::string& text, int order) {
    if (text == "all") return {};
    std::vector<int> modes;
    for (std::uint64_t m : parse_count_list(text, "--mode")) {
        if (m > static_cast<std::uint64_t>(order)) check_mode(static_cast<int>(std::min<std::uint64_t>(m, INT_MAX)) - 1, order, "--mode");
        if (std::find(modes.begin(), modes.end(), static_cast<int>(m) - 1) == modes.end())  // "1,1": mode 1 once
            modes.push_back(static_cast<int>(m) - 1);
    }
    return modes;
}

// "64M", "1G", "512MB", "65536" (parse_byte_size); "auto" -> 0.
std::uint64_t parse_bytes(const std::string& text, const std::string& what) {
    if (text == "auto") return 0;
    const ByteSize size = parse_byte_size(text);
    // what the user typed is quoted whole: "got '1.5'" for 1.5G had quoted the digits alone (sweep 66a F14)
    if (!size.valid)
        throw InputError(what + " expects a whole number of bytes, optionally with " + kByteSizeSuffixes +
                         " (64M, 1G, 512MB), or auto; got '" + text + "'");
    // sizes past 2^64 wrapped silently: 17179869184G was 0, which reads as auto
    if (size.too_large) throw InputError(what + ": '" + text + "' is too large (2^64 bytes or more)");
    if (size.bytes == 0) throw InputError(what + " must be positive (or auto)");
    return size.bytes;
}

std::uint64_t parse_part_nnz(const Args& args) {
    const std::uint64_t part = args.integer("--part-nnz", 0, 0, std::uint64_t{1} << 40);
    if (part > 0 && part < 100)
        throw InputError("--part-nnz must be 0 (the reader's own size) or at least 100, got " + std::to_string(part) +
                         ": smaller parts only add work per part");
    return part;
}

int parse_gpus(const Args& args) {
    const std::string v = args.value_or("--gpus", "1");
    if (v == "all") return 0;
    return static_cast<int>(args.integer("--gpus", 1, 1, 64));
}

}  // namespace tscope::cli
