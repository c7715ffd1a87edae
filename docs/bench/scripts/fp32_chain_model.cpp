// Host model (session 86): the fp32 error of one output row's terms added one at a time, and split
// round robin over C copies (spans of 256 terms), against fp64: the heaviest row of a mode of a
// tensor, hashed U(0,1) factors at rank 32 (docs/bench/cpu-hot-rows-del4d.json). Build as
// hot_rows_model.cpp. Run: fp32_chain_model TENSOR.tsb MODE0 (0-based mode)
#include <tscope/io/tensor_io.hpp>
#include <cstdio>
#include <cmath>
#include <vector>
#include <algorithm>
using namespace tscope;
static double fac(int mode, std::uint64_t row, int c) {  // a U(0,1) factor entry from a hash
    std::uint64_t x = (row * 0x9E3779B97F4A7C15ull) ^ (std::uint64_t(mode) << 56) ^ (std::uint64_t(c) * 0xBF58476D1CE4E5B9ull);
    x ^= x >> 31; x *= 0x94D049BB133111EBull; x ^= x >> 29;
    return double(x >> 11) / double(1ull << 53);
}
int main(int argc, char** argv) {
    const int mode = argc > 2 ? atoi(argv[2]) : 1;
    LoadedTensor L = load_tensor(argv[1]);
    const CooTensor& t = L.tensor;
    const int N = t.order();
    const auto& out = t.indices<std::uint32_t>(mode);
    std::vector<std::uint32_t> cnt(t.dim(mode));
    for (std::uint64_t z = 0; z < t.nnz(); ++z) cnt[out[z]]++;
    const std::uint32_t hot = std::max_element(cnt.begin(), cnt.end()) - cnt.begin();
    std::printf("mode %d: hottest row %u with %u nonzeros of %llu\n", mode + 1, hot, cnt[hot], (unsigned long long)t.nnz());
    const auto& vals = t.values<double>();
    std::vector<std::vector<double>> terms(32);
    for (std::uint64_t z = 0; z < t.nnz(); ++z) {
        if (out[z] != hot) continue;
        for (int c = 0; c < 32; ++c) {
            double v = vals[z];
            for (int m = 0; m < N; ++m) if (m != mode) v *= float(fac(m, t.indices<std::uint32_t>(m)[z], c));
            terms[c].push_back(float(v));
        }
    }
    for (std::uint64_t C : {1ull, 4ull, 16ull, 64ull, 256ull, 1024ull, 4096ull}) {
        double maxd = 0, maxr = 0;
        for (int c = 0; c < 32; ++c) {
            std::vector<float> copy(C, 0.f);
            double ref = 0;
            const auto& v = terms[c];
            for (std::size_t k = 0; k < v.size(); ++k) { copy[(k / 256) % C] += float(v[k]); ref += v[k]; }
            double s = 0; for (float x : copy) s += x;
            maxd = std::max(maxd, std::fabs(s - ref)); maxr = std::max(maxr, std::fabs(ref));
        }
        std::printf("  copies %5llu (chain %8llu): relative error %.3g\n", (unsigned long long)C, (unsigned long long)((cnt[hot] + C - 1) / C), maxd / maxr);
    }
}
