// CUDA SpTV (hocfs-sptv-pipeline Sec. 6.1): one thread per fiber for the CSR-shaped formats
// and HOCFS-ELL (Fig. 9, 10), products plus CUB's segmented reduction for HOCOO (Alg. 3).
#include <cub/device/device_segmented_reduce.cuh>

#include "cuda_util.cuh"
#include "gpu_sptv.hpp"

namespace tscope::gpu {

namespace {

// One thread per row (Alg. 4 / Fig. 9): the row's nonzeros times v, summed in a register.
__global__ void rows_kernel(std::uint64_t rows, const std::uint64_t* __restrict__ ptr, const std::uint32_t* __restrict__ col,
                            const float* __restrict__ val, const float* __restrict__ v, float* __restrict__ out) {
    const std::uint64_t stride = gridDim.x * static_cast<std::uint64_t>(blockDim.x);
    for (std::uint64_t q = blockIdx.x * static_cast<std::uint64_t>(blockDim.x) + threadIdx.x; q < rows; q += stride) {
        float sum = 0.0f;
        for (std::uint64_t e = ptr[q]; e < ptr[q + 1]; ++e) sum += val[e] * v[col[e]];
        out[q] = sum;
    }
}

// One thread per fiber (Fig. 10). Column-major ELL: neighbouring threads (fibers of one
// slice) read neighbouring entries, so each column step is one coalesced load for the warp.
__global__ void ell_kernel(std::uint64_t fibers, const std::uint64_t* __restrict__ first, const std::uint64_t* __restrict__ ap,
                           const std::uint32_t* __restrict__ fiber_slice, const std::uint32_t* __restrict__ col,
                           const float* __restrict__ val, const float* __restrict__ v, float* __restrict__ out) {
    const std::uint64_t stride = gridDim.x * static_cast<std::uint64_t>(blockDim.x);
    for (std::uint64_t q = blockIdx.x * static_cast<std::uint64_t>(blockDim.x) + threadIdx.x; q < fibers; q += stride) {
        const std::uint32_t s = fiber_slice[q];
        const std::uint64_t rows = first[s + 1] - first[s];
        const std::uint64_t end = ap[s + 1];
        float sum = 0.0f;
        for (std::uint64_t e = ap[s] + (q - first[s]); e < end; e += rows) {
            const std::uint32_t c = col[e];
            if (c == SptvEll::kPad) break;  // pads only follow a row's last entry
            sum += val[e] * v[c];
        }
        out[q] = sum;
    }
}

// Alg. 3's first loop: Tv[idx] <- Tv[idx] * v[T_n[idx]], in place on the device copy.
__global__ void products_kernel(std::uint64_t nnz, const std::uint32_t* __restrict__ col, float* __restrict__ val,
                                const float* __restrict__ v) {
    const std::uint64_t stride = gridDim.x * static_cast<std::uint64_t>(blockDim.x);
    for (std::uint64_t z = blockIdx.x * static_cast<std::uint64_t>(blockDim.x) + threadIdx.x; z < nnz; z += stride)
        val[z] *= v[col[z]];
}

}  // namespace

void sptv_rows(const SptvRows& x, const float* v, std::uint64_t vlen, float* out, Timing& timing) {
    use_device();
    Event t0, t1, t2, t3;
    t0.record();
    DeviceArray<std::uint64_t> ptr(x.ptr, x.rows + 1);
    DeviceArray<std::uint32_t> col(x.col, x.nnz);
    DeviceArray<float> val(x.val, x.nnz), dv(v, vlen), dout(x.rows);
    t1.record();
    if (x.rows) rows_kernel<<<grid_for(x.rows), 256>>>(x.rows, ptr.get(), col.get(), val.get(), dv.get(), dout.get());
    check(cudaGetLastError(), "launching the SpTV row kernel");
    t2.record();
    dout.download(out);
    t3.record();
    timing = {Event::seconds(t0, t1), Event::seconds(t1, t2), Event::seconds(t2, t3)};
}

void sptv_ell(const SptvEll& x, const float* v, std::uint64_t vlen, float* out, Timing& timing) {
    use_device();
    Event t0, t1, t2, t3;
    t0.record();
    DeviceArray<std::uint64_t> first(x.first, x.slices + 1), ap(x.ap, x.slices + 1);
    DeviceArray<std::uint32_t> slice(x.fiber_slice, x.fibers), col(x.col, x.entries);
    DeviceArray<float> val(x.val, x.entries), dv(v, vlen), dout(x.fibers);
    t1.record();
    if (x.fibers)
        ell_kernel<<<grid_for(x.fibers), 256>>>(x.fibers, first.get(), ap.get(), slice.get(), col.get(), val.get(), dv.get(),
                                                dout.get());
    check(cudaGetLastError(), "launching the SpTV ELL kernel");
    t2.record();
    dout.download(out);
    t3.record();
    timing = {Event::seconds(t0, t1), Event::seconds(t1, t2), Event::seconds(t2, t3)};
}

void sptv_segments(const SptvSegments& x, const float* v, std::uint64_t vlen, float* out, Timing& timing) {
    use_device();
    Event t0, t1, t2, t3;
    t0.record();
    DeviceArray<std::uint64_t> starts(x.starts, x.segments + 1);
    DeviceArray<std::uint32_t> col(x.col, x.nnz);
    DeviceArray<float> val(x.val, x.nnz), dv(v, vlen), dout(x.segments);
    std::size_t temp_bytes = 0;
    check(cub::DeviceSegmentedReduce::Sum(nullptr, temp_bytes, val.get(), dout.get(), static_cast<std::int64_t>(x.segments),
                                          starts.get(), starts.get() + 1),
          "sizing the segmented reduction");
    DeviceArray<unsigned char> temp(temp_bytes ? temp_bytes : 1);
    t1.record();
    if (x.nnz) products_kernel<<<grid_for(x.nnz), 256>>>(x.nnz, col.get(), val.get(), dv.get());
    check(cudaGetLastError(), "launching the SpTV product kernel");
    if (x.segments)
        check(cub::DeviceSegmentedReduce::Sum(temp.get(), temp_bytes, val.get(), dout.get(), static_cast<std::int64_t>(x.segments),
                                              starts.get(), starts.get() + 1),
              "running the segmented reduction");
    t2.record();
    dout.download(out);
    t3.record();
    timing = {Event::seconds(t0, t1), Event::seconds(t1, t2), Event::seconds(t2, t3)};
}

}  // namespace tscope::gpu
