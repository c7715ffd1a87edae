// NCCL collectives over the slots' GPUs, or copies and a sum kernel when the slots share one.
#include <cuda_runtime.h>
#if TS_WITH_NCCL
#include <nccl.h>
#endif

#include <chrono>
#include <cstdlib>
#include <set>
#include <string>
#include <vector>

#include "cuda_util.cuh"
#include "gpu_collective.hpp"

namespace tscope::gpu {

namespace {

template <class T>
__global__ void add_kernel(T* into, const T* from, std::uint64_t n) {
    for (std::uint64_t i = blockIdx.x * static_cast<std::uint64_t>(blockDim.x) + threadIdx.x; i < n;
         i += gridDim.x * static_cast<std::uint64_t>(blockDim.x))
        into[i] += from[i];
}

using Clock = std::chrono::steady_clock;

#if TS_WITH_NCCL
void check_nccl(ncclResult_t r, const char* what) {
    if (r != ncclSuccess) throw Error(std::string("NCCL failed while ") + what + ": " + ncclGetErrorString(r));
}

// Collectives over unequal blocks (slot g owns [offsets[g], offsets[g + 1])): one NCCL call per
// block and slot, rooted at the block's owner, all in one group. call(slot, owner, count) issues
// it on the slot's GPU.
template <class Call>
void per_owned_block(const std::vector<int>& devices, const std::vector<std::uint64_t>& offsets, const char* what, Call call) {
    check_nccl(ncclGroupStart(), what);
    for (std::size_t root = 0; root < devices.size(); ++root) {
        const std::uint64_t count = offsets[root + 1] - offsets[root];
        if (count == 0) continue;
        for (std::size_t g = 0; g < devices.size(); ++g) {
            DeviceScope on(devices[g]);
            check_nccl(call(g, root, count), what);
        }
    }
    check_nccl(ncclGroupEnd(), what);
}
#endif

}  // namespace

#if TS_WITH_NCCL
bool nccl_built() { return true; }
struct DeviceGroup::Impl {
    std::vector<ncclComm_t> comms;
    ~Impl() {
        for (ncclComm_t c : comms)
            if (c) ncclCommDestroy(c);
    }
};
#else
bool nccl_built() { return false; }
struct DeviceGroup::Impl {};
#endif

DeviceGroup::DeviceGroup(const std::vector<int>& devices, bool nccl_alone) : devices_(devices), impl_(std::make_unique<Impl>()) {
    if (devices.empty()) throw Error("a multi-GPU run needs at least one slot");
    const std::set<int> distinct(devices.begin(), devices.end());
    if (distinct.size() == 1 && devices.size() > 1) return;  // parts sharing one GPU
    if (distinct.size() != devices.size()) throw Error("the slots of a multi-GPU run share some GPUs but not all");
    if (devices.size() == 1 && !nccl_alone) return;
#if TS_WITH_NCCL
    // NVLink multicast (NVLS) can take a shared host's GPUs out of service: off unless the user
    // said otherwise
    setenv("NCCL_NVLS_ENABLE", "0", 0);
    impl_->comms.assign(devices.size(), nullptr);
    check_nccl(ncclCommInitAll(impl_->comms.data(), static_cast<int>(devices.size()), devices.data()), "starting its communicators");
    nccl_ = true;
#else
    throw Error("this build has no NCCL: several GPUs need TS_WITH_NCCL");
#endif
}

DeviceGroup::~DeviceGroup() = default;

void DeviceGroup::synchronize() const {
    for (int d : std::set<int>(devices_.begin(), devices_.end())) {
        DeviceScope on(d);
        check(cudaDeviceSynchronize(), "waiting for the GPUs");
    }
}

void DeviceGroup::allreduce(const std::vector<void*>& buffers, std::uint64_t count, bool wide) {
    const auto start = Clock::now();
    const std::size_t n = buffers.size();
    if (nccl_) {
#if TS_WITH_NCCL
        check_nccl(ncclGroupStart(), "grouping an all-reduce");
        for (std::size_t g = 0; g < n; ++g) {
            DeviceScope on(devices_[g]);
            check_nccl(ncclAllReduce(buffers[g], buffers[g], count, wide ? ncclFloat64 : ncclFloat32, ncclSum, impl_->comms[g], nullptr),
                       "summing the parts");
        }
        check_nccl(ncclGroupEnd(), "summing the parts");
#endif
    } else if (n > 1) {  // one GPU: sum into slot 0, then copy back out
        DeviceScope on(devices_[0]);
        for (std::size_t g = 1; g < n; ++g) {
            if (wide)
                add_kernel<<<grid_for(count), 256>>>(static_cast<double*>(buffers[0]), static_cast<const double*>(buffers[g]), count);
            else
                add_kernel<<<grid_for(count), 256>>>(static_cast<float*>(buffers[0]), static_cast<const float*>(buffers[g]), count);
            check(cudaGetLastError(), "summing the parts");
        }
        const std::uint64_t bytes = count * (wide ? 8 : 4);
        for (std::size_t g = 1; g < n; ++g)
            check(cudaMemcpy(buffers[g], buffers[0], bytes, cudaMemcpyDeviceToDevice), "sharing the sum");
    }
    synchronize();
    seconds_ += std::chrono::duration<double>(Clock::now() - start).count();
}

void DeviceGroup::allgather(const std::vector<void*>& buffers, const std::vector<std::uint64_t>& offsets, bool wide) {
    const auto start = Clock::now();
    const std::size_t n = buffers.size();
    const std::uint64_t width = wide ? 8 : 4;
    auto at = [&](std::size_t g, std::size_t block) { return static_cast<char*>(buffers[g]) + offsets[block] * width; };
    if (nccl_) {
#if TS_WITH_NCCL
        // an all-gather of unequal blocks: each slot broadcasts its own block, in place
        per_owned_block(devices_, offsets, "gathering the parts", [&](std::size_t g, std::size_t root, std::uint64_t count) {
            return ncclBroadcast(at(g, root), at(g, root), count, wide ? ncclFloat64 : ncclFloat32, static_cast<int>(root), impl_->comms[g],
                                 nullptr);
        });
#endif
    } else if (n > 1) {
        DeviceScope on(devices_[0]);
        for (std::size_t root = 0; root < n; ++root) {
            const std::uint64_t bytes = (offsets[root + 1] - offsets[root]) * width;
            for (std::size_t g = 0; g < n; ++g)
                if (g != root && bytes)
                    check(cudaMemcpy(at(g, root), at(root, root), bytes, cudaMemcpyDeviceToDevice), "gathering the parts");
        }
    }
    synchronize();
    seconds_ += std::chrono::duration<double>(Clock::now() - start).count();
}

void DeviceGroup::reduce_scatter(const std::vector<void*>& buffers, const std::vector<std::uint64_t>& offsets, bool wide) {
    const auto start = Clock::now();
    const std::size_t n = buffers.size();
    const std::uint64_t width = wide ? 8 : 4;
    auto at = [&](std::size_t g, std::size_t block) { return static_cast<char*>(buffers[g]) + offsets[block] * width; };
    if (nccl_) {
#if TS_WITH_NCCL
        // NCCL's reduce-scatter takes equal blocks: one reduce per block, to its owner, in place
        per_owned_block(devices_, offsets, "summing each part's rows", [&](std::size_t g, std::size_t root, std::uint64_t count) {
            return ncclReduce(at(g, root), at(g, root), count, wide ? ncclFloat64 : ncclFloat32, ncclSum, static_cast<int>(root),
                              impl_->comms[g], nullptr);
        });
#endif
    } else if (n > 1) {
        DeviceScope on(devices_[0]);
        for (std::size_t root = 0; root < n; ++root) {
            const std::uint64_t count = offsets[root + 1] - offsets[root];
            for (std::size_t g = 0; g < n; ++g) {
                if (g == root || count == 0) continue;
                if (wide)
                    add_kernel<<<grid_for(count), 256>>>(reinterpret_cast<double*>(at(root, root)), reinterpret_cast<const double*>(at(g, root)), count);
                else
                    add_kernel<<<grid_for(count), 256>>>(reinterpret_cast<float*>(at(root, root)), reinterpret_cast<const float*>(at(g, root)), count);
                check(cudaGetLastError(), "summing each part's rows");
            }
        }
    }
    synchronize();
    seconds_ += std::chrono::duration<double>(Clock::now() - start).count();
}

}  // namespace tscope::gpu
