// HOCSR's SpTV in two passes (session 32; the default since session 33 where rows are long
// enough, gpu_sptv.cu's hocsr_kept): every product first reads HOCSR's offsets, one per index
// tuple, and keeps the non-empty rows' first offsets (CUB's select, a streaming pass), then
// multiplies the CSR of those rows, the nonzeros as stored, by the vector as the CSR formats do
// (cuSPARSE's SpMV, or the kernel with the vector in shared memory where every row is short). The
// offsets are read by every product, as the format stores them, and nothing of them is kept from
// one product to the next but the count of non-empty rows (the outputs' size).
//
// Why: sptv_tuples.cuh's one-pass kernel reached 42% of the copy bound on the nell-2 shape's
// mode 1 and 25% on mode 3 (issue 19 asks 70%): a block of 1,024 rows reads its offsets, waits on
// a block-wide scan, then on each row's nonzeros and the vector (h200-issue19-session22/23), a
// chain of latencies with little in flight. Of the passes here, the first reads the offsets at
// streaming speed and the second runs where the CSR formats reach 76-92% (HOCFS-CSR on the
// nell-2 shape 0.32-0.33 ms a mode, session 32).
// Private to engine/cuda (nvcc, C++17).
#pragma once

#include <cstdint>

#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>
#include <cub/device/device_select.cuh>

#include "cuda_util.cuh"
#include "sptv_tuples.cuh"

namespace tscope::gpu {
namespace {

// Row r's first offset, narrowed (the nonzeros number under 2^31 where this runs).
template <class P>
struct RowBegin {
    const P* ptr;
    __host__ __device__ std::int32_t operator()(std::uint64_t r) const { return static_cast<std::int32_t>(ptr[r]); }
};

// Whether row r holds nonzeros.
template <class P>
struct RowKept {
    const P* ptr;
    __host__ __device__ bool operator()(std::uint64_t r) const { return ptr[r + 1] > ptr[r]; }
};

// The non-empty rows' first offsets, kept[0 .. kept_rows), and nnz after them: the CSR of those
// rows, whatever HOCSR's offsets' type; run() refills them from HOCSR's, on the default stream.
class RowKeeper {
public:
    virtual ~RowKeeper() = default;
    virtual void run() = 0;
    std::int32_t* offsets() { return kept_.get(); }  // kept_rows + 1 of them

protected:
    RowKeeper(std::uint64_t kept_rows, std::uint64_t nnz) : kept_(kept_rows + 1) {
        const auto end = static_cast<std::int32_t>(nnz);
        check(cudaMemcpy(kept_.get() + kept_rows, &end, sizeof end, cudaMemcpyHostToDevice),
              "ending HOCSR's kept rows");
    }
    DeviceArray<std::int32_t> kept_;
};

// The kept rows by CUB's select. P: HOCSR's offsets' type (32 or 64 bits).
template <class P>
class KeptRows : public RowKeeper {
public:
    KeptRows(std::uint64_t rows, std::uint64_t kept_rows, std::uint64_t nnz, const P* ptr)
        : RowKeeper(kept_rows, nnz), rows_(rows), ptr_(ptr), count_(1) {
        check(cub::DeviceSelect::Flagged(nullptr, temp_bytes_, begins(), flags(), kept_.get(), count_.get(), rows_),
              "sizing the selection");
        temp_ = DeviceArray<unsigned char>(temp_bytes_);
        run();
        std::uint64_t found = 0;
        count_.download(&found);
        if (found != kept_rows) throw Error("HOCSR's non-empty rows counted twice disagree");
    }

    void run() override {
        check(cub::DeviceSelect::Flagged(temp_.get(), temp_bytes_, begins(), flags(), kept_.get(), count_.get(), rows_),
              "keeping HOCSR's non-empty rows");
    }

private:
    auto begins() const {
        return thrust::make_transform_iterator(thrust::counting_iterator<std::uint64_t>(0), RowBegin<P>{ptr_});
    }
    auto flags() const {
        return thrust::make_transform_iterator(thrust::counting_iterator<std::uint64_t>(0), RowKept<P>{ptr_});
    }

    std::uint64_t rows_;
    const P* ptr_;
    DeviceArray<std::uint64_t> count_;
    DeviceArray<unsigned char> temp_;
    std::size_t temp_bytes_ = 0;
};

// kept[block_base[b] + i] = the first offset of block b's i-th non-empty row: the selection above
// made in one pass of sptv_tuples.cuh's blocks, whose outputs' bases the plan counted once.
template <class P>
__global__ void __launch_bounds__(kTupleThreads)
    sptv_keep_rows_kernel(std::uint64_t rows, const P* __restrict__ ptr, const std::uint64_t* __restrict__ block_base,
                          std::int32_t* __restrict__ kept) {
    using Scan = cub::BlockScan<std::uint32_t, kTupleThreads>;
    __shared__ typename Scan::TempStorage temp;
    const TupleOffsets<P> off(rows, ptr);
    std::uint32_t before = 0;
    Scan(temp).ExclusiveSum(off.kept(), before);
    std::int32_t* out = kept + block_base[blockIdx.x] + before;
#pragma unroll
    for (int k = 0; k < kTupleRows; ++k)
        if (off.at[k + 1] > off.at[k]) *out++ = static_cast<std::int32_t>(off.at[k]);
}

// An experiment (session 33, not yet run on a GPU; TENSORSCOPE_HOCSR_SELECT=blocks): the kept
// rows made by sptv_keep_rows_kernel, from the outputs' block bases the plan already holds (the
// offsets do not change between products), rather than by CUB's select, which finds each
// block's base anew by a look-back across blocks and reads every offset through two iterators.
template <class P>
class BlockKeptRows : public RowKeeper {
public:
    BlockKeptRows(std::uint64_t rows, std::uint64_t kept_rows, std::uint64_t nnz, const P* ptr,
                  const std::uint64_t* block_base)
        : RowKeeper(kept_rows, nnz), rows_(rows), ptr_(ptr), block_base_(block_base) {
        run();  // the product's choice reads them (SharedVectorRows::grid_for_csr)
    }

    void run() override {
        const auto blocks = static_cast<unsigned>((rows_ + kTupleBlockRows - 1) / kTupleBlockRows);
        if (blocks) sptv_keep_rows_kernel<<<blocks, kTupleThreads>>>(rows_, ptr_, block_base_, kept_.get());
        check(cudaGetLastError(), "keeping HOCSR's non-empty rows");
    }

private:
    std::uint64_t rows_;
    const P* ptr_;
    const std::uint64_t* block_base_;
};

}  // namespace
}  // namespace tscope::gpu
