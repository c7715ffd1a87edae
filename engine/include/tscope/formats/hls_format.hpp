// HLS, the Hybrid Linear Storage of hls-tcu-sptmcm Sec. V (Fig. 3-4): the tensor is cut into
// 16x16x16 tiles; tiles holding at least `threshold` nonzeros are dense (HLS-D: the tile's
// binary linear index, a 4096-bit bitmap of its nonzeros, and their values in bitmap order),
// the other nonzeros are sparse (HLS-S: one binary linear index per nonzero, the mode indices'
// bit fields concatenated, plus its value). Order 3 only, as in the paper.
//
// Values keep the tensor's type so that to_coo() is exact; the paper's tensor-core kernels
// convert them to fp16 on the way in (its Eq. 12 and 15 count 16-bit values).
#pragma once

#include <array>

#include "tscope/formats/format.hpp"

namespace tscope {

inline constexpr int kHlsTile = 16;                                  // tile edge (S_I = S_J = S_K)
inline constexpr int kHlsTileCells = kHlsTile * kHlsTile * kHlsTile;  // 4096
inline constexpr int kHlsBitmapWords = kHlsTileCells / 64;           // 64 words of 64 bits

// Why HLS cannot hold a tensor of these dims (order 3 only; each nonzero's index bit fields and
// each tile's, with the 12 bits of a cell below them, must fit 64 bits), or "" when it can.
std::string hls_refusal(const std::vector<std::uint64_t>& dims);

template <class I, class V>
class HlsFormat : public TypedFormat<I, V> {
public:
    FormatKind kind() const override { return FormatKind::HLS; }
    int mode() const override { return -1; }
    StorageReport storage() const override;
    CooTensor to_coo() const override;
    std::vector<std::pair<std::string, std::string>> parameters() const override;

    std::uint64_t threshold = 78;
    // HLS-S
    std::array<int, 3> nnz_linear_bits{};  // bits of each mode's index (ceil(log2 dim))
    Column<std::uint64_t> nnz_inds;       // i | j | k bit fields, i most significant
    Column<V> nnz_vals;
    // HLS-D
    std::array<int, 3> b_linear_bits{};    // bits of each mode's tile index
    Column<std::uint64_t> b_inds;         // ti | tj | tk bit fields
    Column<std::uint64_t> b_bmp;          // kHlsBitmapWords per tile; cell (i,j,k) of a tile is bit i*256+j*16+k
    Column<I> b_vals_ptr;                 // start of each tile's values in b_vals (+ sentinel)
    Column<V> b_vals;                     // the tiles' nonzeros in bitmap order

    std::uint64_t tiles() const { return b_inds.size(); }
    // Dense tile q as 16^3 values (cell (i,j,k) at i*256 + j*16 + k, zeros where the bitmap has
    // none), its first index per mode, and its extent per mode (short at the tensor's edge).
    void expand_tile(std::uint64_t q, double* cells, std::array<std::uint64_t, 3>& lo, std::array<int, 3>& span) const;
    std::uint64_t index_bytes() const;  // 4 when every linear index fits 32 bits, else 8
    // The paper's space M_H of Eq. 16 in bits (16-bit values), for comparison with its tables.
    std::uint64_t paper_bits() const;
};

// Packs/unpacks a coordinate into the bit fields of HLS's binary linear index.
std::uint64_t hls_pack(const std::array<std::uint64_t, 3>& coord, const std::array<int, 3>& bits);
std::array<std::uint64_t, 3> hls_unpack(std::uint64_t packed, const std::array<int, 3>& bits);

}  // namespace tscope
