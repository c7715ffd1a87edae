// The bounded-memory text-to-.tsb conversion: sorted runs, then a k-way merge into the .tsb's
// arrays (see bounded_convert.hpp).
#include "tscope/io/bounded_convert.hpp"

#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include <algorithm>
#include <array>
#include <bit>
#include <chrono>
#include <cmath>
#include <condition_variable>
#include <cstring>
#include <deque>
#include <exception>
#include <functional>
#include <limits>
#include <memory>
#include <mutex>
#include <numeric>
#include <thread>

#ifdef _OPENMP
#include <omp.h>
#endif

#include "file_util.hpp"
#include "tensor/radix_sort.hpp"
#include "tns_reader.hpp"
#include "tsb_internal.hpp"
#include "tscope/bench/machine.hpp"
#include "tscope/io/tsb_format.hpp"
#include "tscope/tensor/coo_ops.hpp"

namespace tscope {
namespace {

using Clock = std::chrono::steady_clock;
double since(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }

constexpr std::uint64_t kMiB = std::uint64_t{1} << 20;

// Bytes one held nonzero costs: the parser's columns (up to 8 bytes an index, the value), and
// a key and value in each of the two buffers that alternate between parsing and sorting and in
// the sort's scratch.
std::uint64_t bytes_per_entry(int order, std::size_t value_bytes) {
    return static_cast<std::uint64_t>(order) * 8 + value_bytes + 3 * (8 + value_bytes);
}

// Coordinates packed into one 64-bit key: mode m's index in width[m] bits at shift[m], the first
// mode highest, so keys order as coordinates do (indices as the file numbers them).
struct PackedLayout {
    int order = 0;
    std::array<unsigned, kMaxOrder> width{}, shift{};
    unsigned bits = 0;

