// Formats built for balanced parallel work: B-CSF (fiber splitting and slice bins), MM-CSF
// (mm-csf-mttkrp Sec. 4: one mixed-mode copy for every mode) and HiCOO (2^b blocks with
// short in-block offsets).
#pragma once

#include "tscope/formats/mmcsf_partition_options.hpp"
#include "tscope/formats/paper_formats.hpp"

namespace tscope {

// B-CSF (mm-csf Sec. 3, after Nisa et al.): a CSF whose fibers longer than the threshold are
// split into sub-fibers of at most `threshold` nonzeros (so F_B >= F), with the slices grouped
// into bins by their nonzero count (bin b: 2^b <= nnz < 2^(b+1)) so that a GPU can give
// heavy slices more threads.
template <class I, class V>
class BcsfFormat : public TypedFormat<I, V> {
public:
    FormatKind kind() const override { return FormatKind::BCSF; }
    int mode() const override { return csf.order.front(); }
    StorageReport storage() const override;
    CooTensor to_coo() const override;
    std::vector<std::pair<std::string, std::string>> parameters() const override;

    CsfFormat<I, V> csf;            // fibers already split
    std::uint64_t threshold = 128;
    std::uint64_t fibers_before_split = 0;
    Column<I> bin_slices;           // slice ids ordered by bin
    Column<I> bin_ptr;              // start of each bin in bin_slices (+ sentinel)
};

// Which partition each nonzero of an order-N tensor goes to under MM-CSF's rule: the mode whose
// fiber through it is longest (Alg. 5). `dynamic` lowers the other fibers' lengths as each
// nonzero is placed, in input order (Sec. 4.1, Fig. 4); static uses the precomputed lengths. Ties
// go to the orientation with the higher average fiber length, then to the lower mode.
// mmcsf_partition_serial is the paper's loop, one nonzero at a time: the reference.
// mmcsf_partition gives the same labels on every thread (blocks in input order, each solved by
// parallel sweeps; mmcsf_partition.cpp says why that is exact). Options and stats:
// mmcsf_partition_options.hpp.
std::vector<std::uint8_t> mmcsf_partition(const CooTensor& t, bool dynamic, const MmcsfPartitionOptions& options = {},
                                          MmcsfPartitionStats* stats = nullptr);
std::vector<std::uint8_t> mmcsf_partition_serial(const CooTensor& t, bool dynamic);
// The tree order of partition p: the leaf is mode p, above it the other modes by increasing
// length (SPLATT's choice), root first. FormatOptions::mmcsf_orders may give others.
std::vector<int> mmcsf_partition_order(const std::vector<std::uint64_t>& dims, int p);
std::vector<int> mmcsf_partition_order(const CooTensor& t, int p);
// Every partition's, indexed by leaf mode.
std::vector<std::vector<int>> mmcsf_partition_orders(const std::vector<std::uint64_t>& dims);
// Fibers (distinct prefixes above the leaf) summed over the partitions: what Fig. 4 counts.
std::uint64_t mmcsf_fiber_count(const CooTensor& t, const std::vector<std::uint8_t>& partition);

// MM-CSF (mm-csf Sec. 4, Fig. 3(d)): the nonzeros partitioned by Alg. 5 (dynamic strategy); each
// partition p is a CSF whose leaf mode is p, the others ordered by increasing length (or as
// FormatOptions::mmcsf_orders gives: the GPU's builds move a tiny mode down). One copy
// serves MTTKRP on every mode (slice, fiber or nonzero algorithm per partition, Alg. 6-8).
template <class I, class V>
class MmcsfFormat : public TypedFormat<I, V> {
public:
    FormatKind kind() const override { return FormatKind::MMCSF; }
    int mode() const override { return -1; }
    StorageReport storage() const override;
    CooTensor to_coo() const override;
    std::vector<std::pair<std::string, std::string>> parameters() const override;

    std::vector<CsfFormat<I, V>> partitions;  // empty partitions are left out
    std::vector<int> leaf_mode;               // the mode each partition keeps at its leaves
};

// HiCOO: nonzeros grouped into blocks of 2^b indices per mode; each block stores its block
// coordinates once and each nonzero only its offsets inside the block (1 byte for b <= 8,
// 2 bytes for b <= 16). Blocks are in lexicographic order of block coordinates.
template <class I, class V>
class HicooFormat : public TypedFormat<I, V> {
public:
    FormatKind kind() const override { return FormatKind::HiCOO; }
    int mode() const override { return -1; }
    StorageReport storage() const override;
    CooTensor to_coo() const override;
    std::vector<std::pair<std::string, std::string>> parameters() const override;

    int bits = 7;
    Column<I> bptr;                          // start of each block's nonzeros (+ sentinel)
    std::vector<Column<I>> binds;            // per mode: block coordinate of each block
    std::vector<Column<std::uint8_t>> einds8;  // per mode: offset in the block (b <= 8)
    std::vector<Column<std::uint16_t>> einds16;  // per mode: offset in the block (8 < b <= 16)
    Column<V> vals;
    std::uint64_t blocks() const { return bptr.size() - 1; }
    std::uint64_t offset(int mode, std::uint64_t n) const {
        return bits <= 8 ? einds8[static_cast<std::size_t>(mode)][n] : einds16[static_cast<std::size_t>(mode)][n];
    }
};

}  // namespace tscope
