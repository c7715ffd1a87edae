// The formats of hocfs-sptv-pipeline Sec. 5 (HOCOO, HOCSR, CFB, HOCFS with CSR or ELL slices),
// SPLATT's CSF (mm-csf-mttkrp Sec. 3, Fig. 2) and sCOO (spttm-sspttm-tucker-gpu Sec. 3.2),
// generalised to any order. Indices are 0-based in memory; the papers print them 1-based.
#pragma once

#include "tscope/formats/format.hpp"

namespace tscope {

// HOCOO (Sec. 5.1): the coordinate lists, sorted with the chosen mode first.
template <class I, class V>
class CooFormat : public TypedFormat<I, V> {
public:
    FormatKind kind() const override { return FormatKind::COO; }
    int mode() const override { return order.front(); }
    StorageReport storage() const override;
    CooTensor to_coo() const override;

    std::vector<int> order;        // sort order: the chosen mode, then the others ascending
    std::vector<Column<I>> idx;    // idx[m]: indices of mode m (original numbering)
    Column<V> vals;
};

// HOCSR (Sec. 5.2): the tensor unfolded into a matrix whose rows are all index tuples of the
// first N-1 modes of `order` (I*J rows for order 3) and whose columns are the last mode.
// The dense row array is the point of HOCSR (and its weakness): the builder refuses more rows
// than this (2 GB of 32-bit offsets). 2^28 until session 36, which shut out the nell-2 shape's
// mode 2 (12,092 x 28,818 = 348M rows).
inline constexpr std::uint64_t kHocsrMaxRows = std::uint64_t{1} << 29;

template <class I, class V>
class HocsrFormat : public TypedFormat<I, V> {
public:
    FormatKind kind() const override { return FormatKind::HOCSR; }
    int mode() const override { return order.front(); }
    StorageReport storage() const override;
    CooTensor to_coo() const override;

    std::vector<int> order;   // the chosen mode, then the others ascending; the last is the column
    Column<I> row_ptr;        // Tj: rows + 1 offsets into col/vals
    Column<I> col;            // Tk
    Column<V> vals;           // Tv
    std::uint64_t rows() const { return row_ptr.size() - 1; }
};

// CFB (Sec. 5.3): the mode-n fibers as buckets, each named by the linear index of its other
// modes (j*K + k for order 3) with its nonzero count.
template <class I, class V>
class CfbFormat : public TypedFormat<I, V> {
public:
    FormatKind kind() const override { return FormatKind::CFB; }
    int mode() const override { return fiber_mode; }
    StorageReport storage() const override;
    CooTensor to_coo() const override;

    int fiber_mode = 0;
    std::vector<int> others;        // the modes linearised into the fiber index, ascending
    Column<std::uint64_t> fiber_id; // Tb
    Column<I> fiber_nnz;            // Tn
    Column<I> idx;                  // fibers[].idx: the mode-n index of each nonzero
    Column<V> vals;                 // fibers[].value
};

// HOCFS (Sec. 5.4, Fig. 5, Alg. 1-2): the non-empty slices of the chosen mode; in each, only
// the non-empty fibers, stored as CSR (Ap: offsets per fiber) or ELL (padded to the slice's
// longest fiber, column-major; Ap: one start per slice). Orders above 3 add levels between
// the slices and the fibers, each with its indices and child counts (Alg. 2's recursion).
template <class I, class V>
class HocfsFormat : public TypedFormat<I, V> {
public:
    FormatKind kind() const override { return ell ? FormatKind::HOCFS_ELL : FormatKind::HOCFS_CSR; }
    int mode() const override { return order.front(); }
    StorageReport storage() const override;
    CooTensor to_coo() const override;
    std::vector<std::pair<std::string, std::string>> parameters() const override;

    bool ell = false;
    std::vector<int> order;                 // the chosen mode, then the others ascending
    std::vector<Column<I>> level_idx;       // level 0: No; middle levels; last: fibers
    std::vector<Column<I>> level_num;       // children per node (num), for all levels but the last
    std::vector<Column<I>> level_ptr;       // first child of each node (+ sentinel): derived
    Column<I> ap;                           // CSR: NNZF + 1 offsets; ELL: one start per block + 1
    Column<I> aj;                           // indices of the last mode (ELL: padded with kEllPad)
    Column<V> av;
    static constexpr I kEllPad = static_cast<I>(~I{0});
    std::uint64_t fibers() const { return level_idx.back().size(); }
    std::uint64_t slices() const { return level_idx.front().size(); }
    // ELL blocks are the fibers' parent nodes (the slices for order 3): block b holds fibers
    // [block_first(b), block_first(b + 1)).
    std::uint64_t block_first(std::uint64_t b) const {
        const std::size_t levels = level_idx.size();
        return levels >= 2 ? static_cast<std::uint64_t>(level_ptr[levels - 2][b]) : (b == 0 ? 0 : fibers());
    }
};

// CSF (mm-csf Sec. 3, SPLATT): a tree per mode order; level l holds the distinct prefixes of
// length l+1 (fids) and where each one's children start (fptr).
template <class I, class V>
class CsfFormat : public TypedFormat<I, V> {
public:
    FormatKind kind() const override { return FormatKind::CSF; }
    int mode() const override { return order.front(); }
    StorageReport storage() const override;
    CooTensor to_coo() const override;
    std::vector<std::pair<std::string, std::string>> parameters() const override;

    std::vector<int> order;            // root first
    std::vector<Column<I>> fptr;       // levels 0..N-2, each nodes + 1
    std::vector<Column<I>> fids;       // levels 0..N-1 (the last is per nonzero)
    Column<V> vals;
    std::uint64_t nodes(int level) const { return fids[static_cast<std::size_t>(level)].size(); }
};

// sCOO (spttm Sec. 3.2, Fig. 2): semi-sparse. The dense modes are stored whole: each distinct
// index tuple of the sparse modes keeps one dense chunk of prod(dims[dense]) values (a fiber
// when one mode is dense). Chunks are sorted by the sparse modes in the order listed; inside a
// chunk the dense modes are row-major in the order listed (the first most significant).
// Built from a CooTensor, the chosen mode is the dense one; SpTTM and SspTTM produce sCOO
// whose new dense mode has the rank as its length. Explicit zeros of the input can't be told
// from the padding, so to_coo() drops zero values (entries(true) keeps them).
template <class I, class V>
class ScooFormat : public TypedFormat<I, V> {
public:
    FormatKind kind() const override { return FormatKind::sCOO; }
    int mode() const override { return dense_modes.empty() ? -1 : dense_modes.front(); }
    StorageReport storage() const override;
    CooTensor to_coo() const override { return entries(false); }
    CooTensor entries(bool keep_zeros) const;

    std::vector<int> dense_modes;      // within a chunk, most significant first
    std::vector<int> sparse_modes;     // the chunks' sort order
    std::vector<Column<I>> idx;        // per sparse mode: one index per chunk
    Column<V> vals;                    // chunks x chunk_size(), chunk-major
    std::uint64_t chunks() const { return idx.empty() ? (vals.empty() ? 0 : 1) : idx.front().size(); }
    std::uint64_t chunk_size() const;
};

}  // namespace tscope
