// What the level order of MM-CSF's partitions above their leaves does to a sweep's row traffic,
// counted on the host (session 96; no GPU needed). MM-CSF keeps each partition's own mode at the
// leaves (mm-csf Sec. 4.1, Fig. 3(d)) and, as this project builds it (mmcsf_partition_order), the
// other modes above it by increasing length: on delicious-4d's shape the 1,443-row mode is then
// every partition's root. Session 95 found that the CSF trees on the GPU gain 8-10% with that
// mode at the leaves (kernels/gpu_level_order.cpp); in MM-CSF the leaves are taken, so the
// question is whether any order of the upper levels moves fewer rows. For mode m's MTTKRP a
// partition's tree adds into m's output once a node of m's level (once a nonzero at the leaves;
// rows written, not added, at the root) and gathers a row of every other level's factor once a
// node of that level (distinct prefixes: a tree's next fibers find their parents' rows in cache,
// as level_order_model.cpp counts). A model of rows, not of time; factors of at most 256 KiB at
// rank 32 (an SM's L1 and shared memory) are counted apart ("small"), their rows coming from cache
// wherever they sit, though adds into so few rows contend (hot_rows_rule.hpp).
// Build as warp_sum_model.cpp (its first lines) with this file's name. Run:
//   mmcsf_order_model FILE    (a JSON line per partition and order of its upper levels)
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <vector>

#include "tscope/advisor/advisor.hpp"
#include "tscope/formats/balanced_formats.hpp"
#include "tscope/io/tensor_io.hpp"

int main(int argc, char** argv) {
    using namespace tscope;
    if (argc != 2) {
        std::fprintf(stderr, "usage: %s FILE\n", argv[0]);
        return 2;
    }
    const CooTensor t = load_tensor(argv[1]).tensor;
    const int n = t.order();
    const std::vector<std::uint8_t> labels = mmcsf_partition(t, true);
    const auto small = [&](int m) { return t.dim(m) * 32 * 4 <= 256 * 1024; };
    for (int q = 0; q < n; ++q) {
        std::vector<std::uint64_t> members;
        for (std::uint64_t z = 0; z < labels.size(); ++z)
            if (labels[z] == q) members.push_back(z);
        if (members.empty()) continue;
        const std::vector<int> built = mmcsf_partition_order(t, q);
        std::vector<int> upper(built.begin(), built.end() - 1);
        std::sort(upper.begin(), upper.end());
        do {
            std::vector<int> order = upper;
            order.push_back(q);
            const TreeCounts c = tree_counts(t, order, UINT64_MAX, &members);
            std::printf("{\"partition\": %d, \"nnz\": %llu, \"order\": \"", q + 1, static_cast<unsigned long long>(members.size()));
            for (int l = 0; l < n; ++l) std::printf("%s%d", l ? "," : "", order[static_cast<std::size_t>(l)] + 1);
            std::printf("\", \"built\": %s, \"nodes\": [", order == built ? "true" : "false");
            for (int l = 0; l < n; ++l) std::printf("%s%llu", l ? ", " : "", static_cast<unsigned long long>(c.nodes[static_cast<std::size_t>(l)]));
            std::printf("], \"modes\": [");
            for (int m = 0; m < n; ++m) {  // mode m's MTTKRP over this partition
                const int L = static_cast<int>(std::find(order.begin(), order.end(), m) - order.begin());
                std::uint64_t gathers = 0, small_gathers = 0;
                for (int l = 0; l < n; ++l) {
                    if (l == L) continue;
                    const std::uint64_t rows = c.nodes[static_cast<std::size_t>(l)];
                    (small(order[static_cast<std::size_t>(l)]) ? small_gathers : gathers) += rows;
                }
                const std::uint64_t touched = c.nodes[static_cast<std::size_t>(L)];
                std::printf("%s{\"mode\": %d, \"level\": %d, \"gathers\": %llu, \"small_gathers\": %llu, \"%s\": %llu, "
                            "\"small_output\": %s}",
                            m ? ", " : "", m + 1, L, static_cast<unsigned long long>(gathers),
                            static_cast<unsigned long long>(small_gathers), L == 0 ? "written" : "adds",
                            static_cast<unsigned long long>(touched), small(m) ? "true" : "false");
            }
            std::printf("]}\n");
            std::fflush(stdout);
        } while (std::next_permutation(upper.begin(), upper.end()));
    }
    return 0;
}
