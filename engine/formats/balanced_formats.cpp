// B-CSF, MM-CSF and HiCOO: builders, storage accounting and to_coo().
#include "tscope/formats/balanced_formats.hpp"


#include <algorithm>
#include <bit>
#include <limits>
#include <numeric>

#include "coo_writer.hpp"
#include "format_builders.hpp"
#include "sorted_view.hpp"
#include "tensor/radix_sort.hpp"
#include "tscope/ceil_div.hpp"

namespace tscope {

using detail::array_info;
using detail::value_array_info;

namespace {

template <class I, class V>
CsfFormat<I, V> take_csf(std::unique_ptr<SparseFormat> f, const std::vector<std::uint64_t>& dims) {
    auto* csf = static_cast<CsfFormat<I, V>*>(f.get());  // build_csf<I, V> made it
    CsfFormat<I, V> out = std::move(*csf);
    out.set_dims(dims);
    return out;
}

// Prefixes every array name of a CSF (for formats made of several).
void append_prefixed(StorageReport& into, const StorageReport& from, const std::string& prefix) {
    for (ArrayInfo a : from.arrays) {
        a.name = prefix + a.name;
        into.arrays.push_back(std::move(a));
    }
}

// Where the leaves of each level-0 node start (size nodes(0) + 1), following first children.
template <class I, class V>
std::vector<std::uint64_t> slice_leaf_starts(const CsfFormat<I, V>& csf) {
    const int levels = static_cast<int>(csf.fptr.size());
    std::vector<std::uint64_t> out(csf.nodes(0) + 1);
    for (std::uint64_t s = 0; s <= csf.nodes(0); ++s) {
        std::uint64_t at = s;
        for (int l = 0; l < levels; ++l) at = csf.fptr[static_cast<std::size_t>(l)][at];
        out[s] = at;
    }
    return out;
}

}  // namespace

// ---- B-CSF ---------------------------------------------------------------------------------

template <class I, class V>
StorageReport BcsfFormat<I, V>::storage() const {
    StorageReport r = csf.storage();
    r.arrays.push_back(array_info("bin_slices", "slice ids ordered by bin (bin b: 2^b <= nnz < 2^(b+1))",
                                  bin_slices.size(), sizeof(I), bin_slices.size()));
    r.arrays.push_back(array_info("bin_ptr", "start of each bin in bin_slices", bin_ptr.size(), sizeof(I),
                                  bin_ptr.size() - 1));
    return r;
}

template <class I, class V>
CooTensor BcsfFormat<I, V>::to_coo() const {
    return csf.to_coo();  // split fibers repeat their fid: the walk gives the same coordinates
}

template <class I, class V>
std::vector<std::pair<std::string, std::string>> BcsfFormat<I, V>::parameters() const {
    auto p = csf.parameters();
    p.emplace_back("fiber threshold", std::to_string(threshold));
    p.emplace_back("fibers before / after split",
                   std::to_string(fibers_before_split) + " / " + std::to_string(csf.nodes(static_cast<int>(csf.fptr.size()) - 1)));
    p.emplace_back("slice bins", std::to_string(bin_ptr.size() - 1));
    return p;
}

template <class I, class V>
std::unique_ptr<SparseFormat> detail::build_bcsf(const CooTensor& t, const FormatOptions& o, RunControl& control) {
    auto f = std::make_unique<BcsfFormat<I, V>>();
    f->threshold = o.bcsf_fiber_threshold;
    f->csf = take_csf<I, V>(build_csf<I, V>(t, o, control), t.dims());
    CsfFormat<I, V>& c = f->csf;
    const int fl = static_cast<int>(c.fptr.size()) - 1;  // the fiber level (its children are nonzeros)
    const auto flu = static_cast<std::size_t>(fl);
    f->fibers_before_split = c.nodes(fl);
    // Split: each fiber of length L becomes ceil(L / T) sub-fibers with the same index. Counted
    // per fiber, scanned, then written, all in parallel (a billion nonzeros: hundreds of
    // millions of fibers). No sum here may pass 2^64 whatever T is (a threshold near 2^64, "never
    // split", wrapped len + T - 1 and the piece offsets, and corrupted the heap).
    const std::uint64_t F = c.nodes(fl), T = f->threshold;
    std::vector<std::uint64_t> first_piece(F + 1, 0);
    const auto Fi = static_cast<std::int64_t>(F);
#pragma omp parallel for schedule(static)
    for (std::int64_t q = 0; q < Fi; ++q) {
        const std::uint64_t len = static_cast<std::uint64_t>(c.fptr[flu][static_cast<std::uint64_t>(q) + 1]) - c.fptr[flu][static_cast<std::uint64_t>(q)];
        first_piece[static_cast<std::uint64_t>(q) + 1] = ceil_div(len, T);
    }
    detail::parallel_inclusive_scan(first_piece);
    Column<I> fids(first_piece[F]), fptr(first_piece[F] + 1);
#pragma omp parallel for schedule(static)
    for (std::int64_t q = 0; q < Fi; ++q) {
        const auto uq = static_cast<std::uint64_t>(q);
        const std::uint64_t k = first_piece[uq], at = c.fptr[flu][uq];
        for (std::uint64_t piece = 0; piece < first_piece[uq + 1] - k; ++piece) {  // piece * T < the fiber's length
            fids[k + piece] = c.fids[flu][uq];
            fptr[k + piece] = static_cast<I>(at + piece * T);
        }
    }
    fptr[first_piece[F]] = static_cast<I>(c.vals.size());
    if (fl > 0) {  // the parents of the fibers now point at first pieces
        auto& parents = c.fptr[flu - 1];
        const auto P = static_cast<std::int64_t>(parents.size());
#pragma omp parallel for schedule(static)
        for (std::int64_t i = 0; i < P; ++i) parents[static_cast<std::size_t>(i)] = static_cast<I>(first_piece[parents[static_cast<std::size_t>(i)]]);
    }
    c.fids[flu] = std::move(fids);
    c.fptr[flu] = std::move(fptr);
    // Slice bins by nonzero count.
    const auto starts = slice_leaf_starts(c);
    std::vector<int> bin(c.nodes(0));
    int bins = 0;
    for (std::uint64_t s = 0; s < c.nodes(0); ++s) {
        bin[s] = static_cast<int>(std::bit_width(starts[s + 1] - starts[s])) - 1;
        bins = std::max(bins, bin[s] + 1);
    }
    f->bin_ptr.assign(static_cast<std::size_t>(bins) + 1, 0);
    for (int b : bin) ++f->bin_ptr[static_cast<std::size_t>(b) + 1];
    std::partial_sum(f->bin_ptr.begin(), f->bin_ptr.end(), f->bin_ptr.begin());
    f->bin_slices.resize(c.nodes(0));
    std::vector<std::uint64_t> fill(f->bin_ptr.begin(), f->bin_ptr.end() - 1);
    for (std::uint64_t s = 0; s < c.nodes(0); ++s) f->bin_slices[fill[static_cast<std::size_t>(bin[s])]++] = static_cast<I>(s);
    return f;
}

// ---- MM-CSF --------------------------------------------------------------------------------

template <class I, class V>
StorageReport MmcsfFormat<I, V>::storage() const {
    StorageReport r;
    for (std::size_t p = 0; p < partitions.size(); ++p)
    {
        std::string prefix = "P";
        prefix += std::to_string(leaf_mode[p] + 1);
        prefix += '.';
        append_prefixed(r, partitions[p].storage(), prefix);
    }
    return r;
}

template <class I, class V>
CooTensor MmcsfFormat<I, V>::to_coo() const {
    std::uint64_t nnz = 0;
    for (const auto& p : partitions) nnz += p.vals.size();
    detail::CooWriter<V> w(this->dims_, nnz);
    std::uint64_t at = 0;
    for (const auto& p : partitions) {
        const CooTensor part = p.to_coo();
        for (std::uint64_t n = 0; n < part.nnz(); ++n, ++at) {
            for (int m = 0; m < part.order(); ++m) w.index(at, m, part.index(m, n));
            w.value(at, static_cast<V>(part.value(n)));
        }
    }
    return w.finish(nnz);
}

template <class I, class V>
std::vector<std::pair<std::string, std::string>> MmcsfFormat<I, V>::parameters() const {
    std::string text, levels;
    for (std::size_t p = 0; p < partitions.size(); ++p) {
        const std::string name = "mode " + std::to_string(leaf_mode[p] + 1) + ": ";
        text += (p ? ", " : "") + name + std::to_string(partitions[p].vals.size());
        levels += (p ? "; " : "") + name + modes_text(partitions[p].order);  // the levels' own commas between
    }
    return {{"nonzeros per partition (by leaf mode)", text},
            {"levels per partition (root first)", levels},
            {"strategy", "dynamic (Fig. 4)"}};
}

std::vector<int> mmcsf_partition_order(const std::vector<std::uint64_t>& dims, int p) {
    std::vector<int> order = default_mode_order(dims, p);        // p first, then the others by length
    std::rotate(order.begin(), order.begin() + 1, order.end());  // p to the leaves
    return order;
}

std::vector<int> mmcsf_partition_order(const CooTensor& t, int p) { return mmcsf_partition_order(t.dims(), p); }

std::vector<std::vector<int>> mmcsf_partition_orders(const std::vector<std::uint64_t>& dims) {
    std::vector<std::vector<int>> orders;
    for (int p = 0; p < static_cast<int>(dims.size()); ++p) orders.push_back(mmcsf_partition_order(dims, p));
    return orders;
}

template <class I, class V>
std::unique_ptr<SparseFormat> detail::build_mmcsf(const CooTensor& t, const FormatOptions& o, RunControl& control) {
    auto f = std::make_unique<MmcsfFormat<I, V>>();
    const std::vector<std::uint8_t> part = mmcsf_partition(t, true);
    control.check();
    for (int p = 0; p < t.order(); ++p) {
        const std::vector<std::uint64_t> members =
            detail::positions_where(part.size(), [&](std::uint64_t z) { return part[z] == p; });
        if (members.empty()) continue;
        FormatOptions po = o;
        po.mode = p;
        po.mode_order =
            o.mmcsf_orders.empty() ? mmcsf_partition_order(t, p) : o.mmcsf_orders[static_cast<std::size_t>(p)];
        f->partitions.push_back(take_csf<I, V>(build_csf<I, V>(t, po, control, &members), t.dims()));
        f->leaf_mode.push_back(p);
    }
    return f;
}

// ---- HiCOO ---------------------------------------------------------------------------------

template <class I, class V>
StorageReport HicooFormat<I, V>::storage() const {
    StorageReport r;
    const std::uint32_t ebytes = bits <= 8 ? 1 : 2;
    r.arrays.push_back(array_info("bptr", "start of each block's nonzeros", bptr.size(), sizeof(I), blocks()));
    for (std::size_t m = 0; m < binds.size(); ++m)
        r.arrays.push_back(array_info("binds_" + std::to_string(m + 1), "block coordinate of mode " + std::to_string(m + 1),
                                      binds[m].size(), sizeof(I), binds[m].size()));
    for (std::size_t m = 0; m < binds.size(); ++m)
        r.arrays.push_back(array_info("einds_" + std::to_string(m + 1), "offset in the block, mode " + std::to_string(m + 1),
                                      vals.size(), ebytes, vals.size()));
    r.arrays.push_back(value_array_info("vals", "value per nonzero", vals.size(), sizeof(V), vals.size()));
    return r;
}

template <class I, class V>
CooTensor HicooFormat<I, V>::to_coo() const {
    detail::CooWriter<V> w(this->dims_, vals.size());
    for (std::uint64_t b = 0; b < blocks(); ++b)
        for (std::uint64_t n = bptr[b]; n < bptr[b + 1]; ++n) {
            for (std::size_t m = 0; m < binds.size(); ++m)
                w.index(n, static_cast<int>(m), (static_cast<std::uint64_t>(binds[m][b]) << bits) | offset(static_cast<int>(m), n));
            w.value(n, vals[n]);
        }
    return w.finish(vals.size());
}

template <class I, class V>
std::vector<std::pair<std::string, std::string>> HicooFormat<I, V>::parameters() const {
    return {{"block", "2^" + std::to_string(bits) + " per mode"}, {"blocks", std::to_string(blocks())}};
}

namespace {

// HiCOO's order as a permutation: by block coordinates, then by offsets inside the block.
// With a composite 64-bit key this is one radix sort and no copy of the tensor; shapes whose
// key would overflow sort tuples instead. Returns an empty vector in that case.
std::vector<std::uint64_t> hicoo_order_by_key(const CooTensor& t, unsigned b) {
    const int order = t.order();
    std::vector<std::uint64_t> block_dims, offset_dims;
    unsigned __int128 space = 1;
    for (int m = 0; m < order; ++m) {
        block_dims.push_back(((t.dim(m) - 1) >> b) + 1);
        offset_dims.push_back(std::min<std::uint64_t>(t.dim(m), std::uint64_t{1} << b));
    }
    for (auto d : block_dims) space *= d;
    for (auto d : offset_dims) {
        space *= d;
        if (space > static_cast<unsigned __int128>(std::numeric_limits<std::uint64_t>::max())) return {};
    }
    const std::uint64_t mask = (std::uint64_t{1} << b) - 1;
    std::vector<std::uint64_t> keys(t.nnz(), 0);
    t.visit([&](auto itag, auto) {
        using TI = typename decltype(itag)::type;
        for (int m = 0; m < order; ++m) {  // block coordinates, most significant first
            const TI* c = t.indices<TI>(m).data();
            for (std::uint64_t n = 0; n < t.nnz(); ++n) keys[n] = keys[n] * block_dims[static_cast<std::size_t>(m)] + (c[n] >> b);
        }
        for (int m = 0; m < order; ++m) {  // then the offsets
            const TI* c = t.indices<TI>(m).data();
            for (std::uint64_t n = 0; n < t.nnz(); ++n) keys[n] = keys[n] * offset_dims[static_cast<std::size_t>(m)] + (c[n] & mask);
        }
    });
    std::vector<std::uint64_t> perm(t.nnz());
    std::iota(perm.begin(), perm.end(), std::uint64_t{0});
    detail::radix_sort_pairs(keys, perm, detail::bit_width_of(static_cast<std::uint64_t>(space - 1)));
    return perm;  // keys are freed here, before the format's arrays are allocated
}

// The same order for shapes beyond 64-bit keys: tuples of (blocks..., offsets...).
std::vector<std::uint64_t> hicoo_order_by_tuples(const CooTensor& t, unsigned b) {
    const int order = t.order();
    if (2 * order > kMaxOrder) {
        // over 8 modes the tuples are more modes than a tensor holds (HiCOO was refused as "a
        // tensor needs between 1 and 16 modes, got 26" of 13 modes, sweep 65): compared in place
        const std::uint64_t mask = (std::uint64_t{1} << b) - 1;
        std::vector<std::uint64_t> perm(t.nnz());
        std::iota(perm.begin(), perm.end(), std::uint64_t{0});
        std::stable_sort(perm.begin(), perm.end(), [&](std::uint64_t x, std::uint64_t y) {
            for (int part = 0; part < 2; ++part)  // the blocks, then the offsets within them
                for (int m = 0; m < order; ++m) {
                    const std::uint64_t ix = t.index(m, x), iy = t.index(m, y);
                    const std::uint64_t kx = part == 0 ? ix >> b : ix & mask, ky = part == 0 ? iy >> b : iy & mask;
                    if (kx != ky) return kx < ky;
                }
            return false;
        });
        return perm;
    }
    std::vector<std::uint64_t> dims2;
    for (int m = 0; m < order; ++m) dims2.push_back(((t.dim(m) - 1) >> b) + 1);
    for (int m = 0; m < order; ++m) dims2.push_back(std::min<std::uint64_t>(t.dim(m), std::uint64_t{1} << b));
    CooTensor split(dims2, ValueType::F32);
    split.resize(t.nnz());
    std::vector<std::uint64_t> coord(dims2.size());
    const std::uint64_t mask = (std::uint64_t{1} << b) - 1;
    for (std::uint64_t n = 0; n < t.nnz(); ++n) {
        for (int m = 0; m < order; ++m) {
            coord[static_cast<std::size_t>(m)] = t.index(m, n) >> b;
            coord[static_cast<std::size_t>(order + m)] = t.index(m, n) & mask;
        }
        split.set(n, coord, 0.0);
    }
    return sorted_order(split, natural_modes(2 * order));
}

template <class I, class V, class TI, class TV>
void fill_hicoo(HicooFormat<I, V>& f, const CooTensor& t, const std::vector<std::uint64_t>& perm, unsigned b) {
    const int order = t.order();
    const std::uint64_t mask = (std::uint64_t{1} << b) - 1;
    std::vector<const TI*> cols;
    for (int m = 0; m < order; ++m) cols.push_back(t.indices<TI>(m).data());
    const TV* vals = t.values<TV>().data();
    f.binds.resize(static_cast<std::size_t>(order));
    if (b <= 8)
        f.einds8.assign(static_cast<std::size_t>(order), Column<std::uint8_t>(t.nnz()));
    else
        f.einds16.assign(static_cast<std::size_t>(order), Column<std::uint16_t>(t.nnz()));
    f.vals.resize(t.nnz());
    for (std::uint64_t n = 0; n < perm.size(); ++n) {
        const std::uint64_t z = perm[n];
        bool new_block = n == 0;
        for (int m = 0; m < order && !new_block; ++m)
            new_block = (cols[static_cast<std::size_t>(m)][z] >> b) != (cols[static_cast<std::size_t>(m)][perm[n - 1]] >> b);
        if (new_block) {
            f.bptr.push_back(static_cast<I>(n));
            for (int m = 0; m < order; ++m)
                f.binds[static_cast<std::size_t>(m)].push_back(static_cast<I>(cols[static_cast<std::size_t>(m)][z] >> b));
        }
        for (int m = 0; m < order; ++m) {
            const std::uint64_t off = cols[static_cast<std::size_t>(m)][z] & mask;
            if (b <= 8)
                f.einds8[static_cast<std::size_t>(m)][n] = static_cast<std::uint8_t>(off);
            else
                f.einds16[static_cast<std::size_t>(m)][n] = static_cast<std::uint16_t>(off);
        }
        f.vals[n] = static_cast<V>(vals[z]);
    }
    f.bptr.push_back(static_cast<I>(perm.size()));
}

}  // namespace

template <class I, class V>
std::unique_ptr<SparseFormat> detail::build_hicoo(const CooTensor& t, const FormatOptions& o, RunControl& control) {
    if (o.hicoo_bits > 16) throw InputError("HiCOO block bits must be at most 16 (offsets are stored in 1 or 2 bytes)");
    auto f = std::make_unique<HicooFormat<I, V>>();
    f->bits = o.hicoo_bits;
    const auto b = static_cast<unsigned>(o.hicoo_bits);
    std::vector<std::uint64_t> perm = hicoo_order_by_key(t, b);
    if (perm.empty()) perm = hicoo_order_by_tuples(t, b);
    control.check();
    t.visit([&](auto itag, auto vtag) {
        fill_hicoo<I, V, typename decltype(itag)::type, typename decltype(vtag)::type>(*f, t, perm, b);
    });
    return f;
}

#define TS_INSTANTIATE(I, V)                                                                                     \
    template class BcsfFormat<I, V>;                                                                             \
    template class MmcsfFormat<I, V>;                                                                            \
    template class HicooFormat<I, V>;                                                                            \
    template std::unique_ptr<SparseFormat> detail::build_bcsf<I, V>(const CooTensor&, const FormatOptions&, RunControl&);  \
    template std::unique_ptr<SparseFormat> detail::build_mmcsf<I, V>(const CooTensor&, const FormatOptions&, RunControl&); \
    template std::unique_ptr<SparseFormat> detail::build_hicoo<I, V>(const CooTensor&, const FormatOptions&, RunControl&);

TS_INSTANTIATE(std::uint32_t, float)
TS_INSTANTIATE(std::uint32_t, double)
TS_INSTANTIATE(std::uint64_t, float)
TS_INSTANTIATE(std::uint64_t, double)

}  // namespace tscope
