// A model of the fiber-team kernel's schedule, not a measurement (session 30): why cutting the
// nell-2 shape's fibers from 128 nonzeros to 32 ran B-CSF 12% faster, and what handing the groups
// out at run time (TENSORSCOPE_TEAM_QUEUE) might still gain. It reads a .tsb's index columns
// (order 3, the header's 60 bytes skipped), forms the tree rooted at mode A with mode B at the
// fibers, cuts fibers at T nonzeros, groups 8 fibers a team group, and charges a group its
// nonzeros plus PER_FIBER for each fiber (GROUP_WORK > 0: whole fibers up to that much work a
// group instead). Grid-stride: grid_for's grid (capped: at most 132 SMs x 32 blocks of 32 teams;
// "full": a team a group; "resident": 132 x 6 blocks), team k walking groups k, k + teams, ...; the
// blocks dispatched in order onto 132 x 6 slots, each holding its slot for its slowest team's
// work. Even: the same work spread over the 132 x 6 x 32 resident teams. One JSON line per T.
// Build and run: g++ -O2 -o model team_schedule_model.cpp && ./model nell2.tsb 0 1 3 capped 0
// (docs/bench/model-team-schedule-nell2.json has its output beside the measured times.)
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <functional>
#include <queue>
#include <vector>
int main(int argc, char** argv) {
    FILE* f = std::fopen(argv[1], "rb");
    const int a = std::atoi(argv[2]), b = std::atoi(argv[3]);  // tree: mode a at the root, b at fibers
    std::uint64_t nnz = 0;
    std::fseek(f, 24, SEEK_SET);  // magic (8), version, order, index width, value type (4 each)
    if (std::fread(&nnz, 8, 1, f) != 1) return 1;
    std::vector<std::uint32_t> ia(nnz), ib(nnz);
    std::fseek(f, 60 + (long)a * nnz * 4, SEEK_SET); std::fread(ia.data(), 4, nnz, f);
    std::fseek(f, 60 + (long)b * nnz * 4, SEEK_SET); std::fread(ib.data(), 4, nnz, f);
    std::vector<std::uint64_t> key(nnz);
    for (std::uint64_t z = 0; z < nnz; ++z) key[z] = (std::uint64_t(ia[z]) << 32) | ib[z];
    ia.clear(); ia.shrink_to_fit(); ib.clear(); ib.shrink_to_fit();
    std::sort(key.begin(), key.end());
    std::vector<std::uint32_t> len;
    for (std::uint64_t z = 0; z < nnz;) { std::uint64_t e = z; while (e < nnz && key[e] == key[z]) ++e; len.push_back(e - z); z = e; }
    const double per_fiber = argc > 4 ? std::atof(argv[4]) : 3.0;
    for (std::uint32_t T : {1024u, 128u, 64u, 32u, 16u, 8u}) {
        std::vector<double> fib;
        for (auto L : len) for (std::uint32_t at = 0; at < L; at += T) fib.push_back(std::min(T, L - at) + per_fiber);
        std::vector<double> gw;
        const double K = argc > 6 ? std::atof(argv[6]) : 0;
        if (K > 0) {  // groups of whole fibers up to K work units
            double cur = 0; std::size_t n = 0;
            for (double w : fib) { if (n && cur + w > K) { gw.push_back(cur); cur = 0; n = 0; } cur += w; ++n; }
            if (n) gw.push_back(cur);
        } else {
            gw.assign((fib.size() + 7) / 8, 0);
            for (std::size_t k = 0; k < fib.size(); ++k) gw[k / 8] += fib[k];
        }
        const std::uint64_t groups = gw.size();
        const char* grid = argc > 5 ? argv[5] : "capped";
        const std::uint64_t cap = std::strcmp(grid, "full") == 0       ? ~0ull
                                  : std::strcmp(grid, "resident") == 0 ? 132 * 6
                                                                        : 132 * 32;
        const std::uint64_t blocks = std::min<std::uint64_t>((groups * 8 + 255) / 256, cap), teams = blocks * 32;
        std::vector<double> team(teams, 0);
        for (std::uint64_t g = 0; g < groups; ++g) team[g % teams] += gw[g];
        std::priority_queue<double, std::vector<double>, std::greater<double>> slots;
        for (int s = 0; s < 132 * 6; ++s) slots.push(0);
        double total = 0, end = 0;
        for (double w : gw) total += w;
        for (std::uint64_t bk = 0; bk < blocks; ++bk) {
            double m = 0; for (int t = 0; t < 32; ++t) m = std::max(m, team[bk * 32 + t]);
            double s = slots.top(); slots.pop(); slots.push(s + m); end = std::max(end, s + m);
        }
        const double ideal = total / (132.0 * 6 * 32);
        std::printf("{\"per_fiber\": %g, \"grid\": \"%s\", \"group_work\": %g, \"split\": %u, \"fibers\": %zu, "
                    "\"work\": %.0f, \"grid_stride_makespan\": %.0f, \"even_makespan\": %.0f}\n",
                    per_fiber, grid, K, T, fib.size(), total, end, ideal);
    }
}
