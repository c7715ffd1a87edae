// The CUDA MTTKRP kernels' host interface: plain arrays only, so that the .cu file needs no
// engine headers (and no C++20). Values and factors travel as fp32, indices as 32-bit; the
// COO output accumulates in fp64 (millions of fp32 atomic adds into one heavy row lose ~1e-3);
// the fiber kernels sum in registers and flush rarely, so their fp32 output stays within 1e-5.
// Private to the engine.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "gpu_timing.hpp"

namespace tscope::gpu {

// The dense side of an MTTKRP: every factor (row-major, rows[m] x R) and the output.
struct Dense {
    std::uint64_t rank = 0;
    std::vector<const float*> factors;  // per mode; the output mode's may be null
    std::vector<std::uint64_t> rows;    // per mode
    int mode = 0;
    double* out = nullptr;              // rows[mode] x rank, written on return (fp64 accumulation)
};

// COO with one warp per nonzero group and atomics on the output.
struct Coo {
    std::uint64_t nnz = 0;
    std::vector<const std::uint32_t*> idx;  // per mode
    const float* vals = nullptr;
};

// A CSF tree flattened per fiber, as mm-csf Alg. 6 lays it out: for every fiber (a node of the
// level above the nonzeros) the index of each ancestor level, its nonzero range, and the
// nonzeros' leaf indices and values. One warp per fiber; `target` is the tree level of the
// MTTKRP mode (levels - 1 + 1 == the leaf level means the nonzero algorithm).
struct Fibers {
    int levels = 0;                              // tree levels above the nonzeros (N - 1)
    std::vector<int> level_mode;                 // N entries: mode of each level, leaves last
    std::uint64_t fibers = 0, nnz = 0;
    bool split_fibers = false;                   // fibers cut to a bounded length (B-CSF): no long ones
    std::uint64_t group_fibers = 0;              // split ones: fibers per team group (0: the kernel's 8)
    bool order_on_device = false;                // each parent's fibers ordered by length there, room allowing
    std::vector<const std::uint32_t*> anc;       // levels arrays of `fibers` indices
    const std::uint64_t* fiber_ptr = nullptr;    // fibers + 1
    const std::uint32_t* leaf = nullptr;         // nnz
    const float* vals = nullptr;                 // nnz
};

// Run on device 0. Throw tscope::Error with CUDA's message on failure (out of memory included);
// device memory is freed on every path.
// Device-to-device copy bandwidth (bytes read plus written per second), best of a few 1 GB copies.
double copy_bandwidth_gbps();

// White-box, for test_mttkrp_cuda: a tree level's n indices renumbered on the device as an
// MM-CSF upload renumbers its hot rows (hot_rows.cuh; runs: a level between, else the leaves),
// at a chain limit of `limit` adds; the indices unchanged where no row passes it.
std::vector<std::uint32_t> hot_row_ids(const std::uint32_t* host, std::uint64_t n, bool runs, std::uint64_t limit);

void mttkrp_coo(const Coo& coo, const Dense& dense, Timing& timing);
void mttkrp_fibers(const std::vector<Fibers>& parts, const Dense& dense, Timing& timing);

// A COO on the host as it is stored there: 32- or 64-bit indices, fp32 or fp64 values. The
// upload narrows them on the device, in chunks, so the host never holds a second copy.
struct HostCoo {
    std::uint64_t nnz = 0;
    std::vector<std::uint64_t> dims;
    std::vector<const void*> idx;  // per mode
    bool idx64 = false;
    const void* vals = nullptr;
    bool vals64 = false;
};

// BLCO (tscope/formats/blco_format.hpp) on the host, fp32 values: each nonzero's 64-bit key
// holds every mode's low bits at shift[m] (width[m] bits); high[m][b] the high bits of block b.
struct Blco {
    std::uint64_t nnz = 0, blocks = 0;
    const std::uint64_t* keys = nullptr;
    const float* vals = nullptr;
    const std::uint64_t* block_ptr = nullptr;  // blocks + 1
    std::vector<const std::uint64_t*> high;    // per mode, blocks entries
    std::vector<unsigned> shift, width;
    std::vector<std::uint64_t> dims;  // the modes' lengths (the output's rows)
};

// A COO in device memory (32-bit indices, fp32 values): what the device format builds start
// from. Freed with the object.
class DeviceCoo {
public:
    explicit DeviceCoo(const HostCoo& host);  // throws Error (out of GPU memory included)
    ~DeviceCoo();
    DeviceCoo(const DeviceCoo&) = delete;
    DeviceCoo& operator=(const DeviceCoo&) = delete;
    std::uint64_t nnz() const;
    int order() const;
    double upload_seconds() const { return upload_s_; }
    struct Impl;
    const Impl& impl() const { return *impl_; }

private:
    std::unique_ptr<Impl> impl_;
    double upload_s_ = 0;
};

// Which nonzeros a device build takes: those whose index in `mode` lies in [lo, hi); mode -1
// takes them all. A multi-GPU part is the slices [lo, hi) of its tree's root.
struct RowFilter {
    int mode = -1;
    std::uint64_t lo = 0, hi = 0;
};

// The tensor side of repeated MTTKRPs kept on the device (CPD-ALS runs N of them per iteration
// on one tensor): uploaded or built once, freed with the object. mttkrp() uploads only the
// factors (timing.upload_s is theirs alone); launch() takes them already on the device.
class ResidentTensor {
public:
    explicit ResidentTensor(const Coo& coo);
    // tiles_rank: the rank its MTTKRPs will run at, so that shared-memory tiles are built only
    // where that rank reads them; 0: any rank.
    explicit ResidentTensor(const std::vector<Fibers>& parts, std::uint64_t tiles_rank = 0);
    explicit ResidentTensor(const Blco& blco);
    // A copy of a device COO (the COO format; no sort needed by its kernel): its nonzeros
    // [first, last), all by default.
    explicit ResidentTensor(const DeviceCoo& coo, std::uint64_t first = 0, std::uint64_t last = ~std::uint64_t{0});
    // Built on the device from a device COO (CUB radix sorts, a scan and a compaction): one CSF
    // tree whose levels are the modes in `order` (root first, leaves last) in the fiber layout of
    // Fibers; fibers longer than `split` nonzeros become several (B-CSF; 0 keeps them whole).
    // tiles_rank: the rank the tree's MTTKRPs will run at, so that shared-memory tiles
    // (mttkrp_shared_tiles.cuh) are built only where they run it; 0: built by their rule alone.
    static ResidentTensor build(const DeviceCoo& coo, const std::vector<int>& order, std::uint64_t split,
                                RowFilter filter = {}, std::uint64_t tiles_rank = 0);
    // MM-CSF (mm-csf Sec. 4): one tree per partition; labels[z] (host, one per nonzero) names
    // the partition of nonzero z, orders[p] its tree's levels (empty: no partition p). The
    // partitions keep the order of orders; empty ones are left out. filters[p], where given,
    // keeps a part of partition p. Fibers longer than `split` nonzeros become several (mm-csf
    // Sec. 6, as B-CSF's; 0 keeps them whole). Each partition takes the tiles as build's tree
    // does, for the mode at its root.
    static ResidentTensor build_partitioned(const DeviceCoo& coo, const std::uint8_t* labels,
                                            const std::vector<std::vector<int>>& orders,
                                            const std::vector<RowFilter>& filters = {}, std::uint64_t split = 0,
                                            std::uint64_t tiles_rank = 0);
    ~ResidentTensor();
    ResidentTensor(ResidentTensor&&) noexcept;
    ResidentTensor(const ResidentTensor&) = delete;
    ResidentTensor& operator=(const ResidentTensor&) = delete;
    void mttkrp(const Dense& dense, Timing& timing) const;
    // Launches the kernels on the default stream: factors[m] (device, rows x R fp32; the mode's
    // own may be null) into out_d (COO, fp64) or out_f (fibers, fp32), which the caller zeroed.
    // A COO mode that accumulates_in_double(mode, R) denies adds into out_f where out_d is null.
    void launch(int mode, std::uint64_t R, const float* const* factors, float* out_f, double* out_d) const;
    // Which of launch()'s outputs mode's product at rank R writes: out_d for a COO, except where
    // its fp32 adds all go into one output copy, which widened is the fp64 result (gpu_mttkrp.cu,
    // coo_single_copy); out_f otherwise.
    bool accumulates_in_double(int mode, std::uint64_t R) const;
    // Allocates now the output copies mode's launch at rank R into out_d grows into (COO; nothing
    // otherwise), so that a launch timed alone allocates nothing: a tensor built anew for each
    // product (HLS's sparse part) has no earlier launch that grew them.
    void reserve_copies(int mode, std::uint64_t R) const;
    double upload_seconds() const { return upload_s_; }
    // Device bytes of the tensor's arrays.
    std::uint64_t device_bytes() const;
    std::uint64_t nnz() const;
    // Where mode's launch at rank R runs trees over shared-memory tiles (mttkrp_shared_tiles.cuh;
    // one tree, or some of MM-CSF's partitions): their blocks, the bytes each copies into shared
    // memory, the output-row adds they make and the nonzeros they hold; all 0 where the launch
    // runs other kernels only.
    struct TileTraffic {
        std::uint64_t blocks = 0, block_bytes = 0, row_adds = 0, nonzeros = 0;
    };
    TileTraffic shared_tiles(int mode, std::uint64_t R) const;
    // The output rows that mode's launch at rank R adds into fp32 copies of their own (hot rows:
    // hot_rows_rule.hpp; MM-CSF's partitions, or a COO's or BLCO's mode whose whole-output copies
    // do not fit) and how many copies they take; 0 where none does.
    struct HotRowUse {
        std::uint64_t rows = 0, copies = 0;
    };
    HotRowUse hot_rows(int mode, std::uint64_t R) const;
    // Device bytes of the tiles' arrays (in device_bytes too; 0 without tiles).
    std::uint64_t shared_tiles_bytes() const;
    // The fiber layout back on the host, for tests against the host builds: per part, its
    // fiber_ptr, each ancestor level's indices, the leaf indices and the values.
    struct HostCopy {
        std::vector<std::uint64_t> fiber_ptr;
        std::vector<std::vector<std::uint32_t>> anc;
        std::vector<std::uint32_t> leaf;
        std::vector<float> vals;
    };
    std::vector<HostCopy> download() const;

    struct Impl;
    explicit ResidentTensor(std::unique_ptr<Impl> impl);

private:
    std::unique_ptr<Impl> impl_;
    double upload_s_ = 0;
};

}  // namespace tscope::gpu
