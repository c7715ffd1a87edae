// The builders behind build_format(), one per format, typed by index and value type.
// Private to the engine.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "tscope/formats/format.hpp"

namespace tscope {
// SPLATT's CSF order: the mode at the root, the others by increasing length (paper_formats.cpp).
std::vector<int> default_mode_order(const std::vector<std::uint64_t>& dims, int mode);
std::vector<int> default_mode_order(const CooTensor& t, int mode);
// Modes in the user's numbering, comma-separated ("2,3,1"): mode orders in messages, parameters
// and bench rows' paths (paper_formats.cpp).
std::string modes_text(const std::vector<int>& modes);
// Why a build would be refused for its size ("" where it is not): HOCSR in mode order `order`
// over a tensor of `dims` (a row per index tuple of all modes but the last, kHocsrMaxRows at
// most), HOCFS-ELL padding `nnz` nonzeros to `cells` (index_max: the index type's largest
// value), sCOO holding `fibers` dense fibers of `length`. The builders, the advisor and the
// streamed survey's predictions share them.
std::string hocsr_refusal(const std::vector<std::uint64_t>& dims, const std::vector<int>& order);
std::string hocfs_ell_refusal(const std::vector<int>& order, std::uint64_t nnz, std::uint64_t cells, std::uint64_t index_max);
std::string scoo_refusal(int mode, std::uint64_t fibers, std::uint64_t length);
// The chosen mode first, then the others ascending (hocfs "according to the n-th dimension"): the
// default order of COO, HOCSR and HOCFS.
std::vector<int> mode_first_order(int order, int mode);
// The mode-`mode` fiber through every nonzero (the column of the unfolding X_(mode) it lies in),
// numbered 0.. in sorted order; *count gets the number of fibers. Parallel; fewer than 2^32 nonzeros.
std::vector<std::uint32_t> mode_fiber_ids(const CooTensor& t, int mode, std::uint64_t* count);
}  // namespace tscope

namespace tscope::detail {

template <class I, class V>
std::unique_ptr<SparseFormat> build_coo(const CooTensor& t, const FormatOptions& o, RunControl& control);
template <class I, class V>
std::unique_ptr<SparseFormat> build_hocsr(const CooTensor& t, const FormatOptions& o, RunControl& control);
template <class I, class V>
std::unique_ptr<SparseFormat> build_cfb(const CooTensor& t, const FormatOptions& o, RunControl& control);
template <class I, class V>
std::unique_ptr<SparseFormat> build_hocfs(const CooTensor& t, const FormatOptions& o, bool ell, RunControl& control);
template <class I, class V>
std::unique_ptr<SparseFormat> build_csf(const CooTensor& t, const FormatOptions& o, RunControl& control,
                                        const std::vector<std::uint64_t>* subset = nullptr);
template <class I, class V>
std::unique_ptr<SparseFormat> build_scoo(const CooTensor& t, const FormatOptions& o, RunControl& control);

template <class I, class V>
std::unique_ptr<SparseFormat> build_bcsf(const CooTensor& t, const FormatOptions& o, RunControl& control);
template <class I, class V>
std::unique_ptr<SparseFormat> build_mmcsf(const CooTensor& t, const FormatOptions& o, RunControl& control);
template <class I, class V>
std::unique_ptr<SparseFormat> build_hicoo(const CooTensor& t, const FormatOptions& o, RunControl& control);

template <class I, class V>
std::unique_ptr<SparseFormat> build_alto(const CooTensor& t, const FormatOptions& o, RunControl& control);

template <class I, class V>
std::unique_ptr<SparseFormat> build_blco(const CooTensor& t, const FormatOptions& o, RunControl& control);

template <class I, class V>
std::unique_ptr<SparseFormat> build_hls(const CooTensor& t, const FormatOptions& o, RunControl& control);

// The registry's builders all take (tensor, options, control); these name the variants above.
template <class I, class V>
std::unique_ptr<SparseFormat> build_hocfs_csr(const CooTensor& t, const FormatOptions& o, RunControl& control) {
    return build_hocfs<I, V>(t, o, false, control);
}
template <class I, class V>
std::unique_ptr<SparseFormat> build_hocfs_ell(const CooTensor& t, const FormatOptions& o, RunControl& control) {
    return build_hocfs<I, V>(t, o, true, control);
}
template <class I, class V>
std::unique_ptr<SparseFormat> build_csf_tree(const CooTensor& t, const FormatOptions& o, RunControl& control) {
    return build_csf<I, V>(t, o, control);
}

}  // namespace tscope::detail
