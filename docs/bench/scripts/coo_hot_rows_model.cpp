// Host model (session 87): what engine/cuda/hot_rows_rule.hpp makes of a resident COO's and BLCO's
// modes, as measure_coo_shape and count_rows (gpu_mttkrp.cu) count them on the device: per mode
// the rows, the longest chain of adds (COO: the sorted order's runs plus nonzeros over the teams'
// group; BLCO: a row's nonzeros), hot rows, their copies and the lookup bitmap's bytes.
// Build: as hot_rows_model.cpp. Run: coo_hot_rows_model TENSOR.tsb [GROUP] (GROUP: COO's teams'
// nonzeros, coo_group.hpp's kCooGroup by default, what a 140M-nonzero tensor takes on an H100).
#include <tscope/io/tensor_io.hpp>
#include <tscope/formats/format.hpp>
#include <tscope/formats/format_visit.hpp>
#include <tscope/formats/paper_formats.hpp>
#include "cuda/coo_group.hpp"
#include "cuda/hot_rows_rule.hpp"
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
using namespace tscope;

static void report(const char* what, int mode, const std::vector<std::uint64_t>& chains) {
    const auto hot = gpu::plan_hot_rows(chains);
    const std::uint64_t top = chains.empty() ? 0 : *std::max_element(chains.begin(), chains.end());
    std::printf("%s mode %d: %zu rows, longest chain %llu, %zu hot rows, %llu copies, bitmap %.2f MB\n", what, mode + 1,
                chains.size(), (unsigned long long)top, hot.size(), (unsigned long long)gpu::hot_copies(hot),
                hot.empty() ? 0.0 : (chains.size() + 31) / 32 * 8 / 1e6);
}

int main(int argc, char** argv) {
    const auto t0 = std::chrono::steady_clock::now();
    auto el = [&] { return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(); };
    const std::uint64_t group = argc > 2 ? std::strtoull(argv[2], nullptr, 10) : gpu::kCooGroup;
    LoadedTensor L = load_tensor(argv[1]);
    std::printf("loaded %.1f s; COO group %llu\n", el(), (unsigned long long)group);
    for (int m = 0; m < L.tensor.order(); ++m) {  // BLCO: every nonzero may flush
        std::vector<std::uint64_t> counts(L.tensor.dim(m));
        for (std::uint64_t z = 0; z < L.tensor.nnz(); ++z) ++counts[L.tensor.index(m, z)];
        report("BLCO", m, counts);
    }
    const auto f = build_format(FormatKind::COO, L.tensor, {});
    std::printf("COO built %.1f s\n", el());
    visit_format(*f, overloaded{[&]<class I, class V>(const CooFormat<I, V>& c) {
                                    for (std::size_t m = 0; m < c.idx.size(); ++m) {
                                        std::vector<std::uint32_t> a(c.idx[m].begin(), c.idx[m].end());
                                        report("COO", static_cast<int>(m), gpu::row_chains(a, group));
                                    }
                                },
                                [&](const SparseFormat&) { std::printf("not COO\n"); }});
    std::printf("done %.1f s\n", el());
}
