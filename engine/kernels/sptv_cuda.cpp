// The cuda backend of SpTV: flattens a format into gpu_sptv.hpp's arrays (fp32 values and
// vector, 32-bit indices), runs its kernel, and writes the fiber values into the result whose
// fibers and coordinates the host lays out (the same layout as the omp backend's).
#include <limits>

#include "cpu/cpu_kernels.hpp"
#include "cuda/gpu_sptv.hpp"
#include "tscope/formats/paper_formats.hpp"

namespace tscope {

namespace {

template <class T, class C>
std::vector<T> convert(const C& c) {
    return std::vector<T>(c.begin(), c.end());
}

// Runs the kernel for the format; `values` gets one value per fiber of the layout.
template <class I, class V>
bool run_typed(const SparseFormat& format, int mode, const std::vector<float>& v, std::vector<float>& values,
               gpu::Timing& timing) {
    if (const auto* f = dynamic_cast<const CooFormat<I, V>*>(&format)) {  // HOCOO, Alg. 3
        const std::vector<std::uint64_t> starts = coo_fiber_starts(format, mode);
        const auto col = convert<std::uint32_t>(f->idx[static_cast<std::size_t>(mode)]);
        const auto val = convert<float>(f->vals);
        values.resize(starts.size() - 1);
        gpu::sptv_segments({val.size(), values.size(), starts.data(), col.data(), val.data()}, v.data(), v.size(), values.data(),
                           timing);
        return true;
    }
    if (const auto* f = dynamic_cast<const HocsrFormat<I, V>*>(&format)) {  // Alg. 4: every row, then the non-empty ones
        const auto ptr = convert<std::uint64_t>(f->row_ptr);
        const auto col = convert<std::uint32_t>(f->col);
        const auto val = convert<float>(f->vals);
        std::vector<float> rows(ptr.size() - 1);
        gpu::sptv_rows({rows.size(), val.size(), ptr.data(), col.data(), val.data()}, v.data(), v.size(), rows.data(), timing);
        for (std::uint64_t r = 0; r < rows.size(); ++r)
            if (ptr[r] != ptr[r + 1]) values.push_back(rows[r]);
        return true;
    }
    if (const auto* f = dynamic_cast<const CfbFormat<I, V>*>(&format)) {  // Alg. 5: Tn gives the bucket offsets
        std::vector<std::uint64_t> ptr(f->fiber_nnz.size() + 1, 0);
        for (std::size_t q = 0; q < f->fiber_nnz.size(); ++q) ptr[q + 1] = ptr[q] + f->fiber_nnz[q];
        const auto col = convert<std::uint32_t>(f->idx);
        const auto val = convert<float>(f->vals);
        values.resize(ptr.size() - 1);
        gpu::sptv_rows({values.size(), val.size(), ptr.data(), col.data(), val.data()}, v.data(), v.size(), values.data(), timing);
        return true;
    }
    if (const auto* f = dynamic_cast<const HocfsFormat<I, V>*>(&format)) {
        const auto col = convert<std::uint32_t>(f->aj);  // ELL pads (all ones) stay all ones
        const auto val = convert<float>(f->av);
        values.resize(f->fibers());
        if (!f->ell) {  // Fig. 9
            const auto ptr = convert<std::uint64_t>(f->ap);
            gpu::sptv_rows({values.size(), val.size(), ptr.data(), col.data(), val.data()}, v.data(), v.size(), values.data(), timing);
            return true;
        }
        // Fig. 10: the slices are the ELL blocks; block b's fibers are the children of node b
        const std::uint64_t slices = f->ap.size() - 1;
        std::vector<std::uint64_t> first(slices + 1), ap = convert<std::uint64_t>(f->ap);
        std::vector<std::uint32_t> fiber_slice(values.size());
        for (std::uint64_t b = 0; b <= slices; ++b)
            first[b] = f->block_first(b);
        for (std::uint64_t b = 0; b < slices; ++b)
            for (std::uint64_t q = first[b]; q < first[b + 1]; ++q) fiber_slice[q] = static_cast<std::uint32_t>(b);
        gpu::sptv_ell({values.size(), slices, val.size(), first.data(), ap.data(), fiber_slice.data(), col.data(), val.data()},
                      v.data(), v.size(), values.data(), timing);
        return true;
    }
    if (const auto* f = dynamic_cast<const CsfFormat<I, V>*>(&format)) {  // the leaf level is a CSR of the fibers
        const auto ptr = convert<std::uint64_t>(f->fptr.back());
        const auto col = convert<std::uint32_t>(f->fids.back());
        const auto val = convert<float>(f->vals);
        values.resize(ptr.size() - 1);
        gpu::sptv_rows({values.size(), val.size(), ptr.data(), col.data(), val.data()}, v.data(), v.size(), values.data(), timing);
        return true;
    }
    return false;
}

}  // namespace

CooTensor sptv_cuda(const SparseFormat& format, int mode, const std::vector<double>& v, DeviceTiming* timing) {
    for (auto d : format.dims())
        if (d >= std::numeric_limits<std::uint32_t>::max()) throw InputError("the CUDA SpTV needs every mode shorter than 2^32 - 1");
    CooTensor out = sptv_layout(format, mode);  // also refuses a format built for another mode
    const std::vector<float> vf(v.begin(), v.end());
    std::vector<float> values;
    gpu::Timing t;
    const bool done = run_typed<std::uint32_t, double>(format, mode, vf, values, t) ||
                      run_typed<std::uint32_t, float>(format, mode, vf, values, t) ||
                      run_typed<std::uint64_t, double>(format, mode, vf, values, t) ||
                      run_typed<std::uint64_t, float>(format, mode, vf, values, t);
    if (!done) throw InputError("SpTV has no CUDA kernel for " + format.name());
    if (values.size() != out.nnz()) throw Error("SpTV on the GPU returned " + std::to_string(values.size()) + " fibers, expected " +
                                                std::to_string(out.nnz()));
    auto& dst = out.values<double>();
    for (std::size_t q = 0; q < values.size(); ++q) dst[q] = values[q];
    if (timing) *timing = DeviceTiming{t.upload_s, t.kernel_s, t.download_s};
    return out;
}

}  // namespace tscope
