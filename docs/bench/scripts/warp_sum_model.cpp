// How many row-sized atomics the fiber kernels' warp sums can save on a tensor, counted on the
// host (session 82; no GPU needed): each mode's B-CSF tree, as the engine builds it, its fibers
// cut into pieces of at most 16 nonzeros as the upload cuts them, 8 pieces a team's group in the
// tree's order. A team adds its accumulated sum where its output row (the root's index) changes
// inside the group, and once at the group's end; only the group-end adds meet the warp sums.
// A warp holds W consecutive groups (8 for the wide kernel, 4 for the 8-lane loops). Counted:
// groups (the group-end adds without warp sums), "all" (warps whose W groups end on one row add
// once: the default in the wide kernel, TENSORSCOPE_FIBER_TEAM_WARP_SUM=1 in the 8-lane ones),
// "runs" (a warp adds once per run of consecutive groups ending on one row: =runs), and the most
// group-end adds on one row each way (the atomics L2 serialises on one line). A model of the
// adds only, not of time: the kernels' order inside a parent (fibers by length) keeps each
// fiber under its root, so the rows' sequence is the tree's.
// Build against a configured tree, as mmcsf_partition_bench.cpp:
//   g++ -O3 -march=x86-64-v3 -fopenmp -std=c++20 -Iengine/include docs/bench/scripts/warp_sum_model.cpp \
//       build/lib/libtscope_engine.a -L/usr/local/cuda/lib64 -lcudart_static -lcublas -lcusolver -lcusparse \
//       -lz -lopenblas -llapacke -ldl -lrt -lpthread $(mpicxx --showme:link) -o warp_sum_model
// Run: warp_sum_model FILE [MODE...]   (a JSON line a mode, modes from 1)
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <unordered_map>
#include <vector>

#include "bcsf_modes.hpp"

namespace {

struct Counts {
    std::uint64_t groups = 0, inner = 0, all = 0, runs = 0, hot = 0, hot_all = 0, hot_runs = 0;
};

// The group-end rows' adds for warps of `width` groups.
void count_warps(const std::vector<std::uint32_t>& ends, std::uint64_t width, Counts& c) {
    std::unordered_map<std::uint32_t, std::uint64_t> base, all, runs;
    std::uint64_t n_all = 0, n_runs = 0;
    for (std::uint64_t w = 0; w < ends.size(); w += width) {
        const std::uint64_t e = std::min<std::uint64_t>(w + width, ends.size());
        const bool same = e - w == width && std::all_of(ends.begin() + w, ends.begin() + e, [&](std::uint32_t r) { return r == ends[w]; });
        for (std::uint64_t g = w; g < e; ++g) ++base[ends[g]];
        if (same) ++n_all, ++all[ends[w]];
        else
            for (std::uint64_t g = w; g < e; ++g) ++n_all, ++all[ends[g]];
        for (std::uint64_t g = w; g < e; ++g)
            if (e - w < width || g + 1 == e || ends[g + 1] != ends[g]) ++n_runs, ++runs[ends[g]];
    }
    auto most = [](const std::unordered_map<std::uint32_t, std::uint64_t>& m) {
        std::uint64_t x = 0;
        for (const auto& [row, n] : m) x = std::max(x, n);
        return x;
    };
    c.groups = ends.size(), c.all = n_all, c.runs = n_runs;
    c.hot = most(base), c.hot_all = most(all), c.hot_runs = most(runs);
}

template <class I, class V>
void model(const tscope::CsfFormat<I, V>& csf, int mode) {
    const std::size_t fl = csf.fptr.size() - 1;  // the fiber level
    // each node's root, level by level down to the fibers
    std::vector<std::uint32_t> root(csf.nodes(0));
    for (std::uint64_t s = 0; s < root.size(); ++s) root[s] = static_cast<std::uint32_t>(csf.fids[0][s]);
    for (std::size_t l = 0; l < fl; ++l) {
        std::vector<std::uint32_t> next(csf.nodes(static_cast<int>(l) + 1));
        for (std::uint64_t p = 0; p + 1 < csf.fptr[l].size(); ++p)
            for (std::uint64_t q = csf.fptr[l][p]; q < csf.fptr[l][p + 1]; ++q) next[q] = root[p];
        root = std::move(next);
    }
    // each group's last row, pushed as the next group starts and at the tree's end
    std::vector<std::uint32_t> ends;
    std::uint64_t inner = 0;
    std::uint32_t last = 0;
    bool any = false;
    for_each_piece(csf, [&](std::uint64_t f, bool first) {
        if (first && any) ends.push_back(last);
        if (!first && root[f] != last) ++inner;  // a row change inside the group
        last = root[f], any = true;
    });
    if (any) ends.push_back(last);
    for (const std::uint64_t width : {std::uint64_t{8}, std::uint64_t{4}}) {
        Counts c;
        c.inner = inner;
        count_warps(ends, width, c);
        std::printf("{\"mode\": %d, \"warp_groups\": %llu, \"groups\": %llu, \"inner_adds\": %llu, \"adds_all\": %llu, "
                    "\"adds_runs\": %llu, \"hot_row_adds\": %llu, \"hot_row_adds_all\": %llu, \"hot_row_adds_runs\": %llu}\n",
                    mode + 1, static_cast<unsigned long long>(width), static_cast<unsigned long long>(c.groups),
                    static_cast<unsigned long long>(c.inner), static_cast<unsigned long long>(c.all),
                    static_cast<unsigned long long>(c.runs), static_cast<unsigned long long>(c.hot),
                    static_cast<unsigned long long>(c.hot_all), static_cast<unsigned long long>(c.hot_runs));
        std::fflush(stdout);
    }
}

}  // namespace

int main(int argc, char** argv) {
    return for_each_bcsf_mode(argc, argv, [](const auto& csf, int mode) { model(csf, mode); });
}
