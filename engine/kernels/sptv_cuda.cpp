// The cuda backend of SpTV: flattens a format into gpu_sptv.hpp's arrays (fp32 values and
// vector, 32-bit indices) and keeps them on the device (gpu::SptvDevice); every compute writes
// the fiber values into the result whose fibers and coordinates the host laid out once.
#include "kernels/sptv_cuda.hpp"

#include <limits>
#include <memory>
#include <type_traits>
#include <vector>

#include "cpu/cpu_kernels.hpp"
#include "cuda/gpu_sptv.hpp"
#include "cuda/host_widen.hpp"
#include "kernels/sptv_flatten.hpp"
#include "tscope/error.hpp"
#include "tscope/formats/format_visit.hpp"

namespace tscope::detail {

namespace {

// A format's array as element type T for the upload: the format's own where it already is T,
// else a converted host copy (a 77M-nonzero tensor's columns and fp32 values are 600 MB that
// need not be copied).
template <class T>
class As {
public:
    template <class C>
    explicit As(const C& c) {
        if constexpr (std::is_same_v<std::remove_cvref_t<decltype(*c.data())>, T>) {
            data_ = c.data();
        } else {
            copy_.assign(c.begin(), c.end());
            data_ = copy_.data();
        }
    }
    As(const As&) = delete;
    As& operator=(const As&) = delete;
    const T* data() const { return data_; }

private:
    std::vector<T> copy_;
    const T* data_ = nullptr;
};

std::unique_ptr<gpu::SptvDevice> upload_rows(std::uint64_t rows, std::uint64_t nnz, const std::uint64_t* ptr, const std::uint32_t* col,
                                             const float* val, std::uint64_t vlen) {
    gpu::Timing t;
    return std::make_unique<gpu::SptvDevice>(gpu::SptvRows{rows, nnz, ptr, col, val}, vlen, t);
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

// HOCSR (Alg. 4): its own offsets as they are (most of what the kernel reads); the device
// counts its non-empty rows, the ones the result keeps.
template <class I, class V>
std::unique_ptr<gpu::SptvDevice> upload_tuples(const HocsrFormat<I, V>& f, std::uint64_t vlen) {
    static_assert(std::is_same_v<I, std::uint32_t> || std::is_same_v<I, std::uint64_t>);
    const As<std::uint32_t> col(f.col);
    const As<float> val(f.vals);
    gpu::SptvTuples x{f.rows(), f.vals.size(), nullptr, nullptr, col.data(), val.data()};
    if constexpr (std::is_same_v<I, std::uint32_t>)
        x.ptr32 = f.row_ptr.data();
    else
        x.ptr64 = f.row_ptr.data();
    gpu::Timing t;
    return std::make_unique<gpu::SptvDevice>(x, vlen, t);
}

// The format on the device: rows (every format but HOCSR and HOCFS-ELL), HOCSR's index tuples
// or HOCFS-ELL's blocks.
std::unique_ptr<gpu::SptvDevice> upload(const SparseFormat& format, int mode, std::uint64_t vlen) {
    return visit_format(format, overloaded{
        // HOCOO, Alg. 3: the products and the segmented reduction of its two loops fused into one
        // pass over the fiber segments, as for the rows: a separate product pass wrote every
        // value back and read it again, and a segmented reduction over tens of millions of
        // segments of a few nonzeros each reached 13% of the copy bandwidth on the nell-2 shape.
        [&]<class I, class V>(const CooFormat<I, V>& f) {
            const std::vector<std::uint64_t> starts = coo_fiber_starts(format, mode);
            const As<std::uint32_t> col(f.idx[static_cast<std::size_t>(mode)]);
            const As<float> val(f.vals);
            return upload_rows(starts.size() - 1, f.vals.size(), starts.data(), col.data(), val.data(), vlen);
        },
        [&]<class I, class V>(const HocsrFormat<I, V>& f) { return upload_tuples(f, vlen); },
        [&]<class I, class V>(const CfbFormat<I, V>&) { return upload_flattened(format, vlen); },
        [&]<class I, class V>(const HocfsFormat<I, V>&) { return upload_flattened(format, vlen); },
        [&]<class I, class V>(const CsfFormat<I, V>& f) {  // the leaf level is a CSR of the fibers
            const As<std::uint64_t> ptr(f.fptr.back());
            const As<std::uint32_t> col(f.fids.back());
            const As<float> val(f.vals);
            return upload_rows(f.fptr.back().size() - 1, f.vals.size(), ptr.data(), col.data(), val.data(), vlen);
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
    std::shared_ptr<gpu::SptvDevice> device = upload(format, mode, vlen);
    if (device->outputs() != fibers)
        throw Error("SpTV on the GPU has " + std::to_string(device->outputs()) + " fibers, expected " + std::to_string(fibers));
    p.packed = device->packed();
    p.replays = device->replays();
    auto staging = std::make_shared<gpu::Staging>(fibers);
    p.values = [device, staging, vlen](const double* v, double* out, DeviceTiming* timing) {
        const std::vector<float> vf(v, v + vlen);
        gpu::Timing t;
        device->compute(vf.data(), staging->data(), t);
        staging->widen_into(out);
        if (timing) *timing = DeviceTiming{t.upload_s, t.kernel_s, t.download_s};
    };
    return p;
}

}  // namespace tscope::detail
