// The cuda backend of SpTV: flattens a format into gpu_sptv.hpp's arrays (fp32 values and
// vector, 32-bit indices), runs its kernel, and writes the fiber values into the result whose
// fibers and coordinates the host lays out (the same layout as the omp backend's).
#include <limits>

#include "cpu/cpu_kernels.hpp"
#include "cuda/gpu_sptv.hpp"
#include "kernels/sptv_flatten.hpp"
#include "tscope/error.hpp"
#include "tscope/formats/format_visit.hpp"

namespace tscope {

namespace {

template <class T, class C>
std::vector<T> convert(const C& c) {
    return std::vector<T>(c.begin(), c.end());
}

// HOCFS (Fig. 9-10) and CFB (Alg. 5, Tn gives the bucket offsets): the pipeline's flattening.
void run_flattened(const SparseFormat& format, const std::vector<float>& v, std::vector<float>& values, gpu::Timing& timing) {
    const detail::Flattened flat = detail::flatten_for_sptv(format);
    const gpu::PinnedSptv& x = *flat.pinned;
    values.resize(x.rows);
    if (x.ell)  // the slices are the ELL blocks; block b's fibers are the children of node b
        gpu::sptv_ell({x.rows, x.slices, x.entries, x.first, x.ap, x.fiber_slice, x.col, x.val}, v.data(), v.size(),
                      values.data(), timing);
    else
        gpu::sptv_rows({x.rows, x.entries, x.ptr, x.col, x.val, false}, v.data(), v.size(), values.data(), timing);
}

// Runs the kernel for the format; `values` gets one value per fiber of the layout.
void run(const SparseFormat& format, int mode, const std::vector<float>& v, std::vector<float>& values, gpu::Timing& timing) {
    visit_format(format, overloaded{
        [&]<class I, class V>(const CooFormat<I, V>& f) {  // HOCOO, Alg. 3
            const std::vector<std::uint64_t> starts = coo_fiber_starts(format, mode);
            const auto col = convert<std::uint32_t>(f.idx[static_cast<std::size_t>(mode)]);
            const auto val = convert<float>(f.vals);
            values.resize(starts.size() - 1);
            gpu::sptv_segments({val.size(), values.size(), starts.data(), col.data(), val.data()}, v.data(), v.size(),
                               values.data(), timing);
        },
        [&]<class I, class V>(const HocsrFormat<I, V>& f) {  // Alg. 4: every row, then the non-empty ones
            const auto ptr = convert<std::uint64_t>(f.row_ptr);
            const auto col = convert<std::uint32_t>(f.col);
            const auto val = convert<float>(f.vals);
            std::vector<float> rows(ptr.size() - 1);
            gpu::sptv_rows({rows.size(), val.size(), ptr.data(), col.data(), val.data(), true}, v.data(), v.size(), rows.data(), timing);
            for (std::uint64_t r = 0; r < rows.size(); ++r)
                if (ptr[r] != ptr[r + 1]) values.push_back(rows[r]);
        },
        [&]<class I, class V>(const CfbFormat<I, V>&) { run_flattened(format, v, values, timing); },
        [&]<class I, class V>(const HocfsFormat<I, V>&) { run_flattened(format, v, values, timing); },
        [&]<class I, class V>(const CsfFormat<I, V>& f) {  // the leaf level is a CSR of the fibers
            const auto ptr = convert<std::uint64_t>(f.fptr.back());
            const auto col = convert<std::uint32_t>(f.fids.back());
            const auto val = convert<float>(f.vals);
            values.resize(ptr.size() - 1);
            gpu::sptv_rows({values.size(), val.size(), ptr.data(), col.data(), val.data(), false}, v.data(), v.size(), values.data(),
                           timing);
        },
        [&](const SparseFormat& f) { throw InputError("SpTV has no CUDA kernel for " + f.name()); }});
}

}  // namespace

CooTensor sptv_cuda(const SparseFormat& format, int mode, const std::vector<double>& v, DeviceTiming* timing) {
    for (auto d : format.dims())
        if (d >= std::numeric_limits<std::uint32_t>::max()) throw InputError("the CUDA SpTV needs every mode shorter than 2^32 - 1");
    CooTensor out = sptv_layout(format, mode);  // also refuses a format built for another mode
    const std::vector<float> vf(v.begin(), v.end());
    std::vector<float> values;
    gpu::Timing t;
    run(format, mode, vf, values, t);
    if (values.size() != out.nnz()) throw Error("SpTV on the GPU returned " + std::to_string(values.size()) + " fibers, expected " +
                                                std::to_string(out.nnz()));
    auto& dst = out.values<double>();
    for (std::size_t q = 0; q < values.size(); ++q) dst[q] = values[q];
    if (timing) *timing = DeviceTiming{t.upload_s, t.kernel_s, t.download_s};
    return out;
}

}  // namespace tscope
