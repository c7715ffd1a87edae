#include "tscope/formats/hls_format.hpp"

#include <algorithm>
#include <bit>

#include "coo_writer.hpp"
#include "format_builders.hpp"
#include "tensor/radix_sort.hpp"
#include "tscope/ceil_div.hpp"

namespace tscope {

using detail::array_info;
using detail::value_array_info;

namespace {

int bits_for(std::uint64_t count) { return static_cast<int>(std::bit_width(count - 1)); }  // ceil(log2 count)
// Tiles of kHlsTile along a mode of `dim` indices.
std::uint64_t tiles_along(std::uint64_t dim) { return ceil_div(dim, kHlsTile); }

}  // namespace

std::string hls_refusal(const std::vector<std::uint64_t>& dims) {
    if (dims.size() != 3)
        return "HLS is defined for third-order tensors (hls-tcu-sptmcm Sec. V); this tensor has " +
               std::to_string(dims.size()) + (dims.size() == 1 ? " mode" : " modes");
    int bits = 0, tile_bits = 0;
    for (std::uint64_t d : dims) bits += bits_for(d), tile_bits += bits_for(tiles_along(d));
    if (bits > 64) return "HLS: the binary linear index of this shape needs more than 64 bits";
    if (tile_bits + 12 > 64) return "HLS: the tile index of this shape needs more than 52 bits";
    return "";
}

std::uint64_t hls_pack(const std::array<std::uint64_t, 3>& coord, const std::array<int, 3>& bits) {
    return (((coord[0] << bits[1]) | coord[1]) << bits[2]) | coord[2];
}

std::array<std::uint64_t, 3> hls_unpack(std::uint64_t packed, const std::array<int, 3>& bits) {
    const std::uint64_t k = packed & ((std::uint64_t{1} << bits[2]) - 1);
    packed >>= bits[2];
    const std::uint64_t j = packed & ((std::uint64_t{1} << bits[1]) - 1);
    return {packed >> bits[1], j, k};
}

template <class I, class V>
std::uint64_t HlsFormat<I, V>::index_bytes() const {
    const int nnz_bits = nnz_linear_bits[0] + nnz_linear_bits[1] + nnz_linear_bits[2];
    return nnz_bits <= 32 ? 4 : 8;
}

template <class I, class V>
StorageReport HlsFormat<I, V>::storage() const {
    // Linear indices are reported at the width they need (4 bytes when every one fits 32 bits);
    // they are held in 64-bit arrays in memory.
    const auto ib = static_cast<std::uint32_t>(index_bytes());
    StorageReport r;
    r.arrays.push_back(array_info("nnz_inds", "HLS-S: binary linear index (i|j|k bit fields) per sparse nonzero",
                                  nnz_inds.size(), ib, nnz_inds.size()));
    r.arrays.push_back(value_array_info("nnz_vals", "HLS-S: value per sparse nonzero", nnz_vals.size(), sizeof(V), nnz_vals.size()));
    r.arrays.push_back(array_info("b_inds", "HLS-D: binary linear index (ti|tj|tk) per dense tile", b_inds.size(), ib,
                                  b_inds.size()));
    r.arrays.push_back(array_info("b_bmp", "HLS-D: 4096-bit bitmap of each tile's nonzeros (64-bit words)", b_bmp.size(),
                                  8, b_bmp.size()));
    r.arrays.push_back(array_info("b_vals_ptr", "HLS-D: start of each tile's values", b_vals_ptr.size(), sizeof(I),
                                  b_vals_ptr.size() - 1));
    r.arrays.push_back(value_array_info("b_vals", "HLS-D: the tiles' nonzeros in bitmap order", b_vals.size(), sizeof(V),
                                  b_vals.size()));
    return r;
}

template <class I, class V>
std::uint64_t HlsFormat<I, V>::paper_bits() const {
    // Eq. 16 with T (tiles) where the paper's last two terms write M.
    const std::uint64_t ns = nnz_vals.size(), n = ns + b_vals.size();
    const std::uint64_t sparse_index_bits = static_cast<std::uint64_t>(nnz_linear_bits[0] + nnz_linear_bits[1] + nnz_linear_bits[2]);
    const std::uint64_t tile_index_bits = static_cast<std::uint64_t>(b_linear_bits[0] + b_linear_bits[1] + b_linear_bits[2]);
    return sparse_index_bits * ns + tile_index_bits * tiles() + std::uint64_t{kHlsTileCells} * tiles() + 16 * n;
}

template <class I, class V>
std::vector<std::pair<std::string, std::string>> HlsFormat<I, V>::parameters() const {
    return {{"tile", "16 x 16 x 16"},
            {"threshold T", std::to_string(threshold)},
            {"dense tiles", std::to_string(tiles())},
            {"nonzeros in dense tiles", std::to_string(b_vals.size())},
            {"sparse nonzeros", std::to_string(nnz_vals.size())},
            {"paper space M_H (Eq. 16, 16-bit values)", std::to_string(paper_bits()) + " bits"}};
}

template <class I, class V>
void HlsFormat<I, V>::expand_tile(std::uint64_t q, double* cells, std::array<std::uint64_t, 3>& lo,
                                  std::array<int, 3>& span) const {
    std::fill(cells, cells + kHlsTileCells, 0.0);
    std::uint64_t v = b_vals_ptr[q];
    for (int w = 0; w < kHlsBitmapWords; ++w)
        for (std::uint64_t bits = b_bmp[q * kHlsBitmapWords + static_cast<std::uint64_t>(w)]; bits; bits &= bits - 1)
            cells[w * 64 + std::countr_zero(bits)] = static_cast<double>(b_vals[v++]);
    const auto origin = hls_unpack(b_inds[q], b_linear_bits);
    for (std::size_t m = 0; m < 3; ++m) {
        lo[m] = origin[m] * kHlsTile;
        span[m] = static_cast<int>(std::min<std::uint64_t>(kHlsTile, this->dims_[m] - lo[m]));
    }
}

template <class I, class V>
CooTensor HlsFormat<I, V>::to_coo() const {
    detail::CooWriter<V> w(this->dims_, nnz_vals.size() + b_vals.size());
    std::uint64_t out = 0;
    for (std::uint64_t n = 0; n < nnz_inds.size(); ++n, ++out) {
        const auto c = hls_unpack(nnz_inds[n], nnz_linear_bits);
        for (int m = 0; m < 3; ++m) w.index(out, m, c[static_cast<std::size_t>(m)]);
        w.value(out, nnz_vals[n]);
    }
    for (std::uint64_t t = 0; t < tiles(); ++t) {
        const auto tile = hls_unpack(b_inds[t], b_linear_bits);
        std::uint64_t v = b_vals_ptr[t];
        for (int word = 0; word < kHlsBitmapWords; ++word) {
            for (std::uint64_t bits = b_bmp[t * kHlsBitmapWords + static_cast<std::uint64_t>(word)]; bits; bits &= bits - 1) {
                const int cell = word * 64 + std::countr_zero(bits);
                const std::array<std::uint64_t, 3> in{static_cast<std::uint64_t>(cell / 256),
                                                      static_cast<std::uint64_t>(cell / 16 % 16),
                                                      static_cast<std::uint64_t>(cell % 16)};
                for (int m = 0; m < 3; ++m)
                    w.index(out, m, tile[static_cast<std::size_t>(m)] * kHlsTile + in[static_cast<std::size_t>(m)]);
                w.value(out, b_vals[v++]);
                ++out;
            }
        }
    }
    return w.finish(out);
}

template <class I, class V>
std::unique_ptr<SparseFormat> detail::build_hls(const CooTensor& t, const FormatOptions& o, RunControl& control) {
    if (std::string why = hls_refusal(t.dims()); !why.empty()) throw InputError(why);
    auto f = std::make_unique<HlsFormat<I, V>>();
    f->threshold = o.hls_threshold;
    for (int m = 0; m < 3; ++m) {
        const auto mm = static_cast<std::size_t>(m);
        f->nnz_linear_bits[mm] = bits_for(t.dim(m));
        f->b_linear_bits[mm] = bits_for(tiles_along(t.dim(m)));
    }
    // Sort by (tile, cell in tile): tile key in the high bits, the 12-bit cell index below.
    const std::uint64_t n = t.nnz();
    std::vector<std::uint64_t> keys(n), perm(n);
    t.visit([&](auto itag, auto) {
        using TI = typename decltype(itag)::type;
        const TI* c0 = t.indices<TI>(0).data();
        const TI* c1 = t.indices<TI>(1).data();
        const TI* c2 = t.indices<TI>(2).data();
        for (std::uint64_t z = 0; z < n; ++z) {
            const std::uint64_t tile = hls_pack({c0[z] / kHlsTile, c1[z] / kHlsTile, c2[z] / kHlsTile}, f->b_linear_bits);
            const std::uint64_t cell = (c0[z] % kHlsTile) * 256 + (c1[z] % kHlsTile) * 16 + c2[z] % kHlsTile;
            keys[z] = (tile << 12) | cell;
            perm[z] = z;
        }
    });
    const int tile_bits = f->b_linear_bits[0] + f->b_linear_bits[1] + f->b_linear_bits[2];
    detail::radix_sort_pairs(keys, perm, static_cast<unsigned>(tile_bits + 12));
    control.check();
    t.visit([&](auto itag, auto vtag) {
        using TI = typename decltype(itag)::type;
        using TV = typename decltype(vtag)::type;
        const TI* c0 = t.indices<TI>(0).data();
        const TI* c1 = t.indices<TI>(1).data();
        const TI* c2 = t.indices<TI>(2).data();
        const TV* vals = t.values<TV>().data();
        for (std::uint64_t a = 0; a < n;) {  // one tile: the run [a, b) of equal tile keys
            std::uint64_t b = a + 1;
            while (b < n && (keys[b] >> 12) == (keys[a] >> 12)) ++b;
            if (b - a >= f->threshold) {  // dense: HLS-D
                f->b_inds.push_back(keys[a] >> 12);
                f->b_vals_ptr.push_back(static_cast<I>(f->b_vals.size()));
                const std::size_t words = f->b_bmp.size();
                f->b_bmp.resize(words + kHlsBitmapWords, 0);
                for (std::uint64_t e = a; e < b; ++e) {
                    const std::uint64_t cell = keys[e] & 0xfff;
                    f->b_bmp[words + cell / 64] |= std::uint64_t{1} << (cell % 64);
                    f->b_vals.push_back(static_cast<V>(vals[perm[e]]));
                }
            } else {  // sparse: HLS-S
                for (std::uint64_t e = a; e < b; ++e) {
                    const std::uint64_t z = perm[e];
                    f->nnz_inds.push_back(hls_pack({c0[z], c1[z], c2[z]}, f->nnz_linear_bits));
                    f->nnz_vals.push_back(static_cast<V>(vals[z]));
                }
            }
            a = b;
        }
    });
    f->b_vals_ptr.push_back(static_cast<I>(f->b_vals.size()));
    return f;
}

#define TS_INSTANTIATE(I, V)                                                                                    \
    template class HlsFormat<I, V>;                                                                             \
    template std::unique_ptr<SparseFormat> detail::build_hls<I, V>(const CooTensor&, const FormatOptions&, RunControl&);

TS_INSTANTIATE(std::uint32_t, float)
TS_INSTANTIATE(std::uint32_t, double)
TS_INSTANTIATE(std::uint64_t, float)
TS_INSTANTIATE(std::uint64_t, double)

}  // namespace tscope
