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

// p, which the compiler may no longer take apart (an empty asm that says it changed it), as a
// lane's column of a factor: p + row * 8 is then one IMAD.WIDE, where the compiler would fold the
// column back in, ((row * 8) | col) << 4 plus the base, four instructions (mttkrp_fiber_teams.cuh's
// team_fiber_group, COL_BASE, measured it).
__device__ inline const float4* opaque(const float4* p) {
    asm("" : "+l"(p));
    __builtin_assume(__isGlobal(p));  // so that its loads stay global ones (LDG), not generic
    return p;
}

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
