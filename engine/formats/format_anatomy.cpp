// The teaching view's model of each format: walks the arrays the way the format's own readers
// do (to_coo), recording for each nonzero the cells that locate it.
#include "tscope/formats/format_anatomy.hpp"
#include "tscope/text_words.hpp"

#include <algorithm>
#include <cstdio>

#include "tscope/error.hpp"
#include "tscope/formats/format_registry.hpp"
#include "tscope/formats/format_visit.hpp"

namespace tscope {

namespace {

template <class C>
AnatomyArray column(std::string name, std::string meaning, const C& c) {
    AnatomyArray a{std::move(name), std::move(meaning), {}};
    for (auto x : c) {
        if constexpr (std::is_floating_point_v<std::decay_t<decltype(x)>>) {
            char buf[32];
            std::snprintf(buf, sizeof buf, "%g", static_cast<double>(x));
            a.cells.emplace_back(buf);
        } else {
            a.cells.push_back(std::to_string(static_cast<std::uint64_t>(x)));
        }
    }
    return a;
}

// Adds the arrays; returns the index of the first.
std::uint32_t add(FormatAnatomy& out, AnatomyArray a) {
    out.arrays.push_back(std::move(a));
    return static_cast<std::uint32_t>(out.arrays.size() - 1);
}

template <class I, class V>
void lay_out(const CooFormat<I, V>& format, FormatAnatomy& out) {
    const auto* x = &format;
    const std::size_t n = x->idx.size();
    std::vector<std::uint32_t> ids;
    for (int m : x->order) ids.push_back(add(out, column("T_" + std::to_string(m + 1), "index of mode " + std::to_string(m + 1), x->idx[static_cast<std::size_t>(m)])));
    const std::uint32_t v = add(out, column("T_v", "value per nonzero", x->vals));
    for (std::uint64_t z = 0; z < x->vals.size(); ++z) {
        AnatomyEntry e;
        e.coord.resize(n);
        for (std::size_t m = 0; m < n; ++m) e.coord[m] = x->idx[m][z];
        e.value = static_cast<double>(x->vals[z]);
        for (std::uint32_t a : ids) e.cells.emplace_back(a, z);
        e.cells.emplace_back(v, z);
        out.entries.push_back(std::move(e));
    }
}

template <class I, class V>
void lay_out(const HocsrFormat<I, V>& format, FormatAnatomy& out) {
    const SparseFormat& f = format;
    const auto* x = &format;
    const std::uint32_t rp = add(out, column("row_ptr", "start of each unfolded row: every index tuple of the other modes", x->row_ptr));
    const std::uint32_t cl = add(out, column("col", "index of mode " + std::to_string(x->order.back() + 1), x->col));
    const std::uint32_t v = add(out, column("T_v", "value per nonzero", x->vals));
    const int n = static_cast<int>(x->order.size());
    const auto& dims = f.dims();
    for (std::uint64_t row = 0; row < x->rows(); ++row)
        for (std::uint64_t z = x->row_ptr[row]; z < x->row_ptr[row + 1]; ++z) {
            AnatomyEntry e;
            e.coord.resize(static_cast<std::size_t>(n));
            std::uint64_t rest = row;
            for (int l = n - 2; l >= 0; --l) {
                const auto m = static_cast<std::size_t>(x->order[static_cast<std::size_t>(l)]);
                e.coord[m] = rest % dims[m];
                rest /= dims[m];
            }
            e.coord[static_cast<std::size_t>(x->order.back())] = x->col[z];
            e.value = static_cast<double>(x->vals[z]);
            e.cells = {{rp, row}, {rp, row + 1}, {cl, z}, {v, z}};
            out.entries.push_back(std::move(e));
        }
}

template <class I, class V>
void lay_out(const CfbFormat<I, V>& format, FormatAnatomy& out) {
    const SparseFormat& f = format;
    const auto* x = &format;
    const std::uint32_t tb = add(out, column("Tb", "linear index of each fiber's other modes", x->fiber_id));
    const std::uint32_t tn = add(out, column("Tn", "nonzeros per fiber", x->fiber_nnz));
    const std::uint32_t fi = add(out, column("fibers.idx", "index of mode " + std::to_string(x->fiber_mode + 1), x->idx));
    const std::uint32_t fv = add(out, column("fibers.value", "value per nonzero", x->vals));
    std::uint64_t z = 0;
    for (std::uint64_t q = 0; q < x->fiber_id.size(); ++q)
        for (I k = 0; k < x->fiber_nnz[q]; ++k, ++z) {
            AnatomyEntry e;
            e.coord.resize(f.dims().size());
            std::uint64_t rest = x->fiber_id[q];
            for (std::size_t l = x->others.size(); l-- > 0;) {
                const auto m = static_cast<std::size_t>(x->others[l]);
                e.coord[m] = rest % f.dims()[m];
                rest /= f.dims()[m];
            }
            e.coord[static_cast<std::size_t>(x->fiber_mode)] = x->idx[z];
            e.value = static_cast<double>(x->vals[z]);
            e.cells = {{tb, q}, {tn, q}, {fi, z}, {fv, z}};
            out.entries.push_back(std::move(e));
        }
}

template <class I, class V>
void lay_out(const HocfsFormat<I, V>& format, FormatAnatomy& out) {
    const SparseFormat& f = format;
    const auto* x = &format;
    const int levels = static_cast<int>(x->level_idx.size());
    std::vector<std::uint32_t> idx_id, num_id;
    for (int l = 0; l < levels; ++l) {
        const auto ll = static_cast<std::size_t>(l);
        const std::string mode = std::to_string(x->order[ll] + 1);
        idx_id.push_back(add(out, column(l == 0 ? "No" : l == levels - 1 ? "fibers" : "idx_" + mode,
                                         "index of each non-empty " + std::string(l == 0 ? "slice" : l == levels - 1 ? "fiber" : "sub-slice") +
                                             " (mode " + mode + ")",
                                         x->level_idx[ll])));
        if (l < levels - 1)
            num_id.push_back(add(out, column(l == 0 ? "num" : "num_" + mode, "children of each node", x->level_num[ll])));
    }
    // Where the layout differs from the paper's, the description says so (audit 74b F1, F12):
    // Ap runs on over all slices, where hocfs Table 1 starts each slice's own at 0; ELL blocks
    // are stored a column at a time (a warp reads one), where Fig. 10 keeps a fiber's row whole.
    const std::uint32_t ap = add(
        out, column("Ap",
                    x->ell ? "start of each slice's padded block, stored column by column (hocfs Fig. 10: row by row)"
                           : "start of each fiber, counted over all slices (hocfs Table 1: from 0 in each slice)",
                    x->ap));
    AnatomyArray aj = column("Aj", "index of mode " + std::to_string(x->order.back() + 1) + (x->ell ? " (* = padding)" : ""), x->aj);
    AnatomyArray av = column("Av", "value per nonzero" + std::string(x->ell ? " (padding 0)" : ""), x->av);
    if (x->ell)
        for (std::size_t i = 0; i < x->aj.size(); ++i)
            if (x->aj[i] == HocfsFormat<I, V>::kEllPad) aj.cells[i] = "*";
    const std::uint32_t aj_id = add(out, std::move(aj)), av_id = add(out, std::move(av));
    const std::uint64_t fibers = x->fibers();
    // each fiber's ancestors, walking level_ptr up
    for (std::uint64_t q = 0; q < fibers; ++q) {
        std::vector<std::uint64_t> node(static_cast<std::size_t>(levels));
        node.back() = q;
        for (int l = levels - 2; l >= 0; --l) {
            const auto& ptr = x->level_ptr[static_cast<std::size_t>(l)];
            std::uint64_t parent = 0;
            while (parent + 1 < ptr.size() && ptr[parent + 1] <= node[static_cast<std::size_t>(l) + 1]) ++parent;
            node[static_cast<std::size_t>(l)] = parent;
        }
        std::vector<std::pair<std::uint64_t, std::uint64_t>> slots;  // (entry, position) of this fiber's nonzeros
        if (!x->ell) {
            for (std::uint64_t z = x->ap[q]; z < x->ap[q + 1]; ++z) slots.emplace_back(z, z);
        } else {  // the block is the fiber's parent node; column-major, rows = its fibers
            const std::uint64_t b = levels >= 2 ? node[static_cast<std::size_t>(levels) - 2] : 0;
            const std::uint64_t first = x->block_first(b), rows = x->block_first(b + 1) - first;
            for (std::uint64_t p = x->ap[b] + (q - first); p < x->ap[b + 1] && x->aj[p] != HocfsFormat<I, V>::kEllPad; p += rows)
                slots.emplace_back(p, p);
        }
        for (const auto& [z, p] : slots) {
            AnatomyEntry e;
            e.coord.resize(f.dims().size());
            for (int l = 0; l < levels; ++l)
                e.coord[static_cast<std::size_t>(x->order[static_cast<std::size_t>(l)])] = x->level_idx[static_cast<std::size_t>(l)][node[static_cast<std::size_t>(l)]];
            e.coord[static_cast<std::size_t>(x->order.back())] = x->aj[p];
            e.value = static_cast<double>(x->av[p]);
            for (int l = 0; l < levels; ++l) {
                e.cells.emplace_back(idx_id[static_cast<std::size_t>(l)], node[static_cast<std::size_t>(l)]);
                if (l < levels - 1) e.cells.emplace_back(num_id[static_cast<std::size_t>(l)], node[static_cast<std::size_t>(l)]);
            }
            e.cells.emplace_back(ap, x->ell ? (levels >= 2 ? node[static_cast<std::size_t>(levels) - 2] : 0) : q);
            e.cells.emplace_back(aj_id, p);
            e.cells.emplace_back(av_id, p);
            out.entries.push_back(std::move(e));
        }
    }
}

// A CSF tree (also B-CSF's and each MM-CSF partition's): prefix names the tree.
template <class I, class V>
void csf_tree(const CsfFormat<I, V>& x, const std::string& prefix, const std::vector<std::uint64_t>& dims, FormatAnatomy& out) {
    const int n = static_cast<int>(x.fids.size());
    std::vector<std::uint32_t> fids_id, fptr_id;
    for (int l = 0; l < n; ++l) {
        const auto ll = static_cast<std::size_t>(l);
        const std::string mode = std::to_string(x.order[ll] + 1);
        if (l < n - 1) fptr_id.push_back(add(out, column(prefix + "fptr[" + std::to_string(l) + "]", "first child of each level-" + std::to_string(l) + " node", x.fptr[ll])));
        fids_id.push_back(add(out, column(prefix + "fids[" + std::to_string(l) + "]", "index of each level-" + std::to_string(l) + " node (mode " + mode + ")", x.fids[ll])));
    }
    const std::uint32_t v = add(out, column(prefix + "vals", "value per nonzero", x.vals));
    std::vector<std::uint64_t> node(static_cast<std::size_t>(n));
    auto visit = [&](auto&& self, int l, std::uint64_t k) -> void {
        node[static_cast<std::size_t>(l)] = k;
        if (l == n - 1) {
            AnatomyEntry e;
            e.coord.resize(dims.size());
            for (int m = 0; m < n; ++m)
                e.coord[static_cast<std::size_t>(x.order[static_cast<std::size_t>(m)])] = x.fids[static_cast<std::size_t>(m)][node[static_cast<std::size_t>(m)]];
            e.value = static_cast<double>(x.vals[k]);
            for (int m = 0; m < n; ++m) {
                if (m < n - 1) e.cells.emplace_back(fptr_id[static_cast<std::size_t>(m)], node[static_cast<std::size_t>(m)]);
                e.cells.emplace_back(fids_id[static_cast<std::size_t>(m)], node[static_cast<std::size_t>(m)]);
            }
            e.cells.emplace_back(v, k);
            out.entries.push_back(std::move(e));
            return;
        }
        const auto& ptr = x.fptr[static_cast<std::size_t>(l)];
        for (std::uint64_t c = ptr[k]; c < ptr[k + 1]; ++c) self(self, l + 1, c);
    };
    for (std::uint64_t s = 0; s < x.nodes(0); ++s) visit(visit, 0, s);
}

template <class I, class V>
void lay_out(const CsfFormat<I, V>& x, FormatAnatomy& out) {
    csf_tree(x, "", x.dims(), out);
}

template <class I, class V>
void lay_out(const BcsfFormat<I, V>& x, FormatAnatomy& out) {
    csf_tree(x.csf, "", x.dims(), out);
}

template <class I, class V>
void lay_out(const MmcsfFormat<I, V>& x, FormatAnatomy& out) {
    for (std::size_t p = 0; p < x.partitions.size(); ++p)
        csf_tree(x.partitions[p], "P" + std::to_string(p + 1) + " (leaf mode " + std::to_string(x.leaf_mode[p] + 1) + ") ", x.dims(), out);
}

template <class I, class V>
void lay_out(const HicooFormat<I, V>& format, FormatAnatomy& out) {
    const SparseFormat& f = format;
    const auto* x = &format;
    const std::size_t n = f.dims().size();
    const std::uint32_t bp = add(out, column("bptr", "first nonzero of each block", x->bptr));
    std::vector<std::uint32_t> bi, ei;
    for (std::size_t m = 0; m < n; ++m) bi.push_back(add(out, column("binds_" + std::to_string(m + 1), "block coordinate (mode " + std::to_string(m + 1) + ")", x->binds[m])));
    for (std::size_t m = 0; m < n; ++m) {
        AnatomyArray a{"einds_" + std::to_string(m + 1), "offset inside the block (mode " + std::to_string(m + 1) + ")", {}};
        for (std::uint64_t z = 0; z < x->vals.size(); ++z) a.cells.push_back(std::to_string(x->offset(static_cast<int>(m), z)));
        ei.push_back(add(out, std::move(a)));
    }
    const std::uint32_t v = add(out, column("vals", "value per nonzero", x->vals));
    for (std::uint64_t b = 0; b < x->blocks(); ++b)
        for (std::uint64_t z = x->bptr[b]; z < x->bptr[b + 1]; ++z) {
            AnatomyEntry e;
            e.coord.resize(n);
            for (std::size_t m = 0; m < n; ++m) e.coord[m] = (static_cast<std::uint64_t>(x->binds[m][b]) << x->bits) | x->offset(static_cast<int>(m), z);
            e.value = static_cast<double>(x->vals[z]);
            e.cells.emplace_back(bp, b);
            for (std::size_t m = 0; m < n; ++m) e.cells.emplace_back(bi[m], b), e.cells.emplace_back(ei[m], z);
            e.cells.emplace_back(v, z);
            out.entries.push_back(std::move(e));
        }
}

// ALTO, bit by bit (Helal et al., ICS 2021, Fig. 2): which mode each bit of the linearized index
// carries, each mode's mask, and every nonzero's index in binary with its bits labelled by the
// mode and bit they come from (i1 = bit 1 of mode 1's index), most significant first.
template <class I, class V>
void lay_out(const AltoFormat<I, V>& x, FormatAnatomy& out) {
    const std::size_t n = x.layout.lo.size();
    const unsigned bits = x.layout.bits;
    // bit b of a two-word value (the high word past bit 63)
    auto bit_of = [](std::uint64_t lo, std::uint64_t hi, unsigned b) { return ((b < 64 ? lo >> b : hi >> (b - 64)) & 1) != 0; };
    const std::string letters = "ijklmnopqrstuvwx";
    auto name = [&](std::size_t m) { return n <= letters.size() ? std::string(1, letters[m]) : "m" + std::to_string(m + 1) + "_"; };
    // bit b of the linearized index: mode m's bit k
    std::vector<std::string> origin(bits);
    for (std::size_t m = 0; m < n; ++m) {
        unsigned k = 0;
        for (unsigned b = 0; b < bits; ++b)
            if (bit_of(x.layout.lo[m], x.layout.hi[m], b)) origin[b] = name(m) + std::to_string(k++);
    }
    AnatomyArray layout{"bits", "what each bit of the linearized index holds, from bit 0 (least significant) up", {}};
    for (unsigned b = 0; b < bits; ++b) layout.cells.push_back("b" + std::to_string(b) + ": " + origin[b]);
    const std::uint32_t lay = add(out, std::move(layout));
    AnatomyArray masks{"masks", "each mode's bits in the linearized index (binary, most significant first)", {}};
    for (std::size_t m = 0; m < n; ++m) {
        std::string text = name(m) + ": ";
        for (unsigned b = bits; b-- > 0;) text += bit_of(x.layout.lo[m], x.layout.hi[m], b) ? '1' : '0';
        masks.cells.push_back(text);
    }
    const std::uint32_t mk = add(out, std::move(masks));
    AnatomyArray lin{"lidx", "linearized index per nonzero, ascending: its value and its bits, most significant first", {}};
    for (std::uint64_t z = 0; z < x.vals.size(); ++z) {
        const std::uint64_t hi = x.layout.wide() ? x.lidx_hi[z] : 0;
        std::string text = (x.layout.wide() ? std::string() : std::to_string(x.lidx[z]) + " = ");
        for (unsigned b = bits; b-- > 0;) text += bit_of(x.lidx[z], hi, b) ? '1' : '0';
        lin.cells.push_back(text);  // which mode each bit carries: the "bits" array
    }
    const std::uint32_t li = add(out, std::move(lin));
    const std::uint32_t v = add(out, column("vals", "value per nonzero", x.vals));
    const std::uint32_t pp = add(out, column("part_ptr", "first nonzero of each partition (one per thread)", x.part_ptr));
    for (std::uint64_t z = 0; z < x.vals.size(); ++z) {
        AnatomyEntry e;
        for (std::size_t m = 0; m < n; ++m) e.coord.push_back(x.index(static_cast<int>(m), z));
        e.value = static_cast<double>(x.vals[z]);
        e.cells.emplace_back(li, z);
        for (std::size_t m = 0; m < n; ++m) e.cells.emplace_back(mk, m);
        for (unsigned b = 0; b < bits; ++b)
            if (bit_of(x.lidx[z], x.layout.wide() ? x.lidx_hi[z] : 0, b)) e.cells.emplace_back(lay, b);  // the bits this nonzero sets
        const auto part = std::upper_bound(x.part_ptr.begin(), x.part_ptr.end(), z) - x.part_ptr.begin() - 1;
        e.cells.emplace_back(pp, static_cast<std::uint64_t>(part));
        e.cells.emplace_back(v, z);  // the value cell last, as in every layout
        out.entries.push_back(std::move(e));
    }
}

}  // namespace

FormatAnatomy format_anatomy(const SparseFormat& format, std::uint64_t max_nnz) {
    if (!format_entry(format.kind()).teaching_view)
        throw InputError(format.name() + " is not in the teaching view: its dense tiles / chunks are not cells of a small example");
    if (const std::uint64_t nnz = format.to_coo().nnz(); nnz > max_nnz)  // before any text is made
        throw InputError("the teaching view shows up to " + grouped(max_nnz) + " nonzeros; this tensor has " +
                         grouped(nnz));
    FormatAnatomy out;
    out.format = format.name();
    visit_format(format, overloaded{[&](const auto& f) -> decltype(lay_out(f, out)) { lay_out(f, out); },
                                    [&](const SparseFormat& f) { throw InputError("no teaching layout for " + f.name()); }});
    return out;
}

}  // namespace tscope
