// The advisor's statistics: the counts the formats' storage formulas and the kernels' traffic
// depend on, taken from sorted index tuples without building any format.
#include <algorithm>
#include <bit>
#include <chrono>

#include "advisor/profile_counts.hpp"
#include "formats/format_builders.hpp"  // default_mode_order: SPLATT's CSF order, as the builder uses it
#include "tscope/advisor/advisor.hpp"
#include "tscope/ceil_div.hpp"
#include "tscope/formats/balanced_formats.hpp"
#include "tscope/formats/hls_format.hpp"
#include "tscope/kernels/sptv.hpp"
#include "tscope/tensor/coo_ops.hpp"
#include "tscope/tensor/density_map.hpp"

namespace tscope {

namespace {

// The level at which sorted entry z first differs from entry z-1 (0 for the first entry);
// levels() when it repeats the previous tuple (not in a tensor without duplicates).
template <class TI>
struct PrefixScan {
    std::vector<const TI*> cols;  // in tree order
    int levels() const { return static_cast<int>(cols.size()); }
    int first_difference(std::uint64_t prev, std::uint64_t cur) const {
        for (int l = 0; l < levels(); ++l)
            if (cols[static_cast<std::size_t>(l)][cur] != cols[static_cast<std::size_t>(l)][prev]) return l;
        return levels();
    }
};

template <class TI>
TreeCounts count_tree(const CooTensor& t, const std::vector<int>& order, std::uint64_t threshold,
                      const std::vector<std::uint64_t>& perm) {
    TreeCounts c;
    c.order = order;
    const int n = static_cast<int>(order.size());
    c.nodes.assign(static_cast<std::size_t>(n), 0);
    c.nnz = perm.size();
    if (perm.empty()) return c;
    PrefixScan<TI> scan;
    for (int m : order) scan.cols.push_back(t.indices<TI>(m).data());
    const int fiber_level = n - 2;  // the nodes whose children are nonzeros (-1 for order 1)
    const int block_level = n - 3;  // HOCFS-ELL's blocks: the fibers' parents (-1: one block)
    std::uint64_t fiber_len = 0, slice_nnz = 0, block_fibers = 0, block_longest = 0;
    auto close_fiber = [&] {
        if (fiber_len == 0) return;
        c.split_fibers += ceil_div(fiber_len, threshold);
        ++block_fibers;
        block_longest = std::max(block_longest, fiber_len);
        fiber_len = 0;
    };
    auto close_block = [&] {
        c.ell_cells += block_fibers * block_longest;
        c.ell_blocks += block_fibers ? 1 : 0;
        block_fibers = block_longest = 0;
    };
    for (std::uint64_t i = 0; i < perm.size(); ++i) {
        const int d = i == 0 ? 0 : scan.first_difference(perm[i - 1], perm[i]);
        for (int l = d; l < n; ++l) ++c.nodes[static_cast<std::size_t>(l)];
        if (d <= fiber_level) close_fiber();
        if (d <= block_level) close_block();
        if (d == 0) c.max_slice_nnz = std::max(c.max_slice_nnz, slice_nnz), slice_nnz = 0;
        ++fiber_len, ++slice_nnz;
    }
    close_fiber();
    close_block();
    c.max_slice_nnz = std::max(c.max_slice_nnz, slice_nnz);
    if (fiber_level < 0) c.split_fibers = 0;
    return c;
}

// HiCOO's blocks: the distinct tuples of (index >> bits) over the modes, as packed keys (a
// hash of the tuple where the block coordinates need more than 64 bits together).
std::uint64_t count_blocks(const CooTensor& t, int bits) {
    unsigned total = 0;
    for (std::uint64_t d : t.dims()) total += static_cast<unsigned>(std::bit_width(d >> bits));
    std::vector<std::uint64_t> keys(t.nnz(), 0);
    t.visit([&](auto itag, auto) {
        using TI = typename decltype(itag)::type;
        for (int m = 0; m < t.order(); ++m) {
            const TI* col = t.indices<TI>(m).data();
            const auto width = static_cast<unsigned>(std::bit_width(t.dim(m) >> bits));
            for (std::uint64_t z = 0; z < keys.size(); ++z) {
                const std::uint64_t b = static_cast<std::uint64_t>(col[z]) >> bits;
                keys[z] = detail::hicoo_key_step(keys[z], b, width, total <= 64);
            }
        }
    });
    std::sort(keys.begin(), keys.end());
    return static_cast<std::uint64_t>(std::unique(keys.begin(), keys.end()) - keys.begin());
}

}  // namespace

TreeCounts tree_counts(const CooTensor& t, const std::vector<int>& order, std::uint64_t fiber_threshold,
                       const std::vector<std::uint64_t>* subset) {
    const auto perm = subset ? sorted_order(t, order, *subset) : sorted_order(t, order);
    TreeCounts c;
    t.visit([&](auto itag, auto) { c = count_tree<typename decltype(itag)::type>(t, order, fiber_threshold, perm); });
    return c;
}

TensorProfile profile_tensor(const CooTensor& t, const FormatOptions& options, RunControl& control) {
    const auto start = std::chrono::steady_clock::now();
    validate_options(t, options);
    TensorProfile p;
    p.dims = t.dims();
    p.nnz = t.nnz();
    p.index_bytes = format_uses_32bit(t) ? 4 : 8;
    p.value_bytes = t.value_type() == ValueType::F32 ? 4 : 8;
    p.options = options;
    p.stats = compute_stats(t, control);
    const std::uint64_t T = options.bcsf_fiber_threshold;
    for (int m = 0; m < t.order(); ++m) {
        control.check();
        p.csf_trees.push_back(tree_counts(t, default_mode_order(t, m), T));
        p.sptv_trees.push_back(tree_counts(t, sptv_options(FormatKind::CSF, t.order(), m).mode_order, T));
        control.progress(static_cast<std::uint64_t>(m) + 1, static_cast<std::uint64_t>(t.order()) + 2);
    }
    if (t.order() >= 2 && t.nnz() > 0) {
        const std::vector<std::uint8_t> part = mmcsf_partition(t, true);
        for (int q = 0; q < t.order(); ++q) {
            std::vector<std::uint64_t> members;
            for (std::uint64_t z = 0; z < part.size(); ++z)
                if (part[z] == q) members.push_back(z);
            if (!members.empty()) p.mmcsf_parts.push_back(tree_counts(t, mmcsf_partition_order(t, q), T, &members));
        }
    }
    control.check();
    p.hicoo_blocks = count_blocks(t, options.hicoo_bits);
    p.hls_defined = hls_refusal(t.dims()).empty();
    if (p.hls_defined) {
        const TileMap tiles = hls_tile_map(t, 0, 1, options.hls_threshold, 16, control);
        p.hls_tiles = tiles.tiles;
        p.hls_dense_tiles = tiles.dense_tiles;
        p.hls_dense_nnz = tiles.dense_nnz;
        p.hls_dense_minority = tiles.dense_minority;
        const DenseTiles ttmc = dense_tiles_at(tiles, options.hls_ttmc_threshold);
        p.hls_ttmc_dense_tiles = ttmc.tiles, p.hls_ttmc_dense_nnz = ttmc.nnz;
        int bits = 0;  // HLS's linear index: each mode's ceil(log2 dim) bits (hls_format.cpp)
        for (std::uint64_t d : t.dims()) bits += static_cast<int>(std::bit_width(d - 1));
        p.hls_index_bytes = bits <= 32 ? 4 : 8;
    }
    control.progress(1, 1);
    p.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return p;
}

}  // namespace tscope
