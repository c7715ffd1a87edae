// Which factor each level of a mode's CSF tree gathers from, for every order of the tree's lower
// levels, counted on the host (session 84; no GPU needed). Why: on delicious-4d's shape the
// default order (SPLATT's: the other modes by increasing length) puts the 17M-row mode at the
// leaves, so that every nonzero gathers a row of its 2.2 GB factor (rank 32), far past L2. A tree
// whose level l holds the modes o[0..l] has as many nodes there as the tensor has distinct index
// prefixes over those modes, and gathers a row of mode o[l]'s factor for each (the fiber kernels
// cut long fibers and re-gather ancestors a piece, which this ignores: a model of compulsory
// gathers, not of time). Prints, for each root mode and each order of the others, each level's
// mode, nodes and factor size in MB at rank 32, as a JSON line.
// Build as warp_sum_model.cpp (its first lines) with this file's name. Run:
//   level_order_model FILE
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <map>
#include <numeric>
#include <vector>

#include "tscope/io/tensor_io.hpp"

namespace {

using Key = std::vector<int>;  // a set of modes, sorted

// Distinct index prefixes over the modes in `set`: each nonzero's key, mixed radix over the
// modes, renumbered densely whenever the next mode would overflow 64 bits.
template <class I>
std::uint64_t distinct(const tscope::CooTensor& t, const Key& set) {
    const std::uint64_t nnz = t.nnz();
    std::vector<std::uint64_t> key(nnz, 0), sorted;
    std::uint64_t range = 1;
    auto renumber = [&] {
        sorted = key;
        std::sort(sorted.begin(), sorted.end());
        sorted.erase(std::unique(sorted.begin(), sorted.end()), sorted.end());
        for (auto& k : key) k = static_cast<std::uint64_t>(std::lower_bound(sorted.begin(), sorted.end(), k) - sorted.begin());
        range = sorted.size();
    };
    for (const int m : set) {
        if (range > UINT64_MAX / t.dim(m)) renumber();
        const auto& idx = t.indices<I>(m);
        for (std::uint64_t e = 0; e < nnz; ++e) key[e] = key[e] * t.dim(m) + idx[e];
        range *= t.dim(m);
    }
    renumber();
    return range;
}

}  // namespace

int main(int argc, char** argv) {
    using namespace tscope;
    if (argc != 2) {
        std::fprintf(stderr, "usage: %s FILE\n", argv[0]);
        return 2;
    }
    const CooTensor t = load_tensor(argv[1]).tensor;
    const int n = t.order();
    std::map<Key, std::uint64_t> nodes;  // distinct prefixes by mode set
    auto count = [&](Key set) {
        std::sort(set.begin(), set.end());
        if (set.size() == static_cast<std::size_t>(n)) return static_cast<std::uint64_t>(t.nnz());
        auto it = nodes.find(set);
        if (it != nodes.end()) return it->second;
        const std::uint64_t c = t.visit([&](auto itag, auto) { return distinct<typename decltype(itag)::type>(t, set); });
        return nodes[set] = c;
    };
    for (int root = 0; root < n; ++root) {
        std::vector<int> rest;
        for (int m = 0; m < n; ++m)
            if (m != root) rest.push_back(m);
        do {
            std::printf("{\"order\": \"%d", root + 1);
            for (const int m : rest) std::printf(",%d", m + 1);
            std::printf("\", \"levels\": [");
            Key prefix{root};
            for (std::size_t l = 0; l < rest.size(); ++l) {
                prefix.push_back(rest[l]);
                std::printf("%s{\"mode\": %d, \"nodes\": %llu, \"factor_mb\": %.1f}", l ? ", " : "", rest[l] + 1,
                            static_cast<unsigned long long>(count(prefix)), static_cast<double>(t.dim(rest[l])) * 128 / 1e6);
            }
            std::printf("]}\n");
            std::fflush(stdout);
        } while (std::next_permutation(rest.begin(), rest.end()));
    }
    return 0;
}
