// MM-CSF's partitioning pass (Alg. 5, dynamic), the paper's serial loop against the engine's
// parallel blocks, on one tensor: the time of each and a hash of the labels (the same labels
// give the same hash). The static strategy's time is the fiber-id sorts that both share.
// Build against a configured tree (engine library and headers), e.g.:
//   g++ -O3 -march=x86-64-v3 -fopenmp -std=c++20 -Iengine/include \
//       docs/bench/scripts/mmcsf_partition_bench.cpp build/lib/libtscope_engine.a \
//       -L/usr/local/cuda/lib64 -lcudart_static -lcublas -lcusolver -lcusparse -lz -lopenblas -llapacke \
//       -ldl -lrt -lpthread $(mpicxx --showme:link) -o mmcsf_partition_bench
// (the engine library carries the CUDA and MPI code where the tree was configured with them).
// Run: mmcsf_partition_bench FILE static|serial|parallel [BLOCK]   (prints one JSON line)
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "tscope/formats/balanced_formats.hpp"
#include "tscope/io/tensor_io.hpp"

int main(int argc, char** argv) {
    using namespace tscope;
    if (argc < 3) {
        std::fprintf(stderr, "usage: %s FILE static|serial|parallel [BLOCK]\n", argv[0]);
        return 2;
    }
    const CooTensor t = load_tensor(argv[1]).tensor;
    const std::string how = argv[2];
    MmcsfPartitionOptions options;
    if (argc > 3) options.block = std::strtoull(argv[3], nullptr, 10);
    MmcsfPartitionStats stats;
    const auto start = std::chrono::steady_clock::now();
    const std::vector<std::uint8_t> labels = how == "static"   ? mmcsf_partition(t, false)
                                             : how == "serial" ? mmcsf_partition_serial(t, true)
                                                               : mmcsf_partition(t, true, options, &stats);
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    unsigned long long hash = 1469598103934665603ull;  // FNV-1a over the labels
    for (std::uint8_t l : labels) hash = (hash ^ l) * 1099511628211ull;
    std::printf("{\"pass\": \"%s\", \"nnz\": %llu, \"seconds\": %.3f, \"block\": %llu, \"blocks\": %llu, \"sweeps\": %llu, "
                "\"serial_nonzeros\": %llu, \"labels_fnv1a\": \"%016llx\"}\n",
                how.c_str(), static_cast<unsigned long long>(t.nnz()), seconds,
                static_cast<unsigned long long>(how == "parallel" ? options.block : 0), static_cast<unsigned long long>(stats.blocks),
                static_cast<unsigned long long>(stats.sweeps), static_cast<unsigned long long>(stats.serial_nonzeros), hash);
}
