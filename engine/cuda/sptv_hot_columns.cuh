// SpTV's vector with its much-read entries copied ahead of it, for a vector larger than L2
// (TENSORSCOPE_SPTV_HOT=1 or =0 forces either way, for comparisons and tests). Private to
// engine/cuda (nvcc, C++17).
//
// Why: on the delicious-4d shape's mode 2 (a 69 MB vector, over the H200's L2, 60 MiB as it reports) the CSR
// products reach 58-64% of the copy bound against 84-103% on the other modes. Each nonzero's
// gather of v[col] costs a 32-byte sector for 4 bytes; power-law columns are read very unevenly,
// but their ids are scattered (as the generator scatters them, and real ids are), so a sector
// that L2 keeps for one much-read entry mostly holds entries rarely read. Packed together, the
// much-read entries share sectors, and the part of v that L2 holds serves more of the gathers.
// Session 37's first form renumbered every entry by its count, and each product gathered the
// whole vector into that order (vlen random reads of 4 bytes, each a sector). One H200
// (h200-issue19-session38.json call 1, alternating twice in one binary, COO, CFB, HOCFS-CSR and
// CSF through cuSPARSE): the delicious-4d shape's mode 2 1.25-1.28 ms against 1.47-1.48 (67-71%
// of the bound against 56-62%); the nell-2 shape's modes (vectors under 120 KB, which L2 holds
// whole) 0.30-0.35 ms against 0.30-0.33, no gain: hence only past L2.
//
// The layout now: the product reads v' = [hot entries | v as given], the hot ones being the
// entries read at least twice, the most-read first, at most a cap's bytes (half of L2 unless
// TENSORSCOPE_SPTV_HOT_BYTES says, read at each plan); their columns point into the front, every
// other column to its entry in the copy of v behind it. v arrives straight behind the hot part,
// and a product only gathers the hot entries. One H200 (h200-issue19-session38.json calls 3-4,
// delicious-4d's mode 2, alternating twice in one binary, COO / CFB / HOCFS-CSR / CSF):
//   off                                   1.447-1.453 / 1.435-1.454 / 1.445-1.447 / 1.444-1.446 ms
//   every entry read twice, by count      1.206-1.217 / 1.225-1.228 / 1.224-1.227 / 1.217-1.218
//   half of L2's bytes of them, by count  1.211-1.218 / 1.217-1.222 / 1.223-1.224 / 1.210-1.213
//   the same in their ids' order          1.288-1.290 / 1.298      / 1.299      / 1.293-1.304
// (the last so that the gather's reads run forward through v: the product lost more than the
// gather gained). By count, 72-76% of the bound (CFB 69%) against 58-63% off. The cap hardly
// matters (h200-issue19-session39.json call 1, COO / CFB, alternating twice): an eighth of L2
// 1.218-1.219 / 1.206-1.218 ms, a quarter 1.205-1.208 / 1.208-1.213, half 1.209-1.220 /
// 1.213-1.216, all of it 1.210-1.211 / 1.219-1.224. Nsight Compute on COO's product: L2's hit
// rate 48% packed against 40%, its throughput 87% of peak against 95%: L2-bound both ways,
// packed moving fewer sectors. Marking the packed part's accesses persisting in L2 (an access
// policy window over the packed part, 6.6M entries or 26 MB, on the product's stream; session 40,
// 51cd093, TENSORSCOPE_SPTV_HOT_PERSIST, h200-issue19-session40.json call 2, alternating twice)
// made COO 1.273-1.291 ms against 1.199-1.201 and CFB 1.282-1.284 against 1.202-1.218: removed,
// as session 37's window over the whole vector was (see CsrSpmv in gpu_sptv.cu).
// The gather reads v in its ids' order and writes each hot entry to its place in v' (hot_scatter_
// kernel): taken in v''s order (by count), the entries were read from v at random, a 32-byte
// sector for each 4-byte entry. One H200 (session 43, b8b7e41 and 8cfb86f, TENSORSCOPE_SPTV_
// GATHER, h200-issue19-session43.json calls 1-2, delicious-4d's mode 2, alternating twice in
// each): CFB 1.200-1.212 ms against 1.215-1.229 by count (57.8-59.2% of the bound, values counted
// in fp32, against 57.3-58.2%), COO 1.200-1.217
// against 1.215-1.225; with the cap at all of L2 rather than half, CFB 1.199-1.209 (the same 6.57M
// entries: those read twice fit either cap).
// Tried and slower, session 50 (bf1a0de, h200-issue19-session50.json call 4, alternating twice):
// the packed product by sptv_adaptive_rows.cuh's blocks of 1,024 with v''s first 49,920 entries
// (the most read: by the generator's Zipf law about two thirds of the gathers) staged in each
// block's shared memory and the rest read from global memory, rather than by cuSPARSE.
// Delicious-4d's mode 2: COO 1.737-1.743 ms and CFB 1.740 against 1.166-1.167 and 1.164-1.165
// (all four CSR formats within 2.5e-7 of cpu-ref). Nsight Compute (CFB): 1.67 ms, DRAM 39% busy,
// L1 hit rate 8%, L2 40%, 0.20 warps issued a cycle of 8 resident a scheduler (63 registers, one
// block an SM): latency-bound, its stalls split between the global gathers and shared memory;
// removed.
// Also tried and no faster, session 94 (0a9d1f2a, TENSORSCOPE_SPTV_GATHER, h100-session94.json
// call 2, one H100, delicious-4d's mode 2, medians of 10, alternating three times): the gather
// through a word for each 32 of v's entries (which are hot, beside how many come before, as
// hot_rows_rule.hpp's HotBitmap), reading no hot ids (26 MB less a product), its reads of v and
// the ranks plain or evict-first. CFB 1.413-1.417 and 1.411-1.416 ms against 1.408-1.412 for
// the ids' gather above (69.9-70.1% of the copy bound against 70.2-70.4%), COO 1.412-1.416 and
// 1.411-1.413 against 1.409-1.413; HOCFS-CSR and CSF once each within 0.6%. Removed.
#pragma once

