// The bounded convert's merge (bounded_convert.cpp): the sorted runs read back in windows
// (KeyCursor for packed runs, RunCursor for records) and merged into the .tsb's arrays at their
// places in the file (ArrayWriter), through a loser tree over packed keys or a heap over
// records; duplicates summed in file order, zeros dropped, the arrays moved down over the gaps
// and the header and CRC written last. Private to engine/io, included by bounded_convert.cpp only.
#pragma once

#include <zlib.h>

#include <algorithm>
#include <array>
#include <bit>
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
#include <vector>

#include "convert_runs.hpp"
#include "file_util.hpp"
#include "tsb_internal.hpp"
#include "tscope/error.hpp"
#include "tscope/io/tsb_format.hpp"

namespace tscope::detail::convert {

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
inline void move_down(detail::AtomicFile& file, std::uint64_t from, std::uint64_t to, std::uint64_t bytes) {
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


}  // namespace tscope::detail::convert
