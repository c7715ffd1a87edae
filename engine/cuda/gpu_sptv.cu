// CUDA SpTV (hocfs-sptv-pipeline Sec. 6.1), the whole tensor at once: one thread per fiber for
// the CSR-shaped formats and HOCFS-ELL (Fig. 9, 10, in sptv_kernels.cuh), products plus CUB's
// segmented reduction for HOCOO (Alg. 3).
#include <cub/device/device_segmented_reduce.cuh>

#include "cuda_util.cuh"
#include "gpu_sptv.hpp"
#include "sptv_kernels.cuh"

namespace tscope::gpu {

namespace {

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
    require_free((x.rows + 1) * 8 + x.nnz * 8 + vlen * 4 + x.rows * 4, "SpTV on the whole tensor");
    Event t0, t1, t2, t3;
    t0.record();
    DeviceArray<std::uint64_t> ptr(x.ptr, x.rows + 1);
    DeviceArray<std::uint32_t> col(x.col, x.nnz);
    DeviceArray<float> val(x.val, x.nnz), dv(v, vlen), dout(x.rows);
    t1.record();
    if (x.rows) sptv_rows_kernel<<<grid_for(x.rows), 256>>>(x.rows, 0, ptr.get(), col.get(), val.get(), dv.get(), dout.get());
    check(cudaGetLastError(), "launching the SpTV row kernel");
    t2.record();
    dout.download(out);
    t3.record();
    timing = {Event::seconds(t0, t1), Event::seconds(t1, t2), Event::seconds(t2, t3)};
}

void sptv_ell(const SptvEll& x, const float* v, std::uint64_t vlen, float* out, Timing& timing) {
    use_device();
    require_free((x.slices + 1) * 16 + x.fibers * 8 + x.entries * 8 + vlen * 4, "SpTV on the whole tensor");
    Event t0, t1, t2, t3;
    t0.record();
    DeviceArray<std::uint64_t> first(x.first, x.slices + 1), ap(x.ap, x.slices + 1);
    DeviceArray<std::uint32_t> slice(x.fiber_slice, x.fibers), col(x.col, x.entries);
    DeviceArray<float> val(x.val, x.entries), dv(v, vlen), dout(x.fibers);
    t1.record();
    if (x.fibers)
        sptv_ell_kernel<<<grid_for(x.fibers), 256>>>(x.fibers, 0, 0, 0, first.get(), ap.get(), slice.get(), col.get(), val.get(), dv.get(),
                                                dout.get());
    check(cudaGetLastError(), "launching the SpTV ELL kernel");
    t2.record();
    dout.download(out);
    t3.record();
    timing = {Event::seconds(t0, t1), Event::seconds(t1, t2), Event::seconds(t2, t3)};
}

void sptv_segments(const SptvSegments& x, const float* v, std::uint64_t vlen, float* out, Timing& timing) {
    use_device();
    require_free((x.segments + 1) * 8 + x.nnz * 8 + vlen * 4 + x.segments * 4, "SpTV on the whole tensor");
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