#include <cub/device/device_radix_sort.cuh>

#include <algorithm>
#include <cstdint>

#include "cuda_util.cuh"
#include "permutation_kernels.cuh"

namespace tscope::gpu {
namespace {  // each .cu file gets its own copy (no separable compilation)

__global__ void hot_count_kernel(std::uint64_t nnz, const std::uint32_t* __restrict__ col, std::uint32_t* __restrict__ count) {
    const std::uint64_t stride = gridDim.x * static_cast<std::uint64_t>(blockDim.x);
    for (std::uint64_t e = blockIdx.x * static_cast<std::uint64_t>(blockDim.x) + threadIdx.x; e < nnz; e += stride)
        atomicAdd(count + col[e], 1u);
}

// *hot = the entries read at least twice: where the descending counts fall below 2 (left 0 by
// the caller where none is).
__global__ void hot_threshold_kernel(std::uint64_t n, const std::uint32_t* __restrict__ sorted,
                                     std::uint64_t* __restrict__ hot) {
    const std::uint64_t stride = gridDim.x * static_cast<std::uint64_t>(blockDim.x);
    for (std::uint64_t k = blockIdx.x * static_cast<std::uint64_t>(blockDim.x) + threadIdx.x; k < n; k += stride)
        if (sorted[k] >= 2 && (k + 1 == n || sorted[k + 1] < 2)) *hot = k + 1;
}

// rank[old[k]] = k: where each hot entry went.
__global__ void hot_rank_kernel(std::uint64_t n, const std::uint32_t* __restrict__ old, std::uint32_t* __restrict__ rank) {
    const std::uint64_t stride = gridDim.x * static_cast<std::uint64_t>(blockDim.x);
    for (std::uint64_t k = blockIdx.x * static_cast<std::uint64_t>(blockDim.x) + threadIdx.x; k < n; k += stride)
        rank[old[k]] = static_cast<std::uint32_t>(k);
}

__global__ void hot_relabel_kernel(std::uint64_t nnz, const std::uint32_t* __restrict__ rank, std::uint32_t* __restrict__ col) {
    const std::uint64_t stride = gridDim.x * static_cast<std::uint64_t>(blockDim.x);
    for (std::uint64_t e = blockIdx.x * static_cast<std::uint64_t>(blockDim.x) + threadIdx.x; e < nnz; e += stride)
        col[e] = rank[col[e]];
}

// hot[rank[i]] = v[id[i]], the ids ascending: v is read forward, and each hot entry lands at its
// place in v' (v is the copy behind the hot part, so the two never overlap).
__global__ void hot_scatter_kernel(std::uint64_t n, const std::uint32_t* __restrict__ id, const std::uint32_t* __restrict__ rank,
                                   const float* __restrict__ v, float* __restrict__ hot) {
    const std::uint64_t stride = gridDim.x * static_cast<std::uint64_t>(blockDim.x);
    for (std::uint64_t i = blockIdx.x * static_cast<std::uint64_t>(blockDim.x) + threadIdx.x; i < n; i += stride)
        hot[rank[i]] = v[id[i]];
}

// The columns of a CSR on the device, relabelled in place into v' (above), and the hot
// entries' original ids, for each product's gather.
class HotColumns {
public:
    // Whether a product over a vector of vlen entries packs its hot ones: where the vector is
    // larger than the device's L2 and the relabelling takes under half the free memory (the rest
    // is cuSPARSE's), unless TENSORSCOPE_SPTV_HOT says.
    static bool wanted(std::uint64_t vlen) {
        if (env_is("TENSORSCOPE_SPTV_HOT", "1")) return true;
        if (env_is("TENSORSCOPE_SPTV_HOT", "0")) return false;
        if (vlen * sizeof(float) <= l2_bytes()) return false;
        return 2 * needed(vlen) < free_device_bytes();
    }
    // The device bytes it needs at most, beside the product's: while it relabels, the counts,
    // the ids, their sorted copies and the ranks, and CUB's sort buffers (8 words an entry); the
    // hot entries' ids and places it keeps, and v''s hot part ahead of v.
    static std::uint64_t needed(std::uint64_t vlen) { return vlen * (10 * sizeof(std::uint32_t)); }

