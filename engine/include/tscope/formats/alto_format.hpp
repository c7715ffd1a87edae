// ALTO (Helal, Laukemann, Checconi, Tithi, Ranadive, Petrini, Choi, "ALTO: Adaptive Linearized
// Storage of Sparse Tensors", ICS 2021): one copy of the tensor serves every mode, like MM-CSF,
// by another road. Each nonzero's coordinates become one linearized index whose bits interleave
// the modes' bits (Sec. 3.1): each mode gets the bits its length needs, dealt round robin from
// the least significant bit, a mode dropping out once its bits are dealt (the "adaptive" part:
// no bit is spent on a short mode's missing high bits). The nonzeros are sorted along it, so
// nonzeros near each other in the order are near each other in every mode at once, and the
// order is cut into partitions of equal nonzero counts (one per thread), each with the interval
// of indices it touches in each mode (Sec. 3.2), which MTTKRP uses to resolve conflicts.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>
#if defined(__BMI2__)
#include <immintrin.h>
#endif

#include "tscope/formats/format.hpp"
#include "tscope/tensor/column.hpp"

namespace tscope {

// The bits of the linearized index that hold each mode's index, one mask per mode, as a low and
// a high 64-bit word: the index is 64 bits wide where the modes need no more together, else 128
// (Sec. 3.1: "at the width the dims need"). An InputError beyond 128 bits.
// The bits a mode of length `dim` needs: ceil(log2(dim)), 0 for a length of 1.
unsigned alto_bits_for(std::uint64_t dim);

struct AltoLayout {
    std::vector<std::uint64_t> lo, hi;  // per mode: its bits in the low and the high word
    unsigned bits = 0;                  // the modes' bits together
    bool wide() const { return bits > 64; }
};
// `format` names the refusal: BLCO re-encodes ALTO's index, and its limit is said in its name.
AltoLayout alto_layout(const std::vector<std::uint64_t>& dims, const char* format = "ALTO");
// Scatters / gathers one mode's index into / out of the linearized index (BMI2's pdep and
// pext where the build has them: one instruction each, on every nonzero of every MTTKRP).
inline std::uint64_t alto_deposit(std::uint64_t index, std::uint64_t mask) {
#if defined(__BMI2__)
    return _pdep_u64(index, mask);
#else
    std::uint64_t out = 0;
    for (std::uint64_t bit = 1; mask; bit <<= 1, mask &= mask - 1)
        if (index & bit) out |= mask & -mask;
    return out;
#endif
}
inline std::uint64_t alto_extract(std::uint64_t linear, std::uint64_t mask) {
#if defined(__BMI2__)
    return _pext_u64(linear, mask);
#else
    std::uint64_t out = 0;
    for (std::uint64_t bit = 1; mask; bit <<= 1, mask &= mask - 1)
        if (linear & mask & -mask) out |= bit;
    return out;
#endif
}

// One mode's index into / out of a 128-bit linearized index held as two words.
inline void alto_deposit_wide(std::uint64_t index, std::uint64_t mask_lo, std::uint64_t mask_hi, std::uint64_t& lo, std::uint64_t& hi) {
    const int low_bits = __builtin_popcountll(mask_lo);
    lo |= alto_deposit(index, mask_lo);
    if (low_bits < 64) hi |= alto_deposit(index >> low_bits, mask_hi);
}
inline std::uint64_t alto_extract_wide(std::uint64_t lo, std::uint64_t hi, std::uint64_t mask_lo, std::uint64_t mask_hi) {
    const int low_bits = __builtin_popcountll(mask_lo);
    const std::uint64_t high = alto_extract(hi, mask_hi);
    return alto_extract(lo, mask_lo) | (low_bits < 64 ? high << low_bits : 0);
}

// The partitions a build makes now: one per OpenMP thread.
int alto_partitions();

template <class I, class V>
class AltoFormat : public TypedFormat<I, V> {
public:
    FormatKind kind() const override { return FormatKind::ALTO; }
    int mode() const override { return -1; }
    StorageReport storage() const override;
    CooTensor to_coo() const override;
    std::vector<std::pair<std::string, std::string>> parameters() const override;

    AltoLayout layout;                  // per mode, the bits of its index in the linearized index
    Column<std::uint64_t> lidx;         // per nonzero, the linearized index (its low word), ascending
    Column<std::uint64_t> lidx_hi;      // its high word where the layout is wide, else empty
    Column<V> vals;
    // Partitions: nonzeros [part_ptr[p], part_ptr[p + 1]), equal counts; per mode and partition
    // the indices it touches lie in [lo[m][p], hi[m][p]) (hi = lo when it has no nonzeros).
    std::vector<std::uint64_t> part_ptr;
    std::vector<std::vector<std::uint64_t>> lo, hi;

    std::uint64_t partitions() const { return part_ptr.empty() ? 0 : part_ptr.size() - 1; }
    std::uint64_t index(int mode, std::uint64_t z) const {
        const auto m = static_cast<std::size_t>(mode);
        return layout.wide() ? alto_extract_wide(lidx[z], lidx_hi[z], layout.lo[m], layout.hi[m]) : alto_extract(lidx[z], layout.lo[m]);
    }
    int order() const { return static_cast<int>(layout.lo.size()); }
    // Whether some two partitions' intervals overlap in `mode` (then they may write the same rows).
    bool intervals_overlap(int mode) const;
};

// How ALTO's MTTKRP resolves conflicts on a mode (Sec. 4.2): partitions whose intervals do not
// overlap write their rows directly; overlapping ones add into private buffers over their
// intervals, summed by a pull pass, where each row gets many updates (the buffers' zeroing and
// summing pay off) and they fit the budget; atomics otherwise.
enum class AltoConflict { Direct, Buffers, Atomics };
const char* alto_conflict_name(AltoConflict c);  // direct, buffers, atomics
template <class I, class V>
AltoConflict alto_conflict_resolution(const AltoFormat<I, V>& f, int mode, std::uint64_t rank);

}  // namespace tscope
