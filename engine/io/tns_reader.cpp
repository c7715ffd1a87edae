// FROSTT .tns parser. The text is cut into ~4 MB blocks at line boundaries and the blocks are
// parsed in parallel; each block collects its entries (row-major, 64-bit) and per-mode min/max.
// Once every block is parsed, the per-mode base (0- or 1-based) and the dims are known, and
// the entries are scattered into the tensor's compact columns in parallel.
//
// Speed matters (at least 150 MB/s of text per core): indices are parsed by hand, values take a
// fast path for plain integers and std::from_chars otherwise, and the text ends in a NUL
// sentinel so the inner loops need no end-of-buffer tests. Error positions are computed only
// when an error happens, by counting newlines up to it.
#include "tscope/io/tns_format.hpp"
#include "tscope/text_words.hpp"

#include <algorithm>
#include <array>
#include <atomic>
#include <charconv>
#include <chrono>
#include <cmath>
#include <cstring>
#include <cstdio>
#include <limits>
#include <memory>
#include <optional>
#include <type_traits>

#include "file_util.hpp"
#include "float_range.hpp"
#include "tns_reader.hpp"
#include "tscope/io/tsb_format.hpp"
#include "tscope/parallel_errors.hpp"
#include "tscope/tensor/coo_ops.hpp"

#ifdef _OPENMP
#include <omp.h>
#endif

