// SpTV's CSR product (rows = fibers) with the vector staged in shared memory, for matrices whose
// rows are all short. Private to engine/cuda (nvcc, C++17).
//
// Why: on the uniform shape (76.9M nonzeros, fibers of 1.2-1.4 nonzeros) cuSPARSE's CSR SpMV
// reached 82-85% of the copy bound on modes 1 and 2 but 65% on mode 3. Nsight Compute on mode 3
// (H200, session 24, docs/bench/h200-issue19-session24.json): L2 the busiest unit (69%), DRAM at
// 45%, an L1 hit rate of 46%, 12 of every 32 bytes a load brings used: each nonzero's gather of
// v[col] misses an L1 that the streamed arrays keep evicting and costs a 32-byte L2 sector for 4
// bytes, 2.5 GB over the tensor. Held in shared memory, the vector is read from L2 once a block.
//
// Two kernels, a block of 1024 threads each, two blocks an SM where the vector allows:
//   - sptv_shared_vector_kernel: a thread takes 4 consecutive rows a step, their 5 offsets in
//     one 16-byte load and one more, then the rows' nonzeros as one run (they are contiguous),
//     each product added to its row's sum by where it falls among the offsets, so a short row's
//     loads do not wait on the previous row's end; the 4 sums in one 16-byte store. A warp's
//     loads then spread over 4 rows' worth of bytes each step, which L1 catches on the next
//     steps only while the vector leaves it room.
//   - sptv_shared_vector_row_kernel: a thread per row, the warp's loads of the k-th nonzero of
//     its 32 rows side by side.
// Measured on the uniform shape (H200, alternating twice with cuSPARSE, CSF and COO): with a
// vector of 36-48 KB (modes 1, 2) the 4-row kernel 0.33-0.34 ms, the row kernel 0.39-0.41,
// cuSPARSE 0.48-0.51; with 115 KB (mode 3) 0.55-0.56, 0.40-0.41 and 0.57-0.59. So the 4-row
// kernel up to kRunVectorBytes, the row kernel above. Rows must be short (the caller checks the
// longest): a long row holds its thread, and its warp, alone. Since session 75 the 4-row kernel
// takes rows of at most 1.25 nonzeros on average only (grid_for_csr in gpu_sptv.cu says why). Since session 48 the row kernel
// runs only where sptv_adaptive_rows.cuh's blocks do not fit (a vector of about 195-227 KB):
// they took the uniform shape's mode 3 in 0.310-0.318 ms against its 0.382-0.390 (gpu_sptv.cu's
// grid_for_csr says where).
// Tried for power-law rows, session 35 (h200-issue19-session35.json call 3, alternating twice):
// the row kernel with a row of more than 32, 16, 8 or 4 nonzeros summed by the whole warp, on the
// nell-2 shape against cuSPARSE: HOCFS-CSR and CSF 0.36-0.45 ms on modes 1-2 and 0.53-0.57 on
// mode 3 against 0.31-0.33 and 0.33-0.36, HOCSR's kept rows 0.69-0.72 ms on mode 3 against
// 0.50-0.51 (Nsight Compute: 0.46 warps issued a cycle, DRAM at 30%); removed.
#pragma once

#include <cstdint>

#include "cuda_util.cuh"