    HotColumns(std::uint64_t nnz, std::uint32_t* col, std::uint32_t vlen) : vlen_(vlen) {
        DeviceArray<std::uint32_t> rank = hot_ids(nnz, col);
        iota_kernel<<<grid_for(vlen_), 256>>>(rank.get(), vlen_, static_cast<std::uint32_t>(hot_));
        if (hot_) hot_rank_kernel<<<grid_for(hot_), 256>>>(hot_, old_.get(), rank.get());
        hot_relabel_kernel<<<grid_for(nnz), 256>>>(nnz, rank.get(), col);
        check(cudaGetLastError(), "relabelling the vector's columns");
        if (hot_) by_id();
    }

    std::uint64_t hot() const { return hot_; }              // v's entries copied ahead
    std::uint64_t columns() const { return hot_ + vlen_; }  // v''s length

    // vp: v' with v in place behind its first hot() entries; fills those.
    void gather(float* vp, cudaStream_t stream) const {
        if (!hot_) return;
        hot_scatter_kernel<<<grid_for(hot_), 256, 0, stream>>>(hot_, old_.get(), id_rank_.get(), vp + hot_, vp);
        check(cudaGetLastError(), "gathering the vector's much-read entries");
    }

private:
    // Sets hot_ and old_ (the hot entries' original ids, the most-read first); returns
    // vlen scratch entries for the ranks.
    DeviceArray<std::uint32_t> hot_ids(std::uint64_t nnz, const std::uint32_t* col) {
        DeviceArray<std::uint32_t> count(vlen_), sorted(vlen_), ids(vlen_), by_count(vlen_);
        count.zero();
        hot_count_kernel<<<grid_for(nnz), 256>>>(nnz, col, count.get());
        iota_kernel<<<grid_for(vlen_), 256>>>(ids.get(), vlen_);
        check(cudaGetLastError(), "counting the vector's reads");
        std::size_t temp_bytes = 0;
        check(cub::DeviceRadixSort::SortPairsDescending(nullptr, temp_bytes, count.get(), sorted.get(), ids.get(),
                                                        by_count.get(), vlen_),
              "sizing the columns' sort");
        DeviceArray<unsigned char> temp(temp_bytes);
        check(cub::DeviceRadixSort::SortPairsDescending(temp.get(), temp_bytes, count.get(), sorted.get(), ids.get(),
                                                        by_count.get(), vlen_),
              "sorting the columns by their reads");
        DeviceArray<std::uint64_t> twice(1);
        twice.zero();
        hot_threshold_kernel<<<grid_for(vlen_), 256>>>(vlen_, sorted.get(), twice.get());
        check(cudaGetLastError(), "finding the entries read twice");
        twice.download(&hot_);
        // Half of L2: on one H100 (h100-session94.json call 1, delicious-4d's mode 2, alternating
        // twice) an eighth, a quarter and half took CFB 1.460, 1.433-1.436 and 1.424-1.426 ms.
        hot_ =
            std::min<std::uint64_t>(hot_, env_unsigned("TENSORSCOPE_SPTV_HOT_BYTES", l2_bytes() / 2) / sizeof(float));
        hot_ = std::min<std::uint64_t>(hot_, 0xffffffffu - vlen_);  // v''s ids are 32-bit
        old_ = DeviceArray<std::uint32_t>(hot_);
        if (hot_)
            check(cudaMemcpy(old_.get(), by_count.get(), hot_ * sizeof(std::uint32_t), cudaMemcpyDeviceToDevice),
                  "keeping the hot ids");
        return ids;  // free now: reused for the ranks
    }

    // old_ sorted ascending, id_rank_ each one's place in v' (for the gather)
    void by_id() {
        DeviceArray<std::uint32_t> ranks(hot_), ids(hot_);
        id_rank_ = DeviceArray<std::uint32_t>(hot_);
        iota_kernel<<<grid_for(hot_), 256>>>(ranks.get(), hot_);
        check(cudaGetLastError(), "numbering the hot entries");
        std::size_t temp_bytes = 0;
        check(cub::DeviceRadixSort::SortPairs(nullptr, temp_bytes, old_.get(), ids.get(), ranks.get(), id_rank_.get(), hot_),
              "sizing the hot ids' sort");
        DeviceArray<unsigned char> temp(temp_bytes);
        check(cub::DeviceRadixSort::SortPairs(temp.get(), temp_bytes, old_.get(), ids.get(), ranks.get(), id_rank_.get(), hot_),
              "sorting the hot ids");
        old_ = std::move(ids);
    }

    std::uint64_t vlen_, hot_ = 0;
    DeviceArray<std::uint32_t> old_;      // the hot entries' original ids: by count, then (by_id) ascending
    DeviceArray<std::uint32_t> id_rank_;  // where each of old_'s entries sits in v'
};

}  // namespace
}  // namespace tscope::gpu
