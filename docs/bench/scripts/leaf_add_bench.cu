// Can MM-CSF's leaf adds cost less than B-CSF's gathers? A standalone measurement (session 59),
// not part of the build: nvcc -O3 -arch=sm_90 -o leaf_add_bench leaf_add_bench.cu
//
// Why: over a sweep of a 3-order tensor MM-CSF moves, per nonzero, two gathered factor rows and
// one row added by atomics (the mode at its partition's leaves, mm-csf Alg. 8), where B-CSF moves
// three gathered rows. It can only match B-CSF where an added row costs no more than a gathered
// one; session 58 measured an L2 vector atomic at 2.7 gathers on one H200. This program measures,
// on an MM-CSF leaf partition shaped like the nell-2 shape's mode 1 (12,092 output rows, fibers
// of 1-7 nonzeros, power-law roots and middles, uniform or power-law leaves, rank 32), three ways
// of doing that partition's work:
//   global  Alg. 8 as Tensorscope runs it: a team of 8 lanes a fiber, each lane's float4 of the
//           fiber's prefix (root row times middle row) times each value added to the leaf's row
//           by one 16-byte vector atomic in L2;
//   shared  the same adds privatised in shared memory: each block owns one float4 column slice
//           of the whole output (12,092 rows x 16 bytes = 189 KiB, one block an SM) and walks its
//           share of the fibers for that slice only, adding by shared-memory atomics, then adds
//           its slice into the output once; every fiber is walked once per slice (8 times);
//   gather  what B-CSF does for the same nonzeros instead: each leaf row gathered and summed
//           into the fiber's registers, one atomic a fiber (the cost an add would have to match).
// Prints each way's median of 11 runs and the two adds' largest difference from each other.
// usage: leaf_add_bench [ROWS [FIBERS [1: power-law leaves]]]
//
// Measured on one H200 (session 59, docs/bench/h200-leaf-adds-session59.json; 29.2M nonzeros in
// 7.3M fibers, uniform leaves): global 1.069 ms, shared 3.287, gather 0.568. An added row cost
// 1.9 gathered ones here, and privatising the adds in shared memory made them 3x slower: sm_90
// has no shared-memory float add, so atomicAdd on shared memory compiles to a compare-and-swap
// loop (ATOMS.CAST.SPIN in the SASS), four of them a nonzero a slice. With power-law leaves the
// one hot row's atomics held global to 5.09 ms and shared to 4.94 (gather 0.545).
//
// Session 70 (docs/bench/h200-leaf-adds-session70.json) added fixed-point shared adds, so that the
// privatised adds are integer atomics: int32 compiles to the native ATOMS.ADD, yet took 2.66 ms
// (shared float 3.27, global 1.07, gather 0.56, uniform leaves); int64 is a compare-and-swap loop
// on sm_90 too (ATOMS.CAST.SPIN.64), 5.86 ms. So the CAS loop was not all of the privatised
// walk's cost: walking every fiber once a column slice at one block an SM is slower than L2's
// vector atomics whatever the add. With power-law leaves int32 took 2.74 ms against global 5.09.
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <type_traits>
#include <vector>

