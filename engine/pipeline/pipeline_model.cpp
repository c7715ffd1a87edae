// The pipeline's time model (hocfs-sptv-pipeline Sec. 6.2, after King et al. 1990) and the
// measured overlap of a timeline. Pure arithmetic on stage times; no GPU needed.
#include <algorithm>
#include <utility>
#include <vector>

#include "tscope/pipeline/pipeline_sptv.hpp"

namespace tscope {

namespace {

double dt_in(const PipelineChunk& c) { return c.in_end - c.in_start; }
double dt_kernel(const PipelineChunk& c) { return c.kernel_end - c.kernel_start; }
double dt_out(const PipelineChunk& c) { return c.out_end - c.out_start; }

// Merged, sorted intervals.
std::vector<std::pair<double, double>> union_of(std::vector<std::pair<double, double>> v) {
    std::sort(v.begin(), v.end());
    std::vector<std::pair<double, double>> out;
    for (const auto& iv : v) {
        if (iv.second <= iv.first) continue;
        if (!out.empty() && iv.first <= out.back().second)
            out.back().second = std::max(out.back().second, iv.second);
        else
            out.push_back(iv);
    }
    return out;
}

// How much of [a, b] the merged, sorted intervals `by` cover. Only those that can meet [a, b]
// are visited: walking all of them for every chunk made a recording of 118,000 chunks take 18 s
// to open (sweep 64).
double covered(double a, double b, const std::vector<std::pair<double, double>>& by) {
    double sum = 0;
    auto it = std::lower_bound(by.begin(), by.end(), a,
                               [](const std::pair<double, double>& iv, double x) { return iv.second < x; });
    for (; it != by.end() && it->first < b; ++it)
        sum += std::max(0.0, std::min(b, it->second) - std::max(a, it->first));
    return sum;
}

}  // namespace

double pipeline_sync_time(const std::vector<PipelineChunk>& stages) {
    double t = 0;
    for (const PipelineChunk& c : stages) t += dt_in(c) + dt_kernel(c) + dt_out(c);
    return t;
}

double pipeline_model_time(const std::vector<PipelineChunk>& c) {
    const std::size_t k = c.size();
    if (k == 0) return 0;
    if (k == 1) return dt_in(c[0]) + dt_kernel(c[0]) + dt_out(c[0]);
    // Fig. 13: filling, k-2 fully overlapped cycles, draining (indices 0-based here)
    double t = dt_in(c[0]) + std::max(dt_in(c[1]), dt_kernel(c[0]));
    for (std::size_t i = 0; i + 2 < k; ++i) t += std::max({dt_in(c[i + 2]), dt_kernel(c[i + 1]), dt_out(c[i])});
    return t + std::max(dt_out(c[k - 2]), dt_kernel(c[k - 1])) + dt_out(c[k - 1]);
}

namespace {

struct Hidden {
    double transfer = 0, kernel = 0, hidden = 0;
};

Hidden hidden_time(const std::vector<PipelineChunk>& timeline) {
    std::vector<std::pair<double, double>> kernels;
    for (const PipelineChunk& c : timeline) kernels.emplace_back(c.kernel_start, c.kernel_end);
    const auto busy = union_of(std::move(kernels));
    Hidden h;
    for (const PipelineChunk& c : timeline) {
        h.transfer += dt_in(c) + dt_out(c);
        h.kernel += dt_kernel(c);
        h.hidden += covered(c.in_start, c.in_end, busy) + covered(c.out_start, c.out_end, busy);
    }
    return h;
}

}  // namespace

double pipeline_overlap(const std::vector<PipelineChunk>& timeline) {
    const Hidden h = hidden_time(timeline);
    return h.transfer > 0 ? h.hidden / h.transfer : 0;
}

double pipeline_overlap_of_possible(const std::vector<PipelineChunk>& timeline) {
    const Hidden h = hidden_time(timeline);
    const double possible = std::min(h.transfer, h.kernel);
    return possible > 0 ? std::min(1.0, h.hidden / possible) : 0;
}

}  // namespace tscope
