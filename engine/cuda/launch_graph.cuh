// A product's kernel launches captured once as a CUDA graph (CUDA Programming Guide, "CUDA
// Graphs": stream capture) and replayed by one launch each time. Private to engine/cuda (nvcc,
// C++17).
//
// Why: a product's timing starts once the vector has landed, with the device idle; every launch
// the host then prepares (cuSPARSE's SpMV checks its arguments, HOCSR's two passes, the packed
// vector's gather before the product) is time the device waits. Replayed as a graph, the host
// submits one launch and the device runs the kernels back to back. Measured on one H200
// (h200-issue19-session44.json call 2, alternating twice in one binary, TENSORSCOPE_GRAPHS=0 the
// other way): on the nell-2 shape CSF's modes 1-3 0.296-0.298, 0.297-0.298 and 0.317-0.319 ms
// against 0.316-0.317, 0.309-0.322 and 0.326-0.330; COO 0.295-0.321 against 0.313-0.334; HOCSR
// (two passes) 0.477-0.478 ms on mode 3 against 0.482-0.493 (mode 2 unchanged); on the uniform
// shape every format 0.5-6% faster (CSF's mode 1 0.312 against 0.332, HOCFS-ELL's 0.846 against 0.858).
#pragma once

#include <cuda_runtime.h>

#include "cuda_util.cuh"

namespace tscope::gpu {

class LaunchGraph {
public:
    LaunchGraph() = default;
    ~LaunchGraph() {
        if (exec_) cudaGraphExecDestroy(exec_);
    }
    LaunchGraph(const LaunchGraph&) = delete;
    LaunchGraph& operator=(const LaunchGraph&) = delete;

    // Captures launches(stream), the kernels it enqueues on `stream`, without running them. False,
    // and nothing kept, where the capture fails (a library call that synchronises, say): the
    // caller then launches directly. TENSORSCOPE_GRAPHS=0 refuses every capture (comparisons).
    template <class F>
    bool capture(F&& launches) {
        if (env_is("TENSORSCOPE_GRAPHS", "0")) return false;
        Stream stream;
        if (cudaStreamBeginCapture(stream.get(), cudaStreamCaptureModeThreadLocal) != cudaSuccess) {
            cudaGetLastError();
            return false;
        }
        bool ok = true;
        try {
            launches(stream.get());
        } catch (const Error&) {
            ok = false;
        }
        cudaGraph_t graph = nullptr;
        ok = cudaStreamEndCapture(stream.get(), &graph) == cudaSuccess && graph && ok;
        ok = ok && cudaGraphInstantiate(&exec_, graph, 0) == cudaSuccess;
        if (graph) cudaGraphDestroy(graph);
        if (!ok) {
            cudaGetLastError();
            exec_ = nullptr;
        }
        return ok;
    }
    bool captured() const { return exec_ != nullptr; }
    // One replay on the legacy default stream, in order with the caller's copies and events.
    void launch() const { check(cudaGraphLaunch(exec_, nullptr), "launching the captured kernels"); }

private:
    cudaGraphExec_t exec_ = nullptr;
};

}  // namespace tscope::gpu
