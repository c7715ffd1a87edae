// Programmatic dependent launch (sm_90; the CUDA Programming Guide's Sec. 4.5): a kernel launched
// behind another in the same stream may start while that one's last blocks still run, do what
// does not read its results (stage a vector in shared memory), then wait for it to finish and
// its writes to be seen. The grid before it lets it start early by calling let_dependents_launch
// in every block (or, without that call, as each of its blocks exits). On older devices, and
// where the launch did not ask for it, both calls do nothing and the launch waits as usual.
// Private to engine/cuda (nvcc, C++17).
#pragma once

#include <cuda_runtime.h>

#include "cuda_util.cuh"
#include "env_switch.hpp"

namespace tscope::gpu {
namespace {  // each .cu file gets its own copy (no separable compilation)

// Waits until the grid this one was launched behind has finished and its writes are visible.
__device__ inline void wait_for_prior_grid() {
#if __CUDA_ARCH__ >= 900
    asm volatile("griddepcontrol.wait;" ::: "memory");
#endif
}

// Lets a grid launched behind this one start once every block of this one has called it.
__device__ inline void let_dependents_launch() {
#if __CUDA_ARCH__ >= 900
    asm volatile("griddepcontrol.launch_dependents;");
#endif
}

// kernel<<<grid, threads, bytes, stream>>>(args...), allowed to start behind the kernel before it
// in the stream (programmatic stream serialization) where `behind` is set and
// TENSORSCOPE_SPTV_PDL=0 is not; the kernel must call wait_for_prior_grid before it reads what
// that kernel writes.
template <class... Params, class... Args>
void launch_behind(bool behind, void (*kernel)(Params...), int grid, int threads, std::size_t bytes,
                   cudaStream_t stream, Args... args) {
    cudaLaunchConfig_t config{};
    config.gridDim = dim3(static_cast<unsigned>(grid));
    config.blockDim = dim3(static_cast<unsigned>(threads));
    config.dynamicSmemBytes = bytes;
    config.stream = stream;
    cudaLaunchAttribute attribute{};
    attribute.id = cudaLaunchAttributeProgrammaticStreamSerialization;
    attribute.val.programmaticStreamSerializationAllowed = 1;
    if (behind && !env_is("TENSORSCOPE_SPTV_PDL", "0")) config.attrs = &attribute, config.numAttrs = 1;
    check(cudaLaunchKernelEx(&config, kernel, static_cast<Params>(args)...), "launching the SpTV kernel");
}

}  // namespace
}  // namespace tscope::gpu
