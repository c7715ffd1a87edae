// How many HiCOO blocks a relabelling leaves: what Lexi-Order's two starts are judged by.
#include <algorithm>

#include "reorder/reorder_methods.hpp"
#include "tensor/radix_sort.hpp"

namespace tscope::detail {

std::uint64_t blocks_under(const CooTensor& t, const ModeOrders& old_id, unsigned bits) {
    const auto order = static_cast<std::size_t>(t.order());
    std::vector<std::vector<std::uint64_t>> block_of(order);  // old index -> its new block
    std::vector<unsigned> shift(order, 0);
    unsigned used = 0;
    for (std::size_t m = 0; m < order; ++m) {
        block_of[m].resize(old_id[m].size());
        for (std::uint64_t k = 0; k < old_id[m].size(); ++k) block_of[m][old_id[m][k]] = k >> bits;
        shift[m] = used;
        used += bit_width_of(t.dim(static_cast<int>(m)) > 0 ? (t.dim(static_cast<int>(m)) - 1) >> bits : 0);
    }
    std::uint64_t blocks = 0;
    t.visit([&](auto itag, auto) {
        using I = typename decltype(itag)::type;
        std::vector<const I*> idx(order);
        for (std::size_t m = 0; m < order; ++m) idx[m] = t.indices<I>(static_cast<int>(m)).data();
        if (used <= 64) {  // a block's coordinates packed in one key: radix sort, count the runs
            std::vector<std::uint64_t> keys(t.nnz());
#pragma omp parallel for schedule(static)
            for (std::uint64_t z = 0; z < t.nnz(); ++z) {
                std::uint64_t k = 0;
                for (std::size_t m = 0; m < order; ++m) k |= block_of[m][idx[m][z]] << shift[m];
                keys[z] = k;
            }
            radix_sort(keys, used);
            for (std::uint64_t z = 0; z < keys.size(); ++z) blocks += z == 0 || keys[z] != keys[z - 1];
            return;
        }
        // wider than 64 bits (huge modes): each nonzero's block as a row of `order` words
        std::vector<std::uint64_t> rows(t.nnz() * order), by(t.nnz());
        for (std::uint64_t z = 0; z < t.nnz(); ++z)
            for (std::size_t m = 0; m < order; ++m) rows[z * order + m] = block_of[m][idx[m][z]];
        auto row = [&](std::uint64_t z) { return rows.begin() + static_cast<std::ptrdiff_t>(z * order); };
        auto less = [&](std::uint64_t a, std::uint64_t b) {
            return std::lexicographical_compare(row(a), row(a) + static_cast<std::ptrdiff_t>(order), row(b),
                                                row(b) + static_cast<std::ptrdiff_t>(order));
        };
        for (std::uint64_t z = 0; z < by.size(); ++z) by[z] = z;
        std::sort(by.begin(), by.end(), less);
        for (std::uint64_t k = 0; k < by.size(); ++k) blocks += k == 0 || less(by[k - 1], by[k]);
    });
    return blocks;
}

}  // namespace tscope::detail
