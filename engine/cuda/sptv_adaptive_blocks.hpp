// How SpTV's adaptive rows (sptv_adaptive_rows.cuh) cut a CSR's rows into blocks, a warp
// each, once when the plan is made. Plain C++17, no CUDA, so that the cut is tested on machines
// without a GPU (tests/engine/cuda/test_sptv_adaptive_blocks.cpp). Private to the engine.
#pragma once

#include <cstdint>
#include <vector>

namespace tscope::gpu {

constexpr std::uint32_t kStreamNnz = 256;  // a warp's block of short rows: nonzeros from its window, and rows, at most
constexpr std::uint32_t kPieceNnz = 1024;      // a long row's piece
constexpr std::uint32_t kSplitRow = 1u << 31;  // a block's row marked: a piece, added by atomics
constexpr std::uint32_t kLaneRowNnz = 32;      // a row a lane sums alone, at most, where the warp sums longer ones
constexpr std::uint32_t kLow8Span = 255;       // a block of short rows' nonzeros where offsets are kept in 8 bits

// The blocks: block b covers nonzeros [nz[b], nz[b+1]) and, unless it is a piece, rows
// [row[b], row[b+1]) (kSplitRow masked off); split: the rows cut into pieces, to clear;
// lane_long: the nonzeros of rows over kLaneRowNnz in blocks of short rows, what a lane would walk
// alone where each row is a lane's.
struct AdaptiveBlocks {
    std::vector<std::uint32_t> row, nz, split;
    std::uint64_t lane_long = 0;
};

// Where the kernel's 16-byte loads of a block starting at nonzero z begin: a block of short rows
// is one window of kStreamNnz nonzeros from there (sptv_adaptive_rows.cuh's adaptive_load).
template <class P>
P adaptive_window(P z) {
    return z & ~P{3};
}

// Cut from a CSR's offsets ptr[0 .. rows] (rows and nonzeros under 2^31; any integer type).
// With windows (the kernels of blocks of 1,024, adaptive_walk_wide), a block of short rows lies
// within the window of `span` nonzeros from its first nonzero's adaptive_window; else within
// `span` nonzeros from its first. span: kStreamNnz, or kLow8Span where the kernel restores the
// rows' offsets from their low 8 bits (HOCSR's kept rows in blocks of 1,024).
template <class P>
AdaptiveBlocks adaptive_blocks(const P* ptr, std::uint64_t row_count, bool windows = false,
                               std::uint32_t span = kStreamNnz) {
    auto start = [windows](P z) { return windows ? adaptive_window(z) : z; };
    AdaptiveBlocks b;
    const auto rows = static_cast<std::uint32_t>(row_count);
    auto push = [&b](std::uint32_t row, P nz) {
        b.row.push_back(row);
        b.nz.push_back(static_cast<std::uint32_t>(nz));
    };
    for (std::uint32_t r = 0; r < rows;) {
        const auto n = static_cast<std::uint32_t>(ptr[r + 1] - ptr[r]);
        if (n > kPieceNnz) {
            b.split.push_back(r);
            for (std::uint32_t z = 0; z < n; z += kPieceNnz) push(r | kSplitRow, ptr[r] + static_cast<P>(z));
            ++r;
        } else if (n > kStreamNnz) {
            push(r, ptr[r]);
            ++r;
        } else if (static_cast<std::uint32_t>(ptr[r + 1] - start(ptr[r])) > span) {
            push(r, ptr[r]);  // it runs past the span: summed as a longer row
            ++r;
        } else {
            const std::uint32_t first = r;
            const P from = start(ptr[first]);
            for (; r < rows && r - first < kStreamNnz && static_cast<std::uint32_t>(ptr[r + 1] - from) <= span; ++r) {
                const auto len = static_cast<std::uint32_t>(ptr[r + 1] - ptr[r]);
                if (len > kLaneRowNnz) b.lane_long += len;
            }
            push(first, ptr[first]);
        }
    }
    push(rows, ptr[rows]);
    return b;
}

}  // namespace tscope::gpu
