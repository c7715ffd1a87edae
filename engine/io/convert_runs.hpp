// The bounded convert's sorted runs (bounded_convert.cpp): a batch of parsed nonzeros packed
// into 64-bit keys where its coordinates fit (PackedLayout), sorted by a serial radix sort on a
// worker thread beside the parser and written to a temporary run file, its buffers reused for
// the next batch (RunSorter); coordinates too wide for a key become records (make_run). Private
// to engine/io, included by bounded_convert.cpp only.
#pragma once

#include <zlib.h>

#include <algorithm>
#include <array>
#include <bit>
#include <condition_variable>
#include <cstring>
#include <deque>
#include <functional>
#include <limits>
#include <memory>
#include <mutex>
#include <numeric>
#include <thread>
#include <vector>

#include "file_util.hpp"
#include "tensor/radix_sort.hpp"
#include "tns_reader.hpp"
#include "tscope/io/tensor_io.hpp"
#include "tscope/parallel_errors.hpp"
#include "tscope/tensor/coo_ops.hpp"

namespace tscope::detail::convert {

constexpr std::uint64_t kMiB = std::uint64_t{1} << 20;

// Bytes one held nonzero costs: the parser's columns (up to 8 bytes an index, the value), and
// a key and value in each of the two buffers that alternate between parsing and sorting and in
// the sort's scratch.
inline std::uint64_t bytes_per_entry(int order, std::size_t value_bytes) {
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
        done_.wait(lock, [&] { return errors_.failed() || jobs_.size() + (busy_ ? 1 : 0) <= pending; });
        errors_.rethrow();  // the worker takes no job after a failure: its error is settled
    }

private:
    void run() {
        std::unique_lock lock(mutex_);
        for (;;) {
            wake_.wait(lock, [&] { return stopping_ || (!jobs_.empty() && !errors_.failed()); });
            if (stopping_) return;
            std::function<void()> job = std::move(jobs_.front());
            jobs_.pop_front();
            busy_ = true;
            lock.unlock();
            errors_.run(job);  // an exception leaving the thread would end the program
            lock.lock();       // after the job's error is kept: a waiter woken below sees it
            busy_ = false;
            done_.notify_all();
        }
    }
    std::mutex mutex_;
    std::condition_variable wake_, done_;
    std::deque<std::function<void()>> jobs_;
    bool busy_ = false, stopping_ = false;
    ParallelErrors errors_;
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


}  // namespace tscope::detail::convert
