// EXPERIMENT (session 46, TENSORSCOPE_HOCSR_CHUNKS=2..16, off unless set; not yet run on a GPU):
// HOCSR's two passes (sptv_kept_rows.cuh) cut into chunks of its rows, each chunk's product
// beside the next chunk's pass. Why: the pass streams HOCSR's offsets, one per index tuple, from
// DRAM (444 MB on the nell-2 shape's mode 3, 1.06 GB on mode 1), and the product, cuSPARSE's CSR
// SpMV, gathers the vector from L2 between its own streamed columns and values; run one after the
// other, each waits out its own latencies and tail alone. The same lesson as SpTTM's singles in
// the teams' launch (spttm_fiber_teams.cuh, session 46: 13-14% on the nell-2 shape), where a
// kernel gathering from L2 left DRAM 29% busy. Each chunk's kept offsets start at 0 (its first
// nonzero), and its product reads the columns and values from there, so that every chunk is a CSR
// of its own. In a captured graph the side stream's products become a second branch. Private to
// engine/cuda (nvcc, C++17).
#pragma once

#include <algorithm>
#include <cstdint>
#include <memory>
#include <vector>

#include "cuda_util.cuh"
#include "env_switch.hpp"
#include "sptv_kept_rows.cuh"
#include "sptv_tuples.cuh"

namespace tscope::gpu {
namespace {

// The chunks a plan asks for: TENSORSCOPE_HOCSR_CHUNKS, 2 to 16, else 0 (none).
inline int hocsr_chunks() {
    const unsigned long v = env_unsigned("TENSORSCOPE_HOCSR_CHUNKS", 0);
    return v >= 2 && v <= 16 ? static_cast<int>(v) : 0;
}

// Entry `at` of a device array, read to the host.
template <class T>
T read_entry(const T* array, std::uint64_t at, const char* what) {
    T value{};
    check(cudaMemcpy(&value, array + at, sizeof value, cudaMemcpyDeviceToHost), what);
    return value;
}

// HOCSR's kept rows and their product, chunk by chunk. Product: a CSR product made by
// make(kept_rows, nnz, offsets, nnz_begin, kept_begin) over a chunk's rows, with run(stream).
template <class Product>
class KeptChunks {
public:
    template <class Make>
    KeptChunks(int chunks, std::uint64_t rows, const std::uint32_t* ptr32, const std::uint64_t* ptr64,
               const std::uint64_t* block_base, Make make)
        : rows_(rows), ptr32_(ptr32), ptr64_(ptr64), block_base_(block_base) {
        const std::uint64_t blocks = (rows + kTupleBlockRows - 1) / kTupleBlockRows;
        const std::uint64_t n = std::min<std::uint64_t>(static_cast<std::uint64_t>(chunks), blocks);
        if (!n) return;
        // chunk c: blocks [edge[c], edge[c + 1]), kept rows [kept[c], kept[c + 1]), nonzeros [nnz[c], nnz[c + 1])
        std::vector<std::uint64_t> edge(n + 1), kept(n + 1), nnz(n + 1);
        for (std::uint64_t c = 0; c <= n; ++c) {
            edge[c] = blocks * c / n;
            kept[c] = read_entry(block_base, edge[c], "reading a HOCSR chunk's first row");
            nnz[c] = offset_at(std::min(rows, edge[c] * kTupleBlockRows));
        }
        for (std::uint64_t c = 0; c < n; ++c) {
            Chunk k;
            k.first_block = edge[c], k.blocks = edge[c + 1] - edge[c], k.kept_begin = kept[c], k.nnz_begin = nnz[c];
            const std::uint64_t rows_kept = kept[c + 1] - kept[c];
            k.offsets = DeviceArray<std::int32_t>(rows_kept + 1);
            const auto end = static_cast<std::int32_t>(nnz[c + 1] - nnz[c]);
            check(cudaMemcpy(k.offsets.get() + rows_kept, &end, sizeof end, cudaMemcpyHostToDevice),
                  "ending a HOCSR chunk's kept rows");
            keep(k, nullptr);  // the product's analysis reads them
            if (rows_kept) k.product = make(rows_kept, nnz[c + 1] - nnz[c], k.offsets.get(), nnz[c], kept[c]);
            chunks_.push_back(std::move(k));
            kept_.push_back(std::make_unique<Event>());
        }
    }

    // Chunk c's pass on `stream`, then its product on the side stream once that pass is done; the
    // side stream's end joined back into `stream`.
    void run(cudaStream_t stream) {
        for (std::size_t c = 0; c < chunks_.size(); ++c) {
            keep(chunks_[c], stream);
            kept_[c]->record(stream);
            check(cudaStreamWaitEvent(side_.get(), kept_[c]->get(), 0), "ordering a HOCSR chunk's product");
            if (chunks_[c].product) chunks_[c].product->run(side_.get());
        }
        done_.record(side_.get());
        check(cudaStreamWaitEvent(stream, done_.get(), 0), "joining HOCSR's chunks");
    }

private:
    struct Chunk {
        std::uint64_t first_block = 0, blocks = 0, kept_begin = 0, nnz_begin = 0;
        DeviceArray<std::int32_t> offsets;  // the chunk's kept rows' offsets from its first nonzero, and its end
        std::unique_ptr<Product> product;
    };

    std::uint64_t offset_at(std::uint64_t row) const {
        return ptr32_ ? read_entry(ptr32_, row, "reading a HOCSR chunk's first nonzero")
                      : read_entry(ptr64_, row, "reading a HOCSR chunk's first nonzero");
    }

    void keep(const Chunk& k, cudaStream_t stream) {
        if (!k.blocks) return;
        const auto grid = static_cast<unsigned>(k.blocks);
        if (ptr32_)
            sptv_keep_rows_kernel<std::uint32_t, true><<<grid, kTupleThreads, 0, stream>>>(
                rows_, ptr32_, block_base_, k.offsets.get(), k.first_block, k.kept_begin, k.nnz_begin);
        else
            sptv_keep_rows_kernel<std::uint64_t, true><<<grid, kTupleThreads, 0, stream>>>(
                rows_, ptr64_, block_base_, k.offsets.get(), k.first_block, k.kept_begin, k.nnz_begin);
        check(cudaGetLastError(), "keeping a HOCSR chunk's non-empty rows");
    }

    std::uint64_t rows_;
    const std::uint32_t* ptr32_;
    const std::uint64_t* ptr64_;
    const std::uint64_t* block_base_;
    std::vector<Chunk> chunks_;
    std::vector<std::unique_ptr<Event>> kept_;
    Event done_;
    Stream side_;
};

}  // namespace
}  // namespace tscope::gpu
