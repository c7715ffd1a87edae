// The streamed MTTKRP: chunks of fibers (or COO nonzeros) from page-locked host memory through
// the shared chunk pipeline, each chunk's kernel the resident tensor's own (mttkrp_launch.cuh)
// on the chunk's copy, its nonzero positions rebased by the chunk's first nonzero. The output
// and the factors stay on the device; nothing is copied back per chunk.
//
// Rows whose fp32 chains of adds are long (hot_rows_rule.hpp) add into copies of their own, as the
// resident tensor's do: every chunk of a run adds into the same copies, summed in fp64 into the
// output after the last chunk. A tree level's are renumbered in each chunk's copy on the device;
// BLCO's are looked up as its kernels run. Which rows are hot is counted on the host from the
// caller's arrays, at the first run that adds into the level or mode, and kept.
#include <algorithm>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "chunk_pipeline.cuh"
#include "cuda_util.cuh"
#include "gpu_streamed.hpp"
#include "hot_rows.cuh"
#include "mttkrp_launch.cuh"

namespace tscope::gpu {

namespace {

// Page-locks a caller's host range for the object's life (cudaHostRegister); ok() false when
// the host refuses (the copies then still run, synchronously).
class Pinned {
public:
    Pinned(const void* p, std::uint64_t bytes) : p_(const_cast<void*>(p)) {
        if (!p_ || !bytes) {
            p_ = nullptr;
            return;
        }
        if (cudaHostRegister(p_, bytes, cudaHostRegisterDefault) != cudaSuccess) {
            cudaGetLastError();
            p_ = nullptr;
            ok_ = false;
        }
    }
    ~Pinned() {
        if (p_) cudaHostUnregister(p_);
    }
    Pinned(const Pinned&) = delete;
    Pinned& operator=(const Pinned&) = delete;
    bool ok() const { return ok_; }

private:
    void* p_ = nullptr;
    bool ok_ = true;
};

template <class T>
void copy_in(T* dst, const T* src, std::uint64_t n, cudaStream_t s) {
    if (n) check(cudaMemcpyAsync(dst, src, n * sizeof(T), cudaMemcpyHostToDevice, s), "copying a chunk to the device");
}

// Bytes one fiber of a part costs to move (its pointer and ancestor indices), apart from its
// nonzeros (a leaf index and a value each).
std::uint64_t fiber_cost(const Fibers& p) { return 8 + 4 * static_cast<std::uint64_t>(p.levels); }

// Cuts a part into chunks of about `target` bytes on fiber boundaries (a fiber longer than the
// target is a chunk alone).
void cut_fibers(const Fibers& p, std::size_t part, std::uint64_t target, std::vector<StreamChunk>& out) {
    const std::uint64_t fc = fiber_cost(p);
    auto cost = [&](std::uint64_t f) { return f * fc + p.fiber_ptr[f] * 8; };  // bytes before fiber f
    std::uint64_t f = 0;
    while (f < p.fibers) {
        // the last fiber end g with cost(g) - cost(f) <= target (binary search: cost grows with g)
        std::uint64_t lo = f + 1, hi = p.fibers;
        while (lo < hi) {
            const std::uint64_t mid = lo + (hi - lo + 1) / 2;
            if (cost(mid) - cost(f) <= target) lo = mid;
            else hi = mid - 1;
        }
        StreamChunk c;
        c.part = part, c.first = f, c.last = lo;
        c.nz_first = p.fiber_ptr[f], c.nz_last = p.fiber_ptr[lo];
        c.bytes = cost(lo) - cost(f) + 8;  // and the closing pointer
        out.push_back(c);
        f = lo;
    }
}

// The nonzeros of each row of BLCO's mode m (its chains: BLCO's order scatters a row's nonzeros,
// so each may be a flush), its indices decoded from the keys as the kernels do (BLCO Sec. 4.1).
std::vector<std::uint64_t> blco_row_counts(const Blco& b, int m) {
    const auto k = static_cast<std::size_t>(m);
    std::vector<std::uint64_t> counts(b.dims[k]);
    const unsigned w = b.width[k], shift = b.shift[k];
    const std::uint64_t mask = w == 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << w) - 1;
    for (std::uint64_t blk = 0; blk < b.blocks; ++blk) {
        const std::uint64_t high = w < 64 ? b.high[k][blk] << w : 0;
        for (std::uint64_t z = b.block_ptr[blk]; z < b.block_ptr[blk + 1]; ++z) {
            const std::uint64_t row = w == 64 ? b.keys[z] : high | ((b.keys[z] >> shift) & mask);
            if (row < counts.size()) ++counts[row];
        }
    }
    return counts;
}

}  // namespace

