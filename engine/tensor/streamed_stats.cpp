// The .tsb is walked in blocks of nonzeros, each block of each stored array (each mode's
// indices, then the values) mapped read-only and unmapped once read, so the mappings hold no
// more than a block, however large the file. In a block each array's checks (and a mode's slice
// counts) are one task and its CRC-32 is computed in pieces; a mode's counters are touched by
// its task alone, so no atomics; the payload CRC is the pieces' CRCs joined in file order
// (crc32_combine).
#include "tscope/tensor/streamed_stats.hpp"

#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>
#include <zlib.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstring>
#include <memory>
#include <mutex>

#include "io/file_util.hpp"
#include "tscope/checks.hpp"
#include "tscope/error.hpp"
#include "tscope/io/tsb_format.hpp"
#include "tscope/parallel_errors.hpp"

namespace tscope {

namespace {

constexpr std::uint64_t kDefaultBlock = std::uint64_t{1} << 22;
constexpr int kPieces = 8;  // CRC pieces per array and block

InputError bad(const std::string& path, const std::string& what) { return InputError(path + ": " + what); }

// A read-only mapping of bytes [offset, offset + size) of a file (the start rounded down to a
// page); only one block's ranges are mapped at a time, so neither the address space nor the
// resident pages grow with the file.
class FileRange {
public:
    FileRange(int fd, std::uint64_t offset, std::uint64_t size) {
        static const auto page = static_cast<std::uint64_t>(::sysconf(_SC_PAGESIZE));
        const std::uint64_t start = offset / page * page;
        bytes_ = offset - start + size;
        if (bytes_ == 0) return;
        void* p = ::mmap(nullptr, bytes_, PROT_READ, MAP_PRIVATE, fd, static_cast<off_t>(start));
        if (p == MAP_FAILED) throw Error("cannot map part of the file (out of address space?)");
        ::madvise(p, bytes_, MADV_SEQUENTIAL);
        base_ = static_cast<const unsigned char*>(p);
        data_ = base_ + (offset - start);
    }
    ~FileRange() {
        if (base_) ::munmap(const_cast<unsigned char*>(base_), bytes_);
    }
    FileRange(const FileRange&) = delete;
    FileRange& operator=(const FileRange&) = delete;
    const unsigned char* data() const { return data_; }

private:
    const unsigned char* base_ = nullptr;
    const unsigned char* data_ = nullptr;
    std::uint64_t bytes_ = 0;
};

// The first error a task finds, kept until the block ends (no exception leaves a thread).
struct FirstError {
    std::mutex lock;
    std::uint64_t entry = ~std::uint64_t{0};
    std::string what;
    void note(std::uint64_t at, std::string message) {
        const std::lock_guard<std::mutex> hold(lock);
        if (at < entry) entry = at, what = std::move(message);
    }
};

// The file's arrays start wherever the header ends (4-byte steps): loads go through memcpy,
// which is one plain load on the machines we build for and defined behaviour everywhere.
template <class T>
T load(const unsigned char* p, std::uint64_t z) {
    T v;
    std::memcpy(&v, p + z * sizeof(T), sizeof(T));
    return v;
}

template <class I>
void mode_block(const unsigned char* col, std::uint64_t first, std::uint64_t n, std::uint64_t dim, int m, std::uint64_t* counts, FirstError& error) {
    for (std::uint64_t z = 0; z < n; ++z) {
        const I i = load<I>(col, z);
        if (i >= dim) {
            error.note(first + z, "entry " + std::to_string(first + z) + " has index " + std::to_string(std::uint64_t{i} + 1) +
                                      " in mode " + std::to_string(m + 1) + " beyond its dimension " + std::to_string(dim));
            return;
        }
        ++counts[i];
    }
}

template <class V>
void value_block(const unsigned char* vals, std::uint64_t first, std::uint64_t n, std::vector<std::uint64_t>& zeros, FirstError& error) {
    for (std::uint64_t z = 0; z < n; ++z) {
        const V v = load<V>(vals, z);
        if (!std::isfinite(v)) {
            error.note(first + z, "entry " + std::to_string(first + z) + " has a non-finite value");
            return;
        }
        if (v == V(0)) zeros.push_back(z);
    }
}

// Whether the file is in coordinate order (mode 1 first) so far, and where the first entry that
// repeats its predecessor's coordinates is: in order, duplicates are neighbours, and loading
// would have summed them into one nonzero, so figures that count stored entries would be wrong.
struct OrderScan {
    bool in_order = true;
    std::vector<std::uint64_t> last;  // the previous block's last coordinate
};

// One block of the scan, its chunks on every thread: the first descent and the first repeat.
template <class I>
void scan_block(const std::vector<std::unique_ptr<FileRange>>& ranges, int order, std::uint64_t first, std::uint64_t n,
                OrderScan& scan, const std::string& path) {
    auto at = [&](int m, std::uint64_t z) {
        return static_cast<std::uint64_t>(load<I>(ranges[static_cast<std::size_t>(m)]->data(), z));
    };
    auto compare = [&](auto before,
                       std::uint64_t z) {  // <0, 0, >0 as before(m) is below, equal to, above entry z's index
        for (int m = 0; m < order; ++m) {
            const std::uint64_t a = before(m), b = at(m, z);
            if (a != b) return a < b ? -1 : 1;
        }
        return 0;
    };
    std::uint64_t descent = ~std::uint64_t{0}, repeat = ~std::uint64_t{0};
    if (!scan.last.empty()) {
        const int c = compare([&](int m) { return scan.last[static_cast<std::size_t>(m)]; }, 0);
        if (c > 0) descent = 0;
        if (c == 0) repeat = 0;
    }
    const auto count = static_cast<std::int64_t>(n);
#pragma omp parallel for schedule(static) reduction(min : descent, repeat)
    for (std::int64_t k = 1; k < count; ++k) {
        const auto z = static_cast<std::uint64_t>(k);
        const int c = compare([&](int m) { return at(m, z - 1); }, z);
        if (c > 0) descent = std::min(descent, z);
        if (c == 0) repeat = std::min(repeat, z);
    }
    if (repeat < descent)
        throw bad(path,
                  "entries " + std::to_string(first + repeat - 1) + " and " + std::to_string(first + repeat) +
                      " share their coordinates: a .tsb written here never holds duplicates (loading it whole sums "
                      "them; converting it again writes them summed)");
    if (descent != ~std::uint64_t{0}) scan.in_order = false;
    scan.last.resize(static_cast<std::size_t>(order));
    for (int m = 0; m < order; ++m) scan.last[static_cast<std::size_t>(m)] = at(m, n - 1);
}

template <class I, class V>
void walk(const detail::ReadOnlyFile& file, const TsbHeader& h, std::uint64_t block, std::vector<std::vector<std::uint64_t>>& counts,
          std::vector<std::uint32_t>& crcs, StreamedStats& out, RunControl& control, const std::string& path) {
    const int order = static_cast<int>(h.dims.size());
    auto array_offset = [&](int a) {  // a = order: the values
        return h.header_bytes + static_cast<std::uint64_t>(a) * h.nnz * sizeof(I);
    };
    std::vector<std::uint64_t> zeros;
    OrderScan scan;
    const int arrays = order + 1;
    auto width_of = [&](int a) -> std::uint64_t { return a < order ? sizeof(I) : sizeof(V); };
    for (std::uint64_t first = 0; first < h.nnz; first += block) {
        control.check();
        const std::uint64_t n = std::min(block, h.nnz - first);
        FirstError error;
        zeros.clear();
        // tasks: each array's checks (and a mode's counts) whole, then its CRC in kPieces
        // pieces, so that the threads stay busy whatever the arrays' widths
        std::vector<std::unique_ptr<FileRange>> ranges;  // this block of every array
        for (int a = 0; a < arrays; ++a)
            ranges.push_back(std::make_unique<FileRange>(file.fd(), array_offset(a) + first * width_of(a), n * width_of(a)));
        std::vector<std::uint32_t> piece_crc(static_cast<std::size_t>(arrays * kPieces), 0);
        auto piece = [&](int k) { return std::pair<std::uint64_t, std::uint64_t>{n * static_cast<std::uint64_t>(k) / kPieces,
                                                                                    n * static_cast<std::uint64_t>(k + 1) / kPieces}; };
        const int tasks = arrays + arrays * kPieces;
        ParallelErrors errors;  // the zeros' list and an error's message allocate
#pragma omp parallel for schedule(dynamic, 1)
        for (int task = 0; task < tasks; ++task) {
            if (task < arrays) {
                const unsigned char* p = ranges[static_cast<std::size_t>(task)]->data();
                errors.run([&] {
                    if (task < order)
                        mode_block<I>(p, first, n, h.dims[static_cast<std::size_t>(task)], task,
                                      counts[static_cast<std::size_t>(task)].data(), error);
                    else
                        value_block<V>(p, first, n, zeros, error);
                });
                continue;
            }
            const int a = (task - arrays) / kPieces, k = (task - arrays) % kPieces;
            const auto [lo, hi] = piece(k);
            const std::uint64_t w = width_of(a);
            piece_crc[static_cast<std::size_t>(task - arrays)] =
                static_cast<std::uint32_t>(crc32_z(0, ranges[static_cast<std::size_t>(a)]->data() + lo * w, (hi - lo) * w));
        }
        errors.rethrow();
        for (int a = 0; a < arrays; ++a)
            for (int k = 0; k < kPieces; ++k) {
                const auto [lo, hi] = piece(k);
                crcs[static_cast<std::size_t>(a)] = static_cast<std::uint32_t>(
                    crc32_combine64(crcs[static_cast<std::size_t>(a)], piece_crc[static_cast<std::size_t>(a * kPieces + k)],
                                    static_cast<z_off64_t>((hi - lo) * width_of(a))));
            }
        if (!error.what.empty()) throw bad(path, error.what);
        if (scan.in_order) scan_block<I>(ranges, order, first, n, scan, path);
        for (std::uint64_t z : zeros)  // stored zeros are not nonzeros: take them back out
            for (int m = 0; m < order; ++m)
                --counts[static_cast<std::size_t>(m)][load<I>(ranges[static_cast<std::size_t>(m)]->data(), z)];
        out.nnz += n - zeros.size();
        ++out.parts;
        control.progress(first + n, h.nnz);
    }
    out.in_order = scan.in_order;
}

}  // namespace

StreamedStats stream_tsb_stats(const std::string& path, std::uint64_t part_nnz, RunControl& control) {
    const auto start = std::chrono::steady_clock::now();
    const std::uint64_t block = part_nnz ? part_nnz : kDefaultBlock;
    const TsbHeader h = read_tsb_header(path);  // the header's own checks, and the file's size against it
    StreamedStats out;
    // every mode's counters at once, before any: one check per mode let three of 16 GB by (sweep 72)
    long double counters = 0;
    for (std::uint64_t d : h.dims) counters += static_cast<long double>(d) * 8.0L;
    check_fits_memory(counters, "the pass's count of the nonzeros of each slice of every mode");
    std::vector<std::vector<std::uint64_t>> counts;
    for (std::uint64_t d : h.dims) counts.emplace_back(d, 0);
    std::vector<std::uint32_t> crcs(h.dims.size() + 1, 0);
    control.stage("reading " + path + " in blocks");
    const detail::ReadOnlyFile file(path);
    const bool wide = h.width == IndexWidth::U64, single = h.values == ValueType::F32;
    if (wide && single) walk<std::uint64_t, float>(file, h, block, counts, crcs, out, control, path);
    else if (wide) walk<std::uint64_t, double>(file, h, block, counts, crcs, out, control, path);
    else if (single) walk<std::uint32_t, float>(file, h, block, counts, crcs, out, control, path);
    else walk<std::uint32_t, double>(file, h, block, counts, crcs, out, control, path);
    // the payload CRC: the arrays' CRCs joined in file order, against the trailer
    std::uint32_t crc = crcs[0];
    for (std::size_t a = 1; a < crcs.size(); ++a) {
        const auto width = static_cast<std::uint64_t>(a < h.dims.size() ? static_cast<std::uint8_t>(h.width) : static_cast<std::uint8_t>(h.values));
        crc = static_cast<std::uint32_t>(crc32_combine64(crc, crcs[a], static_cast<z_off64_t>(h.nnz * width)));
    }
    std::uint32_t stored = 0;
    {
        const FileRange trailer(file.fd(), h.file_bytes - 4, 4);
        std::memcpy(&stored, trailer.data(), 4);
    }
    if (crc != stored) throw InputError(path + ": the payload checksum does not match (the file is damaged)");

    long double cells = 1;
    for (std::size_t m = 0; m < h.dims.size(); ++m) {
        ModeStats ms;
        ms.mode = static_cast<int>(m);
        ms.dim = h.dims[m];
        for (std::uint64_t c : counts[m])
            if (c) ms.slice_nnz.add(c);
        ms.slice_nnz.finish();
        ms.slices = ms.slice_nnz.count;
        out.stats.modes.push_back(std::move(ms));
        cells *= static_cast<long double>(h.dims[m]);
    }
    out.stats.density = cells > 0 ? static_cast<double>(static_cast<long double>(out.nnz) / cells) : 0.0;
    out.bytes_read = h.file_bytes;
    out.stats.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return out;
}

}  // namespace tscope
