#include "tscope/tensor/fiber_sketch.hpp"

#include <algorithm>
#include <bit>
#include <cmath>

#include "tensor/radix_sort.hpp"
#include "tensor/slice_fibers.hpp"
#include "tscope/io/tsb_part.hpp"
#include "tscope/tensor/coo_ops.hpp"

namespace tscope {

namespace {

// splitmix64's finalizer: every input bit moves every output bit.
std::uint64_t mix(std::uint64_t x) {
    x ^= x >> 30;
    x *= 0xbf58476d1ce4e5b9ull;
    x ^= x >> 27;
    x *= 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}

// One part's entries into per-thread sketches: an entry's index in mode m hashes to h_m; the
// mode-m fiber's key is the sum of the other modes' hashes, mixed once more.
template <class I, class V>
void sketch_part(const CooTensor& part, std::vector<std::vector<HyperLogLog>>& per_thread) {
    const int order = part.order();
    const std::uint64_t n = part.nnz();
    std::vector<const I*> cols;
    for (int m = 0; m < order; ++m) cols.push_back(part.indices<I>(m).data());
    const V* vals = part.values<V>().data();
    const int threads = static_cast<int>(per_thread.size());
#pragma omp parallel num_threads(threads)
    {
        std::vector<HyperLogLog>& mine = per_thread[static_cast<std::size_t>(detail::thread_index())];
        const auto [lo, hi] = detail::thread_chunk(n, threads);
        std::array<std::uint64_t, kMaxOrder> h{};
        for (std::uint64_t z = lo; z < hi; ++z) {
            if (vals[z] == V{0}) continue;
            std::uint64_t total = 0;
            for (int m = 0; m < order; ++m) {
                h[static_cast<std::size_t>(m)] = mix(static_cast<std::uint64_t>(cols[static_cast<std::size_t>(m)][z]) * 0x9e3779b97f4a7c15ull +
                                                     static_cast<std::uint64_t>(m + 1));
                total += h[static_cast<std::size_t>(m)];
            }
            for (int m = 0; m < order; ++m) mine[static_cast<std::size_t>(m)].add(mix(total - h[static_cast<std::size_t>(m)]));
        }
    }
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

FiberSketch sketch_tsb_fibers(const std::string& path, std::uint64_t part_nnz, RunControl& control) {
    const TsbHeader header = read_tsb_header(path);
    const int order = static_cast<int>(header.dims.size());
    if (part_nnz == 0) part_nnz = std::uint64_t{4} << 20;
    const int threads = std::max(1, detail::threads_for(std::uint64_t{1} << 20));
    std::vector<std::vector<HyperLogLog>> per_thread(static_cast<std::size_t>(threads),
                                                     std::vector<HyperLogLog>(static_cast<std::size_t>(order)));
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
        for (const auto& t : per_thread) all.merge(t[static_cast<std::size_t>(m)]);
        out.fibers.push_back(all.estimate());
    }
    exact.finish();
    out.exact = std::move(exact.exact);
    out.fiber_nnz = std::move(exact.fiber_nnz);
    out.not_exact_why = std::move(exact.why);
    return out;
}

}  // namespace tscope
