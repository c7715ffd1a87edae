// BLCO (Nguyen, Helal, Laukemann, Checconi, Tithi, Ranadive, Petrini, Choi, Karypis, "Efficient,
// Out-of-Memory Sparse MTTKRP on Massively Parallel Architectures", ICS 2022): ALTO's order,
// re-encoded for a GPU. Each nonzero keeps one 64-bit key in which every mode's low bits lie
// side by side (a shift and a mask recover them: GPUs have no bit-extract instruction), and
// where the modes need more than 64 bits the rest, each mode's high bits, is stored once per
// block of nonzeros that share it (Sec. 3.2). Blocks are what a streamed run copies to the GPU.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "tscope/formats/format.hpp"
#include "tscope/tensor/column.hpp"

namespace tscope {

template <class I, class V>
class BlcoFormat : public TypedFormat<I, V> {
public:
    FormatKind kind() const override { return FormatKind::BLCO; }
    int mode() const override { return -1; }
    StorageReport storage() const override;
    CooTensor to_coo() const override;
    std::vector<std::pair<std::string, std::string>> parameters() const override;

    std::vector<unsigned> shift, width;      // per mode: its low bits' field in the key
    Column<std::uint64_t> keys;              // per nonzero, in ALTO order within each block
    Column<V> vals;
    std::vector<std::uint64_t> block_ptr;    // block b holds nonzeros [block_ptr[b], block_ptr[b + 1])
    std::vector<std::vector<std::uint64_t>> block_high;  // [mode][block]: index >> width[mode]

    std::uint64_t blocks() const { return block_ptr.empty() ? 0 : block_ptr.size() - 1; }
    int order() const { return static_cast<int>(width.size()); }
    std::uint64_t index(int mode, std::uint64_t block, std::uint64_t z) const {
        const auto m = static_cast<std::size_t>(mode);
        const std::uint64_t low = width[m] == 64 ? keys[z] : (keys[z] >> shift[m]) & ((std::uint64_t{1} << width[m]) - 1);
        return width[m] == 64 ? low : (block_high[m][block] << width[m]) | low;
    }
};

// The fields of the key: each mode's bits while they fit 64 together; past that, the longest
// modes give up their top bits to the blocks, one at a time (Sec. 3.2). widths[m], shifts[m].
std::pair<std::vector<unsigned>, std::vector<unsigned>> blco_fields(const std::vector<std::uint64_t>& dims);

}  // namespace tscope
