// Each format's storage from the profile's counts: the arrays its storage() reports (hocfs Tables
// 4-6 in words, with the real widths as in format.hpp), one formula per format. The tests build
// every format and compare: they agree byte for byte where `exact` is set.
#include "tscope/formats/alto_format.hpp"
#include <algorithm>
#include <bit>

#include "tscope/advisor/advisor.hpp"
#include "tscope/error.hpp"
#include "tscope/formats/hls_format.hpp"
#include "tscope/kernels/spttm.hpp"

namespace tscope {

namespace {

// CSF over a tree (paper_formats.cpp, CsfFormat::storage): fptr[l] (nodes + 1) for every level
// above the nonzeros, fids[l] per level, vals per nonzero. fiber_nodes replaces the fiber level's
// count (B-CSF's split fibers).
std::uint64_t csf_bytes(const TreeCounts& c, std::uint64_t I, std::uint64_t V, std::uint64_t fiber_nodes) {
    const std::size_t n = c.nodes.size();
    std::uint64_t b = c.nnz * V;
    for (std::size_t l = 0; l < n; ++l) {
        const std::uint64_t nodes = (n >= 2 && l == n - 2) ? fiber_nodes : c.nodes[l];
        b += nodes * I;                     // fids[l]
        if (l + 1 < n) b += (nodes + 1) * I;  // fptr[l]
    }
    return b;
}

std::uint64_t fiber_nodes(const TreeCounts& c) { return c.nodes.size() >= 2 ? c.nodes[c.nodes.size() - 2] : 0; }

// HOCFS (HocfsFormat::storage): No/idx/fibers per level above the nonzeros, num for all but the
// fiber level, then Ap, Aj, Av (CSR: per fiber and per nonzero; ELL: per block and per padded cell).
std::uint64_t hocfs_bytes(const TreeCounts& c, std::uint64_t I, std::uint64_t V, bool ell) {
    const std::size_t levels = c.nodes.size() - 1;  // slices .. fibers
    std::uint64_t b = 0;
    for (std::size_t l = 0; l < levels; ++l) b += c.nodes[l] * I * (l + 1 < levels ? 2 : 1);
    if (ell) return b + (c.ell_blocks + 1) * I + c.ell_cells * (I + V);
    return b + (fiber_nodes(c) + 1) * I + c.nnz * (I + V);
}

std::uint64_t formula_storage(const TensorProfile& p, KernelKind kernel, FormatKind kind, int mode, bool* exact,
                              std::uint64_t rank);

// HOCFS's tree: SpTV's order, or, where a streamed profile counted it, the default build's.
const TreeCounts& hocfs_tree(const TensorProfile& p, KernelKind kernel, std::size_t m) {
    return kernel != KernelKind::SpTV && !p.root_trees.empty() ? p.root_trees[m] : p.sptv_trees[m];
}

// A streamed profile's counts (TensorProfile::sketched) for the format: InputError where one it
// needs was not determined, false where one is sketched.
bool counts_exact(const TensorProfile& p, KernelKind kernel, FormatKind kind, std::size_t m) {
    const TensorProfile::Sketched& s = p.sketched;
    if (!s.any) return true;
    const bool hocfs_root = kernel != KernelKind::SpTV && !p.root_trees.empty();
    auto refuse = [](const std::string& why) {
        if (!why.empty()) throw InputError(why);
    };
    switch (kind) {
    case FormatKind::CFB:
    case FormatKind::sCOO: return !s.fibers[m];
    case FormatKind::HOCFS_ELL: refuse(hocfs_root ? s.root_ell_missing[m] : s.sptv_ell_missing[m]); [[fallthrough]];
    case FormatKind::HOCFS_CSR: return hocfs_root ? !s.root_trees[m] : !s.sptv_trees[m];
    case FormatKind::CSF: return kernel == KernelKind::SpTV ? !s.sptv_trees[m] : !s.csf_trees[m];
    case FormatKind::BCSF: return !s.csf_trees[m];
    case FormatKind::MMCSF: refuse(s.mmcsf_missing); return true;
    case FormatKind::HLS: refuse(s.hls_missing); return true;
    default: return true;
    }
}

std::uint64_t product_of(const std::vector<std::uint64_t>& dims, std::size_t count) {
    unsigned __int128 p = 1;
    for (std::size_t m = 0; m < count; ++m) p *= dims[m];
    return p > UINT64_MAX ? UINT64_MAX : static_cast<std::uint64_t>(p);
}

}  // namespace

std::uint64_t predicted_storage(const TensorProfile& p, KernelKind kernel, FormatKind kind, int mode, bool* exact,
                                std::uint64_t rank) {
    const int N = p.order();
    if (mode < 0 || mode >= N) mode = 0;
    const auto m = static_cast<std::size_t>(mode);
    const bool counted = counts_exact(p, kernel, kind, m);
    const std::uint64_t bytes = formula_storage(p, kernel, kind, mode, exact, rank);
    if (exact) *exact = *exact && counted;
    return bytes;
}

namespace {

std::uint64_t formula_storage(const TensorProfile& p, KernelKind kernel, FormatKind kind, int mode, bool* exact,
                              std::uint64_t rank) {
    if (exact) *exact = true;
    const std::uint64_t I = p.index_bytes, V = p.value_bytes, Z = p.nnz;
    const int N = p.order();
    const auto m = static_cast<std::size_t>(mode);
    switch (kind) {
    case FormatKind::COO: return Z * (static_cast<std::uint64_t>(N) * I + V);
    case FormatKind::ALTO: {  // a linearized index (one or two words) and the value per nonzero; per
        // partition (one per thread) its first nonzero and an interval per mode; a mask per mode and word
        const std::uint64_t P = static_cast<std::uint64_t>(alto_partitions()), words = alto_layout(p.dims).wide() ? 2 : 1;
        return Z * (8 * words + V) + (P + 1) * 8 + 2 * static_cast<std::uint64_t>(N) * P * 8 + static_cast<std::uint64_t>(N) * 8 * words;
    }
    case FormatKind::BLCO:  // a 64-bit key and the value per nonzero; its blocks' pointers and high bits aside
        if (exact) *exact = false;
        return Z * (8 + V);
    case FormatKind::HOCSR: {  // row_ptr over every index tuple of the first N-1 modes of its order
        std::vector<std::uint64_t> order_dims;
        if (!p.options.mode_order.empty()) {  // the order given (--mode-order), for every mode
            for (int k : p.options.mode_order) order_dims.push_back(p.dims[static_cast<std::size_t>(k)]);
        } else {
            if (kernel != KernelKind::SpTV) order_dims.push_back(p.dims[m]);  // SpTV: the mode is the column
            for (int k = 0; k < N; ++k)
                if (k != mode) order_dims.push_back(p.dims[static_cast<std::size_t>(k)]);
        }
        const std::uint64_t rows = product_of(order_dims, static_cast<std::size_t>(N - 1));
        return (rows + 1) * I + Z * (I + V);
    }
    case FormatKind::CFB: {  // Tb (8 bytes), Tn per mode-n fiber; idx and value per nonzero
        const std::uint64_t F = p.stats.modes[m].fibers;
        return F * (8 + I) + Z * (I + V);
    }
    case FormatKind::HOCFS_CSR: return hocfs_bytes(hocfs_tree(p, kernel, m), I, V, false);
    case FormatKind::HOCFS_ELL: return hocfs_bytes(hocfs_tree(p, kernel, m), I, V, true);
    case FormatKind::CSF: {
        // SpTV's tree has the mode at the leaves; TTMc's the other modes ascending below the root,
        // where the profile counted SPLATT's order (by length): the same unless lengths reorder them
        if (kernel == KernelKind::SpTV) return csf_bytes(p.sptv_trees[m], I, V, fiber_nodes(p.sptv_trees[m]));
        if (exact && kernel == KernelKind::TTMc) *exact = std::is_sorted(p.csf_trees[m].order.begin() + 1, p.csf_trees[m].order.end());
        return csf_bytes(p.csf_trees[m], I, V, fiber_nodes(p.csf_trees[m]));
    }
    case FormatKind::BCSF: {  // CSF with split fibers, plus the slice bins (bin_slices, bin_ptr)
        const TreeCounts& c = p.csf_trees[m];
        const auto bins = static_cast<std::uint64_t>(std::bit_width(c.max_slice_nnz));
        return csf_bytes(c, I, V, c.split_fibers) + c.nodes[0] * I + (bins + 1) * I;
    }
    case FormatKind::MMCSF: {
        std::uint64_t b = 0;
        for (const TreeCounts& c : p.mmcsf_parts) b += csf_bytes(c, I, V, fiber_nodes(c));
        return b;
    }
    case FormatKind::HiCOO: {  // bptr, a block coordinate per mode, 1- or 2-byte offsets, values
        const std::uint64_t B = p.hicoo_blocks, e = p.options.hicoo_bits <= 8 ? 1 : 2;
        return (B + 1) * I + static_cast<std::uint64_t>(N) * (B * I + Z * e) + Z * V;
    }
    case FormatKind::HLS: {  // HLS-S per sparse nonzero; HLS-D per dense tile (bitmap 4096 bits)
        if (!p.hls_defined) throw InputError(hls_refusal(p.dims));
        // TTMc builds HLS at its own threshold (FormatOptions::hls_ttmc_threshold)
        const bool ttmc = kernel == KernelKind::TTMc;
        const std::uint64_t ib = p.hls_index_bytes, T = ttmc ? p.hls_ttmc_dense_tiles : p.hls_dense_tiles,
                            dense = ttmc ? p.hls_ttmc_dense_nnz : p.hls_dense_nnz;
        return (Z - dense) * (ib + V) + T * (ib + kHlsBitmapWords * 8) + (T + 1) * I + dense * V;
    }
    case FormatKind::sCOO: {
        if (exact) *exact = false;  // the chunks' index widths follow the builder's choice
        if (kernel == KernelKind::SpTTM && rank > 0) {
            // what SspTTM reads: a TTM chain's product X x_first U, a chunk of R values (8 bytes
            // each) and N-1 indices per fiber of the chain's first mode; formats' sCOO had read
            // 14.4 GB on Last.fm where bench runs SpTTM on sCOO in 7 ms (sweep 75a F1)
            const std::uint64_t chunks = p.stats.modes[static_cast<std::size_t>(sspttm_chain_mode(N, mode))].fibers;
            return chunks * (rank * 8 + static_cast<std::uint64_t>(N - 1) * I);
        }
        const std::uint64_t F = p.stats.modes[m].fibers;  // one dense fiber of dims[mode] values per mode-`mode` fiber
        return F * (static_cast<std::uint64_t>(N - 1) * I + p.dims[m] * V);
    }
    }
    return 0;
}

}  // namespace

}  // namespace tscope
