// FasterTucker on the GPU (cufastertucker Sec. IV, Alg. 3-5): factor matrices, core matrices
// and the reusable intermediates C(n) = A(n) B(n) live on the device in fp32; each mode's
// B-CSF tree is flattened per fiber (the leaves are mode n). One warp per fiber computes the
// shared intermediate w = B(n) P once and updates the factor rows of the fiber's nonzeros
// (Hogwild, as the paper's workers do); the core gradient is summed per block in shared memory.
// Private to the engine; no engine headers but error.hpp in the .cu file.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "gpu_mttkrp.hpp"

namespace tscope::gpu {

// Observed entries for the error sums: per-mode index arrays and values, as the MTTKRP's COO.
using Entries = Coo;

struct FtErrors {
    double train_se = 0, train_ae = 0, test_se = 0, test_ae = 0;
};

// The ordered schedule of one mode (faster_tucker_rows.hpp): each factor row's nonzeros in the
// tree's order, as the fiber whose w they use and their value.
struct RowEntries {
    std::uint64_t rows = 0, nnz = 0;
    const std::uint64_t* row_ptr = nullptr;  // rows + 1
    const std::uint32_t* fiber = nullptr;    // nnz
    const float* vals = nullptr;             // nnz
};

class FasterTuckerDevice {
public:
    // trees[n]: mode n's tree (level_mode.back() == n); a[n] is I_n x J_n, b[n] J_n x R, row-major.
    // rows: empty for the Hogwild schedule, else mode n's row order for the ordered one.
    FasterTuckerDevice(const std::vector<std::uint64_t>& dims, const std::vector<std::uint64_t>& j, std::uint64_t r,
                       const std::vector<Fibers>& trees, const std::vector<RowEntries>& rows, const Entries& train,
                       const Entries& test, const std::vector<const float*>& a, const std::vector<const float*>& b);
    ~FasterTuckerDevice();
    FasterTuckerDevice(const FasterTuckerDevice&) = delete;
    FasterTuckerDevice& operator=(const FasterTuckerDevice&) = delete;

    // One epoch of Alg. 2 (factors of every mode, then core matrices); returns the kernel seconds.
    double epoch(float lr_a, float lr_b, float reg_a, float reg_b);
    FtErrors errors() const;
    void download(const std::vector<float*>& a, const std::vector<float*>& b) const;

private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

}  // namespace tscope::gpu
