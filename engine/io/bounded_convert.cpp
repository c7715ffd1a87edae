// The bounded-memory text-to-.tsb conversion: sorted runs, then a k-way merge into the .tsb's
// arrays (see bounded_convert.hpp).
#include "tscope/io/bounded_convert.hpp"

#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <cstring>
#include <limits>
#include <memory>
#include <numeric>

#include "file_util.hpp"
#include "tensor/radix_sort.hpp"
#include "tns_reader.hpp"
#include "tscope/bench/machine.hpp"
#include "tscope/io/tsb_format.hpp"
#include "tscope/tensor/coo_ops.hpp"

namespace tscope {
namespace {

using Clock = std::chrono::steady_clock;
double since(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }

constexpr std::uint64_t kMiB = std::uint64_t{1} << 20;

// Bytes one held nonzero costs: its columns at up to 8 bytes an index, the value, and the sort's
// scratch (permutation, keys and their copies).
std::uint64_t bytes_per_entry(int order, std::size_t value_bytes) {
    return static_cast<std::uint64_t>(order) * 8 + value_bytes + 32;
}

// A sorted run: records of `order` indices (4 or 8 bytes, as the file numbers them) and a value,
// in a temporary file next to the output, or, for the last batch, in memory.
struct SortedRun {
    std::unique_ptr<detail::AtomicFile> file;  // never committed: removed when the run goes
    std::vector<char> memory;
    std::uint64_t count = 0;
    std::size_t index_bytes = 4;
    std::size_t record_bytes = 0;
};

// Sorts a batch by coordinate (stable: equal coordinates keep their file order) and lays its
// records out, in chunks, for `sink`.
template <class I, class V, class Sink>
void sorted_records(std::vector<Column<I>>&& idx, Column<V>&& vals, RunControl& control, Sink sink) {
    const int order = static_cast<int>(idx.size());
    const std::uint64_t n = vals.size();
    std::vector<std::uint64_t> local_dims(idx.size(), 1);
    for (std::size_t m = 0; m < idx.size(); ++m) {
        std::uint64_t hi = 0;
        const I* c = idx[m].data();
#pragma omp parallel for num_threads(detail::threads_for(n)) reduction(max : hi) schedule(static)
        for (std::uint64_t i = 0; i < n; ++i) hi = std::max<std::uint64_t>(hi, c[i]);
        local_dims[m] = hi == std::numeric_limits<std::uint64_t>::max() ? hi : hi + 1;
    }
    const CooTensor t = CooTensor::from_columns(std::move(local_dims), std::move(idx), std::move(vals));
    std::vector<std::uint64_t> perm;
    if (is_sorted_lexicographic(t)) {  // files are often written sorted: one pass, no sort
        perm.resize(n);
        std::iota(perm.begin(), perm.end(), std::uint64_t{0});
    } else {
        perm = sorted_order(t, natural_modes(order), control);
    }
    const std::size_t record = static_cast<std::size_t>(order) * sizeof(I) + sizeof(V);
    constexpr std::uint64_t kChunk = 1 << 16;
    std::vector<const I*> cols;
    for (int m = 0; m < order; ++m) cols.push_back(t.indices<I>(m).data());
    const V* values = t.values<V>().data();
    std::vector<char> rows(static_cast<std::size_t>(std::min(n, kChunk)) * record);
    for (std::uint64_t from = 0; from < n; from += kChunk) {
        control.check();
        const std::uint64_t count = std::min(kChunk, n - from);
#pragma omp parallel for num_threads(detail::threads_for(count)) schedule(static)
        for (std::uint64_t i = 0; i < count; ++i) {
            char* r = rows.data() + i * record;
            const std::uint64_t e = perm[from + i];
            for (int m = 0; m < order; ++m) std::memcpy(r + static_cast<std::size_t>(m) * sizeof(I), cols[static_cast<std::size_t>(m)] + e, sizeof(I));
            std::memcpy(r + static_cast<std::size_t>(order) * sizeof(I), values + e, sizeof(V));
        }
        sink(rows.data(), static_cast<std::size_t>(count) * record);
    }
}

template <class V>
SortedRun make_run(detail::EntryBatch&& batch, const std::string& out, std::uint64_t number, RunControl& control) {
    SortedRun run;
    run.count = batch.size();
    run.index_bytes = batch.idx64.empty() ? 4 : 8;
    run.record_bytes = static_cast<std::size_t>(batch.order) * run.index_bytes + sizeof(V);
    if (batch.last)
        run.memory.reserve(static_cast<std::size_t>(run.count) * run.record_bytes);
    else
        run.file = std::make_unique<detail::AtomicFile>(out + ".run" + std::to_string(number));
    auto sink = [&](const char* data, std::size_t bytes) {
        if (run.file)
            run.file->write(data, bytes);
        else
            run.memory.insert(run.memory.end(), data, data + bytes);
    };
    Column<V>& vals = [&]() -> Column<V>& {
        if constexpr (std::is_same_v<V, float>) return batch.f32;
        else return batch.f64;
    }();
    if (run.index_bytes == 4)
        sorted_records<std::uint32_t, V>(std::move(batch.idx32), std::move(vals), control, sink);
    else
        sorted_records<std::uint64_t, V>(std::move(batch.idx64), std::move(vals), control, sink);
    return run;
}

// Reads one run's records in windows of a buffer's size; `entry` is the current one, decoded.
template <class V>
class RunCursor {
public:
    RunCursor(const SortedRun& run, int order, std::size_t buffer_bytes) : run_(run), order_(order) {
        window_records_ = std::max<std::uint64_t>(1, buffer_bytes / run.record_bytes);
        if (run.file) buffer_.resize(static_cast<std::size_t>(std::min(window_records_, run.count)) * run.record_bytes);
    }
    // Moves to the next record; false at the end of the run.
    bool next() {
        if (at_ == run_.count) return false;
        if (at_ == window_end_) load_window();
        const char* r = window_ + (at_ - window_start_) * run_.record_bytes;
        for (int m = 0; m < order_; ++m) {
            if (run_.index_bytes == 4) {
                std::uint32_t v;
                std::memcpy(&v, r + static_cast<std::size_t>(m) * 4, 4);
                index[static_cast<std::size_t>(m)] = v;
            } else {
                std::memcpy(&index[static_cast<std::size_t>(m)], r + static_cast<std::size_t>(m) * 8, 8);
            }
        }
        std::memcpy(&value, r + static_cast<std::size_t>(order_) * run_.index_bytes, sizeof(V));
        ++at_;
        return true;
    }
    std::array<std::uint64_t, kMaxOrder> index{};
    V value{};
    std::uint64_t key = 0;

private:
    void load_window() {
        window_start_ = at_;
        window_end_ = std::min(run_.count, at_ + window_records_);
        if (!run_.file) {
            window_ = run_.memory.data() + at_ * run_.record_bytes;
            return;
        }
        const std::size_t bytes = static_cast<std::size_t>(window_end_ - at_) * run_.record_bytes;
        run_.file->read_at(at_ * run_.record_bytes, buffer_.data(), bytes);
        window_ = buffer_.data();
    }
    const SortedRun& run_;
    int order_;
    std::uint64_t window_records_ = 1;
    std::uint64_t at_ = 0, window_start_ = 0, window_end_ = 0;
    const char* window_ = nullptr;
    std::vector<char> buffer_;
};

// One array of the .tsb being filled front to back at its place in the file, through a buffer,
// with its CRC-32 kept as it goes.
class ArrayWriter {
public:
    ArrayWriter(detail::AtomicFile& file, std::uint64_t offset, std::size_t buffer_bytes)
        : file_(file), offset_(offset), buffer_(buffer_bytes) {}
    template <class T> void put(T x) {
        if (used_ + sizeof(T) > buffer_.size()) flush();
        std::memcpy(buffer_.data() + used_, &x, sizeof(T));
        used_ += sizeof(T);
    }
    void flush() {
        if (used_ == 0) return;
        file_.write_at(offset_ + written_, buffer_.data(), used_);
        crc_ = static_cast<std::uint32_t>(crc32_z(crc_, reinterpret_cast<const Bytef*>(buffer_.data()), used_));
        written_ += used_;
        used_ = 0;
    }
    std::uint64_t offset() const { return offset_; }
    std::uint64_t written() const { return written_; }
    std::uint32_t crc() const { return crc_; }

private:
    detail::AtomicFile& file_;
    std::uint64_t offset_;
    std::vector<char> buffer_;
    std::size_t used_ = 0;
    std::uint64_t written_ = 0;
    std::uint32_t crc_ = 0;
};

template <class T> void put_raw(std::string& out, T value) {
    char raw[sizeof(T)];
    std::memcpy(raw, &value, sizeof(T));
    out.append(raw, sizeof(T));
}

std::string tsb_header(const std::vector<std::uint64_t>& dims, IndexWidth width, ValueType values, std::uint64_t nnz) {
    std::string h(kTsbMagic, sizeof kTsbMagic);
    put_raw<std::uint32_t>(h, kTsbVersion);
    put_raw<std::uint32_t>(h, static_cast<std::uint32_t>(dims.size()));
    put_raw<std::uint32_t>(h, static_cast<std::uint32_t>(width));
    put_raw<std::uint32_t>(h, static_cast<std::uint32_t>(values));
    put_raw<std::uint64_t>(h, nnz);
    for (auto d : dims) put_raw<std::uint64_t>(h, d);
    put_raw<std::uint32_t>(h, static_cast<std::uint32_t>(crc32_z(0, reinterpret_cast<const Bytef*>(h.data()), h.size())));
    return h;
}

// Copies `bytes` within the file from `from` down to `to` (< from), front to back.
void move_down(detail::AtomicFile& file, std::uint64_t from, std::uint64_t to, std::uint64_t bytes) {
    std::vector<char> buf(static_cast<std::size_t>(std::min<std::uint64_t>(bytes, 8 * kMiB)));
    for (std::uint64_t done = 0; done < bytes;) {
        const auto n = static_cast<std::size_t>(std::min<std::uint64_t>(buf.size(), bytes - done));
        file.read_at(from + done, buf.data(), n);
        file.write_at(to + done, buf.data(), n);
        done += n;
    }
}

// What the merge needs to know of the whole stream.
struct MergePlan {
    std::vector<std::uint64_t> dims, base;
    std::uint64_t entries = 0;        // in all runs
    std::size_t run_buffer_bytes = 0;
    std::string name;                 // the input, for messages
};

// Merges the runs into `file` as a .tsb of index type I. Returns the nonzeros written;
// counts the merged duplicates and dropped zeros into `info`.
template <class I, class V>
std::uint64_t merge_runs(const std::vector<SortedRun>& runs, const MergePlan& plan, detail::AtomicFile& file,
                         LoadInfo& info, RunControl& control) {
    const int order = static_cast<int>(plan.dims.size());
    const auto N = static_cast<std::size_t>(order);
    const std::uint64_t U = plan.entries;  // room for every entry; trimmed at the end
    const std::size_t header_bytes = tsb_header(plan.dims, IndexWidth::U32, ValueType::F64, 0).size();
    std::vector<ArrayWriter> arrays;
    // as large as a run's buffer, never larger than the array itself
    const std::uint64_t out_buffer = std::max<std::uint64_t>(plan.run_buffer_bytes, 4096);
    for (std::size_t m = 0; m <= N; ++m) {
        const std::uint64_t array_bytes = U * (m < N ? sizeof(I) : sizeof(V));
        arrays.emplace_back(file, header_bytes + m * U * sizeof(I),
                            static_cast<std::size_t>(std::clamp<std::uint64_t>(array_bytes, 16, out_buffer)));
    }

    // A 64-bit key per entry where the dims allow (one comparison), else the coordinates.
    std::vector<std::uint64_t> stride(N, 1);
    bool keyed = true;
    for (std::size_t m = N - 1; m-- > 0;) {
        if (plan.dims[m + 1] != 0 && stride[m + 1] > std::numeric_limits<std::uint64_t>::max() / plan.dims[m + 1]) keyed = false;
        stride[m] = keyed ? stride[m + 1] * plan.dims[m + 1] : 0;
    }
    if (keyed && plan.dims[0] > std::numeric_limits<std::uint64_t>::max() / std::max<std::uint64_t>(stride[0], 1)) keyed = false;
    std::vector<RunCursor<V>> cursors;
    cursors.reserve(runs.size());
    for (const SortedRun& r : runs) cursors.emplace_back(r, order, plan.run_buffer_bytes);
    auto load_key = [&](RunCursor<V>& c) {
        if (!keyed) return;
        std::uint64_t k = 0;
        for (std::size_t m = 0; m < N; ++m) k += (c.index[m] - plan.base[m]) * stride[m];
        c.key = k;
    };
    // The heap's order: coordinate, then run (runs are in file order: equal coordinates sum in it).
    auto after = [&](std::size_t a, std::size_t b) {
        const RunCursor<V>& x = cursors[a];
        const RunCursor<V>& y = cursors[b];
        if (keyed) {
            if (x.key != y.key) return x.key > y.key;
        } else {
            for (std::size_t m = 0; m < N; ++m)
                if (x.index[m] != y.index[m]) return x.index[m] > y.index[m];
        }
        return a > b;
    };
    std::vector<std::size_t> heap;
    for (std::size_t r = 0; r < cursors.size(); ++r)
        if (cursors[r].next()) {
            load_key(cursors[r]);
            heap.push_back(r);
        }
    std::make_heap(heap.begin(), heap.end(), after);

    std::array<std::uint64_t, kMaxOrder> group{};
    V sum{};
    bool open = false;
    std::uint64_t written = 0, taken = 0, in_group = 0;
    auto emit = [&]() {
        if (in_group > 1 && !std::isfinite(sum)) {
            std::string where;
            for (std::size_t m = 0; m < N; ++m) where += (m ? ", " : "") + std::to_string(group[m]);
            throw InputError(plan.name + ": the duplicates of entry (" + where + ") sum to a value beyond the range of " +
                             (sizeof(V) == 4 ? "float" : "double"));
        }
        info.duplicates_summed += in_group - 1;
        if (sum == V{0}) {
            ++info.zeros_dropped;
            return;
        }
        for (std::size_t m = 0; m < N; ++m) arrays[m].put(static_cast<I>(group[m] - plan.base[m]));
        arrays[N].put(sum);
        ++written;
    };
    auto take = [&](const RunCursor<V>& c) {
        const bool same = open && std::equal(c.index.begin(), c.index.begin() + order, group.begin());
        if (same) {
            sum += c.value;
            ++in_group;
        } else {
            if (open) emit();
            std::copy(c.index.begin(), c.index.begin() + order, group.begin());
            sum = c.value;
            in_group = 1;
            open = true;
        }
        if ((++taken & 0xffff) == 0) {
            control.check();
            control.progress(taken, U);
        }
    };
    while (!heap.empty()) {
        std::pop_heap(heap.begin(), heap.end(), after);
        const std::size_t r = heap.back();
        heap.pop_back();
        // The run stays first while its entries come before the heap's top: take them without
        // a heap operation each (runs of a sorted file do not interleave at all).
        for (;;) {
            take(cursors[r]);
            if (!cursors[r].next()) break;
            load_key(cursors[r]);
            if (!heap.empty() && after(r, heap.front())) {
                heap.push_back(r);
                std::push_heap(heap.begin(), heap.end(), after);
                break;
            }
        }
    }
    if (open) emit();
    for (ArrayWriter& a : arrays) a.flush();
    control.progress(U, U);

    // Fewer nonzeros than room (duplicates, zeros): the arrays move down to close the gaps.
    const std::uint64_t n = written;
    std::uint32_t crc = 0;
    for (std::size_t m = 0; m <= N; ++m) {
        const std::uint64_t width = m < N ? sizeof(I) : sizeof(V);
        const std::uint64_t to = header_bytes + m * n * sizeof(I);
        if (n < U && m > 0) move_down(file, arrays[m].offset(), to, n * width);
        crc = static_cast<std::uint32_t>(crc32_combine(crc, arrays[m].crc(), static_cast<z_off_t>(n * width)));
    }
    const std::uint64_t payload_end = header_bytes + N * n * sizeof(I) + n * sizeof(V);
    const std::string header = tsb_header(plan.dims, sizeof(I) == 4 ? IndexWidth::U32 : IndexWidth::U64,
                                          sizeof(V) == 4 ? ValueType::F32 : ValueType::F64, n);
    file.write_at(0, header.data(), header.size());
    file.write_at(payload_end, &crc, sizeof crc);
    file.truncate(payload_end + sizeof crc);
    return n;
}

// A plain text file of at most `bytes` (gzip's text may be ten times its size).
bool plain_text_within(const std::string& path, std::uint64_t bytes) {
    struct stat st {};
    return file_kind(path) == FileKind::Text && ::stat(path.c_str(), &st) == 0 && static_cast<std::uint64_t>(st.st_size) <= bytes;
}

}  // namespace

std::uint64_t default_convert_memory() {
    return std::clamp<std::uint64_t>(physical_memory_bytes() / 4, 64 * kMiB, 4096 * kMiB);
}

BoundedConvertReport convert_text_to_tsb(const std::string& in, const std::string& out, const BoundedConvertOptions& options,
                                         RunControl& control) {
    const auto start = Clock::now();
    BoundedConvertReport report;
    report.memory_bytes = options.memory_bytes ? options.memory_bytes : default_convert_memory();
    if (report.memory_bytes < kMiB)
        throw InputError("convert: a memory budget of " + std::to_string(report.memory_bytes) +
                         " bytes is too small; give at least 1 MiB (--memory 1M)");
    const std::size_t value_bytes = options.values == ValueType::F32 ? 4 : 8;
    const std::size_t block = options.stream_block_bytes
                                  ? options.stream_block_bytes
                                  : static_cast<std::size_t>(std::clamp<std::uint64_t>(report.memory_bytes / 8, kMiB, 64 * kMiB));

    LoadOptions load;
    load.values = options.values;
    load.stream_block_bytes = options.stream_block_bytes;
    if (plain_text_within(in, report.memory_bytes / 4)) {
        // A plain file whose tensor surely fits (about 3 bytes held per byte of text): the
        // in-memory reader, which parses the whole file in parallel, then the same writer.
        LoadedTensor whole = load_tensor(in, load, control);
        write_tsb(whole.tensor, out, control);
        report.info = std::move(whole.info);
        report.dims = whole.tensor.dims();
        report.nnz = whole.tensor.nnz();
        report.runs = 1;
        report.seconds = since(start);
        return report;
    }
    detail::TextStream stream(in);
    std::vector<SortedRun> runs;
    control.stage("parsing and sorting");
    const auto spill_at = [&](int order) {
        return std::max<std::uint64_t>(1, report.memory_bytes / bytes_per_entry(order, value_bytes));
    };
    const auto spill = [&](detail::EntryBatch&& batch) {
        const std::uint64_t number = runs.size();
        runs.push_back(options.values == ValueType::F32 ? make_run<float>(std::move(batch), out, number, control)
                                                        : make_run<double>(std::move(batch), out, number, control));
        if (runs.back().file) report.run_file_bytes += runs.back().count * runs.back().record_bytes;
    };
    detail::StreamShape shape = detail::parse_tns_stream_spilling(stream, in, load, control, spill_at, spill, block);
    report.info = std::move(shape.info);
    report.info.format = stream.gzip() ? "tns.gz" : "tns";
    report.dims = shape.dims;
    if (shape.fitted) {  // one batch held it all: written as the in-memory convert writes it
        control.stage("writing");
        write_tsb(shape.whole, out, control);
        report.nnz = shape.whole.nnz();
        report.runs = 1;
        report.seconds = since(start);
        report.info.load_seconds = report.seconds;
        return report;
    }
    report.runs = std::count_if(runs.begin(), runs.end(), [](const SortedRun& r) { return r.count > 0; });

    MergePlan plan;
    plan.dims = shape.dims;
    plan.base = shape.base;
    plan.name = in;
    for (const SortedRun& r : runs) plan.entries += r.count;
    // Half the budget for the runs' read buffers; each output array gets a buffer of one run's.
    plan.run_buffer_bytes = static_cast<std::size_t>(std::clamp<std::uint64_t>(
        report.memory_bytes / (2 * std::max<std::uint64_t>(1, runs.size())), 4096, 4 * kMiB));

    control.stage("merging");
    const auto merge_start = Clock::now();
    detail::AtomicFile file(out);
    const bool wide = CooTensor::width_for(plan.dims) == IndexWidth::U64;
    if (options.values == ValueType::F32)
        report.nnz = wide ? merge_runs<std::uint64_t, float>(runs, plan, file, report.info, control)
                          : merge_runs<std::uint32_t, float>(runs, plan, file, report.info, control);
    else
        report.nnz = wide ? merge_runs<std::uint64_t, double>(runs, plan, file, report.info, control)
                          : merge_runs<std::uint32_t, double>(runs, plan, file, report.info, control);
    runs.clear();  // the run files go before the output is flushed
    file.commit();
    report.merge_seconds = since(merge_start);
    report.seconds = since(start);
    report.info.load_seconds = report.seconds;
    return report;
}

}  // namespace tscope
