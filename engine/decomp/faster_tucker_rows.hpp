// The ordered schedule of FasterTucker's factor updates: for one mode's B-CSF tree, every
// factor row's nonzeros listed in the tree's order (a stable counting sort by leaf index).
// One worker per row then applies Eq. 9-10 to its row in that order; a row's updates read
// only that row and the fibers' shared intermediates, which are fixed while the mode updates,
// so the result is exactly the serial sweep's, with any number of workers, on CPU or GPU.
// Private to the engine.
#pragma once

#include <cstdint>
#include <limits>
#include <vector>

#include "tscope/error.hpp"

namespace tscope::ft_rows {

struct RowOrder {
    std::vector<std::uint64_t> row_ptr;  // rows + 1
    std::vector<std::uint32_t> fiber;    // per entry: the fiber whose shared intermediate it uses
    std::vector<std::uint64_t> pos;      // per entry: the nonzero's place in the tree's leaf arrays
};

// fiber_ptr: fibers + 1 offsets into leaf; leaf: the row (mode-n index) of each nonzero.
template <class Ptr, class Leaf>
RowOrder row_order(const Ptr& fiber_ptr, const Leaf& leaf, std::uint64_t rows) {
    const std::uint64_t fibers = fiber_ptr.size() - 1, nnz = leaf.size();
    if (fibers > std::numeric_limits<std::uint32_t>::max())
        throw InputError("FasterTucker's ordered schedule handles up to 2^32 fibers per mode");
    RowOrder o;
    o.row_ptr.assign(rows + 1, 0);
    for (std::uint64_t e = 0; e < nnz; ++e) ++o.row_ptr[static_cast<std::uint64_t>(leaf[e]) + 1];
    for (std::uint64_t i = 0; i < rows; ++i) o.row_ptr[i + 1] += o.row_ptr[i];
    std::vector<std::uint64_t> next(o.row_ptr.begin(), o.row_ptr.end() - 1);
    o.fiber.resize(nnz);
    o.pos.resize(nnz);
    for (std::uint64_t f = 0; f < fibers; ++f)
        for (std::uint64_t e = fiber_ptr[f]; e < fiber_ptr[f + 1]; ++e) {
            const std::uint64_t k = next[static_cast<std::uint64_t>(leaf[e])]++;
            o.fiber[k] = static_cast<std::uint32_t>(f);
            o.pos[k] = e;
        }
    return o;
}

}  // namespace tscope::ft_rows
