// .tns writer: 1-based indices, a "# dims:" comment so trailing empty slices survive a round
// trip, and the shortest text that reads back to the same value (std::to_chars).
// Entries are formatted in parallel blocks and joined in order.
#include <atomic>
#include <charconv>
#include <cstring>

#include "tscope/io/tns_format.hpp"
#include "tscope/parallel_errors.hpp"

#ifdef _OPENMP
#include <omp.h>
#endif

namespace tscope {
namespace {

constexpr std::uint64_t kEntriesPerBlock = 1u << 18;

template <class I, class V>
void format_range(const CooTensor& t, std::uint64_t lo, std::uint64_t hi, std::string& out) {
    const int order = t.order();
    std::vector<const I*> cols;
    for (int m = 0; m < order; ++m) cols.push_back(t.indices<I>(m).data());
    const V* vals = t.values<V>().data();
    // 20 digits per index, a sign, 24 for a value, separators.
    const std::size_t max_line = static_cast<std::size_t>(order) * 21 + 32;
    out.resize((hi - lo) * max_line);
    char* p = out.data();
    for (std::uint64_t n = lo; n < hi; ++n) {
        for (int m = 0; m < order; ++m) {
            p = std::to_chars(p, p + 21, static_cast<std::uint64_t>(cols[static_cast<std::size_t>(m)][n]) + 1).ptr;
            *p++ = ' ';
        }
        p = std::to_chars(p, p + 32, vals[n]).ptr;
        *p++ = '\n';
    }
    out.resize(static_cast<std::size_t>(p - out.data()));
}

}  // namespace

std::string format_tns(const CooTensor& t, RunControl& control) {
    std::string head = "# written by tensorscope: order " + std::to_string(t.order()) + ", nnz " +
                       std::to_string(t.nnz()) + ", 1-based indices\n# dims:";
    for (auto d : t.dims()) {
        head += ' ';
        head += std::to_string(d);
    }
    head += "\n";
    const std::uint64_t blocks = (t.nnz() + kEntriesPerBlock - 1) / kEntriesPerBlock;
    std::vector<std::string> parts(blocks);
    std::atomic<std::uint64_t> done{0};
    // out of memory for a block's text: it ended the program from inside the region (sweep 66a F4)
    ParallelErrors errors;
#pragma omp parallel for schedule(dynamic, 1)
    for (std::int64_t b = 0; b < static_cast<std::int64_t>(blocks); ++b) {
        if (control.cancelled()) continue;
        const std::uint64_t lo = static_cast<std::uint64_t>(b) * kEntriesPerBlock;
        const std::uint64_t hi = std::min(t.nnz(), lo + kEntriesPerBlock);
        errors.run([&] {  // passed over once a block has failed
            t.visit([&](auto itag, auto vtag) {
                format_range<typename decltype(itag)::type, typename decltype(vtag)::type>(
                    t, lo, hi, parts[static_cast<std::size_t>(b)]);
            });
            control.progress(++done, blocks);
        });
    }
    errors.rethrow();
    control.check();
    std::size_t total = head.size();
    for (auto& p : parts) total += p.size();
    std::string out;
    out.reserve(total);
    out += head;
    for (auto& p : parts) {
        out += p;
        std::string().swap(p);
    }
    return out;
}

}  // namespace tscope
