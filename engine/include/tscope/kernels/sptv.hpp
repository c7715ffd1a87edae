// SpTV, the tensor-times-vector product in mode n (hocfs-sptv-pipeline Sec. 6.1, Alg. 3-6):
//   Y(i_others) = sum over i_n of X(..., i_n, ...) * v(i_n)
// The result is what the paper returns, a sparse matrix (for order 3) of fiber results: one
// value per non-empty mode-n fiber, as an order-(N-1) CooTensor over the other modes in
// ascending order, sorted. Flops: 2 nnz.
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "tscope/formats/format.hpp"
#include "tscope/kernels/backend.hpp"
#include "tscope/kernels/kernel_registry.hpp"
#include "tscope/run_control.hpp"

namespace tscope {

// The oracle: serial, from coordinates.
CooTensor sptv_reference(const CooTensor& t, int mode, const std::vector<double>& v);

// Each format computes SpTV for the mode it was built to contract: COO, HOCSR, HOCFS and CSF
// built with sptv_options(), CFB built for the mode. InputError for another mode.
// cuda: fp32 values on the device; timing (optional) gets its transfers and kernel apart.
CooTensor sptv(Backend backend, const SparseFormat& format, int mode, const std::vector<double>& v,
               RunControl& control = no_control(), DeviceTiming* timing = nullptr);
// SpTV repeated on one format with new vectors (the power method, HOPM, a Tucker sweep): the
// result's fibers and coordinates depend on the format alone, so prepare() lays them out once
// and compute() writes only the values, as hocfs Alg. 3-6 fill the result matrix M. omp: the
// plan reads the format's arrays, so the format must outlive it. cuda: prepare() uploads the
// format (fp32) and the device keeps it; each compute() moves the vector and the fiber values
// (timing gets those transfers and the kernel apart).
class SptvPlan {
public:
    static SptvPlan prepare(const SparseFormat& format, int mode, Backend backend = Backend::Omp);
    void compute(const std::vector<double>& v, RunControl& control = no_control(), DeviceTiming* timing = nullptr);
    const CooTensor& result() const { return result_; }
    CooTensor take_result();  // the plan cannot compute after this
    // omp: what one compute() reads and writes apart from v: the arrays its values kernel walks
    // (fiber ranges, leaf indices, values) and the result's values. 0 on cuda.
    std::uint64_t bytes_per_compute() const { return bytes_; }
    // cuda: how many of the vector's entries each compute copies ahead of it, where the vector
    // is larger than the GPU's L2 (its much-read ones, packed so that L2 holds them); 0 otherwise.
    std::uint64_t vector_packed() const { return packed_; }
    // cuda: whether each compute() replays the product's kernels as one CUDA graph captured when
    // the plan was prepared (one launch for the host to submit); false where the capture failed
    // or TENSORSCOPE_GRAPHS=0 (then they are launched one by one), and on omp.
    bool replays_graph() const { return replays_; }

private:
    std::function<void(const double*, double*, DeviceTiming*)> values_;
    CooTensor result_;
    std::uint64_t length_ = 0, bytes_ = 0, packed_ = 0;
    bool replays_ = false;
};

// How to build `kind` so that it contracts `mode`: the other modes first, the mode last
// (HOCSR's columns, HOCFS's Aj, CSF's leaves; COO sorted so its fibers are contiguous).
FormatOptions sptv_options(FormatKind kind, int order, int mode);

// max relative error of a against the reference when both have the same coordinates in the
// same order; infinity otherwise.
double sparse_max_relative_error(const CooTensor& a, const CooTensor& reference);

}  // namespace tscope
