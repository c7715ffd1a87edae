// What a ResidentTensor holds on the device: a COO, or the fiber layout of one or more CSF
// trees (gpu_mttkrp.hpp's Fibers, the arrays in device memory). Shared by the MTTKRP kernels
// and the device format builds. Private to engine/cuda.
#pragma once

#include <memory>
#include <vector>

#include "cuda_util.cuh"
#include "gpu_mttkrp.hpp"
#include "hot_rows.cuh"
#include "mttkrp_launch.cuh"
#include "mttkrp_shared_tiles.cuh"

namespace tscope::gpu {

struct ResidentTensor::Impl {
    int device = engine_device();  // where the arrays live
    bool coo = false;
    std::uint64_t nnz = 0;
    std::vector<DeviceArray<std::uint32_t>> idx;  // COO
    DeviceArray<float> vals;                      // COO
    std::vector<CooModeShape> coo_shape;          // COO, per mode (measure_coo_shape)
    std::uint64_t coo_group = 0;                  // COO: nonzeros per team (measure_coo_shape)
    DeviceArray<float> copies;                    // COO, BLCO: the launches' output copies (grown on demand)
    std::vector<HotSlots> coo_hot;                // COO, per mode: its hot rows (measure_coo_shape)
    DeviceArray<float> hot_copies;                // COO, BLCO: the hot rows' copies (grown on demand)
    // COO: the index arrays' device pointers, one per mode
    std::vector<const std::uint32_t*> coo_index() const {
        std::vector<const std::uint32_t*> out;
        for (const auto& i : idx) out.push_back(i.get());
        return out;
    }
    // COO: coo_group and coo_shape from the uploaded arrays (each constructor of a COO calls it once)
    void measure_coo_shape();
    struct Part {
        Fibers meta;  // host pointers cleared; sizes and level modes kept
        std::vector<DeviceArray<std::uint32_t>> anc;
        DeviceArray<std::uint64_t> fiber_ptr;
        DeviceArray<std::uint32_t> leaf;
        DeviceArray<float> vals;
        std::unique_ptr<SharedTiles> tiles;  // an order-3 tree's root mode, where shared_tiles_rule.hpp says
        // per level (0 to levels), its heavy output rows' copies for the mode whose output the
        // level is (add_hot_rows; below the root only for MM-CSF's partitions)
        std::vector<HotRemap> hot;
    };
    std::vector<Part> parts;
    struct BlcoArrays {  // BLCO: keys, values, blocks, and the key's fields
        DeviceArray<std::uint64_t> keys, block_ptr;
        std::vector<DeviceArray<std::uint64_t>> high;
        DeviceArray<float> vals;
        std::uint64_t blocks = 0;
        std::vector<unsigned> shift, width;
        std::vector<std::uint64_t> dims;
        std::vector<std::uint64_t> longest_row;  // per mode: the most nonzeros of one output row
        std::vector<HotSlots> hot;               // per mode: rows past kHotChain nonzeros
    };
    std::unique_ptr<BlcoArrays> blco;
};

// An order-3 tree's root mode over shared-memory tiles where they pay (shared_tiles_rule.hpp: ranks
// 32 and 16), built where the tree is made (an upload, a device build); where the
// device has too little free memory for them (build_shared_tiles asks first, as
// order_fibers_by_length does), the fiber kernels run it. rank: the one the tree's MTTKRPs run at
// (none are built where the tiles do not run it), 0 where the caller does not know; trees: how
// many the tensor has (MM-CSF's partitions: shared_tiles_rule.hpp's tiles_for_trees). Defined in
// gpu_mttkrp.cu.
void add_shared_tiles(ResidentTensor::Impl::Part& p, std::uint64_t rank, std::size_t trees);

// Each tree's hot rows (hot_rows.cuh) at its root, and where there are several trees (MM-CSF's
// partitions, where a mode is the leaves or a level between of some partition) at every level
// below too: a single tree's MTTKRPs run at its root (CSF's and B-CSF's, rooted at the mode).
// The root takes an add a group of fibers, but a mode of a few rows gives each row millions of
// them: a vast-2015-mc1-5d-shaped tensor's 2-row mode (13M nonzeros a row) had CSF and B-CSF
// 3.3e-4 from cpu-ref (one H100, session 92, h100-session92.json call 2) and 3.0 ms
// against 1.0 for its other modes, its 64 output columns taking every atomic. Defined in
// gpu_mttkrp.cu.
void add_hot_rows(std::vector<ResidentTensor::Impl::Part>& parts);

}  // namespace tscope::gpu
