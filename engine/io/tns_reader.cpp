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
#include "tns_reader.hpp"
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
    if (as_float && std::fabs(value) > std::numeric_limits<float>::max()) {
        fail = {tok, "value " + show_token(tok, text) + " does not fit a float"};
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
bool dims_comment(const char* p, const Text& text, std::vector<std::uint64_t>& dims, Failure& fail) {
    p = skip_blanks(p + 1);
    if (std::strncmp(p, "dims:", 5) != 0) return false;
    p += 5;
    dims = parse_dims(p, text, fail);
    return true;
}

// A NUL early on means binary data; later ones are caught token by token.
const char* find_nul(const Text& text) {
    const auto n = std::min<std::size_t>(static_cast<std::size_t>(text.end - text.begin), 1u << 16);
    const void* z = std::memchr(text.begin, '\0', n);
    return static_cast<const char*>(z);
}

Preamble read_preamble(const Text& text, Failure& fail) {
    Preamble pre;
    if (const char* z = find_nul(text)) {
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

std::vector<Block> cut_blocks(const char* data, const Text& text) {
    std::vector<Block> blocks;
    const char* b = data;
    while (b < text.end) {
        const char* e = (static_cast<std::size_t>(text.end - b) > kBlockBytes) ? b + kBlockBytes : text.end;
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

[[noreturn]] void raise(const Failure& fail, const Text& text, const std::string& name) {
    const char* pos = fail.pos;
    const std::uint64_t line = static_cast<std::uint64_t>(std::count(text.begin, pos, '\n')) + 1;
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
               const std::string& name, RunControl& control) {
    std::vector<I*> ptrs;
    for (auto& c : cols) ptrs.push_back(c.data());
    const auto total = static_cast<std::uint64_t>(text.end - blocks.front().begin);
    std::atomic<std::uint64_t> parsed{0};
    std::atomic<bool> stop{false};
    const auto nb = static_cast<std::int64_t>(blocks.size());
#pragma omp parallel for schedule(dynamic, 1)
    for (std::int64_t b = 0; b < nb; ++b) {
        if (stop.load(std::memory_order_relaxed) || control.cancelled()) {
            stop = true;
            continue;
        }
        Block& blk = blocks[static_cast<std::size_t>(b)];
        parse_block<I, V>(blk, order, ptrs.data(), vals.data(), text);
        if (blk.fail || blk.too_wide) stop = true;  // later blocks can't hold an earlier error
        control.progress(parsed += static_cast<std::uint64_t>(blk.end - blk.begin), total);
    }
    control.check();
    for (const Block& blk : blocks) {
        if (blk.fail) raise(blk.fail, text, name);
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
    const Text text{buffer.data(), buffer.data() + buffer.size()};

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
    info.zeros_dropped = drop_zeros(t);
    info.parse_seconds = std::chrono::duration<double>(Clock::now() - start).count();
    return {std::move(t), std::move(info)};
}

}  // namespace tscope
