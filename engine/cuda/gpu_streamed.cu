// The streamed MTTKRP: chunks of fibers (or COO nonzeros) from page-locked host memory through
// the shared chunk pipeline, each chunk's kernel the resident tensor's own (mttkrp_launch.cuh)
// on the chunk's copy, its nonzero positions rebased by the chunk's first nonzero. The output
// and the factors stay on the device; nothing is copied back per chunk.
#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "chunk_pipeline.cuh"
#include "cuda_util.cuh"
#include "gpu_streamed.hpp"
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

}  // namespace

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
    return b;
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
    StreamRun run;
    run.device_bytes = device_bytes();
    run.chunks = run_chunk_pipeline(
        todo.size(), t.lanes,
        [&](std::size_t i, std::size_t lane, cudaStream_t s) { copy_chunk(t, *todo[i], t.buffers[lane], s); },
        [&](std::size_t i, std::size_t lane, cudaStream_t s) {
            const StreamChunk& c = *todo[i];
            Impl::Lane& b = t.buffers[lane];
            std::vector<const std::uint32_t*> arrays;
            for (const auto& a : b.anc) arrays.push_back(a.get());
            if (kind_ == Kind::Blco) {
                launch_blco_mttkrp(t.table, b.keys.get(), b.vals.get(), c.first, c.last - c.first, mode, R, factors, out_f, s);
                return;
            }
            if (kind_ == Kind::Coo) {
                launch_coo_mttkrp(c.last - c.first, static_cast<int>(arrays.size()), arrays.data(), b.vals.get(), mode, R, factors, out_d, s);
                return;
            }
            Fibers meta = t.parts[c.part];
            meta.fibers = c.last - c.first;
            launch_fiber_mttkrp(meta, arrays.data(), b.fiber_ptr.get(), c.nz_first, b.leaf.get(), b.vals.get(), mode, R, factors, out_f, s);
        },
        [](std::size_t, std::size_t, cudaStream_t) {}, &run.total_s, false);
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