namespace tscope {
namespace {

using Clock = std::chrono::steady_clock;
constexpr std::size_t kBlockBytes = std::size_t{4} << 20;

inline bool is_blank(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f'; }
inline bool is_digit(char c) { return static_cast<unsigned char>(c - '0') < 10; }
inline bool ends_token(char c) { return is_blank(c) || c == '\n' || c == '\0'; }

// A parse failure: the offending character and what was expected there.
struct Failure {
    const char* pos = nullptr;
    std::string what;
    explicit operator bool() const { return pos != nullptr; }
};

// The text we parse: [begin, end) with *end == '\0'.
struct Text {
    const char* begin;
    const char* end;
    bool at_end(const char* p) const { return p == end; }
    bool line_ends(const char* p) const { return *p == '\n' || p == end; }
};

// A token for an error message: printable, escaped, cut at 24 characters.
std::string show_token(const char* p, const Text& text) {
    if (text.at_end(p)) return "the end of the file";
    if (*p == '\n') return "the end of the line";
    auto stops = [&](const char* q) { return is_blank(*q) || *q == '\n' || text.at_end(q); };
    std::string out = "'";
    int n = 0;
    for (; !stops(p) && n < 24; ++p, ++n) {
        const auto c = static_cast<unsigned char>(*p);
        if (c >= 0x20 && c < 0x7f) {
            out += static_cast<char>(c);
        } else {
            char hex[8];
            std::snprintf(hex, sizeof hex, "\\x%02x", c);
            out += hex;
        }
    }
    if (!stops(p)) out += "...";
    return out + "'";
}

std::string columns_text(int order) {
    return std::to_string(order + 1) + " columns (" + std::to_string(order) + " indices and a value)";
}

const char* skip_blanks(const char* p) {
    while (is_blank(*p)) ++p;
    return p;
}

// Past the end of the current line.
const char* next_line(const char* p, const Text& text) {
    const void* nl = std::memchr(p, '\n', static_cast<std::size_t>(text.end - p));
    return nl ? static_cast<const char*>(nl) + 1 : text.end;
}

#define TS_HOT inline __attribute__((always_inline))
#define TS_COLD __attribute__((cold, noinline))

// Why the token at tok is not an index (cold: only on errors).
TS_COLD void bad_index(const char* tok, const char* stop, Failure& fail, const Text& text) {
    if (*tok == '-')
        fail = {tok, "expected a non-negative integer index, found the negative " + show_token(tok, text)};
    else if (*tok == '\0' && !text.at_end(tok))
        fail = {tok, "expected an integer index, found a NUL byte: this is not a text file"};
    else if (is_digit(*tok) && is_digit(*stop))
        fail = {tok, "index " + show_token(tok, text) + " does not fit in 64 bits"};
    else if (is_digit(*tok) && (*stop == '.' || *stop == 'e' || *stop == 'E'))
        fail = {tok, "expected an integer index, found the fractional number " + show_token(tok, text)};
    else
        fail = {tok, "expected an integer index, found " + show_token(tok, text)};
}

// Parses an unsigned decimal index at p. On success advances p.
TS_HOT bool parse_index(const char*& p, std::uint64_t& value, Failure& fail, const Text& text) {
    const char* tok = p;
    if (!is_digit(*p)) {
        bad_index(tok, p, fail, text);
        return false;
    }
    std::uint64_t x = static_cast<std::uint64_t>(*p++ - '0');
    for (int n = 1; n < 19 && is_digit(*p); ++n) x = x * 10 + static_cast<std::uint64_t>(*p++ - '0');
    while (is_digit(*p)) {  // a 20th digit and beyond may overflow
        const auto d = static_cast<std::uint64_t>(*p - '0');
        if (x > (std::numeric_limits<std::uint64_t>::max() - d) / 10) {
            bad_index(tok, p, fail, text);
            return false;
        }
        x = x * 10 + d;
        ++p;
    }
    if (!ends_token(*p) || (*p == '\0' && !text.at_end(p))) {
        bad_index(tok, p, fail, text);
        return false;
    }
    value = x;
    return true;
}

// Cold path of parse_value: exponents, long mantissas, and every error.
TS_COLD bool parse_value_slow(const char*& p, double& value, bool as_float, Failure& fail, const Text& text);

// Powers of ten that a double holds exactly.
constexpr double kExactPow10[] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,  1e8,  1e9,  1e10, 1e11,
                                  1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};

// Parses a finite floating-point value at p. On success advances p.
TS_HOT bool parse_value(const char*& p, double& value, bool as_float, Failure& fail, const Text& text) {
    // Fast path for plain decimals ("3", "0.486", "-12.5") of at most 15 significant digits:
    // the mantissa and 10^k are exact doubles, so one IEEE division rounds exactly as
    // from_chars would (Clinger's fast path).
    {
        const char* q = p;
        const bool negative = *q == '-';
        q += negative;
        std::uint64_t mant = 0;
        int digits = 0, frac = 0;
        while (is_digit(*q) && digits < 16) mant = mant * 10 + static_cast<std::uint64_t>(*q++ - '0'), ++digits;
        if (*q == '.') {
            ++q;
            while (is_digit(*q) && digits < 16) mant = mant * 10 + static_cast<std::uint64_t>(*q++ - '0'), ++digits, ++frac;
        }
        if (digits > 0 && digits <= 15 && ends_token(*q) && (*q != '\0' || text.at_end(q)) && *(q - 1) != '.') {
            const double x = static_cast<double>(mant) / kExactPow10[frac];
            value = negative ? -x : x;
            p = q;
            return true;
        }
    }
    return parse_value_slow(p, value, as_float, fail, text);
}

bool parse_value_slow(const char*& p, double& value, bool as_float, Failure& fail, const Text& text) {
    const char* tok = p;
    const char* end = tok;
    while (!ends_token(*end)) ++end;
    const char* start = (*tok == '+') ? tok + 1 : tok;
    auto [ptr, ec] = std::from_chars(start, end, value);
    if (ec == std::errc::result_out_of_range) {
        fail = {tok, "value " + show_token(tok, text) + " is out of the range of a double"};
        return false;
    }
    if (ec != std::errc() || ptr != end || end == tok || (*end == '\0' && !text.at_end(end))) {
        fail = {tok, "expected a number value, found " + show_token(tok, text)};
        return false;
    }
    if (!std::isfinite(value)) {
        fail = {tok, "value " + show_token(tok, text) + " is not a finite number"};
        return false;
    }
    if (as_float && !detail::fits_float(value)) {
        fail = {tok, "value " + show_token(tok, text) + " does not fit a float (" + detail::float_range_text + ")"};
        return false;
    }
    p = end;
    return true;
}

// ---- the preamble: comments, optional header, the order -------------------------------------

struct Preamble {
    int order = 0;
    bool header = false;
    std::vector<std::uint64_t> dims;  // from the header or "# dims:" comment
    const char* data = nullptr;       // first data line
};

int count_tokens(const char* p, const Text& text) {
    int n = 0;
    p = skip_blanks(p);
    while (!text.line_ends(p)) {
        ++n;
        while (!ends_token(*p)) ++p;
        if (*p == '\0' && !text.at_end(p)) ++p;  // NUL inside a line: let the parser complain
        p = skip_blanks(p);
        if (n > kMaxOrder + 2) break;  // enough to know it's too many
    }
    return n;
}

// Parses "I J K ..." (the dims of a header line or "# dims:" comment). Each dim >= 1.
std::vector<std::uint64_t> parse_dims(const char*& p, const Text& text, Failure& fail) {
    std::vector<std::uint64_t> dims;
    p = skip_blanks(p);
    while (!text.line_ends(p)) {
        std::uint64_t d = 0;
        const char* tok = p;
        if (!parse_index(p, d, fail, text)) return {};
        if (d == 0) {
            fail = {tok, "a dimension must be at least 1, found 0"};
            return {};
        }
        if (dims.size() == static_cast<std::size_t>(kMaxOrder)) {
            fail = {tok, "too many dims: at most " + std::to_string(kMaxOrder) + " modes are supported"};
            return {};
        }
        dims.push_back(d);
        p = skip_blanks(p);
    }
    return dims;
}

// Recognises "# dims: I J K" in a comment line starting at '#'. Returns false if it's not one.
// `dims` holds the dims of an earlier such comment, if any: a second that gives others is a
// failure (it had won without a word, sweep 65).
bool dims_comment(const char* p, const Text& text, std::vector<std::uint64_t>& dims, Failure& fail) {
    const char* at = p;
    p = skip_blanks(p + 1);
    if (std::strncmp(p, "dims:", 5) != 0) return false;
    p += 5;
    std::vector<std::uint64_t> given = parse_dims(p, text, fail);
    if (!fail && !dims.empty() && given != dims) fail = {at, "a second '# dims:' comment gives other dims than the first"};
    dims = std::move(given);
    return true;
}

// A NUL early on means binary data; later ones are caught token by token.
const char* find_nul(const Text& text) {
    const auto n = std::min<std::size_t>(static_cast<std::size_t>(text.end - text.begin), 1u << 16);
    const void* z = std::memchr(text.begin, '\0', n);
    return static_cast<const char*>(z);
}

Preamble read_preamble(const Text& text, Failure& fail, bool check_nul = true) {
    Preamble pre;
    if (const char* z = check_nul ? find_nul(text) : nullptr) {
        fail = {z, "found a NUL byte: this is not a text .tns file"};
        return pre;
    }
    std::vector<std::uint64_t> comment_dims;
    const char* comment_at = nullptr;
    const char* p = text.begin;
    bool saw_data = false;
    while (!text.at_end(p)) {
        const char* q = skip_blanks(p);
        if (*q == '\n') {
            p = q + 1;
            continue;
        }
        if (*q == '#') {
            if (!saw_data && dims_comment(q, text, comment_dims, fail)) {
                if (fail) return pre;
                comment_at = q;
            }
            p = next_line(q, text);
            continue;
        }
        if (text.at_end(q)) break;
        const int tokens = count_tokens(q, text);
        if (tokens == 1 && !pre.header) {
            // ParTI / B-CSF header: the order, then a line of dims.
            std::uint64_t order = 0;
            const char* t = q;
            if (!parse_index(t, order, fail, text)) return pre;
            if (order < 1 || order > static_cast<std::uint64_t>(kMaxOrder)) {
                fail = {q, "header order must be between 1 and " + std::to_string(kMaxOrder) + ", found " +
                               show_token(q, text)};
                return pre;
            }
            p = next_line(q, text);
            while (!text.at_end(p)) {  // the dims line, after any comments
                const char* d = skip_blanks(p);
                if (*d == '\n' || *d == '#') {
                    p = next_line(d, text);
                    continue;
                }
                const char* at = d;
                pre.dims = parse_dims(d, text, fail);
                if (fail) return pre;
                if (pre.dims.size() != order) {
                    fail = {at, "expected a header line of " + std::to_string(order) + " dims, found " +
                                    std::to_string(pre.dims.size()) + " numbers"};
                    return pre;
                }
                p = next_line(d, text);
                break;
            }
            if (pre.dims.empty()) {
                fail = {text.end, "expected a header line of " + std::to_string(order) + " dims after the order"};
                return pre;
            }
            pre.order = static_cast<int>(order);
            pre.header = true;
            saw_data = true;
            continue;  // the entries follow
        }
        const int order = tokens - 1;
        if (pre.header && order != pre.order) {
            fail = {q, "expected " + columns_text(pre.order) + " as the header says, found " + std::to_string(tokens) +
                           " columns"};
            return pre;
        }
        if (order < 1) {
            fail = {q, "expected at least 2 columns (indices and a value), found 1"};
            return pre;
        }
        if (order > kMaxOrder) {
            fail = {q, "too many columns: at most " + std::to_string(kMaxOrder) + " modes are supported"};
            return pre;
        }
        pre.order = order;
        pre.data = q;
        break;
    }
    if (!pre.data) {
        if (text.begin == text.end)
            fail = {text.end, "the file is empty: expected lines of indices and a value"};
        else
            fail = {text.end, "no nonzeros: expected lines of indices and a value after the comments"};
        return pre;
    }
    if (!pre.header && !comment_dims.empty()) {
        if (comment_dims.size() != static_cast<std::size_t>(pre.order)) {
            fail = {comment_at, "the '# dims:' comment gives " + std::to_string(comment_dims.size()) +
                                    " dims but the entries have " + std::to_string(pre.order) + " indices"};
            return pre;
        }
        pre.dims = comment_dims;
        pre.header = true;
    }
    return pre;
}

// ---- blocks --------------------------------------------------------------------------------

struct Block {
    const char* begin;
    const char* end;
    std::uint64_t count = 0;   // data lines, from the counting pass
    std::uint64_t offset = 0;  // where this block's entries start in the tensor
    std::array<std::uint64_t, kMaxOrder> min{};
    std::array<std::uint64_t, kMaxOrder> max{};
    std::uint64_t lines = 0;
    bool too_wide = false;  // an index did not fit 32 bits: parse again into 64-bit columns
    Failure fail;
};

// Blocks of 4 MB, smaller where the text is short (a stream read under a small memory budget
// comes in blocks of 1 MB): at least four per thread, so every thread gets some.
std::vector<Block> cut_blocks(const char* data, const Text& text) {
    std::vector<Block> blocks;
    const char* b = data;
#ifdef _OPENMP
    const auto threads = static_cast<std::size_t>(omp_get_max_threads());
#else
    const std::size_t threads = 1;
#endif
    const std::size_t piece = std::clamp<std::size_t>(static_cast<std::size_t>(text.end - b) / (4 * threads), 64 << 10, kBlockBytes);
    while (b < text.end) {
        const char* e = (static_cast<std::size_t>(text.end - b) > piece) ? b + piece : text.end;
        if (e < text.end) e = next_line(e, text);
        Block block;
        block.begin = b;
        block.end = e;
        blocks.push_back(std::move(block));
        b = e;
    }
    return blocks;
}

// Pass 1: how many data lines (neither blank nor comment) a block holds, so that pass 2 can
// write every entry straight to its final place.
void count_block(Block& blk, const Text& text) {
    std::uint64_t n = 0, lines = 0;
    for (const char* p = blk.begin; p < blk.end; ++lines) {
        const char* q = skip_blanks(p);
        n += !(*q == '\n' || *q == '#' || text.at_end(q));
        p = next_line(q, text);
    }
    blk.count = n;
    blk.lines = lines;
}

// Pass 2: parses a block's entries into the columns at blk.offset. Indices keep the file's
// base here; it is removed once every block is read and the base of each mode is known.
template <class I, class V>
void parse_block(Block& blk, int order, I* const* cols, V* vals, const Text& text) {
    constexpr bool as_float = std::is_same_v<V, float>;
    std::array<std::uint64_t, kMaxOrder> lo, hi;
    lo.fill(std::numeric_limits<std::uint64_t>::max());
    hi.fill(0);
    std::uint64_t n = blk.offset;
    const std::uint64_t stop = blk.offset + blk.count;
    const char* p = blk.begin;
    while (p < blk.end) {
        p = skip_blanks(p);
        if (*p == '\n') {
            ++p;
            continue;
        }
        if (*p == '#') {
            p = next_line(p, text);
            continue;
        }
        if (text.at_end(p) || n == stop) break;
        for (int m = 0; m < order; ++m) {
            if (m > 0) {
                p = skip_blanks(p);
                if (text.line_ends(p)) {
                    blk.fail = {p, "expected " + columns_text(order) + ", found " + std::to_string(m)};
                    break;
                }
            }
            std::uint64_t c = 0;
            if (!parse_index(p, c, blk.fail, text)) break;
            if constexpr (sizeof(I) == 4) {
                if (c > std::numeric_limits<std::uint32_t>::max()) {
                    blk.too_wide = true;
                    return;
                }
            }
            const auto mm = static_cast<std::size_t>(m);
            cols[mm][n] = static_cast<I>(c);
            lo[mm] = std::min(lo[mm], c);
            hi[mm] = std::max(hi[mm], c);
        }
        if (blk.fail) break;
        p = skip_blanks(p);
        if (text.line_ends(p)) {
            blk.fail = {p, "expected " + columns_text(order) + ", found " + std::to_string(order) +
                               " (the value is missing)"};
            break;
        }
        double v = 0;
        if (!parse_value(p, v, as_float, blk.fail, text)) break;
        vals[n] = static_cast<V>(v);
        p = skip_blanks(p);
        if (*p == '\n') {
            ++p;
        } else if (!text.at_end(p)) {
            blk.fail = {p, "expected " + columns_text(order) + ", found more: " + show_token(p, text)};
            break;
        }
        ++n;
    }
    blk.min = lo;
    blk.max = hi;
}

// ---- error positions -----------------------------------------------------------------------

// line_base: lines of the input before text (when the text is one block of a stream).
[[noreturn]] void raise(const Failure& fail, const Text& text, const std::string& name, std::uint64_t line_base = 0) {
    const char* pos = fail.pos;
    const std::uint64_t line = line_base + static_cast<std::uint64_t>(std::count(text.begin, pos, '\n')) + 1;
    const char* line_start = pos;
    while (line_start > text.begin && line_start[-1] != '\n') --line_start;
    throw ParseError(name, line, static_cast<std::uint64_t>(pos - line_start) + 1, fail.what);
}

// The start of the token of mode `mode` in entry `k` of a block (to point at a bad index).
const char* locate_index(const Block& blk, std::uint64_t k, int mode, const Text& text) {
    const char* p = blk.begin;
    for (;;) {
        p = skip_blanks(p);
        if (*p == '\n' || *p == '#') {
            p = next_line(p, text);
            continue;
        }
        if (k == 0) break;
        --k;
        p = next_line(p, text);
    }
    for (int m = 0; m < mode; ++m) {
        while (!ends_token(*p)) ++p;
        p = skip_blanks(p);
    }
    return p;
}

// Checks every mode's indices against the dims (after removing the base); reports the first
// offending entry in file order.
template <class I>
void check_bounds(const std::vector<Block>& blocks, const std::vector<Column<I>>& cols,
                  const std::vector<std::uint64_t>& dims, const std::vector<std::uint64_t>& base, const Text& text,
                  const std::string& name, bool from_header) {
    const int order = static_cast<int>(dims.size());
    for (const Block& blk : blocks) {
        bool suspicious = false;
        for (std::size_t m = 0; m < dims.size(); ++m)
            suspicious |= blk.count > 0 && blk.max[m] - base[m] >= dims[m];
        if (!suspicious) continue;
        for (std::uint64_t e = 0; e < blk.count; ++e) {
            for (int m = 0; m < order; ++m) {
                const auto mm = static_cast<std::size_t>(m);
                const std::uint64_t c = cols[mm][blk.offset + e];
                if (c - base[mm] < dims[mm]) continue;
                std::string what = "index " + std::to_string(c) + " of mode " + std::to_string(m + 1) +
                                   " is beyond the dimension " + std::to_string(dims[mm]);
                what += from_header ? " given in the header" : "";
                if (base[mm] == 0 && c == dims[mm]) what += " (this mode holds a 0, so its indices are read as 0-based)";
                raise(Failure{locate_index(blk, e, m, text), what}, text, name);
            }
        }
    }
}

// ---- assembly ------------------------------------------------------------------------------

// Runs pass 2 over every block in parallel into columns of index type I. Returns false when
// an index needs 64 bits (and I is 32-bit).
template <class I, class V>
bool parse_all(std::vector<Block>& blocks, int order, std::vector<Column<I>>& cols, Column<V>& vals, const Text& text,
               const std::string& name, RunControl& control, std::uint64_t line_base = 0, bool report = true) {
    std::vector<I*> ptrs;
    for (auto& c : cols) ptrs.push_back(c.data());
    const auto total = static_cast<std::uint64_t>(text.end - blocks.front().begin);
    std::atomic<std::uint64_t> parsed{0};
    std::atomic<bool> stop{false};
    const auto nb = static_cast<std::int64_t>(blocks.size());
    ParallelErrors errors;  // an error's message allocates; a progress report may throw
#pragma omp parallel for schedule(dynamic, 1)
    for (std::int64_t b = 0; b < nb; ++b) {
        if (stop.load(std::memory_order_relaxed) || control.cancelled()) {
            stop = true;
            continue;
        }
        const bool ran = errors.run([&] {
            Block& blk = blocks[static_cast<std::size_t>(b)];
            parse_block<I, V>(blk, order, ptrs.data(), vals.data(), text);
            if (blk.fail || blk.too_wide) stop = true;  // later blocks can't hold an earlier error
            const std::uint64_t done = parsed += static_cast<std::uint64_t>(blk.end - blk.begin);
            if (report) control.progress(done, total);
        });
        if (!ran) stop = true;
    }
    errors.rethrow();
    control.check();
    for (const Block& blk : blocks) {
        if (blk.fail) raise(blk.fail, text, name, line_base);
        if (blk.too_wide) return false;
    }
    return true;
}

}  // namespace

LoadedTensor parse_tns(std::string_view input, const std::string& name, const LoadOptions& options,
                       RunControl& control) {
    // The parser needs a NUL sentinel after the text.
    detail::ByteBuffer copy(input.size());
    if (!input.empty()) std::memcpy(copy.data(), input.data(), input.size());
    return detail::parse_tns_buffer(copy, name, options, control);
}

namespace {

// Pass 2 into columns of index type I and value type V, then the bases, dims and bounds.
// Returns nullopt when I is too narrow for the file's indices.
template <class I, class V>
std::optional<CooTensor> build(std::vector<Block>& blocks, const Preamble& pre, const Text& text,
                               const std::string& name, LoadInfo& info, RunControl& control) {
    const int order = pre.order;
    std::uint64_t nnz = 0;
    for (Block& blk : blocks) {
        blk.offset = nnz;
        nnz += blk.count;
    }
    if (nnz == 0) raise(Failure{text.end, "no nonzeros: expected lines of indices and a value"}, text, name);
    std::vector<Column<I>> cols(static_cast<std::size_t>(order));
    for (auto& c : cols) c.resize(nnz);
    Column<V> vals(nnz);
    if (!parse_all<I, V>(blocks, order, cols, vals, text, name, control)) return std::nullopt;

    // Bases and dims: SPLATT's rule, per mode: a 0 anywhere means the mode is 0-based.
    std::vector<std::uint64_t> lo(static_cast<std::size_t>(order), std::numeric_limits<std::uint64_t>::max());
    std::vector<std::uint64_t> hi(static_cast<std::size_t>(order), 0);
    for (const Block& blk : blocks) {
        if (blk.count == 0) continue;
        for (std::size_t m = 0; m < lo.size(); ++m) {
            lo[m] = std::min(lo[m], blk.min[m]);
            hi[m] = std::max(hi[m], blk.max[m]);
        }
    }
    std::vector<std::uint64_t> base(static_cast<std::size_t>(order));
    for (std::size_t m = 0; m < base.size(); ++m) {
        info.zero_based.push_back(lo[m] == 0);
        base[m] = lo[m] == 0 ? 0 : 1;
    }
    std::vector<std::uint64_t> dims = pre.dims;
    if (dims.empty()) {
        dims.resize(static_cast<std::size_t>(order));
        for (std::size_t m = 0; m < dims.size(); ++m)  // 2^64 slices can't be counted: check_bounds reports it
            dims[m] = (base[m] == 0 && hi[m] == std::numeric_limits<std::uint64_t>::max()) ? hi[m] : hi[m] - base[m] + 1;
    }
    check_bounds<I>(blocks, cols, dims, base, text, name, pre.header);
    // Header dims can be larger than any index: the tensor's width follows the dims.
    if (sizeof(I) == 4 && CooTensor::width_for(dims) == IndexWidth::U64) return std::nullopt;
    for (std::size_t m = 0; m < base.size(); ++m) {
        if (base[m] == 0) continue;
        I* c = cols[m].data();
#pragma omp parallel for schedule(static)
        for (std::uint64_t i = 0; i < nnz; ++i) c[i] -= 1;
    }
    return CooTensor::from_columns(std::move(dims), std::move(cols), std::move(vals));
}

template <class V>
CooTensor build_any_width(std::vector<Block>& blocks, const Preamble& pre, const Text& text, const std::string& name,
                          LoadInfo& info, RunControl& control) {
    if (auto t = build<std::uint32_t, V>(blocks, pre, text, name, info, control)) return std::move(*t);
    for (Block& blk : blocks) blk.too_wide = false;  // rare: indices beyond 2^32
    info.zero_based.clear();
    return std::move(*build<std::uint64_t, V>(blocks, pre, text, name, info, control));
}

}  // namespace

LoadedTensor detail::parse_tns_buffer(const ByteBuffer& buffer, const std::string& name, const LoadOptions& options,
                                      RunControl& control) {
    const auto start = Clock::now();
    const std::size_t bom = detail::utf8_bom_bytes(buffer.data(), buffer.size());
    const Text text{buffer.data() + bom, buffer.data() + buffer.size()};

    Failure fail;
    const Preamble pre = read_preamble(text, fail);
    if (fail) raise(fail, text, name);

    control.stage("parsing");
    std::vector<Block> blocks = cut_blocks(pre.data, text);
    const auto nb = static_cast<std::int64_t>(blocks.size());
#pragma omp parallel for schedule(dynamic, 1)
    for (std::int64_t b = 0; b < nb; ++b) count_block(blocks[static_cast<std::size_t>(b)], text);
    control.check();

    LoadInfo info;
    info.path = name;
    info.text_bytes = static_cast<std::uint64_t>(text.end - text.begin);
    info.header = pre.header;
    info.lines = static_cast<std::uint64_t>(std::count(text.begin, pre.data, '\n'));
    for (const Block& blk : blocks) info.lines += blk.lines;
    CooTensor t = options.values == ValueType::F32 ? build_any_width<float>(blocks, pre, text, name, info, control)
                                                   : build_any_width<double>(blocks, pre, text, name, info, control);
    control.stage("summing duplicates");
    info.duplicates_summed = sum_duplicates(t, control);
    detail::check_summed_values(t, info.duplicates_summed, info, name);
    info.zeros_dropped = drop_zeros(t);
    info.parse_seconds = std::chrono::duration<double>(Clock::now() - start).count();
    return {std::move(t), std::move(info)};
}

// ---- streaming: text read in blocks (gzip inflated as it comes, pipes, stdin) ----------------
//
// The text comes in blocks of about block_bytes, each cut at its last newline (the partial
// line is carried into the next block) and parsed with the same block parser as above, in
// parallel, into columns that grow block by block. The per-mode base is only known at the
// end, so the bounds that depend on it are checked then, from the first candidates of each
// mode noted (with their positions) while their block was still in memory.

namespace {

struct BoundCandidate {
    std::uint64_t entry = std::numeric_limits<std::uint64_t>::max();
    std::uint64_t value = 0, line = 0, column = 0;
};

template <class V>
struct StreamColumns {
    int order = 0;
    bool wide = false;  // an index needed 64 bits
    std::vector<Column<std::uint32_t>> c32;
    std::vector<Column<std::uint64_t>> c64;
    Column<V> vals;
    std::uint64_t nnz = 0;      // held now
    std::uint64_t spilled = 0;  // handed over before (a spilling read): entry numbers go on from it
    std::uint64_t room = 0;     // a spilling read's batch size: the columns are reserved for it
    std::array<std::uint64_t, kMaxOrder> lo{}, hi{};
    std::array<std::uint64_t, kMaxOrder> limit{};  // the header's dims, else 2^64-1
    // per mode: the first index above its limit, and the first equal to it (an error when the
    // mode turns out 0-based)
    std::array<BoundCandidate, kMaxOrder> above, equal;
};

void position_of(const char* pos, const Text& text, std::uint64_t line_base, std::uint64_t& line,
                 std::uint64_t& column) {
    line = line_base + static_cast<std::uint64_t>(std::count(text.begin, pos, '\n')) + 1;
    const char* line_start = pos;
    while (line_start > text.begin && line_start[-1] != '\n') --line_start;
    column = static_cast<std::uint64_t>(pos - line_start) + 1;
}

template <class V>
void widen(StreamColumns<V>& s) {
    s.c64.resize(static_cast<std::size_t>(s.order));
    for (std::size_t m = 0; m < s.c64.size(); ++m) {
        s.c64[m].resize(s.nnz);
        const std::uint32_t* from = s.c32[m].data();
        std::uint64_t* to = s.c64[m].data();
        for (std::uint64_t i = 0; i < s.nnz; ++i) to[i] = from[i];
        Column<std::uint32_t>().swap(s.c32[m]);
    }
    s.c32.clear();
    s.wide = true;
}

template <class I, class V>
void note_candidates(const std::vector<Block>& blocks, const std::vector<Column<I>>& cols, StreamColumns<V>& s,
                     const Text& text, std::uint64_t line_base) {
    constexpr auto kNone = std::numeric_limits<std::uint64_t>::max();
    for (const Block& blk : blocks) {
        if (blk.count == 0) continue;
        for (int m = 0; m < s.order; ++m) {
            const auto mm = static_cast<std::size_t>(m);
            const std::uint64_t lim = s.limit[mm];
            if (blk.max[mm] < lim) continue;
            bool need_above = s.above[mm].entry == kNone && lim != kNone;
            bool need_equal = s.equal[mm].entry == kNone;
            for (std::uint64_t e = 0; e < blk.count && (need_above || need_equal); ++e) {
                const std::uint64_t c = cols[mm][blk.offset + e];
                BoundCandidate* hit = nullptr;
                if (c > lim && need_above) {
                    hit = &s.above[mm];
                    need_above = false;
                } else if (c == lim && need_equal) {
                    hit = &s.equal[mm];
                    need_equal = false;
                }
                if (!hit) continue;
                hit->entry = s.spilled + blk.offset + e;
                hit->value = c;
                position_of(locate_index(blk, e, m, text), text, line_base, hit->line, hit->column);
            }
        }
    }
}

template <class I, class V>
bool parse_chunk_as(std::vector<Block>& blocks, std::vector<Column<I>>& cols, StreamColumns<V>& s,
                    std::uint64_t count, const Text& text, const std::string& name, RunControl& control,
                    std::uint64_t line_base) {
    const std::uint64_t want = s.nnz + count;
    if (s.room > 0) {  // a spilling read: reserved for the whole batch, no doubling past its budget
        const std::uint64_t room = std::max(want, s.room);
        for (auto& c : cols)
            if (c.capacity() < want) c.reserve(room);
        if (s.vals.capacity() < want) s.vals.reserve(room);
    }
    for (auto& c : cols) c.resize(want);
    s.vals.resize(want);
    return parse_all<I, V>(blocks, s.order, cols, s.vals, text, name, control, line_base, false);
}

// Parses the entries of one block of the stream, [from, text.end), onto the columns.
// make_room(count), when given, is told how many entries come before they are parsed (a
// spilling read hands over what it holds first).
template <class V>
void parse_chunk(const char* from, const Text& text, StreamColumns<V>& s, const std::string& name,
                 RunControl& control, std::uint64_t line_base, const std::function<void(std::uint64_t)>& make_room = {}) {
    std::vector<Block> blocks = cut_blocks(from, text);
    const auto nb = static_cast<std::int64_t>(blocks.size());
#pragma omp parallel for schedule(dynamic, 1)
    for (std::int64_t b = 0; b < nb; ++b) count_block(blocks[static_cast<std::size_t>(b)], text);
    control.check();
    std::uint64_t count = 0;
    for (const Block& blk : blocks) count += blk.count;
    if (count == 0) return;
    if (make_room) make_room(count);  // may hand over what is held: the offsets start after it
    std::uint64_t at = s.nnz;
    for (Block& blk : blocks) {
        blk.offset = at;
        at += blk.count;
    }
    if (!s.wide && !parse_chunk_as<std::uint32_t, V>(blocks, s.c32, s, count, text, name, control, line_base)) {
        widen(s);
        for (Block& blk : blocks) {
            blk.too_wide = false;
            blk.fail = {};
        }
    }
    if (s.wide) parse_chunk_as<std::uint64_t, V>(blocks, s.c64, s, count, text, name, control, line_base);
    for (const Block& blk : blocks) {
        if (blk.count == 0) continue;
        for (std::size_t m = 0; m < static_cast<std::size_t>(s.order); ++m) {
            s.lo[m] = std::min(s.lo[m], blk.min[m]);
            s.hi[m] = std::max(s.hi[m], blk.max[m]);
        }
    }
    if (s.wide)
        note_candidates(blocks, s.c64, s, text, line_base);
    else
        note_candidates(blocks, s.c32, s, text, line_base);
    s.nnz += count;
}

template <class I, class V>
CooTensor assemble(std::vector<Column<I>>& cols, StreamColumns<V>& s, std::vector<std::uint64_t> dims,
                   const std::vector<std::uint64_t>& base) {
    for (std::size_t m = 0; m < base.size(); ++m) {
        if (base[m] == 0) continue;
        I* c = cols[m].data();
        const std::uint64_t nnz = s.nnz;
#pragma omp parallel for schedule(static)
        for (std::uint64_t i = 0; i < nnz; ++i) c[i] -= 1;
    }
    return CooTensor::from_columns(std::move(dims), std::move(cols), std::move(s.vals));
}

// The bases and dims once every block is in, the bounds checked (as build() does for a whole
// buffer). Returns the dims; `base` gets each mode's base.
template <class V>
std::vector<std::uint64_t> settle_shape(const StreamColumns<V>& s, const Preamble& pre, const std::string& name, LoadInfo& info,
                                        std::vector<std::uint64_t>& base) {
    const auto order = static_cast<std::size_t>(s.order);
    base.assign(order, 0);
    for (std::size_t m = 0; m < order; ++m) {
        info.zero_based.push_back(s.lo[m] == 0);
        base[m] = s.lo[m] == 0 ? 0 : 1;
    }
    std::vector<std::uint64_t> dims = pre.dims;
    if (dims.empty()) {
        dims.resize(order);
        for (std::size_t m = 0; m < order; ++m)
            dims[m] = (base[m] == 0 && s.hi[m] == std::numeric_limits<std::uint64_t>::max()) ? s.hi[m]
                                                                                            : s.hi[m] - base[m] + 1;
    }
    // The first entry (in file order) with an index beyond its mode's dimension.
    const BoundCandidate* worst = nullptr;
    std::size_t worst_mode = 0;
    for (std::size_t m = 0; m < order; ++m) {
        const BoundCandidate* c = &s.above[m];
        if (base[m] == 0 && s.equal[m].entry < c->entry) c = &s.equal[m];
        if (c->entry == std::numeric_limits<std::uint64_t>::max()) continue;
        if (!worst || c->entry < worst->entry) worst = c, worst_mode = m;
    }
    if (worst) {
        std::string what = "index " + std::to_string(worst->value) + " of mode " + std::to_string(worst_mode + 1) +
                           " is beyond the dimension " + std::to_string(dims[worst_mode]);
        what += pre.header ? " given in the header" : "";
        if (base[worst_mode] == 0 && worst->value == dims[worst_mode])
            what += " (this mode holds a 0, so its indices are read as 0-based)";
        throw ParseError(name, worst->line, worst->column, what);
    }
    return dims;
}

template <class V>
CooTensor finish(StreamColumns<V>& s, const Preamble& pre, const std::string& name, LoadInfo& info) {
    std::vector<std::uint64_t> base;
    std::vector<std::uint64_t> dims = settle_shape(s, pre, name, info, base);
    if (!s.wide && CooTensor::width_for(dims) == IndexWidth::U64) widen(s);
    return s.wide ? assemble(s.c64, s, std::move(dims), base) : assemble(s.c32, s, std::move(dims), base);
}

// Hands the entries held to `spill` and starts empty columns for the next ones.
template <class V>
void spill_held(StreamColumns<V>& s, const std::function<void(detail::EntryBatch&&)>& spill, bool last = false) {
    if (s.nnz == 0 && !last) return;
    detail::EntryBatch batch;
    batch.order = s.order;
    batch.last = last;
    batch.first_entry = s.spilled;
    const auto order = static_cast<std::size_t>(s.order);
    batch.max_index.assign(s.hi.begin(), s.hi.begin() + s.order);
    if (s.wide) {
        batch.idx64 = std::move(s.c64);
        s.c64.assign(order, {});
    } else {
        batch.idx32 = std::move(s.c32);
        s.c32.assign(order, {});
    }
    if constexpr (std::is_same_v<V, float>)
        batch.f32 = std::move(s.vals);
    else
        batch.f64 = std::move(s.vals);
    s.vals = {};
    s.spilled += s.nnz;
    s.nnz = 0;
    spill(std::move(batch));
    if (last) return;
    // Columns the receiver left serve the next batch: their pages are mapped already, where
    // fresh ones would fault every page in again.
    auto reclaim = [](auto& from, auto& to) {
        if (from.capacity() <= to.capacity()) return;
        to = std::move(from);
        to.clear();
    };
    if (s.wide && batch.idx64.size() == order)
        for (std::size_t m = 0; m < order; ++m) reclaim(batch.idx64[m], s.c64[m]);
    if (!s.wide && batch.idx32.size() == order)
        for (std::size_t m = 0; m < order; ++m) reclaim(batch.idx32[m], s.c32[m]);
    if constexpr (std::is_same_v<V, float>)
        reclaim(batch.f32, s.vals);
    else
        reclaim(batch.f64, s.vals);
}

// A spilling read (see parse_tns_stream_spilling): where to send the entries, and when.
struct SpillTo {
    const std::function<std::uint64_t(int)>* at = nullptr;
    const std::function<void(detail::EntryBatch&&)>* spill = nullptr;
    detail::StreamShape* shape = nullptr;  // filled at the end, instead of a tensor
};

// The longest line a stream may hold: a nonzero of 16 modes takes a few hundred bytes, and a
// longer comment is not a reason to hold gigabytes of a stream that never ends a line.
constexpr std::size_t kLongestLine = std::size_t{64} << 20;

template <class V>
LoadedTensor parse_stream(detail::TextStream& in, const std::string& name, RunControl& control,
                          std::size_t block_bytes, const SpillTo& spill_to = {}) {
    const auto start = Clock::now();
    double read_seconds = 0;
    block_bytes = std::max<std::size_t>(block_bytes, 16);
    // Not zero-filled, and grown as text arrives: a small input never touches 64 MiB.
    std::unique_ptr<char[]> buf;
    std::size_t capacity = 0;     // of buf, the sentinel's byte included
    std::size_t have = 0;         // bytes in buf: the carried partial line, then new text
    auto grow = [&](std::size_t want) {
        if (want <= capacity) return;
        std::unique_ptr<char[]> bigger(new char[want]);
        if (have) std::memcpy(bigger.get(), buf.get(), have);
        buf = std::move(bigger);
        capacity = want;
    };
    std::size_t target = block_bytes;  // grows only for a line longer than a block
    std::uint64_t line_base = 0;  // newlines in the text already consumed
    std::uint64_t text_bytes = 0;
    char last = '\n';
    bool first = true, eof = false, have_pre = false;
    Preamble pre;
    std::vector<std::uint64_t> comment_dims;  // a "# dims:" comment before the first data line
    std::uint64_t comment_line = 0, comment_column = 0;
    StreamColumns<V> s;
    // A spilling read hands its entries over before a block would take them past the batch size.
    std::function<void(std::uint64_t)> make_room;
    if (spill_to.spill)
        make_room = [&](std::uint64_t count) {
            s.room = (*spill_to.at)(s.order);
            if (s.nnz > 0 && s.nnz + count > s.room) spill_held(s, *spill_to.spill);
        };
    // Drops the first n bytes of buf (parsed or skipped), counting their lines.
    auto consume = [&](std::size_t n) {
        if (n == 0) return;
        line_base += static_cast<std::uint64_t>(std::count(buf.get(), buf.get() + n, '\n'));
        last = buf[n - 1];
        std::memmove(buf.get(), buf.get() + n, have - n);
        have -= n;
    };
    for (;;) {
        control.check();
        while (!eof && have < target) {
            if (have + 1 >= capacity) grow(std::min(target, std::max<std::size_t>(capacity * 2, std::size_t{1} << 20)) + 1);
            const auto t0 = Clock::now();
            const std::size_t want = capacity - 1 - have;
            const std::size_t got = in.read(buf.get() + have, want);
            read_seconds += std::chrono::duration<double>(Clock::now() - t0).count();
            have += got;
            text_bytes += got;
            eof = got < want;
            if (in.regular()) control.progress(in.disk_offset(), in.disk_bytes());
        }
        grow(have + 1);
        if (first && !in.gzip() && have >= sizeof kTsbMagic && std::memcmp(buf.get(), kTsbMagic, sizeof kTsbMagic) == 0)
            throw InputError("cannot read '" + name +
                             "': it is a .tsb file, which needs random access and cannot be read from a pipe or "
                             "stdin; give its path instead");
        if (first) {  // binary data stops here, before a line end is looked for (/dev/zero has none)
            buf[have] = '\0';
            const Text head{buf.get(), buf.get() + have};
            if (const char* z = find_nul(head))
                raise(Failure{z, "found a NUL byte: this is not a text .tns file"}, head, name);
            first = false;
        }
        std::size_t cut = have;
        if (!eof) {
            const void* nl = have ? ::memrchr(buf.get(), '\n', have) : nullptr;
            if (!nl) {  // a line longer than the block: read on, up to kLongestLine
                if (have >= kLongestLine) {
                    buf[have] = '\0';
                    const Text line{buf.get(), buf.get() + have};
                    raise(Failure{line.begin, "a line of over " + std::to_string(kLongestLine >> 20) +
                                                  " MiB without a line end: this is not a .tns text"},
                          line, name, line_base);
                }
                target *= 2;
                continue;
            }
            cut = static_cast<std::size_t>(static_cast<const char*>(nl) - buf.get()) + 1;
        }
        const char saved = buf[cut];
        buf[cut] = '\0';
        const Text text{buf.get(), buf.get() + cut};
        if (eof && in.truncated())
            raise(Failure{text.end, "the gzip data ends early (a truncated download?) after " + grouped(text_bytes) +
                                        " bytes of text"},
                  text, name, line_base);
        const char* data_from = nullptr;
        std::size_t keep_from = cut;  // bytes before it are done with
        if (have_pre) {
            data_from = text.begin;
        } else {
            // comment and blank lines before the first other line
            const char* p = text.begin;
            while (!text.at_end(p)) {
                const char* q = skip_blanks(p);
                if (*q == '\n') {
                    p = q + 1;
                    continue;
                }
                if (*q != '#') {
                    p = q;
                    break;
                }
                Failure fail;
                if (dims_comment(q, text, comment_dims, fail)) {
                    if (fail) raise(fail, text, name, line_base);
                    position_of(q, text, line_base, comment_line, comment_column);
                }
                p = next_line(q, text);
            }
            if (!text.at_end(p)) {
                Failure fail;
                const Text rest{p, text.end};
                Preamble got = read_preamble(rest, fail, false);
                if (!got.data && !eof && fail && fail.pos == rest.end && !got.header) {
                    // an order line whose dims line is not in this block yet: keep it, read on
                    buf[cut] = saved;
                    consume(static_cast<std::size_t>(p - text.begin));
                    target = have + block_bytes;
                    continue;
                }
                if (fail && !(got.header && !got.data && fail.pos == rest.end && !eof)) raise(fail, text, name, line_base);
                if (!got.header && !comment_dims.empty()) {
                    if (comment_dims.size() != static_cast<std::size_t>(got.order))
                        throw ParseError(name, comment_line, comment_column,
                                         "the '# dims:' comment gives " + std::to_string(comment_dims.size()) +
                                             " dims but the entries have " + std::to_string(got.order) + " indices");
                    got.dims = comment_dims;
                    got.header = true;
                }
                pre = std::move(got);
                have_pre = true;
                data_from = pre.data;  // null after a header followed by comments only so far
                s.order = pre.order;
                s.lo.fill(std::numeric_limits<std::uint64_t>::max());
                s.limit.fill(std::numeric_limits<std::uint64_t>::max());
                for (std::size_t m = 0; m < pre.dims.size(); ++m) s.limit[m] = pre.dims[m];
                s.c32.resize(static_cast<std::size_t>(s.order));
            } else if (eof) {
                raise(Failure{text.end, text_bytes == 0
                                            ? "the file is empty: expected lines of indices and a value"
                                            : "no nonzeros: expected lines of indices and a value after the comments"},
                      text, name, line_base);
            }
        }
        if (data_from) parse_chunk(data_from, text, s, name, control, line_base, make_room);
        if (eof && s.nnz + s.spilled == 0)
            raise(Failure{text.end, "no nonzeros: expected lines of indices and a value"}, text, name, line_base);
        buf[cut] = saved;
        consume(keep_from);
        target = block_bytes;
        if (eof) break;
    }
    LoadInfo info;
    info.path = name;
    info.text_bytes = text_bytes;
    info.header = pre.header;
    info.lines = line_base + (text_bytes > 0 && last != '\n' ? 1 : 0);
    info.file_bytes = in.regular() ? in.disk_bytes() : in.bytes_read();  // stdin's had read 0 B (sweep 70b B3)
    if (spill_to.spill && s.spilled > 0) {
        spill_to.shape->dims = settle_shape(s, pre, name, info, spill_to.shape->base);
        spill_held(s, *spill_to.spill, true);
        info.read_seconds = read_seconds;
        info.parse_seconds = std::chrono::duration<double>(Clock::now() - start).count() - read_seconds;
        spill_to.shape->info = std::move(info);
        return {};
    }
    CooTensor t = finish(s, pre, name, info);
    control.stage("summing duplicates");
    info.duplicates_summed = sum_duplicates(t, control);
    detail::check_summed_values(t, info.duplicates_summed, info, name);
    info.zeros_dropped = drop_zeros(t);
    info.read_seconds = read_seconds;
    info.parse_seconds = std::chrono::duration<double>(Clock::now() - start).count() - read_seconds;
    return {std::move(t), std::move(info)};
}

}  // namespace

void detail::check_summed_values(const CooTensor& t, std::uint64_t summed, const LoadInfo& info, const std::string& name) {
    if (summed == 0) return;  // every value was checked finite as it was read
    t.visit([&](auto itag, auto vtag) {
        using I = typename decltype(itag)::type;
        using V = typename decltype(vtag)::type;
        const auto& vals = t.values<V>();
        const auto it = std::find_if(vals.begin(), vals.end(), [](V v) { return !std::isfinite(v); });
        if (it == vals.end()) return;
        const auto at = static_cast<std::uint64_t>(it - vals.begin());
        std::string where;
        for (int m = 0; m < t.order(); ++m) {
            const bool zero = static_cast<std::size_t>(m) < info.zero_based.size() && info.zero_based[static_cast<std::size_t>(m)];
            where += (m ? ", " : "") + std::to_string(static_cast<std::uint64_t>(t.indices<I>(m)[at]) + (zero ? 0 : 1));
        }
        throw InputError(name + ": the duplicates of entry (" + where + ") sum to a value beyond the range of " +
                         (sizeof(V) == 4 ? "float" : "double"));
    });
}

detail::StreamShape detail::parse_tns_stream_spilling(TextStream& in, const std::string& name, const LoadOptions& options,
                                                      RunControl& control, const std::function<std::uint64_t(int)>& spill_at,
                                                      const std::function<void(EntryBatch&&)>& spill, std::size_t block_bytes) {
    if (block_bytes == 0) block_bytes = kStreamBlockBytes;
    StreamShape shape;
    const SpillTo to{&spill_at, &spill, &shape};
    LoadedTensor whole = options.values == ValueType::F32 ? parse_stream<float>(in, name, control, block_bytes, to)
                                                          : parse_stream<double>(in, name, control, block_bytes, to);
    if (whole.tensor.order() > 0) {  // it fitted: nothing was spilled
        shape.fitted = true;
        shape.dims = whole.tensor.dims();
        shape.info = std::move(whole.info);
        shape.whole = std::move(whole.tensor);
    }
    return shape;
}

LoadedTensor detail::parse_tns_stream(TextStream& in, const std::string& name, const LoadOptions& options,
                                      RunControl& control, std::size_t block_bytes) {
    if (block_bytes == 0) block_bytes = kStreamBlockBytes;
    return options.values == ValueType::F32 ? parse_stream<float>(in, name, control, block_bytes)
                                            : parse_stream<double>(in, name, control, block_bytes);
}

}  // namespace tscope