#define CK(x)                                                                                   \
    do {                                                                                        \
        cudaError_t e_ = (x);                                                                   \
        if (e_ != cudaSuccess) {                                                                \
            std::fprintf(stderr, "%s:%d %s: %s\n", __FILE__, __LINE__, #x, cudaGetErrorString(e_)); \
            std::exit(1);                                                                       \
        }                                                                                       \
    } while (0)

constexpr int kRank = 32, kSlices = kRank / 4;

struct Partition {
    std::uint32_t fibers;
    std::uint32_t fibers_rows;  // gather: fiber f's sum goes to row f % fibers_rows (no hot row)
    const std::uint32_t* ptr;   // fibers + 1
    const std::uint32_t* root;  // a fiber's root-level index
    const std::uint32_t* mid;   // its middle-level index
    const std::uint32_t* leaf;  // a nonzero's leaf index (the output row)
    const float* val;
};

__device__ __forceinline__ float4 mul(float4 a, float4 b) { return {a.x * b.x, a.y * b.y, a.z * b.z, a.w * b.w}; }

__device__ __forceinline__ void red_v4(float4* p, float4 v) {
    asm volatile("red.global.add.v4.f32 [%0], {%1, %2, %3, %4};" ::"l"(p), "f"(v.x), "f"(v.y), "f"(v.z), "f"(v.w)
                 : "memory");
}

__global__ void global_adds(Partition p, const float4* A, const float4* B, float4* out) {
    const std::uint32_t lane = threadIdx.x & 7;
    const std::uint32_t teams = gridDim.x * blockDim.x / 8;
    for (std::uint32_t f = (blockIdx.x * blockDim.x + threadIdx.x) / 8; f < p.fibers; f += teams) {
        const float4 pre = mul(A[p.root[f] * kSlices + lane], B[p.mid[f] * kSlices + lane]);
        for (std::uint32_t j = p.ptr[f]; j < p.ptr[f + 1]; ++j) {
            const float v = p.val[j];
            red_v4(out + p.leaf[j] * kSlices + lane, {v * pre.x, v * pre.y, v * pre.z, v * pre.w});
        }
    }
}

// Block b adds column slice b % 8 of fibers b / 8, b / 8 + groups, ...: a group's blocks read the
// same fibers at about the same time, so L2 serves the seven after the first.
__global__ void shared_adds(Partition p, std::uint32_t rows, const float4* A, const float4* B, float4* out) {
    extern __shared__ float s[];  // s[c * rows + i]: column c of the slice, row i (banks by row)
    const std::uint32_t slice = blockIdx.x % kSlices, group = blockIdx.x / kSlices, groups = gridDim.x / kSlices;
    for (std::uint32_t k = threadIdx.x; k < 4 * rows; k += blockDim.x) s[k] = 0.f;
    __syncthreads();
    for (std::uint32_t f = group * blockDim.x + threadIdx.x; f < p.fibers; f += groups * blockDim.x) {
        const float4 pre = mul(A[p.root[f] * kSlices + slice], B[p.mid[f] * kSlices + slice]);
        for (std::uint32_t j = p.ptr[f]; j < p.ptr[f + 1]; ++j) {
            const float v = p.val[j];
            const std::uint32_t i = p.leaf[j];
            atomicAdd(s + i, v * pre.x);
            atomicAdd(s + rows + i, v * pre.y);
            atomicAdd(s + 2 * rows + i, v * pre.z);
            atomicAdd(s + 3 * rows + i, v * pre.w);
        }
    }
    __syncthreads();
    for (std::uint32_t i = threadIdx.x; i < rows; i += blockDim.x) {
        const float4 r{s[i], s[rows + i], s[2 * rows + i], s[3 * rows + i]};
        if (r.x != 0.f || r.y != 0.f || r.z != 0.f || r.w != 0.f) red_v4(out + i * kSlices + slice, r);
    }
}

// Session 70: the same privatised walk with the adds in fixed point, so that they are native
// integer shared-memory atomics (ATOMS.ADD) rather than the float compare-and-swap loop. Each
// contribution is rounded to a multiple of 1/scale, where scale keeps every row's sum of
// magnitudes under 2^30 (int) or 2^62 (long long); a block owns W columns of every row (4 ints or
// 2 long longs: 189 KiB either way) and walks its group's fibers once per column slice it owns.
template <class T, int W>
__global__ void fixed_adds(Partition p, std::uint32_t rows, float scale, const float* A, const float* B, float* out) {
    extern __shared__ unsigned char raw[];
    T* s = reinterpret_cast<T*>(raw);  // s[c * rows + i]
    constexpr int slices = kRank / W;
    const std::uint32_t slice = blockIdx.x % slices, group = blockIdx.x / slices, groups = gridDim.x / slices;
    for (std::uint32_t k = threadIdx.x; k < W * rows; k += blockDim.x) s[k] = 0;
    __syncthreads();
    for (std::uint32_t f = group * blockDim.x + threadIdx.x; f < p.fibers; f += groups * blockDim.x) {
        float pre[W];
        for (int c = 0; c < W; ++c) pre[c] = A[p.root[f] * kRank + slice * W + c] * B[p.mid[f] * kRank + slice * W + c] * scale;
        for (std::uint32_t j = p.ptr[f]; j < p.ptr[f + 1]; ++j) {
            const float v = p.val[j];
            const std::uint32_t i = p.leaf[j];
            for (int c = 0; c < W; ++c) {
                const T q = sizeof(T) == 4 ? T(__float2int_rn(v * pre[c])) : T(__float2ll_rn(v * pre[c]));
                atomicAdd(reinterpret_cast<std::conditional_t<sizeof(T) == 4, int, unsigned long long>*>(s + c * rows + i),
                          static_cast<std::conditional_t<sizeof(T) == 4, int, unsigned long long>>(q));
            }
        }
    }
    __syncthreads();
    for (std::uint32_t i = threadIdx.x; i < rows; i += blockDim.x)
        for (int c = 0; c < W; ++c)
            if (s[c * rows + i] != 0) atomicAdd(out + i * kRank + slice * W + c, float(double(s[c * rows + i]) / scale));
}

__global__ void gathers(Partition p, const float4* A, const float4* B, const float4* C, float4* out) {
    const std::uint32_t lane = threadIdx.x & 7;
    const std::uint32_t teams = gridDim.x * blockDim.x / 8;
    for (std::uint32_t f = (blockIdx.x * blockDim.x + threadIdx.x) / 8; f < p.fibers; f += teams) {
        float4 acc{0.f, 0.f, 0.f, 0.f};
        for (std::uint32_t j = p.ptr[f]; j < p.ptr[f + 1]; ++j) {
            const float v = p.val[j];
            const float4 c = C[p.leaf[j] * kSlices + lane];
            acc.x += v * c.x, acc.y += v * c.y, acc.z += v * c.z, acc.w += v * c.w;
        }
        red_v4(out + (f % p.fibers_rows) * kSlices + lane, mul(acc, A[p.root[f] * kSlices + lane]));
    }
}

template <class T>
T* upload(const std::vector<T>& h) {
    T* d = nullptr;
    CK(cudaMalloc(&d, h.size() * sizeof(T)));
    CK(cudaMemcpy(d, h.data(), h.size() * sizeof(T), cudaMemcpyHostToDevice));
    return d;
}

template <class F>
float median_ms(F&& launch) {
    cudaEvent_t a, b;
    CK(cudaEventCreate(&a));
    CK(cudaEventCreate(&b));
    std::vector<float> t;
    launch();  // warm-up
    for (int k = 0; k < 11; ++k) {
        CK(cudaEventRecord(a));
        launch();
        CK(cudaEventRecord(b));
        CK(cudaEventSynchronize(b));
        float ms = 0.f;
        CK(cudaEventElapsedTime(&ms, a, b));
        t.push_back(ms);
    }
    CK(cudaGetLastError());
    std::sort(t.begin(), t.end());
    return t[t.size() / 2];
}

int main(int argc, char** argv) {
    const std::uint32_t rows = argc > 1 ? std::atoi(argv[1]) : 12092;  // the leaf mode's length
    const std::uint32_t fibers = argc > 2 ? std::atoi(argv[2]) : 7300000;
    // Leaves uniform unless asked (third argument 1): MM-CSF puts a much-read index's nonzeros at
    // the root of its partition (its slice is heavy), so a leaf partition's rows are the rarely
    // read ones; Zipf leaves make every way wait on one hot row's atomics.
    const bool leaf_law = argc > 3 && std::atoi(argv[3]) == 1;
    const std::uint32_t roots = 9184, mids = 28818;
    std::mt19937_64 rng(59);
    std::uniform_real_distribution<double> u(0.0, 1.0);
    // Power-law leaves (a Zipf-like 1/rank law over a shuffled id order, as the generator scatters ids).
    std::vector<std::uint32_t> id(rows);
    for (std::uint32_t i = 0; i < rows; ++i) id[i] = i;
    std::shuffle(id.begin(), id.end(), rng);
    auto zipf = [&](std::uint32_t n) { return std::min<std::uint32_t>(n - 1, std::uint32_t(std::pow(double(n), u(rng))) - 1); };
    std::vector<std::uint32_t> ptr{0}, root(fibers), mid(fibers), leaf;
    std::vector<float> val;
    for (std::uint32_t f = 0; f < fibers; ++f) {
        root[f] = zipf(roots), mid[f] = zipf(mids);
        const std::uint32_t len = 1 + f % 7;  // 1-7, four on average
        std::vector<std::uint32_t> l;
        while (l.size() < len) {
            const std::uint32_t i = leaf_law ? id[zipf(rows)] : std::uint32_t(u(rng) * rows) % rows;
            if (std::find(l.begin(), l.end(), i) == l.end()) l.push_back(i);
        }
        std::sort(l.begin(), l.end());
        for (std::uint32_t i : l) leaf.push_back(i), val.push_back(float(u(rng)));
        ptr.push_back(std::uint32_t(leaf.size()));
    }
    std::vector<float> fa(std::size_t(roots) * kRank), fb(std::size_t(mids) * kRank), fc(std::size_t(rows) * kRank);
    for (auto* m : {&fa, &fb, &fc})
        for (float& x : *m) x = float(u(rng));
    Partition p{fibers, rows, upload(ptr), upload(root), upload(mid), upload(leaf), upload(val)};
    auto* A = reinterpret_cast<const float4*>(upload(fa));
    auto* B = reinterpret_cast<const float4*>(upload(fb));
    auto* C = reinterpret_cast<const float4*>(upload(fc));
    const std::size_t out_bytes = std::size_t(std::max(rows, mids)) * kRank * sizeof(float);
    float4 *o1 = nullptr, *o2 = nullptr, *o3 = nullptr;
    CK(cudaMalloc(&o1, out_bytes));
    CK(cudaMalloc(&o2, out_bytes));
    CK(cudaMalloc(&o3, out_bytes));
    int sms = 0;
    CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
    const int smem = 4 * rows * sizeof(float);
    CK(cudaFuncSetAttribute(shared_adds, cudaFuncAttributeMaxDynamicSharedMemorySize, smem));
    const int shared_blocks = kSlices * (sms / kSlices);
    const float tg = median_ms([&] {
        CK(cudaMemsetAsync(o1, 0, out_bytes));
        global_adds<<<sms * 8, 256>>>(p, A, B, o1);
    });
    const float ts = median_ms([&] {
        CK(cudaMemsetAsync(o2, 0, out_bytes));
        shared_adds<<<shared_blocks, 1024, smem>>>(p, rows, A, B, o2);
    });
    // Fixed point: every row's sum of |contribution| is at most its leaves' |values| summed
    // (factors are in [0, 1)), so scale = 2^30 or 2^62 over the largest such sum keeps it in range.
    std::vector<double> row_abs(rows, 0.0);
    for (std::size_t j = 0; j < leaf.size(); ++j) row_abs[leaf[j]] += std::abs(double(val[j]));
    const double bound = *std::max_element(row_abs.begin(), row_abs.end());
    const float scale32 = float(std::ldexp(1.0, 30) / bound), scale64 = float(std::ldexp(1.0, 62) / bound);
    float4 *o4 = nullptr, *o5 = nullptr;
    CK(cudaMalloc(&o4, out_bytes));
    CK(cudaMalloc(&o5, out_bytes));
    CK(cudaFuncSetAttribute(fixed_adds<int, 4>, cudaFuncAttributeMaxDynamicSharedMemorySize, smem));
    CK(cudaFuncSetAttribute(fixed_adds<long long, 2>, cudaFuncAttributeMaxDynamicSharedMemorySize, smem));
    const int fixed64_blocks = (kRank / 2) * (sms / (kRank / 2));
    const float tf32 = median_ms([&] {
        CK(cudaMemsetAsync(o4, 0, out_bytes));
        fixed_adds<int, 4><<<shared_blocks, 1024, smem>>>(p, rows, scale32, reinterpret_cast<const float*>(A),
                                                          reinterpret_cast<const float*>(B), reinterpret_cast<float*>(o4));
    });
    const float tf64 = median_ms([&] {
        CK(cudaMemsetAsync(o5, 0, out_bytes));
        fixed_adds<long long, 2><<<fixed64_blocks, 1024, smem>>>(p, rows, scale64, reinterpret_cast<const float*>(A),
                                                                 reinterpret_cast<const float*>(B), reinterpret_cast<float*>(o5));
    });
    const float tc = median_ms([&] {
        CK(cudaMemsetAsync(o3, 0, out_bytes));
        gathers<<<sms * 8, 256>>>(p, A, B, C, o3);
    });
    const float tm = median_ms([&] { CK(cudaMemsetAsync(o3, 0, out_bytes)); });
    std::vector<float> h1(std::size_t(rows) * kRank), h2(h1.size());
    CK(cudaMemcpy(h1.data(), o1, h1.size() * sizeof(float), cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(h2.data(), o2, h2.size() * sizeof(float), cudaMemcpyDeviceToHost));
    auto worst_against = [&](const std::vector<float>& h) {
        double worst = 0.0;
        for (std::size_t k = 0; k < h1.size(); ++k)
            worst = std::max(worst, std::abs(double(h1[k]) - h[k]) / std::max(1e-30, std::abs(double(h1[k]))));
        return worst;
    };
    const double worst = worst_against(h2);
    std::vector<float> h4(h1.size()), h5(h1.size());
    CK(cudaMemcpy(h4.data(), o4, h4.size() * sizeof(float), cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(h5.data(), o5, h5.size() * sizeof(float), cudaMemcpyDeviceToHost));
    const double worst32 = worst_against(h4), worst64 = worst_against(h5);
    cudaDeviceProp prop{};
    CK(cudaGetDeviceProperties(&prop, 0));
    std::printf("{\"device\":\"%s\",\"leaf_law\":%d,\"rows\":%u,\"fibers\":%u,\"nnz\":%zu,\"rank\":%d,\"shared_blocks\":%d,"
                "\"memset_ms\":%.4f,\"global_adds_ms\":%.4f,\"shared_adds_ms\":%.4f,\"gathers_ms\":%.4f,"
                "\"max_rel_diff\":%.3g,\"fixed32_adds_ms\":%.4f,\"fixed32_max_rel_diff\":%.3g,\"fixed64_adds_ms\":%.4f,"
                "\"fixed64_max_rel_diff\":%.3g}\n",
                prop.name, int(leaf_law), rows, fibers, leaf.size(), kRank, shared_blocks, tm, tg - tm, ts - tm, tc - tm, worst,
                tf32 - tm, worst32, tf64 - tm, worst64);
    return 0;
}