// One level's (or BLCO mode's) hot rows on the device; slots.copies 0: none. bound: one past the
// level's largest row, where a tree's copy ids start.
struct StreamHot {
    HotSlots slots;
    std::uint64_t bound = 0;
};

struct StreamedTensor::Impl {
    std::vector<Fibers> parts;  // host pointers
    Coo coo;
    Blco blco;
    // BLCO's block table, resident for the object's life
    DeviceArray<std::uint64_t> block_ptr;
    std::vector<DeviceArray<std::uint64_t>> high;
    BlcoTable table;
    std::vector<std::unique_ptr<Pinned>> pins;
    std::vector<std::unique_ptr<Stream>> lanes;
    // per lane: fibers: fiber_ptr, anc[levels], leaf, vals; COO: idx[order], vals
    struct Lane {
        DeviceArray<std::uint64_t> fiber_ptr;
        std::vector<DeviceArray<std::uint32_t>> anc;  // COO: the index columns
        DeviceArray<std::uint32_t> leaf;
        DeviceArray<float> vals;
        DeviceArray<std::uint64_t> keys;  // BLCO
    };
    std::vector<Lane> buffers;
    int device = engine_device();
    std::map<std::pair<std::size_t, int>, StreamHot> hot;  // (part, level) or (0, BLCO's mode): planned
    DeviceArray<float> hot_copies;                         // the hot rows' copies of a run

    // Tree part k's level l (levels: the leaves), planned at its first run.
    const StreamHot& tree_hot(std::size_t k, int l) {
        auto [it, added] = hot.try_emplace({k, l});
        if (!added) return it->second;
        const Fibers& p = parts[k];
        const bool leaves = l == p.levels;
        const std::vector<std::uint64_t> chains =
            leaves ? row_chains(p.leaf, p.nnz, hot_group(false))
                   : row_chains(p.anc[static_cast<std::size_t>(l)], p.fibers, hot_group(true));
        it->second.bound = chains.size();
        it->second.slots = upload_hot_slots(chains);
        return it->second;
    }
    const StreamHot& blco_hot(int mode) {
        auto [it, added] = hot.try_emplace({0, mode});
        if (added && blco.nnz > hot_chain_limit()) it->second.slots = upload_hot_slots(blco_row_counts(blco, mode));
        return it->second;
    }

    void pin(const void* p, std::uint64_t bytes, bool& all) {
        pins.push_back(std::make_unique<Pinned>(p, bytes));
        all = all && pins.back()->ok();
    }
};

StreamedTensor::StreamedTensor(const std::vector<Fibers>& parts, std::uint64_t chunk_bytes, int streams)
    : streams_(streams), impl_(std::make_unique<Impl>()) {
    use_device();
    if (streams < 1) throw Error("streaming needs at least one stream");
    impl_->parts = parts;
    std::uint64_t max_f = 0, max_z = 0;
    int levels = 0;
    for (std::size_t k = 0; k < parts.size(); ++k) {
        const Fibers& p = parts[k];
        levels = std::max(levels, p.levels);
        cut_fibers(p, k, chunk_bytes, chunks_);
        impl_->pin(p.fiber_ptr, (p.fibers + 1) * 8, pinned_);
        for (const std::uint32_t* a : p.anc) impl_->pin(a, p.fibers * 4, pinned_);
        impl_->pin(p.leaf, p.nnz * 4, pinned_);
        impl_->pin(p.vals, p.nnz * 4, pinned_);
    }
    for (const StreamChunk& c : chunks_) {
        max_f = std::max(max_f, c.last - c.first);
        max_z = std::max(max_z, c.nz_last - c.nz_first);
        bytes_ += c.bytes;
    }
    impl_->lanes = make_lanes(streams);
    for (int s = 0; s < streams; ++s) {
        Impl::Lane lane;
        lane.fiber_ptr = DeviceArray<std::uint64_t>(max_f + 1);
        for (int l = 0; l < levels; ++l) lane.anc.emplace_back(max_f);
        lane.leaf = DeviceArray<std::uint32_t>(max_z);
        lane.vals = DeviceArray<float>(max_z);
        impl_->buffers.push_back(std::move(lane));
    }
}

StreamedTensor::StreamedTensor(const Coo& coo, std::uint64_t chunk_bytes, int streams)
    : kind_(Kind::Coo), streams_(streams), impl_(std::make_unique<Impl>()) {
    use_device();
    if (streams < 1) throw Error("streaming needs at least one stream");
    impl_->coo = coo;
    const std::uint64_t max_z = cut_nonzeros(coo.nnz, 4 * coo.idx.size() + 4, chunk_bytes);
    for (const std::uint32_t* i : coo.idx) impl_->pin(i, coo.nnz * 4, pinned_);
    impl_->pin(coo.vals, coo.nnz * 4, pinned_);
    impl_->lanes = make_lanes(streams);
    for (int s = 0; s < streams; ++s) {
        Impl::Lane lane;
        for (std::size_t m = 0; m < coo.idx.size(); ++m) lane.anc.emplace_back(max_z);
        lane.vals = DeviceArray<float>(max_z);
        impl_->buffers.push_back(std::move(lane));
    }
}

