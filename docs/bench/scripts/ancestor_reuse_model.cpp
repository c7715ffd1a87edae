// How many factor-row gathers the fiber kernels would save at order 4 and up by keeping the
// product of a fiber's upper ancestors while consecutive fibers share their parent, counted on
// the host (session 83; no GPU needed). Why: on delicious-4d's shape a fiber holds 1.2 nonzeros,
// so of the 2.67 rows a nonzero the wide kernel gathers, 1.67 are ancestors' (gpu-kernels.md);
// each piece re-gathers every non-target ancestor's row, even where the piece before had the
// same ones. Each mode's B-CSF tree as the engine builds it (the root is the output mode, so
// levels 1 .. F are gathered, F the fiber level), its fibers cut into pieces of at most 16
// nonzeros, 8 pieces a team's group, as the upload cuts them. A piece whose parent (level F - 1)
// is the piece before's, in the same group, would gather only its own level-F row. Counted:
// pieces, parent repeats, the rows gathered a nonzero now and with reuse, and the lockstep share
// (a warp's 8 teams at their k-th piece all repeating: where a warp's load is skipped outright,
// which is what a latency-bound kernel needs). A model of gathers, not of time.
// Build as warp_sum_model.cpp (its first lines) with this file's name. Run:
//   ancestor_reuse_model FILE [MODE|ORDER...]   (a JSON line a tree, modes from 1; an ORDER such as
//   1,2,4,3 builds the tree in that order)
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "bcsf_modes.hpp"

namespace {

constexpr std::uint64_t kWarpTeams = 8;  // a wide kernel's warp

// Each fiber's parent at level F - 1 (the fibers' own index where F is 0).
template <class I, class V>
std::vector<std::uint64_t> fiber_parents(const tscope::CsfFormat<I, V>& csf) {
    const std::size_t fl = csf.fptr.size() - 1;
    std::vector<std::uint64_t> parent(csf.nodes(static_cast<int>(fl)));
    if (fl == 0) {
        for (std::uint64_t f = 0; f < parent.size(); ++f) parent[f] = f;
        return parent;
    }
    for (std::uint64_t p = 0; p + 1 < csf.fptr[fl - 1].size(); ++p)
        for (std::uint64_t q = csf.fptr[fl - 1][p]; q < csf.fptr[fl - 1][p + 1]; ++q) parent[q] = p;
    return parent;
}

template <class I, class V>
void model(const tscope::CsfFormat<I, V>& csf, int mode) {
    const std::size_t fl = csf.fptr.size() - 1;
    const std::vector<std::uint64_t> parent = fiber_parents(csf);
    // each piece: whether it repeats the piece before's parent inside its group
    std::vector<std::uint8_t> repeats;
    std::uint64_t last = 0;
    for_each_piece(csf, [&](std::uint64_t f, bool first) {
        repeats.push_back(!first && parent[f] == last);
        last = parent[f];
    });
    const std::uint64_t nnz = csf.fptr[fl].back() - csf.fptr[fl].front();
    std::uint64_t repeated = 0;
    for (const std::uint8_t r : repeats) repeated += r;
    // lockstep: the warp's teams walk groups g .. g + 7, the k-th piece of each at once
    const std::uint64_t groups = (repeats.size() + kGroup - 1) / kGroup;
    std::uint64_t steps = 0, all_repeat = 0;
    for (std::uint64_t w = 0; w + kWarpTeams <= groups; w += kWarpTeams)
        for (std::uint64_t k = 0; k < kGroup; ++k) {
            bool all = true;
            for (std::uint64_t t = 0; t < kWarpTeams && all; ++t) {
                const std::uint64_t p = (w + t) * kGroup + k;
                all = p < repeats.size() && repeats[p];
            }
            ++steps, all_repeat += all;
        }
    const double pieces = static_cast<double>(repeats.size()), upper = fl > 0 ? static_cast<double>(fl - 1) : 0.0;
    const double rows_now = (pieces * static_cast<double>(fl) + static_cast<double>(nnz)) / static_cast<double>(nnz);
    const double rows_reuse = rows_now - static_cast<double>(repeated) * upper / static_cast<double>(nnz);
    std::string order;
    for (const int m : csf.order) order += (order.empty() ? "" : ",") + std::to_string(m + 1);
    std::printf("{\"mode\": %d, \"order\": \"%s\", \"fiber_level\": %zu, \"nnz\": %llu, \"fibers\": %zu, \"pieces\": %zu, \"parent_repeats\": %llu, "
                "\"rows_per_nnz\": %.4f, \"rows_per_nnz_reuse\": %.4f, \"warp_steps\": %llu, \"warp_steps_all_repeat\": %llu}\n",
                mode + 1, order.c_str(), fl, static_cast<unsigned long long>(nnz), parent.size(), repeats.size(),
                static_cast<unsigned long long>(repeated), rows_now, rows_reuse, static_cast<unsigned long long>(steps),
                static_cast<unsigned long long>(all_repeat));
    std::fflush(stdout);
}

}  // namespace

int main(int argc, char** argv) {
    return for_each_bcsf_mode(argc, argv, [](const auto& csf, int mode) { model(csf, mode); });
}
