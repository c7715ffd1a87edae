// The slots of a multi-GPU run and the collectives that combine their partial results. A slot
// is one part of the work on one GPU. Slots on distinct GPUs talk through NCCL (one
// communicator per GPU, driven from this thread inside ncclGroupStart/End); slots that share a
// GPU (a machine with fewer GPUs than parts: the same N-part run, combined as on N) use
// copies on that GPU. Buffers are device memory of each slot's GPU. Private to the engine; no
// CUDA or NCCL types here.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

namespace tscope::gpu {

// True when this build has NCCL (TS_WITH_NCCL).
bool nccl_built();

class DeviceGroup {
public:
    // devices[g]: the GPU of slot g. All the same: one GPU, no NCCL. All distinct: NCCL (Error
    // without it). Anything else is refused. nccl_alone: a single slot through NCCL too (a
    // one-rank communicator; the tests' way to run the NCCL calls on a one-GPU machine).
    explicit DeviceGroup(const std::vector<int>& devices, bool nccl_alone = false);
    ~DeviceGroup();
    DeviceGroup(const DeviceGroup&) = delete;
    DeviceGroup& operator=(const DeviceGroup&) = delete;

    int size() const { return static_cast<int>(devices_.size()); }
    int device(int slot) const { return devices_[static_cast<std::size_t>(slot)]; }
    bool uses_nccl() const { return nccl_; }

    // Every slot's buffer becomes the element-wise sum of all of them (count elements; fp64
    // when `wide`, else fp32). Waits for the result.
    void allreduce(const std::vector<void*>& buffers, std::uint64_t count, bool wide);
    // Slot g's elements [offsets[g], offsets[g + 1]) go to every other slot's buffer at the same
    // place: a gather of disjoint blocks (rows a slot alone computed). Waits for the result.
    void allgather(const std::vector<void*>& buffers, const std::vector<std::uint64_t>& offsets, bool wide);
    // Slot g's elements [offsets[g], offsets[g + 1]) become the element-wise sum of every slot's
    // elements there: a reduce-scatter of unequal blocks (each slot keeps the sum of its own
    // rows; the rest of its buffer is left as it was). Waits for the result.
    void reduce_scatter(const std::vector<void*>& buffers, const std::vector<std::uint64_t>& offsets, bool wide);
    // Waits for every slot's GPU.
    void synchronize() const;
    // Seconds spent in the collectives so far (host clock, each call waited for).
    double seconds() const { return seconds_; }

    struct Impl;

private:
    std::vector<int> devices_;
    bool nccl_ = false;
    double seconds_ = 0;
    std::unique_ptr<Impl> impl_;
};

}  // namespace tscope::gpu
