// float4 arithmetic for the kernels whose lanes own four consecutive columns of a row (MTTKRP's
// fiber teams, SpTTM's): one 16-byte load or store a lane. Private to engine/cuda (nvcc, C++17).
#pragma once

#include <cuda_runtime.h>

namespace tscope::gpu {
namespace {  // each .cu file gets its own copy (no separable compilation)

__device__ inline float4 operator*(float a, float4 b) { return make_float4(a * b.x, a * b.y, a * b.z, a * b.w); }
__device__ inline float4 operator*(float4 a, float4 b) {
    return make_float4(a.x * b.x, a.y * b.y, a.z * b.z, a.w * b.w);
}
__device__ inline void fma4(float4& acc, float a, float4 b) {
    acc.x = fmaf(a, b.x, acc.x), acc.y = fmaf(a, b.y, acc.y), acc.z = fmaf(a, b.z, acc.z), acc.w = fmaf(a, b.w, acc.w);
}
__device__ inline void add4(float4& acc, float4 b) { acc.x += b.x, acc.y += b.y, acc.z += b.z, acc.w += b.w; }

__device__ inline void atomic_add4(float4* out, float4 v) {
#if __CUDA_ARCH__ >= 900
    atomicAdd(out, v);  // one vector atomic (sm_90)
#else
    float* o = reinterpret_cast<float*>(out);
    atomicAdd(o, v.x), atomicAdd(o + 1, v.y), atomicAdd(o + 2, v.z), atomicAdd(o + 3, v.w);
#endif
}

}  // namespace
}  // namespace tscope::gpu
