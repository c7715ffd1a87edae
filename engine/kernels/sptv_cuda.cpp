// The cuda backend of SpTV: flattens a format into gpu_sptv.hpp's arrays (fp32 values and
// vector, 32-bit indices) and keeps them on the device (gpu::SptvDevice); every compute writes
// the fiber values into the result whose fibers and coordinates the host laid out once.
#include "kernels/sptv_cuda.hpp"

#include <limits>
#include <memory>
#include <optional>

#include "cpu/cpu_kernels.hpp"
#include "cuda/gpu_sptv.hpp"
#include "cuda/host_widen.hpp"
#include "kernels/sptv_flatten.hpp"
#include "tscope/error.hpp"
#include "tscope/formats/format_visit.hpp"

namespace tscope::detail {

namespace {

template <class T, class C>
std::vector<T> convert(const C& c) {
    return std::vector<T>(c.begin(), c.end());
}

std::unique_ptr<gpu::SptvDevice> upload_rows(const std::vector<std::uint64_t>& ptr, const std::vector<std::uint32_t>& col,
                                             const std::vector<float>& val, std::uint64_t vlen) {
    gpu::Timing t;
    return std::make_unique<gpu::SptvDevice>(gpu::SptvRows{ptr.size() - 1, val.size(), ptr.data(), col.data(), val.data()}, vlen, t);
}

// HOCFS (Fig. 9-10) and CFB (Alg. 5, Tn gives the bucket offsets): the pipeline's flattening.
std::unique_ptr<gpu::SptvDevice> upload_flattened(const SparseFormat& format, std::uint64_t vlen) {
    const Flattened flat = flatten_for_sptv(format);
    const gpu::PinnedSptv& x = *flat.pinned;
    gpu::Timing t;
    if (x.ell)  // the slices are the ELL blocks; block b's fibers are the children of node b
        return std::make_unique<gpu::SptvDevice>(gpu::SptvEll{x.rows, x.slices, x.entries, x.first, x.ap, x.fiber_slice, x.col, x.val},
                                                 vlen, t);
    return std::make_unique<gpu::SptvDevice>(gpu::SptvRows{x.rows, x.entries, x.ptr, x.col, x.val}, vlen, t);
}

// The format on the device. HOCSR's rows (Alg. 4) are every index tuple, empty ones included:
// `kept` gets the rows that hold a fiber, the ones the result keeps (left unset for the other
// formats, whose rows are their fibers).
std::unique_ptr<gpu::SptvDevice> upload(const SparseFormat& format, int mode, std::uint64_t vlen,
                                        std::optional<std::vector<std::uint64_t>>& kept) {
    return visit_format(format, overloaded{
        // HOCOO, Alg. 3: the products and the segmented reduction of its two loops fused into one
        // pass over the fiber segments, as for the rows: a separate product pass wrote every
        // value back and read it again, and a segmented reduction over tens of millions of
        // segments of a few nonzeros each reached 13% of the copy bandwidth on the nell-2 shape.
        [&]<class I, class V>(const CooFormat<I, V>& f) {
            return upload_rows(coo_fiber_starts(format, mode), convert<std::uint32_t>(f.idx[static_cast<std::size_t>(mode)]),
                               convert<float>(f.vals), vlen);
        },
        [&]<class I, class V>(const HocsrFormat<I, V>& f) {
            const auto ptr = convert<std::uint64_t>(f.row_ptr);
            kept.emplace();
            for (std::uint64_t r = 0; r + 1 < ptr.size(); ++r)
                if (ptr[r] != ptr[r + 1]) kept->push_back(r);
            return upload_rows(ptr, convert<std::uint32_t>(f.col), convert<float>(f.vals), vlen);
        },
        [&]<class I, class V>(const CfbFormat<I, V>&) { return upload_flattened(format, vlen); },
        [&]<class I, class V>(const HocfsFormat<I, V>&) { return upload_flattened(format, vlen); },
        [&]<class I, class V>(const CsfFormat<I, V>& f) {  // the leaf level is a CSR of the fibers
            return upload_rows(convert<std::uint64_t>(f.fptr.back()), convert<std::uint32_t>(f.fids.back()), convert<float>(f.vals),
                               vlen);
        },
        [&](const SparseFormat& f) -> std::unique_ptr<gpu::SptvDevice> { throw InputError("SpTV has no CUDA kernel for " + f.name()); }});
}

}  // namespace

SptvCudaPrepared sptv_prepare_cuda(const SparseFormat& format, int mode) {
    for (auto d : format.dims())
        if (d >= std::numeric_limits<std::uint32_t>::max()) throw InputError("the CUDA SpTV needs every mode shorter than 2^32 - 1");
    SptvCudaPrepared p;
    p.layout = sptv_layout(format, mode);  // also refuses a format built for another mode
    const std::uint64_t vlen = format.dims()[static_cast<std::size_t>(mode)], fibers = p.layout.nnz();
    std::optional<std::vector<std::uint64_t>> kept;
    std::shared_ptr<gpu::SptvDevice> device = upload(format, mode, vlen, kept);
    const std::uint64_t rows = device->outputs(), fibers_out = kept ? kept->size() : rows;
    if (fibers_out != fibers) throw Error("SpTV on the GPU has " + std::to_string(fibers_out) + " fibers, expected " + std::to_string(fibers));
    auto staging = std::make_shared<gpu::Staging>(rows);
    p.values = [device, kept = std::move(kept), staging, vlen](const double* v, double* out, DeviceTiming* timing) {
        const std::vector<float> vf(v, v + vlen);
        gpu::Timing t;
        device->compute(vf.data(), staging->data(), t);
        if (kept)
            staging->gather_into(*kept, out);
        else
            staging->widen_into(out);
        if (timing) *timing = DeviceTiming{t.upload_s, t.kernel_s, t.download_s};
    };
    return p;
}

}  // namespace tscope::detail
