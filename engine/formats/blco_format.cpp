#include "tscope/formats/blco_format.hpp"

#include <algorithm>

#include "coo_writer.hpp"
#include "format_builders.hpp"
#include "tensor/radix_sort.hpp"
#include "tscope/formats/alto_format.hpp"

namespace tscope {

std::pair<std::vector<unsigned>, std::vector<unsigned>> blco_fields(const std::vector<std::uint64_t>& dims) {
    std::vector<unsigned> width;
    unsigned total = 0;
    for (std::uint64_t d : dims) width.push_back(alto_bits_for(d)), total += width.back();
    while (total > 64) {  // the longest mode's top bit moves to the blocks
        const auto longest = std::max_element(width.begin(), width.end()) - width.begin();
        --width[static_cast<std::size_t>(longest)], --total;
    }
    std::vector<unsigned> shift(dims.size(), 0);
    for (std::size_t m = 1; m < dims.size(); ++m) shift[m] = shift[m - 1] + width[m - 1];
    return {width, shift};
}

template <class I, class V>
StorageReport BlcoFormat<I, V>::storage() const {
    StorageReport r;
    r.arrays.push_back(detail::array_info("keys", "each mode's low bits side by side, per nonzero", keys.size(), 8, keys.size()));
    r.arrays.push_back(detail::value_array_info("vals", "value per nonzero", vals.size(), sizeof(V), vals.size()));
    r.arrays.push_back(detail::array_info("block_ptr", "first nonzero of each block", block_ptr.size(), 8, block_ptr.size()));
    std::uint64_t highs = 0;
    for (const auto& h : block_high) highs += h.size();
    r.arrays.push_back(detail::array_info("block_high", "each mode's high bits, once per block", highs, 8, highs));
    return r;
}

template <class I, class V>
CooTensor BlcoFormat<I, V>::to_coo() const {
    detail::CooWriter<V> w(this->dims_, vals.size());
    for (std::uint64_t b = 0; b < blocks(); ++b)
        for (std::uint64_t z = block_ptr[b]; z < block_ptr[b + 1]; ++z) {
            for (int m = 0; m < order(); ++m) w.index(z, m, index(m, b, z));
            w.value(z, vals[z]);
        }
    return w.finish(vals.size());
}

template <class I, class V>
std::vector<std::pair<std::string, std::string>> BlcoFormat<I, V>::parameters() const {
    unsigned key_bits = 0;
    for (unsigned w : width) key_bits += w;
    return {{"key bits", std::to_string(key_bits)}, {"blocks", std::to_string(blocks())}};
}

template <class I, class V>
std::unique_ptr<SparseFormat> detail::build_blco(const CooTensor& t, const FormatOptions& o, RunControl& control) {
    // ALTO's order first (Sec. 3.1 of the BLCO paper builds on it), then re-encoded; its limit
    // said first in BLCO's name (ALTO's own message had named ALTO for BLCO, sweep 65)
    (void)alto_layout(t.dims(), "BLCO");
    const std::unique_ptr<SparseFormat> alto_format = build_alto<I, V>(t, o, control);
    const auto& alto = static_cast<const AltoFormat<I, V>&>(*alto_format);
    auto f = std::make_unique<BlcoFormat<I, V>>();
    std::tie(f->width, f->shift) = blco_fields(t.dims());
    const int order = t.order();
    const std::uint64_t nnz = t.nnz();
    std::vector<unsigned> high_bits(static_cast<std::size_t>(order)), high_shift(static_cast<std::size_t>(order), 0);
    unsigned block_key_bits = 0;
    for (int m = 0; m < order; ++m) {
        high_bits[std::size_t(m)] = alto_bits_for(t.dim(m)) - f->width[std::size_t(m)];
        high_shift[std::size_t(m)] = block_key_bits;
        block_key_bits += high_bits[std::size_t(m)];
    }
    std::vector<std::uint64_t> keys(nnz), block_key(nnz, 0), perm(nnz);
#pragma omp parallel for schedule(static)
    for (std::int64_t zz = 0; zz < static_cast<std::int64_t>(nnz); ++zz) {
        const auto z = static_cast<std::uint64_t>(zz);
        std::uint64_t k = 0, b = 0;
        for (int m = 0; m < order; ++m) {
            const std::uint64_t i = alto.index(m, z);
            const unsigned w = f->width[std::size_t(m)];
            k |= (w == 64 ? i : i & ((std::uint64_t{1} << w) - 1)) << f->shift[std::size_t(m)];
            if (w < 64) b |= (i >> w) << high_shift[std::size_t(m)];
        }
        keys[z] = k, block_key[z] = b, perm[z] = z;
    }
    control.check();
    // the blocks: nonzeros that share their high bits, each block in ALTO order (a stable sort)
    if (block_key_bits > 0) radix_sort_pairs(block_key, perm, block_key_bits);
    f->keys = Column<std::uint64_t>(nnz);
    f->vals = Column<V>(nnz);
    f->block_high.assign(static_cast<std::size_t>(order), {});
    for (std::uint64_t z = 0; z < nnz; ++z) {
        if (z == 0 || block_key[z] != block_key[z - 1]) {
            f->block_ptr.push_back(z);
            for (int m = 0; m < order; ++m)
                f->block_high[std::size_t(m)].push_back(high_bits[std::size_t(m)] == 0 ? 0
                    : (block_key[z] >> high_shift[std::size_t(m)]) & ((std::uint64_t{1} << high_bits[std::size_t(m)]) - 1));
        }
        f->keys[z] = keys[perm[z]];
        f->vals[z] = alto.vals[perm[z]];
    }
    f->block_ptr.push_back(nnz);
    return f;
}

#define TS_INSTANTIATE(I, V)         \
    template class BlcoFormat<I, V>; \
    template std::unique_ptr<SparseFormat> detail::build_blco<I, V>(const CooTensor&, const FormatOptions&, RunControl&);

TS_INSTANTIATE(std::uint32_t, float)
TS_INSTANTIATE(std::uint32_t, double)
TS_INSTANTIATE(std::uint64_t, float)
TS_INSTANTIATE(std::uint64_t, double)

}  // namespace tscope
