// Host model (session 86): MM-CSF's partitions of a tensor as the engine builds them, and what
// engine/cuda/hot_rows_rule.hpp makes of each level below a root: positions, the longest chain
// of adds, hot rows, copies, and the renumbered array's bytes (docs/bench/cpu-hot-rows-del4d.json).
// Build: g++ -O2 -std=c++20 -fopenmp -Iengine/include -Iengine THIS build/lib/libtscope_engine.a (+ the
// engine's libraries, as docs/bench/scripts/level_order_model.cpp). Run: hot_rows_model TENSOR.tsb
#include <tscope/io/tensor_io.hpp>
#include <tscope/formats/format.hpp>
#include <tscope/formats/format_visit.hpp>
#include <tscope/formats/balanced_formats.hpp>
#include "kernels/csf_flatten.hpp"
#include "cuda/hot_rows_rule.hpp"
#include <chrono>
#include <cstdio>
using namespace tscope;
int main(int argc, char** argv) {
    auto t0 = std::chrono::steady_clock::now();
    LoadedTensor L = load_tensor(argv[1]);
    auto el = [&] { return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(); };
    std::printf("loaded %.1f s\n", el());
    const auto f = build_format(FormatKind::MMCSF, L.tensor, {});
    std::printf("built %.1f s\n", el());
    std::uint64_t total_bytes = 0;
    visit_format(*f, overloaded{
        [&]<class I, class V>(const MmcsfFormat<I, V>& mm) {
            for (std::size_t p = 0; p < mm.partitions.size(); ++p) {
                const auto& c = mm.partitions[p];
                const csf_flat::FlatTree ft = csf_flat::flatten(c);
                const int levels = static_cast<int>(ft.anc.size());
                std::printf("partition %zu: %zu nonzeros, %zu fibers, modes", p, ft.leaf.size(), ft.fiber_ptr.size() - 1);
                for (int m : c.order) std::printf(" %d", m + 1);
                std::printf("\n");
                for (int l = 1; l <= levels; ++l) {
                    const bool leaves = l == levels;
                    const auto& a = leaves ? ft.leaf : ft.anc[static_cast<std::size_t>(l)];
                    const auto chains = gpu::hot_chains(a, !leaves);
                    const auto hot = gpu::plan_hot_rows(chains);
                    std::uint64_t top = 0;
                    for (auto x : chains) top = std::max(top, x);
                    const std::uint64_t bytes = hot.empty() ? 0 : a.size() * 4;
                    total_bytes += bytes;
                    std::printf("  level %d (mode %d, %s): %zu positions, longest chain %llu, %zu hot rows, %llu copies, %.0f MB\n", l,
                                c.order[static_cast<std::size_t>(l)] + 1, leaves ? "leaves" : "between", a.size(),
                                (unsigned long long)top, hot.size(), (unsigned long long)gpu::hot_copies(hot), bytes / 1e6);
                }
            }
        },
        [&](const SparseFormat&) { std::printf("not MM-CSF\n"); }});
    std::printf("renumbered arrays: %.0f MB; done %.1f s\n", total_bytes / 1e6, el());
}
