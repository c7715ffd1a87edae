// How SpTV's adaptive rows (sptv_adaptive_rows.cuh) cut a CSR's rows into blocks, a warp
// each, once when the plan is made. Plain C++17, no CUDA, so that the cut is tested on machines
// without a GPU (tests/engine/cuda/test_sptv_adaptive_blocks.cpp). Private to the engine.
#pragma once

#include <cstdint>
#include <vector>

namespace tscope::gpu {

constexpr std::uint32_t kStreamNnz = 256;      // a warp's block of short rows: nonzeros, and rows, at most
constexpr std::uint32_t kPieceNnz = 1024;      // a long row's piece
constexpr std::uint32_t kSplitRow = 1u << 31;  // a block's row marked: a piece, added by atomics

// The blocks: block b covers nonzeros [nz[b], nz[b+1]) and, unless it is a piece, rows
// [row[b], row[b+1]) (kSplitRow masked off); split: the rows cut into pieces, to clear.
struct AdaptiveBlocks {
    std::vector<std::uint32_t> row, nz, split;
};

// Cut from a CSR's offsets ptr[0 .. rows] (rows and nonzeros under 2^31; any integer type).
template <class P>
AdaptiveBlocks adaptive_blocks(const P* ptr, std::uint64_t row_count) {
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
        } else {
            const std::uint32_t first = r;
            while (r < rows && r - first < kStreamNnz &&
                   static_cast<std::uint32_t>(ptr[r + 1] - ptr[first]) <= kStreamNnz)
                ++r;
            push(first, ptr[first]);
        }
    }
    push(rows, ptr[rows]);
    return b;
}

}  // namespace tscope::gpu

namespace tscope::gpu {

constexpr std::uint32_t kTupleSpan = 2048;  // HOCSR tuples a block of short rows walks, at most

// HOCSR's index tuples (most of them empty rows) cut into blocks for sptv_adaptive_tuples.cuh:
// block b covers nonzeros [nz[b], nz[b+1]), and, unless it is a piece of one row, the tuples
// [tuple[b], tuple[b+1]) (kSplitRow masked off), whose non-empty rows' sums go to outputs
// out[b], out[b] + 1, ...; a short rows' block holds at most kStreamNnz nonzeros, kStreamNnz
// non-empty rows and kTupleSpan tuples; a longer row is a block alone, or pieces of kPieceNnz
// (split: their outputs, to clear).
struct TupleBlocks {
    std::vector<std::uint32_t> tuple, nz, out, split;
};

// Cut from HOCSR's 32-bit offsets ptr[0 .. tuples] (tuples < 2^31).
inline TupleBlocks adaptive_tuple_blocks(const std::uint32_t* ptr, std::uint32_t tuples) {
    TupleBlocks b;
    std::uint32_t out = 0;
    auto push = [&b, &out](std::uint32_t tuple, std::uint32_t nz) {
        b.tuple.push_back(tuple);
        b.nz.push_back(nz);
        b.out.push_back(out);
    };
    for (std::uint32_t t = 0; t < tuples;) {
        const std::uint32_t n = ptr[t + 1] - ptr[t];
        if (n > kPieceNnz) {
            b.split.push_back(out);
            for (std::uint32_t z = 0; z < n; z += kPieceNnz) push(t | kSplitRow, ptr[t] + z);
            ++t, ++out;
        } else if (n > kStreamNnz) {
            push(t, ptr[t]);
            ++t, ++out;
        } else {
            const std::uint32_t first = t;
            std::uint32_t rows = 0;
            push(first, ptr[first]);
            for (; t < tuples && t - first < kTupleSpan; ++t) {
                const std::uint32_t len = ptr[t + 1] - ptr[t];
                if (len > kStreamNnz || ptr[t + 1] - ptr[first] > kStreamNnz || (len && rows == kStreamNnz)) break;
                rows += len != 0;
            }
            out += rows;
        }
    }
    push(tuples, ptr[tuples]);
    return b;
}

}  // namespace tscope::gpu
