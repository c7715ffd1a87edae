// The multi-GPU run's collectives alone (white-box: engine/cuda/gpu_collective.hpp): the sum,
// the gather of disjoint blocks and the sum of each slot's own block, for parts sharing one GPU (copies), through NCCL with a
// one-rank communicator (the NCCL calls on a one-GPU machine), and across GPUs where there are
// two or more. Skips, saying why, without a GPU.
#include "test_support.hpp"

#include "cuda/gpu_collective.hpp"

#if TS_WITH_CUDA
#include <cuda_runtime.h>
#endif

#include <set>

using namespace tscope;

namespace {

#if TS_WITH_CUDA
// count floats (or doubles) per slot on the slot's GPU, slot g filled by fill(g, i).
template <class T>
class Buffers {
public:
    Buffers(const std::vector<int>& devices, std::uint64_t count, T (*fill)(int, std::uint64_t)) : devices_(devices), count_(count) {
        for (std::size_t g = 0; g < devices.size(); ++g) {
            cudaSetDevice(devices[g]);
            void* p = nullptr;
            if (cudaMalloc(&p, count * sizeof(T)) != cudaSuccess) qFatal("cudaMalloc failed");
            std::vector<T> host(count);
            for (std::uint64_t i = 0; i < count; ++i) host[i] = fill(int(g), i);
            cudaMemcpy(p, host.data(), count * sizeof(T), cudaMemcpyHostToDevice);
            ptrs_.push_back(p);
        }
    }
    ~Buffers() {
        for (std::size_t g = 0; g < ptrs_.size(); ++g) {
            cudaSetDevice(devices_[g]);
            cudaFree(ptrs_[g]);
        }
    }
    const std::vector<void*>& ptrs() const { return ptrs_; }
    std::vector<T> read(int g) const {
        std::vector<T> host(count_);
        cudaSetDevice(devices_[std::size_t(g)]);
        cudaMemcpy(host.data(), ptrs_[std::size_t(g)], count_ * sizeof(T), cudaMemcpyDeviceToHost);
        return host;
    }

private:
    std::vector<int> devices_;
    std::uint64_t count_;
    std::vector<void*> ptrs_;
};

template <class T>
T part_value(int g, std::uint64_t i) {
    return T(1 + g) * T(1000) + T(i % 997);
}

template <class T>
void check_sum(const std::vector<int>& devices, bool nccl_alone) {
    gpu::DeviceGroup group(devices, nccl_alone);
    const std::uint64_t n = 100003;
    Buffers<T> b(devices, n, part_value<T>);
    group.allreduce(b.ptrs(), n, sizeof(T) == 8);
    for (int g = 0; g < int(devices.size()); ++g) {
        const std::vector<T> got = b.read(g);
        for (std::uint64_t i = 0; i < n; i += 997) {
            T want = 0;
            for (int k = 0; k < int(devices.size()); ++k) want += part_value<T>(k, i);
            QCOMPARE(got[i], want);
        }
    }
    QVERIFY(group.seconds() > 0);
}

// unequal blocks of n elements, one of them empty where there are three parts or more
std::vector<std::uint64_t> unequal_blocks(std::size_t parts, std::uint64_t n) {
    std::vector<std::uint64_t> offsets{0};
    for (std::size_t g = 0; g < parts; ++g)
        offsets.push_back(g + 1 == parts ? n : offsets.back() + (g == 1 ? 0 : n / (3 * parts) + 17 * g));
    return offsets;
}

template <class T>
void check_gather(const std::vector<int>& devices, bool nccl_alone) {
    gpu::DeviceGroup group(devices, nccl_alone);
    const std::uint64_t n = 50000;
    const std::vector<std::uint64_t> offsets = unequal_blocks(devices.size(), n);
    Buffers<T> b(devices, n, part_value<T>);
    group.allgather(b.ptrs(), offsets, sizeof(T) == 8);
    for (int g = 0; g < int(devices.size()); ++g) {
        const std::vector<T> got = b.read(g);
        for (std::size_t owner = 0; owner < devices.size(); ++owner)
            for (std::uint64_t i = offsets[owner]; i < offsets[owner + 1]; i += 101)
                QCOMPARE(got[i], part_value<T>(int(owner), i));
    }
}

// each slot's own block holds the sum of every slot's block there; the rest of it is untouched
template <class T>
void check_reduce_scatter(const std::vector<int>& devices, bool nccl_alone) {
    gpu::DeviceGroup group(devices, nccl_alone);
    const std::uint64_t n = 50000;
    const std::vector<std::uint64_t> offsets = unequal_blocks(devices.size(), n);
    Buffers<T> b(devices, n, part_value<T>);
    group.reduce_scatter(b.ptrs(), offsets, sizeof(T) == 8);
    for (int g = 0; g < int(devices.size()); ++g) {
        const std::vector<T> got = b.read(g);
        for (std::uint64_t i = 0; i < n; i += 89) {
            const bool own = i >= offsets[std::size_t(g)] && i < offsets[std::size_t(g) + 1];
            T want = own ? 0 : part_value<T>(g, i);
            if (own)
                for (int k = 0; k < int(devices.size()); ++k) want += part_value<T>(k, i);
            QCOMPARE(got[i], want);
        }
    }
}
#endif

std::vector<int> all_gpus() {
    std::vector<int> d;
    for (int k = 0; k < query_gpu().count; ++k) d.push_back(k);
    return d;
}

}  // namespace

class TestCollectiveCuda : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { TS_REQUIRE_GPU(); }

    void partsSharingOneGpu() {
#if TS_WITH_CUDA
        for (int parts : {2, 3, 5}) {
            check_sum<float>(std::vector<int>(std::size_t(parts), 0), false);
            check_sum<double>(std::vector<int>(std::size_t(parts), 0), false);
            check_gather<float>(std::vector<int>(std::size_t(parts), 0), false);
            check_gather<double>(std::vector<int>(std::size_t(parts), 0), false);
            check_reduce_scatter<float>(std::vector<int>(std::size_t(parts), 0), false);
            check_reduce_scatter<double>(std::vector<int>(std::size_t(parts), 0), false);
        }
#endif
    }

    void ncclWithOneRank() {
        if (!gpu::nccl_built()) QSKIP("this build has no NCCL");
#if TS_WITH_CUDA
        gpu::DeviceGroup group({0}, true);
        QVERIFY(group.uses_nccl());
        check_sum<float>({0}, true);
        check_sum<double>({0}, true);
        check_gather<float>({0}, true);
        check_reduce_scatter<float>({0}, true);
#endif
    }

    void ncclAcrossGpus() {
        if (!gpu::nccl_built()) QSKIP("this build has no NCCL");
        if (query_gpu().count < 2) QSKIP("one GPU here: NCCL across GPUs needs two (the one-rank case ran)");
#if TS_WITH_CUDA
        check_sum<float>(all_gpus(), false);
        check_sum<double>(all_gpus(), false);
        check_gather<float>(all_gpus(), false);
        check_gather<double>(all_gpus(), false);
        check_reduce_scatter<float>(all_gpus(), false);
        check_reduce_scatter<double>(all_gpus(), false);
#endif
    }

    void mixedLayoutsAreRefused() {
        if (query_gpu().count < 2) QSKIP("needs two GPUs to mix shared and own");
        QVERIFY_THROWS_EXCEPTION(Error, gpu::DeviceGroup({0, 0, 1}));
    }
};

QTEST_APPLESS_MAIN(TestCollectiveCuda)
#include "test_collective_cuda.moc"
