// Which factor each level of a mode's CSF tree gathers from, for every order of the tree's lower
// levels, counted on the host (session 84; no GPU needed). Why: on delicious-4d's shape the
// default order (SPLATT's: the other modes by increasing length) puts the 17M-row mode at the
// leaves, so that every nonzero gathers a row of its 2.2 GB factor (rank 32), far past L2. Level
// l of a tree gathers a row of its mode's factor for each of its nodes (the advisor's
// tree_counts; the fiber kernels cut long fibers and re-gather ancestors a piece, which this
// ignores: a model of compulsory gathers, not of time). Prints, for each root mode and each order
// of the others, each level's mode, nodes and factor size in MB at rank 32, as a JSON line.
// Build as warp_sum_model.cpp (its first lines) with this file's name. Run:
//   level_order_model FILE
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <vector>

#include "tscope/advisor/advisor.hpp"
#include "tscope/io/tensor_io.hpp"

int main(int argc, char** argv) {
    using namespace tscope;
    if (argc != 2) {
        std::fprintf(stderr, "usage: %s FILE\n", argv[0]);
        return 2;
    }
    const CooTensor t = load_tensor(argv[1]).tensor;
    for (int root = 0; root < t.order(); ++root) {
        std::vector<int> rest;
        for (int m = 0; m < t.order(); ++m)
            if (m != root) rest.push_back(m);
        do {
            std::vector<int> order{root};
            order.insert(order.end(), rest.begin(), rest.end());
            const TreeCounts c = tree_counts(t, order, UINT64_MAX);
            std::printf("{\"order\": \"%d", root + 1);
            for (const int m : rest) std::printf(",%d", m + 1);
            std::printf("\", \"levels\": [");
            for (std::size_t l = 1; l < order.size(); ++l)
                std::printf("%s{\"mode\": %d, \"nodes\": %llu, \"factor_mb\": %.1f}", l > 1 ? ", " : "", order[l] + 1,
                            static_cast<unsigned long long>(c.nodes[l]), static_cast<double>(t.dim(order[l])) * 128 / 1e6);
            std::printf("]}\n");
            std::fflush(stdout);
        } while (std::next_permutation(rest.begin(), rest.end()));
    }
    return 0;
}