StreamedTensor::StreamedTensor(const Blco& blco, std::uint64_t chunk_bytes, int streams)
    : kind_(Kind::Blco), streams_(streams), impl_(std::make_unique<Impl>()) {
    use_device();
    if (streams < 1) throw Error("streaming needs at least one stream");
    Impl& t = *impl_;
    t.blco = blco;
    t.block_ptr = DeviceArray<std::uint64_t>(blco.block_ptr, blco.blocks + 1);
    for (const std::uint64_t* h : blco.high) t.high.emplace_back(h, blco.blocks);
    t.table.blocks = blco.blocks, t.table.block_ptr = t.block_ptr.get(), t.table.shift = blco.shift, t.table.width = blco.width;
    for (const auto& h : t.high) t.table.high.push_back(h.get());
    const std::uint64_t max_z = cut_nonzeros(blco.nnz, 8 + 4, chunk_bytes);  // a key and a value each
    t.pin(blco.keys, blco.nnz * 8, pinned_);
    t.pin(blco.vals, blco.nnz * 4, pinned_);
    t.lanes = make_lanes(streams);
    for (int s = 0; s < streams; ++s) {
        Impl::Lane lane;
        lane.keys = DeviceArray<std::uint64_t>(max_z);
        lane.vals = DeviceArray<float>(max_z);
        t.buffers.push_back(std::move(lane));
    }
}

StreamedTensor::~StreamedTensor() = default;

std::uint64_t StreamedTensor::cut_nonzeros(std::uint64_t nnz, std::uint64_t per_nz, std::uint64_t chunk_bytes) {
    const std::uint64_t step = std::max<std::uint64_t>(1, chunk_bytes / per_nz);
    for (std::uint64_t z = 0; z < nnz; z += step) {
        StreamChunk c;
        c.first = c.nz_first = z;
        c.last = c.nz_last = std::min(nnz, z + step);
        c.bytes = (c.last - c.first) * per_nz;
        bytes_ += c.bytes;
        chunks_.push_back(c);
    }
    return std::min(step, nnz);
}

std::uint64_t StreamedTensor::device_bytes() const {
    std::uint64_t b = 0;
    for (const Impl::Lane& l : impl_->buffers) {
        b += l.fiber_ptr.size() * 8 + l.leaf.size() * 4 + l.vals.size() * 4 + l.keys.size() * 8;
        for (const auto& a : l.anc) b += a.size() * 4;
    }
    for (const auto& [key, h] : impl_->hot) b += h.slots.bytes();
    return b + impl_->hot_copies.size() * 4;
}

namespace {

// The chunk's arrays, of whichever tensor the object holds (a BLCO or a COO has nonzeros; else fibers).
void copy_chunk(const StreamedTensor::Impl& t, const StreamChunk& c, StreamedTensor::Impl::Lane& b, cudaStream_t s) {
    if (t.blco.nnz) {
        copy_in(b.keys.get(), t.blco.keys + c.first, c.last - c.first, s);
        copy_in(b.vals.get(), t.blco.vals + c.first, c.last - c.first, s);
        return;
    }
    if (t.coo.nnz) {
        for (std::size_t m = 0; m < t.coo.idx.size(); ++m) copy_in(b.anc[m].get(), t.coo.idx[m] + c.first, c.last - c.first, s);
        copy_in(b.vals.get(), t.coo.vals + c.first, c.last - c.first, s);
        return;
    }
    const Fibers& p = t.parts[c.part];
    const std::uint64_t f = c.last - c.first, z = c.nz_last - c.nz_first;
    copy_in(b.fiber_ptr.get(), p.fiber_ptr + c.first, f + 1, s);
    for (int l = 0; l < p.levels; ++l) copy_in(b.anc[static_cast<std::size_t>(l)].get(), p.anc[static_cast<std::size_t>(l)] + c.first, f, s);
    copy_in(b.leaf.get(), p.leaf + c.nz_first, z, s);
    copy_in(b.vals.get(), p.vals + c.nz_first, z, s);
}

}  // namespace

std::vector<const StreamChunk*> StreamedTensor::chunks_of(int part) const {
    std::vector<const StreamChunk*> out;
    for (const StreamChunk& c : chunks_)
        if (part < 0 || c.part == static_cast<std::size_t>(part)) out.push_back(&c);
    return out;
}

