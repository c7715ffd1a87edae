// The streamed SpTV (hocfs-sptv-pipeline Sec. 6.2): chunks over CUDA streams, pinned host
// memory, asynchronous copies, and CUDA events around every stage (Fig. 12's steps 3.1-3.3).
#include <algorithm>
#include <memory>
#include <vector>

#include "chunk_pipeline.cuh"
#include "cuda_util.cuh"
#include "gpu_pipeline.hpp"
#include "sptv_kernels.cuh"

namespace tscope::gpu {

namespace {

std::uint64_t align_up(std::uint64_t n) { return (n + 255) / 256 * 256; }

// The largest chunk, per array: every stream's buffers are this big.
struct ChunkMax {
    std::uint64_t rows = 0, slices = 0, entries = 0;
};

ChunkMax largest(const std::vector<ChunkRange>& chunks) {
    ChunkMax m;
    for (const ChunkRange& c : chunks) {
        m.rows = std::max(m.rows, c.row_end - c.row_begin);
        m.slices = std::max(m.slices, c.slice_end - c.slice_begin);
        m.entries = std::max(m.entries, c.entry_end - c.entry_begin);
    }
    return m;
}

std::uint64_t stream_bytes(bool ell, const ChunkMax& m) {
    const std::uint64_t offsets = ell ? 2 * (m.slices + 1) * 8 + m.rows * 4 : (m.rows + 1) * 8;
    return offsets + m.entries * 8 + m.rows * 4;
}

// One stream's device buffers, sized for the largest chunk.
struct StreamBuffers {
    StreamBuffers(bool ell, const ChunkMax& m)
        : ptr(ell ? 0 : m.rows + 1), first(ell ? m.slices + 1 : 0), ap(ell ? m.slices + 1 : 0), fiber_slice(ell ? m.rows : 0),
          col(m.entries), val(m.entries), out(m.rows) {}
    DeviceArray<std::uint64_t> ptr, first, ap;
    DeviceArray<std::uint32_t> fiber_slice, col;
    DeviceArray<float> val, out;
};

template <class T>
void copy_in(T* dst, const T* src, std::uint64_t n, cudaStream_t s) {
    if (n) check(cudaMemcpyAsync(dst, src, n * sizeof(T), cudaMemcpyHostToDevice, s), "copying a chunk to the device");
}

// Chunk c's stages on stream s with buffers b (run_chunk_pipeline orders them).
void sptv_copy_in(PinnedSptv& x, const ChunkRange& c, StreamBuffers& b, cudaStream_t s) {
    const std::uint64_t rows = c.row_end - c.row_begin, entries = c.entry_end - c.entry_begin;
    const std::uint64_t slices = c.slice_end - c.slice_begin;
    if (x.ell) {
        copy_in(b.first.get(), x.first + c.slice_begin, slices + 1, s);
        copy_in(b.ap.get(), x.ap + c.slice_begin, slices + 1, s);
        copy_in(b.fiber_slice.get(), x.fiber_slice + c.row_begin, rows, s);
    } else {
        copy_in(b.ptr.get(), x.ptr + c.row_begin, rows + 1, s);
    }
    copy_in(b.col.get(), x.col + c.entry_begin, entries, s);
    copy_in(b.val.get(), x.val + c.entry_begin, entries, s);
}

void sptv_kernel(const PinnedSptv& x, const ChunkRange& c, StreamBuffers& b, const float* dv, cudaStream_t s) {
    const std::uint64_t rows = c.row_end - c.row_begin;
    if (rows && x.ell)
        launch_sptv_ell(rows, c.row_begin, c.entry_begin, static_cast<std::uint32_t>(c.slice_begin), b.first.get(), b.ap.get(),
                        b.fiber_slice.get(), b.col.get(), b.val.get(), dv, b.out.get(), s);
    else if (rows)
        sptv_rows_kernel<<<grid_for(rows), 256, 0, s>>>(rows, c.entry_begin, b.ptr.get(), b.col.get(), b.val.get(), dv, b.out.get());
}

void sptv_copy_out(PinnedSptv& x, const ChunkRange& c, StreamBuffers& b, cudaStream_t s) {
    const std::uint64_t rows = c.row_end - c.row_begin;
    if (rows)
        check(cudaMemcpyAsync(x.out + c.row_begin, b.out.get(), rows * sizeof(float), cudaMemcpyDeviceToHost, s),
              "copying a chunk's result back");
}

}  // namespace

PinnedSptv::PinnedSptv(bool ell_, std::uint64_t rows_, std::uint64_t slices_, std::uint64_t entries_)
    : ell(ell_), rows(rows_), slices(slices_), entries(entries_) {
    use_device();
    const std::uint64_t sizes[] = {ell ? 0 : (rows + 1) * 8, ell ? (slices + 1) * 8 : 0, ell ? (slices + 1) * 8 : 0,
                                   ell ? rows * 4 : 0, entries * 4, entries * 4, rows * 4};
    std::uint64_t total = 0;
    for (auto s : sizes) total += align_up(s);
    check(cudaHostAlloc(&block_, total ? total : 1, cudaHostAllocDefault), "allocating pinned host memory");
    auto* p = static_cast<unsigned char*>(block_);
    void* slots[7];
    for (int i = 0; i < 7; ++i) {
        slots[i] = sizes[i] ? p : nullptr;
        p += align_up(sizes[i]);
    }
    ptr = static_cast<std::uint64_t*>(slots[0]);
    first = static_cast<std::uint64_t*>(slots[1]);
    ap = static_cast<std::uint64_t*>(slots[2]);
    fiber_slice = static_cast<std::uint32_t*>(slots[3]);
    col = static_cast<std::uint32_t*>(slots[4]);
    val = static_cast<float*>(slots[5]);
    out = static_cast<float*>(slots[6]);
}

PinnedSptv::~PinnedSptv() {
    if (block_) cudaFreeHost(block_);
}

std::uint64_t streamed_device_bytes(const PinnedSptv& x, const std::vector<ChunkRange>& chunks, int streams, std::uint64_t vlen) {
    return static_cast<std::uint64_t>(streams) * stream_bytes(x.ell, largest(chunks)) + vlen * 4;
}

StreamRun sptv_streamed(PinnedSptv& x, const std::vector<ChunkRange>& chunks, const float* v, std::uint64_t vlen, int streams) {
    use_device();
    if (streams < 1) throw Error("the pipeline needs at least one stream");
    StreamRun run;
    run.device_bytes = streamed_device_bytes(x, chunks, streams, vlen);
    const std::uint64_t free_bytes = free_device_bytes();
    if (run.device_bytes > free_bytes)
        throw Error("out of GPU memory: " + std::to_string(streams) + " streams with chunks this large need " +
                    std::to_string(run.device_bytes >> 20) + " MiB, " + std::to_string(free_bytes >> 20) +
                    " MiB are free (use smaller chunks or fewer streams)");

    Event v0, v1;
    v0.record();
    DeviceArray<float> dv(v, vlen);
    v1.record();
    run.vector_upload_s = Event::seconds(v0, v1);

    const ChunkMax m = largest(chunks);
    const auto lanes = make_lanes(streams);
    std::vector<std::unique_ptr<StreamBuffers>> buffers;
    for (int s = 0; s < streams; ++s) buffers.push_back(std::make_unique<StreamBuffers>(x.ell, m));
    run.chunks = run_chunk_pipeline(
        chunks.size(), lanes, [&](std::size_t i, std::size_t lane, cudaStream_t s) { sptv_copy_in(x, chunks[i], *buffers[lane], s); },
        [&](std::size_t i, std::size_t lane, cudaStream_t s) { sptv_kernel(x, chunks[i], *buffers[lane], dv.get(), s); },
        [&](std::size_t i, std::size_t lane, cudaStream_t s) { sptv_copy_out(x, chunks[i], *buffers[lane], s); }, &run.total_s);
    return run;
}

}  // namespace tscope::gpu
