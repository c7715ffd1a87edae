#include "tscope/tensor/fiber_sketch.hpp"

#include <algorithm>
#include <bit>
#include <cmath>

#include "tensor/fiber_sample.hpp"
#include "tensor/radix_sort.hpp"
#include "tensor/random.hpp"
#include "tensor/second_moment.hpp"
#include "tensor/slice_fibers.hpp"
#include "tscope/ceil_div.hpp"
#include "tscope/io/tsb_part.hpp"
#include "tscope/parallel_errors.hpp"
#include "tscope/tensor/coo_ops.hpp"

namespace tscope {

namespace {

using detail::mix64;

// One part's entries into per-thread sketches: an entry's index in mode m hashes to h_m; the
// mode-m fiber's key is the sum of the other modes' hashes, mixed once more.
// Per thread: a HyperLogLog and a fiber sample per mode.
struct ThreadSketch {
    std::vector<HyperLogLog> counts;
    std::vector<detail::FiberSample> samples;
    std::vector<detail::SecondMoment> squares;
    std::uint64_t nonzeros = 0;
    explicit ThreadSketch(int order)
        : counts(static_cast<std::size_t>(order)), samples(static_cast<std::size_t>(order), detail::FiberSample(kSampleCapacity)),
          squares(static_cast<std::size_t>(order)) {}
    static constexpr std::size_t kSampleCapacity = std::size_t{1} << 13;
};

template <class I, class V>
void sketch_part(const CooTensor& part, std::vector<ThreadSketch>& per_thread) {
    const int order = part.order();
    const std::uint64_t n = part.nnz();
    std::vector<const I*> cols;
    for (int m = 0; m < order; ++m) cols.push_back(part.indices<I>(m).data());
    const V* vals = part.values<V>().data();
    const int threads = static_cast<int>(per_thread.size());
    ParallelErrors errors;  // a sample that raises its level reallocates its table
#pragma omp parallel num_threads(threads)
    errors.run([&] {
        ThreadSketch& mine = per_thread[static_cast<std::size_t>(detail::thread_index())];
        const auto [lo, hi] = detail::thread_chunk(n, threads);
        std::array<std::uint64_t, kMaxOrder> h{};
        for (std::uint64_t z = lo; z < hi; ++z) {
            if (vals[z] == V{0}) continue;
            ++mine.nonzeros;
            std::uint64_t total = 0;
            for (int m = 0; m < order; ++m) {
                h[static_cast<std::size_t>(m)] = mix64(static_cast<std::uint64_t>(cols[static_cast<std::size_t>(m)][z]) * 0x9e3779b97f4a7c15ull +
                                                     static_cast<std::uint64_t>(m + 1));
                total += h[static_cast<std::size_t>(m)];
            }
            for (int m = 0; m < order; ++m) {
                const std::uint64_t key = mix64(total - h[static_cast<std::size_t>(m)]);
                mine.counts[static_cast<std::size_t>(m)].add(key);
                mine.samples[static_cast<std::size_t>(m)].add(key);
                mine.squares[static_cast<std::size_t>(m)].add(key);
            }
        }
    });
    errors.rethrow();
}

}  // namespace

void HyperLogLog::add(std::uint64_t hash) {
    const std::size_t j = static_cast<std::size_t>(hash >> (64 - kBits));
    const std::uint64_t rest = hash << kBits;
    const auto rank = static_cast<std::uint8_t>(rest == 0 ? 64 - kBits + 1 : std::countl_zero(rest) + 1);
    registers_[j] = std::max(registers_[j], rank);
}

void HyperLogLog::merge(const HyperLogLog& other) {
    for (std::size_t j = 0; j < registers_.size(); ++j) registers_[j] = std::max(registers_[j], other.registers_[j]);
}

double HyperLogLog::estimate() const {
    const double m = static_cast<double>(registers_.size());
    double sum = 0;
    std::size_t zeros = 0;
    for (std::uint8_t r : registers_) {
        sum += std::ldexp(1.0, -r);
        zeros += r == 0;
    }
    const double raw = 0.7213 / (1 + 1.079 / m) * m * m / sum;
    // few distinct keys: linear counting of the empty registers is exact-er there
    if (raw <= 2.5 * m && zeros > 0) return m * std::log(m / static_cast<double>(zeros));
    return raw;
}

FiberSketch sketch_tsb_fibers(const std::string& path, std::uint64_t part_nnz, RunControl& control, std::uint64_t split_threshold) {
    const TsbHeader header = read_tsb_header(path);
    const int order = static_cast<int>(header.dims.size());
    if (part_nnz == 0) part_nnz = std::uint64_t{4} << 20;
    const int threads = std::max(1, detail::threads_for(std::uint64_t{1} << 20));
    std::vector<ThreadSketch> per_thread(static_cast<std::size_t>(threads), ThreadSketch(order));
    FiberSketch out;
    detail::SliceFiberCounter exact(header.dims, 4 * part_nnz);
    control.stage("fibers, sketched");
    for (std::uint64_t first = 0; first < header.nnz; first += part_nnz) {
        control.check();
        const TsbPart part = read_tsb_part(path, first, part_nnz, LoadOptions{ValueType::F64, true});
        part.tensor.visit([&](auto itag, auto vtag) {
            sketch_part<typename decltype(itag)::type, typename decltype(vtag)::type>(part.tensor, per_thread);
        });
        exact.add(part.tensor);
        control.progress(std::min(first + part_nnz, header.nnz), header.nnz);
    }
    for (int m = 0; m < order; ++m) {
        HyperLogLog all;
        for (const auto& t : per_thread) all.merge(t.counts[static_cast<std::size_t>(m)]);
        out.fibers.push_back(all.estimate());
    }
    exact.finish();
    out.exact = std::move(exact.exact);
    out.fiber_nnz = std::move(exact.fiber_nnz);
    out.not_exact_why = std::move(exact.why);
    out.split_threshold = split_threshold;
    out.sampled_nnz.resize(static_cast<std::size_t>(order));
    out.sample_level.assign(static_cast<std::size_t>(order), 0);
    out.sampled_fibers.assign(static_cast<std::size_t>(order), 0);
    out.split_fibers.assign(static_cast<std::size_t>(order), 0.0);
    std::uint64_t nonzeros = 0;
    for (const auto& t : per_thread) nonzeros += t.nonzeros;
    for (int m = 0; m < order; ++m) {
        const auto k = static_cast<std::size_t>(m);
        if (out.exact[k]) continue;
        detail::FiberSample sample = per_thread[0].samples[k];
        for (std::size_t t = 1; t < per_thread.size(); ++t) sample.merge(per_thread[t].samples[k]);
        // the count is the sketch's (0.8%), the mean nonzeros / count and the spread from the sum
        // of squared lengths (second_moment.hpp): a sample's would miss a heavy tail's long
        // fibers. The histogram's shape and the extremes are the sample's.
        CountDistribution d = sample.estimate();
        // the sketch's count, held to what the nonzeros allow: at least one fiber and at most one
        // a nonzero (300 fibers of one nonzero each read "~302 fibers" of mean 0.994)
        if (nonzeros > 0) out.fibers[k] = std::clamp(out.fibers[k], 1.0, static_cast<double>(nonzeros));
        const double count = out.fibers[k];
        for (auto& h : d.log2_histogram)
            h = static_cast<std::uint64_t>(std::llround(static_cast<double>(h) * count / static_cast<double>(std::max<std::uint64_t>(d.count, 1))));
        d.count = static_cast<std::uint64_t>(std::llround(count));
        if (count > 0) {
            detail::SecondMoment squares = per_thread[0].squares[k];
            for (std::size_t t = 1; t < per_thread.size(); ++t) squares.merge(per_thread[t].squares[k]);
            d.mean = static_cast<double>(nonzeros) / count;
            d.std = std::sqrt(std::max(0.0, squares.estimate() / count - d.mean * d.mean));
            // a fiber as long as the sample's longest alone spreads the lengths this much (the
            // estimate of the squares can fall below it: "std ~0" beside a max of 2); and fibers
            // as many as the nonzeros are all one long
            if (d.max > d.mean) d.std = std::max(d.std, (static_cast<double>(d.max) - d.mean) / std::sqrt(count));
            if (count >= static_cast<double>(nonzeros)) d.std = 0;
        }
        out.sampled_nnz[k] = d;
        out.sample_level[k] = sample.level();
        out.sampled_fibers[k] = sample.followed();
        if (split_threshold)
            out.split_fibers[k] = sample.estimate_sum([&](std::uint64_t len) { return static_cast<double>(ceil_div(len, split_threshold)); });
    }
    return out;
}

}  // namespace tscope
