#include "tscope/io/tsb_format.hpp"
#include "tscope/text_words.hpp"

#include <zlib.h>

#include <algorithm>
#include <atomic>
#include <bit>
#include <chrono>
#include <cmath>
#include <cstring>
#include <limits>
#include <sstream>

#include "file_util.hpp"
#include "float_range.hpp"
#include "tns_reader.hpp"
#include "tsb_internal.hpp"
#include "tscope/checks.hpp"
#include "tscope/parallel_errors.hpp"
#include "tscope/tensor/coo_ops.hpp"

namespace tscope {

static_assert(std::endian::native == std::endian::little, ".tsb is written in the machine's byte order");

namespace {

using Clock = std::chrono::steady_clock;
constexpr std::size_t kFixedHeader = 8 + 4 * 4 + 8;  // magic, 4 u32, nnz
constexpr std::size_t kPiece = std::size_t{16} << 20;

std::uint32_t crc_update(std::uint32_t crc, const void* data, std::size_t size) {
    return static_cast<std::uint32_t>(crc32_z(crc, static_cast<const Bytef*>(data), size));
}

template <class T> void put(std::string& out, T value) {
    char raw[sizeof(T)];
    std::memcpy(raw, &value, sizeof(T));
    out.append(raw, sizeof(T));
}

template <class T> T get(const char* p) {
    T value;
    std::memcpy(&value, p, sizeof(T));
    return value;
}

// Copies the stored arrays out of the file in 16 MB pieces, in parallel, and checks the payload
// CRC from the pieces' CRCs (crc32_combine), so a reload runs at memory speed, not CRC speed.
class PayloadReader {
public:
    PayloadReader(const detail::ByteBuffer& file, std::size_t offset) : file_(file), pos_(offset) {}
    // Queues the next stored array for copying into dst.
    void add(void* dst, std::size_t bytes) {
        for (std::size_t done = 0; done < bytes; done += kPiece)
            pieces_.push_back({pos_ + done, static_cast<char*>(dst) + done, std::min(kPiece, bytes - done), 0});
        pos_ += bytes;
    }
    // Copies everything queued; returns the CRC-32 of the payload.
    std::uint32_t run(RunControl& control) {
        std::atomic<std::uint64_t> done{0};
        const auto n = static_cast<std::int64_t>(pieces_.size());
        ParallelErrors errors;  // a progress report may throw
#pragma omp parallel for schedule(dynamic, 1)
        for (std::int64_t i = 0; i < n; ++i) {
            if (control.cancelled() || errors.failed()) continue;
            Piece& piece = pieces_[static_cast<std::size_t>(i)];
            std::memcpy(piece.dst, file_.data() + piece.src, piece.bytes);
            file_.drop_pages(piece.src, piece.bytes);  // the copy is what stays: one copy in memory, not two
            piece.crc = crc_update(0, piece.dst, piece.bytes);
            errors.run([&] { control.progress(done += piece.bytes, pos_); });
        }
        errors.rethrow();
        control.check();
        std::uint32_t crc = 0;
        for (const Piece& piece : pieces_)
            crc = static_cast<std::uint32_t>(crc32_combine(crc, piece.crc, static_cast<z_off_t>(piece.bytes)));
        return crc;
    }
    std::size_t pos() const { return pos_; }

private:
    struct Piece {
        std::size_t src;
        char* dst;
        std::size_t bytes;
        std::uint32_t crc;
    };
    const detail::ByteBuffer& file_;
    std::size_t pos_;
    std::vector<Piece> pieces_;
};

}  // namespace

InputError bad_tsb(const std::string& path, const std::string& what) {
    return InputError(path + ": not a valid .tsb file: " + what);
}

namespace {
InputError bad(const std::string& path, const std::string& what) { return bad_tsb(path, what); }
}  // namespace

std::string tsb_header_bytes(const std::vector<std::uint64_t>& dims, IndexWidth width, ValueType values, std::uint64_t nnz) {
    std::string header(kTsbMagic, sizeof kTsbMagic);
    put<std::uint32_t>(header, kTsbVersion);
    put<std::uint32_t>(header, static_cast<std::uint32_t>(dims.size()));
    put<std::uint32_t>(header, static_cast<std::uint32_t>(width));
    put<std::uint32_t>(header, static_cast<std::uint32_t>(values));
    put<std::uint64_t>(header, nnz);
    for (auto d : dims) put<std::uint64_t>(header, d);
    put<std::uint32_t>(header, crc_update(0, header.data(), header.size()));
    return header;
}

void write_tsb(const CooTensor& t, const std::string& path, RunControl& control) {
    // Every .tsb written here holds its nonzeros in lexicographic order, mode 1 first: the
    // streamed passes count a slice of mode 1 at a time and refuse a file out of that order.
    // A tensor as a text file listed it (convert), or relabelled (reorder), is written through
    // its sorted order; one already sorted (generate, a spilled convert) as it is.
    std::vector<std::uint64_t> order;
    if (!is_sorted_lexicographic(t)) {
        control.stage("sorting");
        order = sorted_order(t, natural_modes(t.order()), control);
    }
    control.stage("writing");
    const std::string header = tsb_header_bytes(t.dims(), t.index_width(), t.value_type(), t.nnz());

    detail::AtomicFile file(path);
    file.write(header.data(), header.size());
    std::uint32_t crc = 0;
    const std::uint64_t total = t.bytes();
    std::uint64_t written = 0;
    auto write_array = [&](const void* data, std::size_t bytes) {
        const char* p = static_cast<const char*>(data);
        for (std::size_t done = 0; done < bytes;) {
            control.check();
            const std::size_t n = std::min(kPiece, bytes - done);
            file.write(p + done, n);
            crc = crc_update(crc, p + done, n);
            done += n;
            control.progress(written += n, total);
        }
    };
    // An array through the sorted order, gathered a piece at a time (never a second copy of it).
    auto write_sorted = [&](const auto& column) {
        using T = typename std::remove_cvref_t<decltype(column)>::value_type;
        if (order.empty()) return write_array(column.data(), column.size() * sizeof(T));
        std::vector<T> piece(std::min<std::size_t>(column.size(), kPiece / sizeof(T)));
        for (std::size_t done = 0; done < column.size(); done += piece.size()) {
            const std::size_t n = std::min(piece.size(), column.size() - done);
            for (std::size_t k = 0; k < n; ++k) piece[k] = column[order[done + k]];
            write_array(piece.data(), n * sizeof(T));
        }
    };
    t.visit([&](auto itag, auto vtag) {
        using I = typename decltype(itag)::type;
        using V = typename decltype(vtag)::type;
        for (int m = 0; m < t.order(); ++m) write_sorted(t.indices<I>(m));
        write_sorted(t.values<V>());
    });
    std::string trailer;
    put<std::uint32_t>(trailer, crc);
    file.write(trailer.data(), trailer.size());
    file.commit();
}

TsbHeader parse_tsb_header(const std::string& path, const char* p, std::size_t available, std::uint64_t file_bytes) {
    if (available < sizeof kTsbMagic || std::memcmp(p, kTsbMagic, sizeof kTsbMagic) != 0)
        throw bad(path, "the file does not start with the .tsb magic");
    if (available < kFixedHeader)
        throw bad(path, "the file ends inside its header (" + std::to_string(available) +
                            " bytes; the header alone takes " + std::to_string(kFixedHeader + 12) +
                            " or more): a truncated copy?");
    const auto version = get<std::uint32_t>(p + 8);
    if (version != kTsbVersion)
        throw bad(path, "format version " + std::to_string(version) + ", this build reads version " +
                            std::to_string(kTsbVersion));
    const auto order = get<std::uint32_t>(p + 12);
    const auto ibytes = get<std::uint32_t>(p + 16);
    const auto vbytes = get<std::uint32_t>(p + 20);
    const auto nnz = get<std::uint64_t>(p + 24);
    if (order < 1 || order > static_cast<std::uint32_t>(kMaxOrder)) throw bad(path, "order " + std::to_string(order));
    const std::size_t header_size = kFixedHeader + 8 * order + 4;
    if (available < header_size) throw bad(path, "the header is truncated");
    if (get<std::uint32_t>(p + header_size - 4) != crc_update(0, p, header_size - 4))
        throw bad(path, "the header checksum does not match (the file is corrupt)");
    if ((ibytes != 4 && ibytes != 8) || (vbytes != 4 && vbytes != 8))
        throw bad(path, "index or value width is not 4 or 8 bytes");
    TsbHeader h;
    h.dims.resize(order);
    for (std::uint32_t m = 0; m < order; ++m) h.dims[m] = get<std::uint64_t>(p + kFixedHeader + 8 * m);
    for (std::uint32_t m = 0; m < order; ++m) {  // a header that contradicts itself is not read on
        // found by fuzz_tsb: a mode of length 0 got CooTensor's message, without the file's name
        if (h.dims[m] == 0) throw bad(path, "its header gives mode " + std::to_string(m + 1) + " length 0");
        if (ibytes == 4 && h.dims[m] > (std::uint64_t{1} << 32))
            throw bad(path, "its header gives mode " + std::to_string(m + 1) + " " + std::to_string(h.dims[m]) +
                                " indices but stores 32-bit indices");
    }
    const unsigned __int128 payload = static_cast<unsigned __int128>(nnz) * (order * ibytes + vbytes);
    const unsigned __int128 expected = header_size + payload + 4;
    if (expected > std::numeric_limits<std::uint64_t>::max())  // the 64-bit cast said "124 bytes" for 2^62+3 nonzeros
        throw bad(path, "its header gives " + grouped(nnz) + " nonzeros, more than any file can hold (" +
                            grouped(file_bytes) + " bytes here)");
    if (static_cast<unsigned __int128>(file_bytes) != expected)
        throw bad(path, "its size (" + grouped(file_bytes) + " bytes) does not match its header (" +
                            grouped(static_cast<std::uint64_t>(expected)) + " bytes): truncated or with trailing data");
    h.width = ibytes == 4 ? IndexWidth::U32 : IndexWidth::U64;
    h.values = vbytes == 4 ? ValueType::F32 : ValueType::F64;
    h.nnz = nnz;
    h.header_bytes = header_size;
    h.file_bytes = file_bytes;
    return h;
}

void check_tsb_contents(const CooTensor& t, const std::string& path, std::uint64_t first_entry) {
    const std::uint64_t nnz = t.nnz();
    t.visit([&](auto itag, auto vtag) {
        using I = typename decltype(itag)::type;
        using V = typename decltype(vtag)::type;
        for (int m = 0; m < t.order(); ++m) {
            const I* col = t.indices<I>(m).data();
            I top = 0;
#pragma omp parallel for reduction(max : top) schedule(static)
            for (std::uint64_t i = 0; i < nnz; ++i) top = std::max(top, col[i]);
            if (nnz == 0 || top < t.dim(m)) continue;
            const auto at = std::find_if(col, col + nnz, [&](I i) { return i >= t.dim(m); }) - col;
            throw bad(path, "entry " + std::to_string(first_entry + at) + " has index " +
                                std::to_string(std::uint64_t{col[at]} + 1) + " in mode " + std::to_string(m + 1) +
                                " beyond its dimension " + std::to_string(t.dim(m)));
        }
        const auto& vals = t.values<V>();
        std::uint64_t finite = 0;  // counted in parallel; the first bad entry is looked for only if one exists
#pragma omp parallel for reduction(+ : finite) schedule(static)
        for (std::uint64_t i = 0; i < nnz; ++i) finite += std::isfinite(vals[i]) ? 1 : 0;
        if (finite == nnz) return;
        const auto it = std::find_if(vals.begin(), vals.end(), [](V v) { return !std::isfinite(v); });
        throw bad(path, "entry " + std::to_string(first_entry + (it - vals.begin())) + " has a non-finite value");
    });
}

void convert_tsb_values(CooTensor& t, const LoadOptions& options, const std::string& path, std::uint64_t first_entry) {
    const ValueType stored = t.value_type();
    if (!options.keep_stored_values && options.values == ValueType::F32 && stored == ValueType::F64) {
        // as the text reader: a value outside float's range is refused, not narrowed to inf or
        // to 0 (a double .tsb read with --float loaded 1e300 as an infinite nonzero, and 1e-50
        // was left out as if it had been 0)
        const auto& vals = t.values<double>();
        const std::uint64_t nnz = t.nnz();
        std::uint64_t fits = 0;
#pragma omp parallel for reduction(+ : fits) schedule(static)
        for (std::uint64_t i = 0; i < nnz; ++i) fits += detail::fits_float(vals[i]) ? 1 : 0;
        if (fits != nnz) {
            const auto it = std::find_if(vals.begin(), vals.end(), [](double v) { return !detail::fits_float(v); });
            std::ostringstream value;
            value << *it;
            throw bad(path, "entry " + std::to_string(first_entry + (it - vals.begin())) + " has the value " +
                                value.str() + ", which does not fit a float (" + detail::float_range_text + ")");
        }
    }
    if (!options.keep_stored_values && options.values != stored) t = t.with_value_type(options.values);
}

TsbHeader read_tsb_header(const std::string& path) {
    const std::uint64_t size = detail::regular_file_size(path);
    const std::string prefix = detail::read_prefix(path, kFixedHeader + 8 * kMaxOrder + 4);
    return parse_tsb_header(path, prefix.data(), prefix.size(), size);
}

std::uint32_t tsb_crc(std::uint32_t crc, const void* data, std::size_t bytes) { return crc_update(crc, data, bytes); }

LoadedTensor read_tsb(const std::string& path, const LoadOptions& options, RunControl& control) {
    const auto start = Clock::now();
    control.stage("reading");
    // mapped page by page and each piece let go once copied: the file and the tensor are never
    // both in memory (a billion nonzeros are 16 GB each)
    const detail::ByteBuffer file = detail::read_file(path, control, false);
    const auto read_done = Clock::now();
    const TsbHeader h = parse_tsb_header(path, file.data(), file.size(), file.size());
    const auto order = static_cast<std::uint32_t>(h.dims.size());
    const std::uint64_t nnz = h.nnz;

    control.stage("checking");
    // the arrays the file holds, in memory: refused in words where they cannot be (a header may
    // claim more than the machine holds; the file's size already matches it)
    check_dense_fits(
        nnz, (h.bytes_per_nnz() + 7) / 8,
        path + ": its " + std::to_string(nnz) + " nonzeros (read it in parts: info or formats --streamed)");
    CooTensor t(h.dims, h.width, h.values);
    t.resize(nnz);
    PayloadReader reader(file, h.header_bytes);
    t.visit([&](auto itag, auto vtag) {
        using I = typename decltype(itag)::type;
        using V = typename decltype(vtag)::type;
        for (std::uint32_t m = 0; m < order; ++m) reader.add(t.indices<I>(static_cast<int>(m)).data(), nnz * sizeof(I));
        reader.add(t.values<V>().data(), nnz * sizeof(V));
    });
    if (get<std::uint32_t>(file.data() + reader.pos()) != reader.run(control))
        throw bad(path, "the data checksum does not match (the file is corrupt)");
    // A file with a right checksum may still come from a buggy writer: check the contents.
    check_tsb_contents(t, path, 0);
    convert_tsb_values(t, options, path, 0);
    control.stage("summing duplicates");
    const std::uint64_t duplicates = sum_duplicates(t, control);
    LoadInfo where;
    where.zero_based.assign(order, false);  // .tsb indices are shown 1-based, as `info` does
    detail::check_summed_values(t, duplicates, where, path);
    const std::uint64_t zeros = drop_zeros(t);

    LoadedTensor out{std::move(t), {}};
    out.info.duplicates_summed = duplicates;
    out.info.zeros_dropped = zeros;
    out.info.path = path;
    out.info.format = "tsb";
    out.info.file_bytes = file.size();
    out.info.zero_based.assign(order, false);
    out.info.header = true;
    out.info.read_seconds = std::chrono::duration<double>(read_done - start).count();
    out.info.parse_seconds = std::chrono::duration<double>(Clock::now() - read_done).count();
    out.info.load_seconds = std::chrono::duration<double>(Clock::now() - start).count();
    return out;
}

}  // namespace tscope
