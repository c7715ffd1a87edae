// The pipelined copy machinery (hocfs-sptv-pipeline Sec. 6.2, Fig. 11-13) that every streamed
// kernel shares (the SpTV of `tensorscope-cli pipeline`, CPD's MTTKRPs on tensors larger than
// the GPU): chunk i runs on stream i % s in three stages, copy in, kernel, copy out, each stage
// after the same stage of chunk i - 1 (one copy engine per direction, one kernel at a time, as
// in Fig. 13), with an event at both ends of every stage so that the timeline is measured, not
// modelled. Private to engine/cuda.
#pragma once

#include <algorithm>
#include <memory>
#include <vector>

#include "cuda_util.cuh"
#include "gpu_pipeline.hpp"

namespace tscope::gpu {

namespace pipeline_detail {

struct ChunkEvents {
    Event in_start, in_end, kernel_start, kernel_end, out_start, out_end;
};

inline double since(const Event& t0, const Event& e) {
    float ms = 0;
    check(cudaEventElapsedTime(&ms, t0.get(), e.get()), "reading the timeline");
    return ms / 1000.0;
}

inline void after(cudaStream_t s, const Event* prev) {
    if (prev) check(cudaStreamWaitEvent(s, prev->get(), 0), "ordering the pipeline's stages");
}

}  // namespace pipeline_detail

// Issues `chunks` chunks over `lanes` and waits for them. copy_in(i, lane, stream),
// kernel(i, lane, stream) and copy_out(i, lane, stream) enqueue chunk i's stages on `stream`
// (lane = i % lanes: the buffers it may use). Returns each chunk's stage times, in seconds since
// the first copy began, and *total_s, the first copy-in's start to the last stage's end.
// ordered_kernels false lets a chunk's kernel start before the previous chunk's has ended
// (kernels that only add into their output with atomics): a chunk whose one long fiber keeps
// a few warps busy then no longer holds the next chunk's kernel back.
template <class CopyIn, class Kernel, class CopyOut>
std::vector<ChunkTimes> run_chunk_pipeline(std::size_t chunks, const std::vector<std::unique_ptr<Stream>>& lanes, CopyIn copy_in,
                                           Kernel kernel, CopyOut copy_out, double* total_s, bool ordered_kernels = true) {
    using namespace pipeline_detail;
    std::vector<std::unique_ptr<ChunkEvents>> events;
    for (std::size_t i = 0; i < chunks; ++i) events.push_back(std::make_unique<ChunkEvents>());
    check(cudaDeviceSynchronize(), "preparing the pipeline");
    Event t0;
    t0.record(lanes[0]->get());
    for (std::size_t i = 0; i < chunks; ++i) {
        const std::size_t lane = i % lanes.size();
        const cudaStream_t s = lanes[lane]->get();
        ChunkEvents& e = *events[i];
        const ChunkEvents* prev = i ? events[i - 1].get() : nullptr;
        after(s, prev ? &prev->in_end : nullptr);
        e.in_start.record(s);
        copy_in(i, lane, s);
        e.in_end.record(s);
        if (ordered_kernels) after(s, prev ? &prev->kernel_end : nullptr);
        e.kernel_start.record(s);
        kernel(i, lane, s);
        check(cudaGetLastError(), "launching a chunk's kernel");
        e.kernel_end.record(s);
        after(s, prev ? &prev->out_end : nullptr);
        e.out_start.record(s);
        copy_out(i, lane, s);
        e.out_end.record(s);
    }
    check(cudaDeviceSynchronize(), "running the pipeline");
    std::vector<ChunkTimes> out;
    double total = 0;
    for (std::size_t i = 0; i < chunks; ++i) {
        const ChunkEvents& e = *events[i];
        ChunkTimes t;
        t.stream = static_cast<int>(i % lanes.size());
        t.in_start = since(t0, e.in_start), t.in_end = since(t0, e.in_end);
        t.kernel_start = since(t0, e.kernel_start), t.kernel_end = since(t0, e.kernel_end);
        t.out_start = since(t0, e.out_start), t.out_end = since(t0, e.out_end);
        total = std::max(total, t.out_end);
        out.push_back(t);
    }
    if (total_s) *total_s = total;
    return out;
}

inline std::vector<std::unique_ptr<Stream>> make_lanes(int streams) {
    std::vector<std::unique_ptr<Stream>> lanes;
    for (int s = 0; s < streams; ++s) lanes.push_back(std::make_unique<Stream>());
    return lanes;
}

}  // namespace tscope::gpu