namespace tscope::gpu {
namespace {  // each .cu file gets its own copy (no separable compilation)

constexpr int kSharedVectorThreads = 1024;  // one block per SM still fills half of it where v is large
constexpr std::uint64_t kSharedVectorRowsMax = 32;  // longest row taken (see the header)
constexpr std::uint64_t kRunVectorBytes = 64 << 10;  // two blocks' vectors in at most half an SM's 256 KB of L1 and shared memory

// longest[0] = the longest row of a CSR (offsets ptr[0..rows]).
template <class P>
__global__ void csr_longest_row_kernel(std::uint64_t rows, const P* __restrict__ ptr, unsigned long long* longest) {
    const std::uint64_t stride = gridDim.x * static_cast<std::uint64_t>(blockDim.x);
    unsigned long long mine = 0;
    for (std::uint64_t q = blockIdx.x * static_cast<std::uint64_t>(blockDim.x) + threadIdx.x; q < rows; q += stride)
        mine = max(mine, static_cast<unsigned long long>(ptr[q + 1] - ptr[q]));
    for (int d = 16; d > 0; d >>= 1) mine = max(mine, __shfl_down_sync(0xffffffffu, mine, d));
    if ((threadIdx.x & 31) == 0) atomicMax(longest, mine);
}

// The blocks of `kernel` to launch (threads a block, bytes of dynamic shared memory): as many
// as the device holds at once, at most `needed`.
template <class Kernel>
int resident_grid(Kernel kernel, int threads, std::size_t bytes, std::uint64_t needed) {
    int per_sm = 0;
    check(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, threads, bytes),
          "sizing the SpTV kernel's grid");
    const std::uint64_t resident = static_cast<std::uint64_t>(per_sm) * static_cast<std::uint64_t>(sm_count());
    return static_cast<int>(needed < resident ? needed : resident);
}

// v copied into the block's shared memory (the launch's dynamic bytes), for every thread to read.
__device__ inline const float* shared_vector(const float* __restrict__ v, std::uint32_t vlen) {
    extern __shared__ float sv[];
    for (std::uint32_t i = threadIdx.x; i < vlen; i += blockDim.x) sv[i] = v[i];
    __syncthreads();
    return sv;
}

// out[q] = row q of the CSR (32-bit offsets and columns) times v, for every row q < rows.
__global__ void __launch_bounds__(kSharedVectorThreads, 2)
    sptv_shared_vector_kernel(std::uint32_t rows, const std::int32_t* __restrict__ ptr, const std::uint32_t* __restrict__ col,
                              const float* __restrict__ val, const float* __restrict__ v, std::uint32_t vlen, float* __restrict__ out) {
    const float* sv = shared_vector(v, vlen);
    const std::uint32_t groups = (rows + 3) / 4;
    for (std::uint32_t g = blockIdx.x * blockDim.x + threadIdx.x; g < groups; g += gridDim.x * blockDim.x) {
        const std::uint32_t first = g * 4;
        const bool whole = first + 4 <= rows;
        std::uint32_t p[5];
        if (whole) {  // first is a multiple of 4: the load is aligned (cudaMalloc aligns to 256 bytes)
            const int4 a = __ldg(reinterpret_cast<const int4*>(ptr + first));
            p[0] = a.x, p[1] = a.y, p[2] = a.z, p[3] = a.w, p[4] = ptr[first + 4];
        } else {
#pragma unroll
            for (int k = 0; k < 5; ++k) p[k] = ptr[first + k < rows ? first + k : rows];
        }
        float s0 = 0.f, s1 = 0.f, s2 = 0.f, s3 = 0.f;
#pragma unroll 4
        for (std::uint32_t j = p[0]; j < p[4]; ++j) {
            const float x = val[j] * sv[col[j]];
            if (j < p[1]) s0 += x;
            else if (j < p[2]) s1 += x;
            else if (j < p[3]) s2 += x;
            else s3 += x;
        }
        if (whole) {
            *reinterpret_cast<float4*>(out + first) = make_float4(s0, s1, s2, s3);
        } else {
            const float s[4] = {s0, s1, s2, s3};
            for (std::uint32_t k = 0; first + k < rows; ++k) out[first + k] = s[k];
        }
    }
}

// The same with a thread per row.
__global__ void __launch_bounds__(kSharedVectorThreads, 2)
    sptv_shared_vector_row_kernel(std::uint32_t rows, const std::int32_t* __restrict__ ptr, const std::uint32_t* __restrict__ col,
                                  const float* __restrict__ val, const float* __restrict__ v, std::uint32_t vlen, float* __restrict__ out) {
    const float* sv = shared_vector(v, vlen);
    for (std::uint32_t q = blockIdx.x * blockDim.x + threadIdx.x; q < rows; q += gridDim.x * blockDim.x) {
        const std::uint32_t b = ptr[q], e = ptr[q + 1];
        float sum = 0.f;
#pragma unroll 4
        for (std::uint32_t j = b; j < e; ++j) sum += val[j] * sv[col[j]];
        out[q] = sum;
    }
}

}  // namespace
}  // namespace tscope::gpu
