// A stream whose accesses to one array persist in L2 (CUDA's access policy window, CUDA
// Programming Guide 4.13): for SpTV's packed much-read vector entries (sptv_hot_columns.cuh),
// which the streamed arrays of a product keep evicting, where TENSORSCOPE_SPTV_HOT_PERSIST=1 (for
// comparison). Session 37 measured the same window over a whole 69 MB vector, larger than the
// set-aside, and removed it (see CsrSpmv). Private to engine/cuda (nvcc, C++17).
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>

#include "cuda_util.cuh"

namespace tscope::gpu {
namespace {  // each .cu file gets its own copy (no separable compilation)

// While it lives, work on stream() sees [base, base + bytes) as persisting in the L2 set-aside
// (as much of it as the set-aside holds: hitRatio) and everything else as streaming. The stream
// is a blocking one, so that it orders itself with the legacy default stream on both sides.
// Where the device has no set-aside (before sm_80, MIG), stream() is the default stream.
class L2Window {
public:
    L2Window(const void* base, std::uint64_t bytes) {
        const int max_set_aside = device_attribute(cudaDevAttrMaxPersistingL2CacheSize);
        const int max_window = device_attribute(cudaDevAttrMaxAccessPolicyWindowSize);
        if (max_set_aside <= 0 || max_window <= 0 || bytes == 0) return;
        const std::uint64_t window = std::min<std::uint64_t>(bytes, static_cast<std::uint64_t>(max_window));
        const std::uint64_t set_aside = std::min<std::uint64_t>(window, static_cast<std::uint64_t>(max_set_aside));
        // the context's own set-aside (11.8 MB on the H200 we measure on), put back at the end
        check(cudaDeviceGetLimit(&previous_, cudaLimitPersistingL2CacheSize), "reading the L2 set-aside");
        check(cudaDeviceSetLimit(cudaLimitPersistingL2CacheSize, set_aside), "setting L2 aside for the vector");
        check(cudaStreamCreate(&stream_), "creating the vector's stream");
        cudaStreamAttrValue a{};
        a.accessPolicyWindow.base_ptr = const_cast<void*>(base);
        a.accessPolicyWindow.num_bytes = window;
        a.accessPolicyWindow.hitRatio =
            static_cast<float>(static_cast<double>(set_aside) / static_cast<double>(window));
        a.accessPolicyWindow.hitProp = cudaAccessPropertyPersisting;
        a.accessPolicyWindow.missProp = cudaAccessPropertyStreaming;
        check(cudaStreamSetAttribute(stream_, cudaStreamAttributeAccessPolicyWindow, &a),
              "marking the vector persisting");
    }
    ~L2Window() {
        if (!stream_) return;
        cudaStreamSynchronize(stream_);
        cudaStreamDestroy(stream_);
        cudaCtxResetPersistingL2Cache();  // the lines it kept go back to normal use
        cudaDeviceSetLimit(cudaLimitPersistingL2CacheSize, previous_);
    }
    L2Window(const L2Window&) = delete;
    L2Window& operator=(const L2Window&) = delete;

    cudaStream_t stream() const { return stream_; }

private:
    cudaStream_t stream_ = nullptr;
    std::size_t previous_ = 0;
};

}  // namespace
}  // namespace tscope::gpu