StreamRun StreamedTensor::mttkrp(int mode, std::uint64_t R, const float* const* factors, float* out_f, double* out_d, int part) {
    DeviceScope on(impl_->device);
    Impl& t = *impl_;
    const std::vector<const StreamChunk*> todo = chunks_of(part);
    // the hot rows each part's run adds into (COO adds in fp64: none), their copies one part's
    // after another
    std::vector<const StreamHot*> hot(kind_ == Kind::Blco ? 1 : t.parts.size(), nullptr);
    std::vector<std::uint64_t> at(hot.size(), 0);
    std::uint64_t copies = 0;
    for (std::size_t k = 0; k < hot.size() && kind_ != Kind::Coo; ++k) {
        if (part >= 0 && k != static_cast<std::size_t>(part)) continue;
        const StreamHot& h = kind_ == Kind::Blco ? t.blco_hot(mode) : t.tree_hot(k, level_of(t.parts[k], mode));
        if (!h.slots.copies) continue;
        hot[k] = &h, at[k] = copies;
        copies += h.slots.copies;
    }
    if (t.hot_copies.size() < copies * R) t.hot_copies = DeviceArray<float>(copies * R);
    float* const hot_buf = t.hot_copies.get();
    StreamRun run;
    run.device_bytes = device_bytes();
    run.chunks = run_chunk_pipeline(
        todo.size(), t.lanes,
        [&](std::size_t i, std::size_t lane, cudaStream_t s) {
            // the copies cleared before the first chunk's kernel (every later stage comes after it)
            if (i == 0 && copies)
                check(cudaMemsetAsync(hot_buf, 0, copies * R * sizeof(float), s), "clearing the hot rows' copies");
            copy_chunk(t, *todo[i], t.buffers[lane], s);
        },
        [&](std::size_t i, std::size_t lane, cudaStream_t s) {
            const StreamChunk& c = *todo[i];
            Impl::Lane& b = t.buffers[lane];
            std::vector<const std::uint32_t*> arrays;
            for (const auto& a : b.anc) arrays.push_back(a.get());
            if (kind_ == Kind::Blco) {
                OutputCopies one;
                if (hot[0]) one.hot = hot[0]->slots.view(hot_buf);
                launch_blco_mttkrp(t.table, b.keys.get(), b.vals.get(), c.first, c.last - c.first, mode, R, factors,
                                   out_f, s, one);
                return;
            }
            if (kind_ == Kind::Coo) {
                launch_coo_mttkrp(c.last - c.first, static_cast<int>(arrays.size()), arrays.data(), b.vals.get(), mode, R, factors, out_d, s);
                return;
            }
            Fibers meta = t.parts[c.part];
            meta.fibers = c.last - c.first;
            HotTarget target;
            if (const StreamHot* h = hot[c.part]) {
                const int level = level_of(meta, mode);
                const bool leaves = level == meta.levels;
                std::uint32_t* ids = leaves ? b.leaf.get() : b.anc[static_cast<std::size_t>(level)].get();
                const std::uint64_t n = leaves ? c.nz_last - c.nz_first : meta.fibers;
                // in place: the chunk's copy is the level's positions from its first on
                hot_remap_kernel<<<grid_for(n), 256, 0, s>>>(ids, ids, n, leaves ? c.nz_first : c.first,
                                                             h->slots.view(nullptr),
                                                             static_cast<std::uint32_t>(h->bound));
                target = HotTarget{h->bound, hot_buf + at[c.part] * R};
            }
            launch_fiber_mttkrp(meta, arrays.data(), b.fiber_ptr.get(), c.nz_first, b.leaf.get(), b.vals.get(), mode, R,
                                factors, out_f, s, target);
        },
        [&](std::size_t i, std::size_t, cudaStream_t s) {
            // after the last chunk's kernel, and so after every kernel (each chunk's last stage
            // waits on the one before): the copies summed into their rows
            if (i + 1 != todo.size()) return;
            for (std::size_t k = 0; k < hot.size(); ++k)
                if (hot[k]) add_hot_copies(hot[k]->slots.rows, R, hot_buf + at[k] * R, out_f, s);
        },
        &run.total_s, false);
    return run;
}

double StreamedTensor::copy_rate() {
    DeviceScope on(impl_->device);
    Impl& t = *impl_;
    double total = 0;
    run_chunk_pipeline(
        chunks_.size(), t.lanes,
        [&](std::size_t i, std::size_t lane, cudaStream_t s) { copy_chunk(t, chunks_[i], t.buffers[lane], s); },
        [](std::size_t, std::size_t, cudaStream_t) {}, [](std::size_t, std::size_t, cudaStream_t) {}, &total);
    return total > 0 ? static_cast<double>(bytes_) / total : 0;
}

}  // namespace tscope::gpu
