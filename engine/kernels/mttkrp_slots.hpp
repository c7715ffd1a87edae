// The tensor side of a CPD (or a benchmark's MTTKRPs) over the parts of a multi-GPU run: the
// nonzeros cut into balanced parts (nnz_split.hpp), each part's format built on its GPU from
// the uploaded COO, and every MTTKRP combined with the group's collectives. One part is the
// single-GPU run. Private to the engine.
#pragma once

#include <functional>
#include <memory>
#include <vector>

#include "cuda/gpu_collective.hpp"
#include "cuda/gpu_cpd.hpp"
#include "cuda/gpu_mttkrp.hpp"
#include "tscope/formats/format.hpp"
#include "tscope/run_control.hpp"

namespace tscope::detail {

// The GPU of each part: `slots` where given (checked against the machine), else 0..gpus-1
// (gpus 0: all of them). InputError where the machine has fewer GPUs than asked.
std::vector<int> resolve_gpu_slots(int gpus, const std::vector<int>& slots);

// Runs fn(slot) for every slot: on one thread per slot where the slots have GPUs of their own,
// in turn where they share one. The first exception is rethrown once all have returned.
void for_each_slot(const gpu::DeviceGroup& group, const std::function<void(int)>& fn);

struct GpuSlots {
    std::unique_ptr<gpu::DeviceGroup> group;
    bool per_mode = false;  // one structure per mode (CSF, B-CSF), else one for all
    // [slot][structure]
    std::vector<std::vector<std::shared_ptr<gpu::ResidentTensor>>> tensors;
    // [structure]: the output-row cuts where each part owns its rows (trees rooted at the mode:
    // a gather combines them); empty where the parts' rows overlap (a sum combines them)
    std::vector<std::vector<std::uint64_t>> row_cuts;
    // [structure]: the levels of the per-mode trees (CSF, B-CSF; gpu_level_order at the rank
    // given to the build), root first; empty for COO and MM-CSF
    std::vector<std::vector<int>> tree_orders;
    // [leaf mode]: MM-CSF's partitions' levels (gpu_mmcsf_orders at the rank given to the
    // build), root first; empty for the others
    std::vector<std::vector<int>> partition_orders;
    double upload_seconds = 0, build_seconds = 0;

    int structure(int mode) const { return per_mode ? mode : 0; }
    const gpu::ResidentTensor& of(int slot, int mode) const {
        return *tensors[static_cast<std::size_t>(slot)][static_cast<std::size_t>(structure(mode))];
    }
    // [structure][slot]
    std::vector<std::vector<std::uint64_t>> nnz() const;
    std::uint64_t device_bytes() const;
};

// Builds the format (COO, CSF, B-CSF or MM-CSF) of every part on its GPU. tiles_rank: the rank
// the MTTKRPs will run at (the CPD's), so that a tree takes shared-memory tiles only where they
// run it; 0 where any rank may run (the tiles' rule alone decides).
GpuSlots build_gpu_slots(const CooTensor& t, FormatKind format, const std::vector<int>& devices, RunControl& control,
                         std::uint64_t tiles_rank = 0);

// The rows of mode `mode` each slot owns in a CPD's row-split dense steps ([slot], [slot + 1]):
// the structure's row cuts where the parts own their rows, else an even split of the rows.
std::vector<std::uint64_t> owned_row_cuts(const GpuSlots& slots, int mode, std::uint64_t rows);

// Mode `mode`'s MTTKRP: every slot's part into its CpdDevice (devs[slot]), then combined so
// that every slot holds the whole result (M, fp64), or with `owned` (owned_row_cuts) only the
// rows it owns: no exchange where the parts own their rows, a reduce-scatter where they are
// summed. Adds the kernels' time (all GPUs at once) and the collectives' time to the counters.
void slots_mttkrp(GpuSlots& slots, const std::vector<std::unique_ptr<gpu::CpdDevice>>& devs, int mode, std::uint64_t rank,
                  const std::vector<std::uint64_t>& dims, double& kernel_seconds, double& collective_seconds,
                  const std::vector<std::uint64_t>* owned = nullptr);

}  // namespace tscope::detail
