// Builders, storage accounting and to_coo() of the hocfs, CSF and sCOO formats.
#include "tscope/formats/paper_formats.hpp"

#include <algorithm>
#include <bit>
#include <cstdio>
#include <functional>
#include <limits>
#include <numeric>

#include "coo_writer.hpp"
#include "format_builders.hpp"
#include "sorted_view.hpp"
#include "tscope/text_words.hpp"

namespace tscope {

using detail::array_info;
using detail::value_array_info;

std::string modes_text(const std::vector<int>& modes) {
    std::string text;
    // wide, for orders as given that hold any int (format.cpp's refusals echo them)
    for (std::size_t k = 0; k < modes.size(); ++k)
        text += (k ? "," : "") + std::to_string(static_cast<long long>(modes[k]) + 1);
    return text;
}

std::string hocfs_ell_refusal(const std::vector<int>& order, std::uint64_t nnz, std::uint64_t cells, std::uint64_t index_max) {
    // ELL's weakness on skewed data: one long fiber pads its whole slice. Refuse blow-ups.
    const std::uint64_t limit = std::max<std::uint64_t>(16 * nnz, 1u << 20);
    if (cells <= limit && cells <= index_max) return {};
    // The order, not one mode: SpTV's tree has the product's mode last and another at the root.
    return "HOCFS-ELL in mode order " + modes_text(order) + " would pad " + grouped(nnz) + " nonzeros to " +
           grouped(cells) + " entries (over 16x: the limit)";
}

std::string scoo_refusal(int mode, std::uint64_t fibers, std::uint64_t length) {
    // sCOO suits short dense modes (SpTTM's rank); densifying a long mode can take gigabytes.
    constexpr std::uint64_t kMaxValues = std::uint64_t{1} << 27;
    if (static_cast<long double>(fibers) * static_cast<long double>(length) <= static_cast<long double>(kMaxValues)) return {};
    return "sCOO with dense mode " + std::to_string(mode + 1) + " would hold " + grouped(fibers) + " dense fibers of " +
           grouped(length) + " values; the limit is 2^27 values";
}

std::vector<int> mode_first_order(int order, int mode) {
    std::vector<int> out{mode};
    for (int m = 0; m < order; ++m)
        if (m != mode) out.push_back(m);
    return out;
}

namespace {

unsigned __int128 product(const std::vector<std::uint64_t>& dims, const std::vector<int>& modes) {
    unsigned __int128 p = 1;
    for (int m : modes) {
        p *= dims[static_cast<std::size_t>(m)];
        if (p > static_cast<unsigned __int128>(std::numeric_limits<std::uint64_t>::max())) return p;
    }
    return p;
}

// The product of the modes' dims in words: exact where it fits 64 bits, else in floating point
// (product() stops once past 64 bits, and its partial product was printed, sweep 65).
std::string product_text(const std::vector<std::uint64_t>& dims, const std::vector<int>& modes) {
    const unsigned __int128 x = product(dims, modes);
    if (x <= static_cast<unsigned __int128>(std::numeric_limits<std::uint64_t>::max()))
        return grouped(static_cast<std::uint64_t>(x));  // "20,000,000,000", not a run of digits (sweep 72b)
    long double p = 1;
    for (int m : modes) p *= static_cast<long double>(dims[static_cast<std::size_t>(m)]);
    char buf[48];
    std::snprintf(buf, sizeof buf, "%.3Lg", p);
    return buf;
}

std::string level_name(int mode, int order) { return order == 3 ? std::string(1, "ijk"[mode]) : std::to_string(mode + 1); }

}  // namespace

std::string hocsr_refusal(const std::vector<std::uint64_t>& dims, const std::vector<int>& order) {
    // The dense row array is the point of HOCSR (and its weakness): refuse what can't be held.
    const std::vector<int> row_modes(order.begin(), order.end() - 1);
    const unsigned __int128 rows = product(dims, row_modes);
    if (rows <= kHocsrMaxRows) return {};
    const std::string rows_of = modes_text(row_modes);  // the modes that make up a row, and the last one
    return "HOCSR with its rows over modes " + rows_of + " (mode " + std::to_string(order.back() + 1) +
           " last) would need " + product_text(dims, row_modes) + " row pointers, one per index tuple of modes " +
           rows_of + "; the limit is 2^" + std::to_string(std::countr_zero(kHocsrMaxRows));
}

// ---- COO (HOCOO) ---------------------------------------------------------------------------

template <class I, class V>
StorageReport CooFormat<I, V>::storage() const {
    StorageReport r;
    const int n = static_cast<int>(idx.size());
    for (int m = 0; m < n; ++m)
        r.arrays.push_back(array_info(detail::coo_array_name(m, n), "index of mode " + std::to_string(m + 1) + " per nonzero",
                                      vals.size(), sizeof(I), vals.size()));
    r.arrays.push_back(value_array_info("T_v", "value per nonzero", vals.size(), sizeof(V), vals.size()));
    return r;
}

template <class I, class V>
CooTensor CooFormat<I, V>::to_coo() const {
    detail::CooWriter<V> w(this->dims_, vals.size());
    for (std::uint64_t n = 0; n < vals.size(); ++n) {
        for (std::size_t m = 0; m < idx.size(); ++m) w.index(n, static_cast<int>(m), idx[m][n]);
        w.value(n, vals[n]);
    }
    return w.finish(vals.size());
}

template <class I, class V>
std::unique_ptr<SparseFormat> detail::build_coo(const CooTensor& t, const FormatOptions& o, RunControl& control) {
    auto f = std::make_unique<CooFormat<I, V>>();
    f->order = o.mode_order.empty() ? mode_first_order(t.order(), o.mode) : o.mode_order;
    SortedView<I, V> v = sorted_view<I, V>(t, f->order, control);
    f->idx.resize(static_cast<std::size_t>(t.order()));
    for (std::size_t l = 0; l < f->order.size(); ++l) f->idx[static_cast<std::size_t>(f->order[l])] = std::move(v.idx[l]);
    f->vals = std::move(v.vals);
    return f;
}

// ---- HOCSR ---------------------------------------------------------------------------------

template <class I, class V>
StorageReport HocsrFormat<I, V>::storage() const {
    const int n = static_cast<int>(order.size());
    const std::string row = n == 3 ? "T_" + level_name(order[1], n) : "row_ptr";
    const std::string col_name = n == 3 ? "T_" + level_name(order[2], n) : "col";
    StorageReport r;
    r.arrays.push_back(array_info(row, "start of each unfolded row (all index tuples of the first modes)",
                                  row_ptr.size(), sizeof(I), rows()));
    r.arrays.push_back(array_info(col_name, "index of mode " + std::to_string(order.back() + 1) + " per nonzero",
                                  col.size(), sizeof(I), col.size()));
    r.arrays.push_back(value_array_info("T_v", "value per nonzero", vals.size(), sizeof(V), vals.size()));
    return r;
}

template <class I, class V>
CooTensor HocsrFormat<I, V>::to_coo() const {
    detail::CooWriter<V> w(this->dims_, vals.size());
    const int n = static_cast<int>(order.size());
    std::vector<std::uint64_t> coord(static_cast<std::size_t>(n - 1));
    for (std::uint64_t row = 0; row < rows(); ++row) {
        if (row_ptr[row] == row_ptr[row + 1]) continue;  // most rows are empty
        // unlinearise the row into the first N-1 modes of the order
        std::uint64_t rest = row;
        for (int l = n - 2; l >= 0; --l) {
            const std::uint64_t d = this->dims_[static_cast<std::size_t>(order[static_cast<std::size_t>(l)])];
            coord[static_cast<std::size_t>(l)] = rest % d;
            rest /= d;
        }
        for (std::uint64_t e = row_ptr[row]; e < row_ptr[row + 1]; ++e) {
            for (int l = 0; l < n - 1; ++l) w.index(e, order[static_cast<std::size_t>(l)], coord[static_cast<std::size_t>(l)]);
            w.index(e, order.back(), col[e]);
            w.value(e, vals[e]);
        }
    }
    return w.finish(vals.size());
}

template <class I, class V>
std::unique_ptr<SparseFormat> detail::build_hocsr(const CooTensor& t, const FormatOptions& o, RunControl& control) {
    auto f = std::make_unique<HocsrFormat<I, V>>();
    f->order = o.mode_order.empty() ? mode_first_order(t.order(), o.mode) : o.mode_order;
    const std::vector<int> row_modes(f->order.begin(), f->order.end() - 1);
    if (const std::string why = hocsr_refusal(t.dims(), f->order); !why.empty()) throw InputError(why);
    const std::uint64_t rows = static_cast<std::uint64_t>(product(t.dims(), row_modes));
    SortedView<I, V> v = sorted_view<I, V>(t, f->order, control);
    const std::uint64_t nnz = v.nnz();
    f->row_ptr.assign(static_cast<std::size_t>(rows) + 1, 0);
    for (std::uint64_t e = 0; e < nnz; ++e) {
        std::uint64_t row = 0;
        for (std::size_t l = 0; l < row_modes.size(); ++l) row = row * t.dim(row_modes[l]) + v.idx[l][e];
        ++f->row_ptr[row + 1];
    }
    std::partial_sum(f->row_ptr.begin(), f->row_ptr.end(), f->row_ptr.begin());
    f->col = std::move(v.idx.back());
    f->vals = std::move(v.vals);
    return f;
}

// ---- CFB -----------------------------------------------------------------------------------

template <class I, class V>
StorageReport CfbFormat<I, V>::storage() const {
    StorageReport r;
    const std::uint64_t nf = fiber_id.size(), nnz = vals.size();
    r.arrays.push_back(array_info("Tb", "linear index of each fiber's other modes (j*K+k)", nf, 8, nf));
    r.arrays.push_back(array_info("Tn", "nonzeros per fiber", nf, sizeof(I), nf));
    r.arrays.push_back(array_info("fibers.idx", "index of mode " + std::to_string(fiber_mode + 1) + " per nonzero", nnz,
                                  sizeof(I), nnz));
    r.arrays.push_back(value_array_info("fibers.value", "value per nonzero", nnz, sizeof(V), nnz));
    return r;
}

template <class I, class V>
CooTensor CfbFormat<I, V>::to_coo() const {
    detail::CooWriter<V> w(this->dims_, vals.size());
    std::uint64_t e = 0;
    for (std::uint64_t f = 0; f < fiber_id.size(); ++f) {
        std::vector<std::uint64_t> coord(others.size());
        std::uint64_t rest = fiber_id[f];
        for (std::size_t l = others.size(); l-- > 0;) {
            coord[l] = rest % this->dims_[static_cast<std::size_t>(others[l])];
            rest /= this->dims_[static_cast<std::size_t>(others[l])];
        }
        for (I k = 0; k < fiber_nnz[f]; ++k, ++e) {
            for (std::size_t l = 0; l < others.size(); ++l) w.index(e, others[l], coord[l]);
            w.index(e, fiber_mode, idx[e]);
            w.value(e, vals[e]);
        }
    }
    return w.finish(vals.size());
}

template <class I, class V>
std::unique_ptr<SparseFormat> detail::build_cfb(const CooTensor& t, const FormatOptions& o, RunControl& control) {
    auto f = std::make_unique<CfbFormat<I, V>>();
    f->fiber_mode = o.mode;
    for (int m = 0; m < t.order(); ++m)
        if (m != o.mode) f->others.push_back(m);
    if (product(t.dims(), f->others) > static_cast<unsigned __int128>(std::numeric_limits<std::uint64_t>::max()))
        throw InputError("CFB for mode " + std::to_string(o.mode + 1) +
                         ": the fiber index (the other modes linearised) needs more than 64 bits for this shape");
    std::vector<int> order = f->others;
    order.push_back(o.mode);
    SortedView<I, V> v = sorted_view<I, V>(t, order, control);
    const int levels = static_cast<int>(f->others.size());
    for (std::uint64_t e = 0; e < v.nnz(); ++e) {
        if (detail::first_difference(v, e, levels) < levels) {
            std::uint64_t id = 0;
            for (std::size_t l = 0; l < f->others.size(); ++l) id = id * t.dim(f->others[l]) + v.idx[l][e];
            f->fiber_id.push_back(id);
            f->fiber_nnz.push_back(0);
        }
        ++f->fiber_nnz.back();
    }
    f->idx = std::move(v.idx.back());
    f->vals = std::move(v.vals);
    return f;
}

// ---- HOCFS ---------------------------------------------------------------------------------

template <class I, class V>
StorageReport HocfsFormat<I, V>::storage() const {
    StorageReport r;
    const int levels = static_cast<int>(level_idx.size());
    for (int l = 0; l < levels; ++l) {
        const auto ll = static_cast<std::size_t>(l);
        const std::uint64_t nodes = level_idx[ll].size();
        const std::string mode_text = std::to_string(order[ll] + 1);
        if (l == 0) {
            r.arrays.push_back(array_info("No", "index of each non-empty slice (mode " + mode_text + ")", nodes, sizeof(I), nodes));
        } else if (l == levels - 1) {
            r.arrays.push_back(array_info("fibers", "index of each non-empty fiber in its slice (mode " + mode_text + ")",
                                          nodes, sizeof(I), nodes));
        } else {
            r.arrays.push_back(array_info("idx_" + std::to_string(order[ll] + 1), "index of each non-empty sub-slice (mode " + mode_text + ")",
                                          nodes, sizeof(I), nodes));
        }
        if (l < levels - 1)
            r.arrays.push_back(array_info(l == 0 ? "num" : "num_" + std::to_string(order[ll] + 1),
                                          "non-empty children of each node", nodes, sizeof(I), nodes));
    }
    const std::string last = std::to_string(order.back() + 1);
    if (ell) {
        r.arrays.push_back(array_info("Ap", "start of each ELL block in Aj", ap.size(), sizeof(I), ap.size() - 1));
        r.arrays.push_back(array_info("Aj", "index of mode " + last + ", padded to each block's longest fiber",
                                      aj.size(), sizeof(I), aj.size()));
        r.arrays.push_back(value_array_info("Av", "value, padded like Aj", av.size(), sizeof(V), av.size()));
    } else {
        r.arrays.push_back(array_info("Ap", "start of each fiber in Aj", ap.size(), sizeof(I), ap.size() - 1));
        r.arrays.push_back(array_info("Aj", "index of mode " + last + " per nonzero", aj.size(), sizeof(I), aj.size()));
        r.arrays.push_back(value_array_info("Av", "value per nonzero", av.size(), sizeof(V), av.size()));
    }
    return r;
}

template <class I, class V>
std::vector<std::pair<std::string, std::string>> HocfsFormat<I, V>::parameters() const {
    return {{"slices", ell ? "ELL" : "CSR"}};
}

template <class I, class V>
CooTensor HocfsFormat<I, V>::to_coo() const {
    const int levels = static_cast<int>(level_idx.size());
    detail::CooWriter<V> w(this->dims_, av.size());  // ELL padding makes this an upper bound: trimmed below
    std::uint64_t out = 0;
    std::vector<std::uint64_t> coord(order.size());
    // Walk the tree: recursion over levels, leaves through Ap.
    auto emit_fiber = [&](std::uint64_t f, std::uint64_t block, std::uint64_t pos_in_block, std::uint64_t rows) {
        if (!ell) {
            for (I e = ap[f]; e < ap[f + 1]; ++e, ++out) {
                for (std::size_t l = 0; l + 1 < order.size(); ++l) w.index(out, order[l], coord[l]);
                w.index(out, order.back(), aj[e]);
                w.value(out, av[e]);
            }
            return;
        }
        const std::uint64_t width = rows ? (ap[block + 1] - ap[block]) / rows : 0;
        for (std::uint64_t c = 0; c < width; ++c) {
            const std::uint64_t e = ap[block] + c * rows + pos_in_block;  // column-major
            if (aj[e] == kEllPad) continue;
            for (std::size_t l = 0; l + 1 < order.size(); ++l) w.index(out, order[l], coord[l]);
            w.index(out, order.back(), aj[e]);
            w.value(out, av[e]);
            ++out;
        }
    };
    // ELL blocks are the nodes of the level above the fibers.
    std::function<void(int, std::uint64_t)> walk = [&](int l, std::uint64_t node) {
        const auto ll = static_cast<std::size_t>(l);
        coord[ll] = level_idx[ll][node];
        if (l == levels - 1) return;
        for (I c = level_ptr[ll][node]; c < level_ptr[ll][node + 1]; ++c) {
            if (l + 1 == levels - 1) {
                coord[ll + 1] = level_idx[ll + 1][c];
                emit_fiber(c, node, c - level_ptr[ll][node], level_ptr[ll][node + 1] - level_ptr[ll][node]);
            } else {
                walk(l + 1, c);
            }
        }
    };
    if (levels == 1) {  // order 2: the "slices" are the fibers
        for (std::uint64_t f = 0; f < level_idx[0].size(); ++f) {
            coord[0] = level_idx[0][f];
            emit_fiber(f, 0, f, level_idx[0].size());
        }
    } else {
        for (std::uint64_t s = 0; s < level_idx[0].size(); ++s) walk(0, s);
    }
    return w.finish(out);
}

template <class I, class V>
std::unique_ptr<SparseFormat> detail::build_hocfs(const CooTensor& t, const FormatOptions& o, bool ell,
                                                  RunControl& control) {
    if (t.order() < 2) throw InputError("HOCFS needs at least 2 modes");
    auto f = std::make_unique<HocfsFormat<I, V>>();
    f->ell = ell;
    f->order = o.mode_order.empty() ? mode_first_order(t.order(), o.mode) : o.mode_order;
    const int levels = t.order() - 1;  // slices ... fibers; the last mode is in Aj
    SortedView<I, V> v = sorted_view<I, V>(t, f->order, control);
    Levels<I> lv = build_levels(v, levels);
    for (int l = 0; l < levels; ++l) {
        const auto ll = static_cast<std::size_t>(l);
        if (l < levels - 1) {
            Column<I> num(lv.nodes(l));
            for (std::uint64_t k = 0; k < num.size(); ++k) num[k] = lv.ptr[ll][k + 1] - lv.ptr[ll][k];
            f->level_num.push_back(std::move(num));
            f->level_ptr.push_back(lv.ptr[ll]);
        }
        f->level_idx.push_back(std::move(lv.fids[ll]));
    }
    const Column<I>& fiber_ptr = lv.ptr.back();  // into the nonzeros
    if (!ell) {
        f->ap = fiber_ptr;
        f->aj = std::move(v.idx.back());
        f->av = std::move(v.vals);
        return f;
    }
    // ELL: one block per node of the level above the fibers (the slices for order 3), padded
    // to the block's longest fiber and stored column-major so that a warp reads a column.
    const std::uint64_t blocks = levels >= 2 ? f->level_idx[static_cast<std::size_t>(levels - 2)].size() : 1;
    auto block_fibers = [&](std::uint64_t b) -> std::pair<std::uint64_t, std::uint64_t> {
        if (levels < 2) return {0, f->fibers()};
        const Column<I>& p = f->level_ptr[static_cast<std::size_t>(levels - 2)];
        return {p[b], p[b + 1]};
    };
    f->ap.resize(blocks + 1);
    std::uint64_t total = 0;
    for (std::uint64_t b = 0; b < blocks; ++b) {
        auto [lo, hi] = block_fibers(b);
        std::uint64_t width = 0;
        for (std::uint64_t q = lo; q < hi; ++q) width = std::max<std::uint64_t>(width, fiber_ptr[q + 1] - fiber_ptr[q]);
        f->ap[b] = static_cast<I>(total);
        total += width * (hi - lo);
    }
    f->ap[blocks] = static_cast<I>(total);
    if (const std::string why = hocfs_ell_refusal(f->order, v.nnz(), total, std::numeric_limits<I>::max()); !why.empty())
        throw InputError(why);
    f->aj.assign(total, HocfsFormat<I, V>::kEllPad);
    f->av.assign(total, V{0});
    for (std::uint64_t b = 0; b < blocks; ++b) {
        auto [lo, hi] = block_fibers(b);
        const std::uint64_t rows = hi - lo;
        for (std::uint64_t q = lo; q < hi; ++q)
            for (std::uint64_t e = fiber_ptr[q]; e < fiber_ptr[q + 1]; ++e) {
                const std::uint64_t at = f->ap[b] + (e - fiber_ptr[q]) * rows + (q - lo);
                f->aj[at] = v.idx.back()[e];
                f->av[at] = v.vals[e];
            }
    }
    return f;
}

// ---- CSF -----------------------------------------------------------------------------------

template <class I, class V>
StorageReport CsfFormat<I, V>::storage() const {
    StorageReport r;
    const int n = static_cast<int>(fids.size());
    for (int l = 0; l < n; ++l) {
        const auto ll = static_cast<std::size_t>(l);
        const std::string mode_text = std::to_string(order[ll] + 1);
        if (l < n - 1)
            r.arrays.push_back(array_info("fptr[" + std::to_string(l) + "]", "start of each level-" + std::to_string(l) +
                                          " node's children", fptr[ll].size(), sizeof(I), fptr[ll].size() - 1));
        r.arrays.push_back(array_info("fids[" + std::to_string(l) + "]", "index of mode " + mode_text + " per level-" +
                                      std::to_string(l) + " node", fids[ll].size(), sizeof(I), fids[ll].size()));
    }
    r.arrays.push_back(value_array_info("vals", "value per nonzero", vals.size(), sizeof(V), vals.size()));
    return r;
}

template <class I, class V>
std::vector<std::pair<std::string, std::string>> CsfFormat<I, V>::parameters() const {
    return {{"mode order", modes_text(order)}};
}

template <class I, class V>
CooTensor CsfFormat<I, V>::to_coo() const {
    const int n = static_cast<int>(order.size());
    detail::CooWriter<V> w(this->dims_, vals.size());
    // Every leaf's ancestors: walk down with one cursor per level.
    std::vector<std::uint64_t> node(static_cast<std::size_t>(n), 0);
    for (std::uint64_t e = 0; e < vals.size(); ++e) {
        for (int l = n - 2; l >= 0; --l) {
            const auto ll = static_cast<std::size_t>(l);
            const std::uint64_t child = l == n - 2 ? e : node[ll + 1];
            while (fptr[ll][node[ll] + 1] <= child) ++node[ll];
        }
        for (int l = 0; l < n - 1; ++l) w.index(e, order[static_cast<std::size_t>(l)], fids[static_cast<std::size_t>(l)][node[static_cast<std::size_t>(l)]]);
        w.index(e, order.back(), fids.back()[e]);
        w.value(e, vals[e]);
    }
    return w.finish(vals.size());
}

std::vector<int> default_mode_order(const std::vector<std::uint64_t>& dims, int mode) {
    // SPLATT's choice: the chosen mode at the root, the others by increasing length.
    std::vector<int> rest;
    for (int m = 0; m < static_cast<int>(dims.size()); ++m)
        if (m != mode) rest.push_back(m);
    std::stable_sort(rest.begin(), rest.end(), [&](int a, int b) {
        return dims[static_cast<std::size_t>(a)] < dims[static_cast<std::size_t>(b)];
    });
    rest.insert(rest.begin(), mode);
    return rest;
}

std::vector<int> default_mode_order(const CooTensor& t, int mode) { return default_mode_order(t.dims(), mode); }

template <class I, class V>
std::unique_ptr<SparseFormat> detail::build_csf(const CooTensor& t, const FormatOptions& o, RunControl& control,
                                                const std::vector<std::uint64_t>* subset) {
    auto f = std::make_unique<CsfFormat<I, V>>();
    f->order = o.mode_order.empty() ? default_mode_order(t, o.mode) : o.mode_order;
    std::vector<int> check = f->order;
    std::sort(check.begin(), check.end());
    if (check != natural_modes(t.order()))
        throw InputError("CSF mode order must list every mode once (1.." + std::to_string(t.order()) + ")");
    const int n = t.order();
    SortedView<I, V> v = sorted_view<I, V>(t, f->order, control, subset);
    Levels<I> lv = build_levels(v, n - 1);
    f->fptr = std::move(lv.ptr);
    f->fids = std::move(lv.fids);
    f->fids.push_back(std::move(v.idx.back()));
    f->vals = std::move(v.vals);
    return f;
}

// ---- sCOO ----------------------------------------------------------------------------------

template <class I, class V>
std::uint64_t ScooFormat<I, V>::chunk_size() const {
    std::uint64_t size = 1;
    for (int m : dense_modes) size *= this->dims_[static_cast<std::size_t>(m)];
    return size;
}

template <class I, class V>
StorageReport ScooFormat<I, V>::storage() const {
    StorageReport r;
    for (std::size_t k = 0; k < sparse_modes.size(); ++k)
        r.arrays.push_back(array_info("ind_" + std::to_string(sparse_modes[k] + 1),
                                      "index of mode " + std::to_string(sparse_modes[k] + 1) + " per dense chunk",
                                      idx[k].size(), sizeof(I), idx[k].size()));
    r.arrays.push_back(value_array_info("val",
                                        std::string("dense chunks over ") +
                                            (dense_modes.size() == 1 ? "mode " : "modes ") + modes_text(dense_modes) +
                                            ", zeros included",
                                        vals.size(), sizeof(V), vals.size()));
    return r;
}

template <class I, class V>
CooTensor ScooFormat<I, V>::entries(bool keep_zeros) const {
    const std::uint64_t size = chunk_size();
    std::uint64_t count = keep_zeros ? vals.size() : 0;
    if (!keep_zeros)
        for (V x : vals) count += x != V{0};
    detail::CooWriter<V> w(this->dims_, count);
    std::uint64_t out = 0;
    for (std::uint64_t c = 0; c < chunks(); ++c)
        for (std::uint64_t p = 0; p < size; ++p) {
            const V x = vals[c * size + p];
            if (!keep_zeros && x == V{0}) continue;
            for (std::size_t k = 0; k < sparse_modes.size(); ++k) w.index(out, sparse_modes[k], idx[k][c]);
            std::uint64_t rest = p;  // row-major over the dense modes, the last fastest
            for (std::size_t k = dense_modes.size(); k-- > 0;) {
                const std::uint64_t d = this->dims_[static_cast<std::size_t>(dense_modes[k])];
                w.index(out, dense_modes[k], rest % d);
                rest /= d;
            }
            w.value(out, x);
            ++out;
        }
    return w.finish(out);
}

template <class I, class V>
std::unique_ptr<SparseFormat> detail::build_scoo(const CooTensor& t, const FormatOptions& o, RunControl& control) {
    auto f = std::make_unique<ScooFormat<I, V>>();
    f->dense_modes = {o.mode};
    for (int m = 0; m < t.order(); ++m)
        if (m != o.mode) f->sparse_modes.push_back(m);
    std::vector<int> order = f->sparse_modes;
    order.push_back(o.mode);
    SortedView<I, V> v = sorted_view<I, V>(t, order, control);
    const int levels = static_cast<int>(f->sparse_modes.size());
    std::uint64_t chunks = 0;
    for (std::uint64_t e = 0; e < v.nnz(); ++e) chunks += detail::first_difference(v, e, levels) < levels || e == 0;
    const std::uint64_t len = t.dim(o.mode);
    if (const std::string why = scoo_refusal(o.mode, chunks, len); !why.empty()) throw InputError(why);
    f->idx.resize(f->sparse_modes.size());
    f->vals.assign(chunks * len, V{0});
    std::uint64_t chunk = 0;
    for (std::uint64_t e = 0; e < v.nnz(); ++e) {
        if (e == 0 || detail::first_difference(v, e, levels) < levels) {
            if (e > 0) ++chunk;
            for (std::size_t k = 0; k < f->sparse_modes.size(); ++k) f->idx[k].push_back(v.idx[k][e]);
        }
        f->vals[chunk * len + v.idx.back()[e]] = v.vals[e];
    }
    return f;
}

// ---- instantiations ------------------------------------------------------------------------

#define TS_INSTANTIATE(I, V)                                                                                     \
    template class CooFormat<I, V>;                                                                              \
    template class HocsrFormat<I, V>;                                                                            \
    template class CfbFormat<I, V>;                                                                              \
    template class HocfsFormat<I, V>;                                                                            \
    template class CsfFormat<I, V>;                                                                              \
    template class ScooFormat<I, V>;                                                                             \
    template std::unique_ptr<SparseFormat> detail::build_coo<I, V>(const CooTensor&, const FormatOptions&, RunControl&);   \
    template std::unique_ptr<SparseFormat> detail::build_hocsr<I, V>(const CooTensor&, const FormatOptions&, RunControl&); \
    template std::unique_ptr<SparseFormat> detail::build_cfb<I, V>(const CooTensor&, const FormatOptions&, RunControl&);   \
    template std::unique_ptr<SparseFormat> detail::build_hocfs<I, V>(const CooTensor&, const FormatOptions&, bool,         \
                                                                      RunControl&);                                       \
    template std::unique_ptr<SparseFormat> detail::build_csf<I, V>(const CooTensor&, const FormatOptions&, RunControl&,    \
                                                                    const std::vector<std::uint64_t>*);                   \
    template std::unique_ptr<SparseFormat> detail::build_scoo<I, V>(const CooTensor&, const FormatOptions&, RunControl&);

TS_INSTANTIATE(std::uint32_t, float)
TS_INSTANTIATE(std::uint32_t, double)
TS_INSTANTIATE(std::uint64_t, float)
TS_INSTANTIATE(std::uint64_t, double)

}  // namespace tscope