    static PackedLayout for_max(const std::vector<std::uint64_t>& max_index) {
        PackedLayout l;
        l.order = static_cast<int>(max_index.size());
        for (std::size_t m = max_index.size(); m-- > 0;) {
            l.width[m] = static_cast<unsigned>(std::bit_width(max_index[m]));
            l.shift[m] = l.bits;
            l.bits += l.width[m];
        }
        return l;
    }
    // The widest of both, mode by mode.
    static PackedLayout widest(const PackedLayout& a, const PackedLayout& b) {
        std::vector<std::uint64_t> max_index(static_cast<std::size_t>(a.order));
        for (std::size_t m = 0; m < max_index.size(); ++m)
            max_index[m] = std::max(a.mask(static_cast<int>(m)), b.mask(static_cast<int>(m)));
        return for_max(max_index);
    }
    // Below 64 bits: the all-ones key stays free to mark a run's end in the merge.
    bool fits() const { return bits < 64; }
    std::uint64_t mask(int m) const {
        const unsigned w = width[static_cast<std::size_t>(m)];
        return w >= 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << w) - 1;
    }
    std::uint64_t field(std::uint64_t key, int m) const {
        return (key >> shift[static_cast<std::size_t>(m)]) & mask(m);
    }
    bool operator==(const PackedLayout&) const = default;
};

constexpr std::uint64_t kRunEnd = ~std::uint64_t{0};

// A sorted run in a temporary file next to the output, or, for the last batch, in memory.
// Packed runs hold keys then values (duplicates are summed only in the merge: summing a run's
// own first would add a later run's partial sum to the running one, not its values one by one,
// and change the rounding); raw ones, for keys too
// wide for 64 bits, records of `order` indices (4 or 8 bytes, as the file numbers them) and a
// value.
template <class V>
struct SortedRun {
    std::unique_ptr<detail::AtomicFile> file;  // never committed: removed when the run goes
    std::uint64_t count = 0;                   // records
    bool packed = false;
    PackedLayout layout;
    Column<std::uint64_t> keys;                // packed, in memory
    Column<V> values;
    std::size_t index_bytes = 4;               // raw
    std::size_t record_bytes = 0;
    std::vector<char> memory;                  // raw, in memory
    std::uint64_t file_bytes() const { return file ? count * (packed ? 8 + sizeof(V) : record_bytes) : 0; }
};
// Raw runs, for coordinates whose key would not fit 64 bits (rare: many modes, huge dims).
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
SortedRun<V> make_run(detail::EntryBatch&& batch, const std::string& out, std::uint64_t number, RunControl& control) {
    SortedRun<V> run;
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

// Sizes a reused buffer: grown only to `n` or to `room` (a batch's most), never by doubling,
// which would take the memory past the budget.
template <class T>
void size_to(Column<T>& c, std::size_t n, std::size_t room) {
    if (c.capacity() < n) c.reserve(std::max(n, room));
    c.resize(n);
}

// Stable LSD radix sort of (keys, values) by the keys' low `bits` bits, through the scratch
// arrays (swapped with the data pass by pass). One read gives every digit's histogram; digits
// equal on every key are skipped. Serial: it runs on the worker beside the parser.
template <class V>
void radix_sort_pairs(Column<std::uint64_t>& keys, Column<V>& values, Column<std::uint64_t>& tmp_keys,
                      Column<V>& tmp_values, unsigned bits) {
    const std::size_t n = keys.size();
    const unsigned passes = (bits + 10) / 11;
    if (n < 2 || passes == 0) return;
    const unsigned digit = (bits + passes - 1) / passes;
    const std::size_t buckets = std::size_t{1} << digit;
    const std::uint64_t mask = buckets - 1;
    std::vector<std::size_t> count(buckets * passes, 0);
    for (std::size_t i = 0; i < n; ++i)
        for (unsigned p = 0; p < passes; ++p) ++count[p * buckets + ((keys[i] >> (p * digit)) & mask)];
    size_to(tmp_keys, n, keys.capacity());
    size_to(tmp_values, n, values.capacity());
    for (unsigned p = 0; p < passes; ++p) {
        std::size_t* at = count.data() + p * buckets;
        if (std::find(at, at + buckets, n) != at + buckets) continue;
        std::exclusive_scan(at, at + buckets, at, std::size_t{0});
        const unsigned shift = p * digit;
        const std::uint64_t* k = keys.data();
        const V* v = values.data();
        std::uint64_t* tk = tmp_keys.data();
        V* tv = tmp_values.data();
        for (std::size_t i = 0; i < n; ++i) {
            const std::size_t to = at[(k[i] >> shift) & mask]++;
            tk[to] = k[i];
            tv[to] = v[i];
        }
        keys.swap(tmp_keys);
        values.swap(tmp_values);
    }
}

template <class I>
void pack_keys(const std::vector<Column<I>>& idx, const PackedLayout& layout, std::uint64_t* keys, std::size_t n) {
    for (std::size_t i = 0; i < n; ++i) keys[i] = 0;
    for (std::size_t m = 0; m < idx.size(); ++m) {
        const I* c = idx[m].data();
        const unsigned shift = layout.shift[m];
        for (std::size_t i = 0; i < n; ++i) keys[i] |= static_cast<std::uint64_t>(c[i]) << shift;
    }
}

// One background thread running jobs in the order given, so that they overlap the caller's
// work; the caller waits only for a buffer a job still holds. A job's error is rethrown by the
// next wait; destroying the worker waits for the job in hand and drops the queued ones.
class Worker {
public:
    Worker() : thread_([this] { run(); }) {}
    ~Worker() {
        {
            std::lock_guard lock(mutex_);
            stopping_ = true;
        }
        wake_.notify_all();
        thread_.join();
    }
    Worker(const Worker&) = delete;
    Worker& operator=(const Worker&) = delete;

    void submit(std::function<void()> job) {
        std::lock_guard lock(mutex_);
        jobs_.push_back(std::move(job));
        wake_.notify_all();
    }
    // Waits until at most `pending` jobs are queued or running (0: all done).
    void wait(std::size_t pending) {
        std::unique_lock lock(mutex_);
        done_.wait(lock, [&] { return error_ || jobs_.size() + (busy_ ? 1 : 0) <= pending; });
        if (error_) std::rethrow_exception(error_);
    }

private:
    void run() {
        std::unique_lock lock(mutex_);
        for (;;) {
            wake_.wait(lock, [&] { return stopping_ || (!jobs_.empty() && !error_); });
            if (stopping_) return;
            std::function<void()> job = std::move(jobs_.front());
            jobs_.pop_front();
            busy_ = true;
            lock.unlock();
            std::exception_ptr error;
            try {
                job();
            } catch (...) {
                error = std::current_exception();
            }
            lock.lock();
            busy_ = false;
            if (error) error_ = error;
            done_.notify_all();
        }
    }
    std::mutex mutex_;
    std::condition_variable wake_, done_;
    std::deque<std::function<void()>> jobs_;
    bool busy_ = false, stopping_ = false;
    std::exception_ptr error_;
    std::thread thread_;  // last: started once the rest exists
};

// Sorted runs made of the parser's batches. A batch is packed into keys and values on the
// parser's thread, which then reuses its columns at once; the keys are sorted and written on
// the worker while the parser reads on. Two key/value buffers alternate and a third is the
// sort's scratch; all are reused from run to run, so their pages fault in once.
template <class V>
class RunSorter {
public:
    // `room`: the most entries a batch holds.
    RunSorter(std::string out, std::function<std::uint64_t(int)> room, RunControl& control)
        : out_(std::move(out)), room_(std::move(room)), control_(control) {}

    void add(detail::EntryBatch&& batch) {
        const PackedLayout layout = PackedLayout::for_max(batch.max_index);
        if (!layout.fits()) {  // keys too wide: a raw run, made here once the worker is idle
            worker_.wait(0);
            runs_.push_back(make_run<V>(std::move(batch), out_, next_number_++, control_));
            return;
        }
        worker_.wait(1);  // the job before last, which had this buffer, is done
        Buffer& b = buffers_[next_number_ % 2];
        const auto n = static_cast<std::size_t>(batch.size());
        const auto room = static_cast<std::size_t>(room_(batch.order));
        size_to(b.keys, n, room);
        size_to(b.values, n, room);
        if (batch.idx64.empty())
            pack_keys(batch.idx32, layout, b.keys.data(), n);
        else
            pack_keys(batch.idx64, layout, b.keys.data(), n);
        const Column<V>& vals = [&]() -> const Column<V>& {
            if constexpr (std::is_same_v<V, float>) return batch.f32;
            else return batch.f64;
        }();
        std::copy_n(vals.data(), n, b.values.data());
        b.layout = layout;
        b.last = batch.last;
        b.number = next_number_++;
        worker_.submit([this, &b] { runs_.push_back(sorted_run(b)); });
    }

    // The runs in file order, once the worker is done; the buffers are let go.
    std::vector<SortedRun<V>> finish() {
        worker_.wait(0);
        for (Buffer& b : buffers_) b = Buffer{};
        scratch_keys_ = {};
        scratch_values_ = {};
        return std::move(runs_);
    }

private:
    struct Buffer {
        Column<std::uint64_t> keys;
        Column<V> values;
        PackedLayout layout;
        bool last = false;
        std::uint64_t number = 0;
    };

    SortedRun<V> sorted_run(Buffer& b) {
        if (!std::is_sorted(b.keys.begin(), b.keys.end()))  // files are often written sorted
            radix_sort_pairs(b.keys, b.values, scratch_keys_, scratch_values_, b.layout.bits);
        SortedRun<V> run;
        run.packed = true;
        run.layout = b.layout;
        run.count = b.keys.size();
        if (b.last) {  // the last batch stays in memory: no batch follows to need the buffer
            run.keys = std::move(b.keys);
            run.values = std::move(b.values);
            return run;
        }
        run.file = std::make_unique<detail::AtomicFile>(out_ + ".run" + std::to_string(b.number));
        run.file->write(b.keys.data(), run.count * sizeof(std::uint64_t));
        run.file->write(b.values.data(), run.count * sizeof(V));
        return run;
    }

    std::string out_;
    std::function<std::uint64_t(int)> room_;
    RunControl& control_;  // the parser's thread only (raw runs)
    std::array<Buffer, 2> buffers_;
    Column<std::uint64_t> scratch_keys_;
    Column<V> scratch_values_;
    std::vector<SortedRun<V>> runs_;  // the worker's while it has jobs
    std::uint64_t next_number_ = 0;
    Worker worker_;  // last: its jobs use the rest
};

// Reads a packed run in windows of a buffer's size, its keys re-packed to the merge's layout
// where the run's differs (a later run saw larger indices).
template <class V>
class KeyCursor {
public:
    KeyCursor(SortedRun<V>& run, const PackedLayout& to, std::size_t buffer_bytes) : run_(run), to_(to) {
        window_ = std::max<std::uint64_t>(1, buffer_bytes / (sizeof(std::uint64_t) + sizeof(V)));
        if (run.file) {
            const auto held = static_cast<std::size_t>(std::min(window_, run.count));
            key_buffer_.resize(held);
            value_buffer_.resize(held);
        } else {  // in memory: one window, re-packed in place
            window_ = run.count;
        }
    }
    // The first key; kRunEnd for an empty run.
    std::uint64_t first() { return load(0) ? keys_[0] : kRunEnd; }
    // The next key; kRunEnd past the run's end.
    std::uint64_t advance() {
        if (++at_ < held_) return keys_[at_];
        return load(start_ + held_) ? keys_[0] : kRunEnd;
    }
    V value() const { return values_[at_]; }

private:
    bool load(std::uint64_t from) {
        if (from >= run_.count) return false;
        start_ = from;
        held_ = static_cast<std::size_t>(std::min(window_, run_.count - from));
        at_ = 0;
        if (run_.file) {
            run_.file->read_at(from * sizeof(std::uint64_t), key_buffer_.data(), held_ * sizeof(std::uint64_t));
            run_.file->read_at(run_.count * sizeof(std::uint64_t) + from * sizeof(V), value_buffer_.data(), held_ * sizeof(V));
            keys_ = key_buffer_.data();
            values_ = value_buffer_.data();
        } else {
            keys_ = run_.keys.data();
            values_ = run_.values.data();
        }
        if (!(run_.layout == to_)) repack(run_.file ? key_buffer_.data() : run_.keys.data());
        return true;
    }
    void repack(std::uint64_t* keys) const {
        for (std::size_t i = 0; i < held_; ++i) {
            std::uint64_t k = 0;
            for (int m = 0; m < to_.order; ++m) k |= run_.layout.field(keys[i], m) << to_.shift[static_cast<std::size_t>(m)];
            keys[i] = k;
        }
    }
    SortedRun<V>& run_;
    PackedLayout to_;
    std::uint64_t window_ = 1, start_ = 0;
    std::size_t held_ = 0, at_ = 0;
    const std::uint64_t* keys_ = nullptr;
    const V* values_ = nullptr;
    Column<std::uint64_t> key_buffer_;
    Column<V> value_buffer_;
};

// Reads one run's records, raw or packed, in windows of a buffer's size; `index` and `value`
// are the current one, decoded (the merge of keys too wide for 64 bits).
template <class V>
class RunCursor {
public:
    RunCursor(SortedRun<V>& run, int order, std::size_t buffer_bytes) : run_(run), order_(order) {
        window_records_ = std::max<std::uint64_t>(1, buffer_bytes / std::max<std::size_t>(run.record_bytes, 1));
        if (run.packed)
            packed_ = std::make_unique<KeyCursor<V>>(run, run.layout, buffer_bytes);
        else if (run.file)
            buffer_.resize(static_cast<std::size_t>(std::min(window_records_, run.count)) * run.record_bytes);
    }
    // Moves to the next record; false at the end of the run.
    bool next() {
        if (packed_) return next_packed();
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
    bool next_packed() {
        const std::uint64_t k = at_++ == 0 ? packed_->first() : packed_->advance();
        if (k == kRunEnd) return false;
        for (int m = 0; m < order_; ++m) index[static_cast<std::size_t>(m)] = run_.layout.field(k, m);
        value = packed_->value();
        return true;
    }
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
    SortedRun<V>& run_;
    int order_;
    std::unique_ptr<KeyCursor<V>> packed_;
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
    // Appends a block (one larger than the buffer goes straight to the file).
    void append(const void* data, std::size_t bytes) {
        if (used_ + bytes > buffer_.size()) flush();
        if (bytes > buffer_.size()) {
            write_through(data, bytes);
            return;
        }
        std::memcpy(buffer_.data() + used_, data, bytes);
        used_ += bytes;
    }
    void flush() {
        write_through(buffer_.data(), used_);
        used_ = 0;
    }
    std::uint64_t offset() const { return offset_; }
    std::uint64_t written() const { return written_; }
    std::uint32_t crc() const { return crc_; }

private:
    void write_through(const void* data, std::size_t bytes) {
        if (bytes == 0) return;
        file_.write_at(offset_ + written_, data, bytes);
        crc_ = static_cast<std::uint32_t>(crc32_z(crc_, static_cast<const Bytef*>(data), bytes));
        written_ += bytes;
    }
    detail::AtomicFile& file_;
    std::uint64_t offset_;
    std::vector<char> buffer_;
    std::size_t used_ = 0;
    std::uint64_t written_ = 0;
    std::uint32_t crc_ = 0;
};

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
    std::uint64_t entries = 0;        // records in all runs
    std::size_t run_buffer_bytes = 0;
    std::string name;                 // the input, for messages
};

// The .tsb's arrays, each with room for every record of the runs at its place in the file;
// `buffer_bytes` each.
template <class I, class V>
std::vector<ArrayWriter> open_arrays(detail::AtomicFile& file, const MergePlan& plan, std::size_t buffer_bytes) {
    const std::size_t N = plan.dims.size();
    const std::uint64_t U = plan.entries;
    const std::size_t header_bytes = tsb_header_bytes(plan.dims, IndexWidth::U32, ValueType::F64, 0).size();
    std::vector<ArrayWriter> arrays;
    for (std::size_t m = 0; m <= N; ++m) {
        const std::uint64_t array_bytes = U * (m < N ? sizeof(I) : sizeof(V));
        arrays.emplace_back(file, header_bytes + m * U * sizeof(I), static_cast<std::size_t>(std::min<std::uint64_t>(array_bytes, buffer_bytes)));
    }
    return arrays;
}

// Completes the .tsb once `n` nonzeros are in its arrays: fewer than the room (duplicates,
// zeros) closes the gaps by moving the arrays down; then the header and the CRC.
template <class I, class V>
void close_tsb(detail::AtomicFile& file, std::vector<ArrayWriter>& arrays, const MergePlan& plan, std::uint64_t n) {
    const std::size_t N = plan.dims.size();
    const std::size_t header_bytes = tsb_header_bytes(plan.dims, IndexWidth::U32, ValueType::F64, 0).size();
    for (ArrayWriter& a : arrays) a.flush();
    std::uint32_t crc = 0;
    for (std::size_t m = 0; m <= N; ++m) {
        const std::uint64_t width = m < N ? sizeof(I) : sizeof(V);
        const std::uint64_t to = header_bytes + m * n * sizeof(I);
        if (n < plan.entries && m > 0) move_down(file, arrays[m].offset(), to, n * width);
        crc = static_cast<std::uint32_t>(crc32_combine(crc, arrays[m].crc(), static_cast<z_off_t>(n * width)));
    }
    const std::uint64_t payload_end = header_bytes + N * n * sizeof(I) + n * sizeof(V);
    const std::string header = tsb_header_bytes(plan.dims, sizeof(I) == 4 ? IndexWidth::U32 : IndexWidth::U64,
                                          sizeof(V) == 4 ? ValueType::F32 : ValueType::F64, n);
    file.write_at(0, header.data(), header.size());
    file.write_at(payload_end, &crc, sizeof crc);
    file.truncate(payload_end + sizeof crc);
}

template <class V>
[[noreturn]] void refuse_overflowing_sum(const MergePlan& plan, const std::uint64_t* coordinate) {
    std::string where;
    for (std::size_t m = 0; m < plan.dims.size(); ++m) where += (m ? ", " : "") + std::to_string(coordinate[m]);
    throw InputError(plan.name + ": the duplicates of entry (" + where + ") sum to a value beyond the range of " +
                     (sizeof(V) == 4 ? "float" : "double"));
}
// Merges runs of keys too wide to pack into `file` as a .tsb of index type I, entry by entry
// through a heap. Returns the nonzeros written; counts the merged duplicates and dropped zeros
// into `info`.
template <class I, class V>
std::uint64_t merge_runs(std::vector<SortedRun<V>>& runs, const MergePlan& plan, detail::AtomicFile& file, LoadInfo& info,
                         RunControl& control) {
    const int order = static_cast<int>(plan.dims.size());
    const auto N = static_cast<std::size_t>(order);
    const std::uint64_t U = plan.entries;
    // as large as a run's buffer, never larger than the array itself
    std::vector<ArrayWriter> arrays = open_arrays<I, V>(file, plan, std::max<std::uint64_t>(plan.run_buffer_bytes, 4096));

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
    for (SortedRun<V>& r : runs) cursors.emplace_back(r, order, plan.run_buffer_bytes);
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
        if (in_group > 1 && !std::isfinite(sum)) refuse_overflowing_sum<V>(plan, group.data());
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
    control.progress(U, U);
    close_tsb<I, V>(file, arrays, plan, written);
    return written;
}

// Merges packed runs (keys in `layout`, with room below for a run's number) into `file` as a
// .tsb of index type I: a loser tree over the runs' keys, the nonzeros gathered in blocks whose keys are unpacked into the
// arrays mode by mode. Returns the nonzeros written; counts into `info` as merge_runs.
template <class I, class V>
std::uint64_t merge_packed(std::vector<SortedRun<V>>& runs, const PackedLayout& layout, const MergePlan& plan,
                           detail::AtomicFile& file, LoadInfo& info, RunControl& control) {
    const std::size_t N = plan.dims.size();
    const std::uint64_t U = plan.entries;
    std::vector<ArrayWriter> arrays = open_arrays<I, V>(file, plan, 0);  // blocks go straight to the file
    // Nonzeros gather in blocks of keys and sums; the worker unpacks a full one into the arrays
    // (and their CRCs) while the merge fills the other. As many bytes as the arrays' buffers would take.
    struct Block {
        Column<std::uint64_t> keys;
        Column<V> sums;
        std::size_t held = 0;
    };
    const std::size_t capacity = std::clamp<std::size_t>(
        (N + 1) * plan.run_buffer_bytes / (2 * (sizeof(std::uint64_t) + sizeof(V)) + sizeof(I)), 4096, 1 << 16);
    std::array<Block, 2> blocks;
    for (Block& b : blocks) {
        b.keys.resize(capacity);
        b.sums.resize(capacity);
    }
    Column<I> column(capacity);  // the worker's
    auto write_block = [&](const Block& b) {
        for (std::size_t m = 0; m < N; ++m) {
            const unsigned shift = layout.shift[m];
            const std::uint64_t mask = layout.mask(static_cast<int>(m)), base = plan.base[m];
            for (std::size_t i = 0; i < b.held; ++i) column[i] = static_cast<I>(((b.keys[i] >> shift) & mask) - base);
            arrays[m].append(column.data(), b.held * sizeof(I));
        }
        arrays[N].append(b.sums.data(), b.held * sizeof(V));
    };
    Worker writer;  // after what its jobs use
    Block* filling = &blocks[0];
    auto flush = [&] {
        const Block* full = filling;
        writer.submit([&write_block, full] { write_block(*full); });
        filling = filling == &blocks[0] ? &blocks[1] : &blocks[0];
        writer.wait(1);  // the job before, which had this block, is done
        filling->held = 0;
    };

    const std::size_t k = runs.size();
    const auto run_bits = static_cast<unsigned>(std::bit_width(k - 1));
    const std::uint64_t run_mask = (std::uint64_t{1} << run_bits) - 1;
    std::vector<KeyCursor<V>> cursors;
    cursors.reserve(k);
    // The tree plays on keys tagged with their run below them (the caller leaves room for it):
    // the tags are distinct and equal keys order by run, in file order, so one comparison of
    // two words orders them and a match is a min and a max, with no branch to mispredict.
    auto tagged = [&](std::uint64_t key, std::size_t r) { return key == kRunEnd ? kRunEnd : key << run_bits | r; };
    // node[0] the winner, node[1..k) the loser of each match; leaf r is node k + r.
    std::vector<std::uint64_t> node(k), winner(2 * k);
    for (std::size_t r = 0; r < k; ++r) {
        cursors.emplace_back(runs[r], layout, plan.run_buffer_bytes);
        winner[k + r] = tagged(cursors[r].first(), r);
    }
    for (std::size_t i = k; i-- > 1;) {
        winner[i] = std::min(winner[2 * i], winner[2 * i + 1]);
        node[i] = std::max(winner[2 * i], winner[2 * i + 1]);
    }
    node[0] = winner[1];  // the root, or the only leaf

    std::uint64_t group = 0, in_group = 0, written = 0, taken = 0;
    V sum{};
    auto emit = [&] {
        if (in_group > 1 && !std::isfinite(sum)) {
            std::array<std::uint64_t, kMaxOrder> coordinate{};
            for (std::size_t m = 0; m < N; ++m) coordinate[m] = layout.field(group, static_cast<int>(m));
            refuse_overflowing_sum<V>(plan, coordinate.data());
        }
        info.duplicates_summed += in_group - 1;
        if (sum == V{0}) {
            ++info.zeros_dropped;
            return;
        }
        filling->keys[filling->held] = group;
        filling->sums[filling->held] = sum;
        ++written;
        if (++filling->held == capacity) flush();
    };
    for (std::uint64_t top = node[0]; top != kRunEnd; top = node[0]) {
        const std::size_t r = top & run_mask;
        const std::uint64_t key = top >> run_bits;
        const V value = cursors[r].value();
        if (in_group > 0 && key == group) {
            sum += value;
            ++in_group;
        } else {
            if (in_group > 0) emit();
            group = key;
            sum = value;
            in_group = 1;
        }
        std::uint64_t w = tagged(cursors[r].advance(), r);
        for (std::size_t i = (k + r) / 2; i > 0; i /= 2) {
            const std::uint64_t o = node[i];
            node[i] = std::max(o, w);
            w = std::min(o, w);
        }
        node[0] = w;
        if ((++taken & 0xffff) == 0) {
            control.check();
            control.progress(taken, U);
        }
    }
    if (in_group > 0) emit();
    flush();
    writer.wait(0);
    control.progress(U, U);
    close_tsb<I, V>(file, arrays, plan, written);
    return written;
}

// A plain text file of at most `bytes` (gzip's text may be ten times its size).
bool plain_text_within(const std::string& path, std::uint64_t bytes) {
    struct stat st {};
    return file_kind(path) == FileKind::Text && ::stat(path.c_str(), &st) == 0 && static_cast<std::uint64_t>(st.st_size) <= bytes;
}

// The reader's parallel regions get one thread fewer while it runs (on 2 cores: the calling
// thread alone): the sorting worker has that core, and regions sharing it wait at their
// barriers for a thread the worker holds up (on 2 busy cores, 2 parse threads beside the
// worker were no faster than 1).
class ParseThreads {
public:
    ParseThreads() {
#ifdef _OPENMP
        threads_ = omp_get_max_threads();
        omp_set_num_threads(std::max(1, threads_ - 1));
#endif
    }
    ~ParseThreads() {
#ifdef _OPENMP
        omp_set_num_threads(threads_);
#endif
    }
    ParseThreads(const ParseThreads&) = delete;
    ParseThreads& operator=(const ParseThreads&) = delete;

private:
    int threads_ = 1;
};

// Parses the stream into sorted runs and merges them into `out`; or, when everything fitted
// one batch, writes it as the in-memory convert does.
template <class V>
void convert_stream(detail::TextStream& stream, const std::string& in, const std::string& out, const BoundedConvertOptions& options,
                    std::size_t block, BoundedConvertReport& report, RunControl& control) {
    LoadOptions load;
    load.values = options.values;
    load.stream_block_bytes = options.stream_block_bytes;
    control.stage("parsing and sorting");
    const auto spill_at = [&](int order) {
        return std::max<std::uint64_t>(1, report.memory_bytes / bytes_per_entry(order, sizeof(V)));
    };
    std::vector<SortedRun<V>> runs;
    detail::StreamShape shape;
    {
        RunSorter<V> sorter(out, spill_at, control);
        ParseThreads parse_threads;
        shape = detail::parse_tns_stream_spilling(stream, in, load, control, spill_at,
                                                  [&](detail::EntryBatch&& batch) { sorter.add(std::move(batch)); }, block);
        if (!shape.fitted) runs = sorter.finish();
    }
    report.info = std::move(shape.info);
    report.info.format = stream.gzip() ? "tns.gz" : "tns";
    report.dims = shape.dims;
    if (shape.fitted) {  // one batch held it all: written as the in-memory convert writes it
        control.stage("writing");
        write_tsb(shape.whole, out, control);
        report.nnz = shape.whole.nnz();
        report.runs = 1;
        return;
    }
    report.runs = std::count_if(runs.begin(), runs.end(), [](const SortedRun<V>& r) { return r.count > 0; });
    MergePlan plan;
    plan.dims = shape.dims;
    plan.base = shape.base;
    plan.name = in;
    bool packed = true;
    PackedLayout layout;
    for (const SortedRun<V>& r : runs) {
        plan.entries += r.count;
        report.run_file_bytes += r.file_bytes();
        packed = packed && r.packed;
        if (r.packed) layout = layout.order ? PackedLayout::widest(layout, r.layout) : r.layout;
    }
    // Room for the run's number below the key (the packed merge's tags), else the entry-by-entry one.
    packed = packed && layout.bits + std::bit_width(runs.size() - 1) < 64;
    // Up to half the budget for the runs' read buffers; the output gets about one run's buffer an
    // array. At most 256 KiB a run: a window read stays in the cache until the merge takes it
    // (4 MiB windows of 7 runs took the 64 MiB merge from 0.09 s to 0.2 s).
    plan.run_buffer_bytes = static_cast<std::size_t>(std::clamp<std::uint64_t>(
        report.memory_bytes / (2 * std::max<std::uint64_t>(1, runs.size())), 4096, 256 * 1024));

    control.stage("merging");
    const auto merge_start = Clock::now();
    detail::AtomicFile file(out);
    if (CooTensor::width_for(plan.dims) == IndexWidth::U64)
        report.nnz = packed ? merge_packed<std::uint64_t, V>(runs, layout, plan, file, report.info, control)
                            : merge_runs<std::uint64_t, V>(runs, plan, file, report.info, control);
    else
        report.nnz = packed ? merge_packed<std::uint32_t, V>(runs, layout, plan, file, report.info, control)
                            : merge_runs<std::uint32_t, V>(runs, plan, file, report.info, control);
    runs.clear();  // the run files go before the output is flushed
    file.commit();
    report.merge_seconds = since(merge_start);
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
    const std::size_t block = options.stream_block_bytes
                                  ? options.stream_block_bytes
                                  : static_cast<std::size_t>(std::clamp<std::uint64_t>(report.memory_bytes / 8, kMiB, 64 * kMiB));

    if (plain_text_within(in, report.memory_bytes / 4)) {
        // A plain file whose tensor surely fits (about 3 bytes held per byte of text): the
        // in-memory reader, which parses the whole file in parallel, then the same writer.
        LoadOptions load;
        load.values = options.values;
        load.stream_block_bytes = options.stream_block_bytes;
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
    if (options.values == ValueType::F32)
        convert_stream<float>(stream, in, out, options, block, report, control);
    else
        convert_stream<double>(stream, in, out, options, block, report, control);
    report.seconds = since(start);
    report.info.load_seconds = report.seconds;
    return report;
}

}  // namespace tscope
