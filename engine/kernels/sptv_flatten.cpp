#include "kernels/sptv_flatten.hpp"

#include "tscope/error.hpp"
#include "tscope/formats/format_visit.hpp"

namespace tscope::detail {

namespace {

// A slice's units: ELL blocks (their fibers and entries end where the next block's start) or
// CSR slices (the slice's last descendant fiber, through the levels).
template <class I, class V>
std::vector<Unit> hocfs_units(const HocfsFormat<I, V>& f) {
    std::vector<Unit> units;
    if (f.ell) {
        const std::uint64_t blocks = f.ap.size() - 1;
        for (std::uint64_t b = 0; b < blocks; ++b) units.push_back({f.block_first(b + 1), static_cast<std::uint64_t>(f.ap[b + 1])});
        return units;
    }
    const int levels = static_cast<int>(f.level_idx.size());
    for (std::uint64_t s = 0; s < f.slices(); ++s) {
        std::uint64_t end = s + 1;
        for (int l = 0; l + 1 < levels; ++l) end = f.level_ptr[static_cast<std::size_t>(l)][end];
        units.push_back({end, static_cast<std::uint64_t>(f.ap[end])});
    }
    return units;
}

template <class I, class V>
std::vector<Unit> cfb_units(const CfbFormat<I, V>& f) {
    std::vector<Unit> units;
    std::uint64_t end = 0;
    for (std::uint64_t q = 0; q < f.fiber_nnz.size(); ++q) units.push_back({q + 1, end += f.fiber_nnz[q]});
    return units;
}

template <class I, class V>
void flatten_hocfs(const HocfsFormat<I, V>& hocfs, Flattened& out) {
    const auto* f = &hocfs;
    const std::uint64_t rows = f->fibers(), entries = f->aj.size();
    if (f->ell) {
        const std::uint64_t blocks = f->ap.size() - 1;
        auto x = std::make_unique<gpu::PinnedSptv>(true, rows, blocks, entries);
        for (std::uint64_t b = 0; b <= blocks; ++b) {
            x->first[b] = f->block_first(b);
            x->ap[b] = f->ap[b];
        }
#pragma omp parallel for schedule(static)
        for (std::uint64_t b = 0; b < blocks; ++b)
            for (std::uint64_t q = x->first[b]; q < x->first[b + 1]; ++q) x->fiber_slice[q] = static_cast<std::uint32_t>(b);
        out.pinned = std::move(x);
    } else {
        auto x = std::make_unique<gpu::PinnedSptv>(false, rows, f->slices(), entries);
#pragma omp parallel for schedule(static)
        for (std::uint64_t q = 0; q <= rows; ++q) x->ptr[q] = f->ap[q];
        out.pinned = std::move(x);
    }
    out.units = hocfs_units(hocfs);
    auto& x = *out.pinned;
#pragma omp parallel for schedule(static)
    for (std::uint64_t e = 0; e < entries; ++e) {  // ELL pads (all ones) become the device's pad
        x.col[e] = f->aj[e] == HocfsFormat<I, V>::kEllPad ? 0xffffffffu : static_cast<std::uint32_t>(f->aj[e]);
        x.val[e] = static_cast<float>(f->av[e]);
    }
}

template <class I, class V>
void flatten_cfb(const CfbFormat<I, V>& cfb, Flattened& out) {
    const auto* f = &cfb;
    const std::uint64_t rows = f->fiber_nnz.size(), entries = f->idx.size();
    auto x = std::make_unique<gpu::PinnedSptv>(false, rows, rows, entries);
    x->ptr[0] = 0;
    for (std::uint64_t q = 0; q < rows; ++q) {
        x->ptr[q + 1] = x->ptr[q] + f->fiber_nnz[q];
    }
    out.units = cfb_units(cfb);
#pragma omp parallel for schedule(static)
    for (std::uint64_t e = 0; e < entries; ++e) {
        x->col[e] = static_cast<std::uint32_t>(f->idx[e]);
        x->val[e] = static_cast<float>(f->vals[e]);
    }
    out.pinned = std::move(x);
}

}  // namespace

Flattened flatten_for_sptv(const SparseFormat& format) {
    Flattened out;
    visit_format(format, overloaded{
        [&]<class I, class V>(const HocfsFormat<I, V>& f) { flatten_hocfs(f, out); },
        [&]<class I, class V>(const CfbFormat<I, V>& f) { flatten_cfb(f, out); },
        [&](const SparseFormat& f) {
            throw InputError("the pipeline streams HOCFS-CSR, HOCFS-ELL or CFB tensors, not " + f.name());
        }});
    return out;
}

SptvUnits sptv_units(const SparseFormat& format) {
    SptvUnits out;
    visit_format(format, overloaded{
        [&]<class I, class V>(const HocfsFormat<I, V>& f) {
            out = {f.ell, f.fibers(), f.aj.size(), hocfs_units(f)};
        },
        [&]<class I, class V>(const CfbFormat<I, V>& f) {
            out = {false, f.fiber_nnz.size(), f.idx.size(), cfb_units(f)};
        },
        [&](const SparseFormat& f) {
            throw InputError("the pipeline streams HOCFS-CSR, HOCFS-ELL or CFB tensors, not " + f.name());
        }});
    return out;
}

}  // namespace tscope::detail
