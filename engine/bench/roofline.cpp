#include "tscope/bench/roofline.hpp"

#include <algorithm>
#include <chrono>
#include <map>
#include <mutex>
#include <utility>
#include <vector>

#ifdef _OPENMP
#include <omp.h>
#endif

#include "tscope/bench/kernel_bench.hpp"
#include "tscope/cuda/device.hpp"
#include "tscope/formats/format_visit.hpp"
#include "tscope/kernels/mttkrp.hpp"

namespace tscope {

namespace {

int current_threads() {
#ifdef _OPENMP
    return omp_get_max_threads();
#else
    return 1;
#endif
}

// A per-process memo keyed by thread count: the figures are measured once, not per bench call
// (a test suite runs the harness hundreds of times).
template <class F>
auto memo(std::map<int, decltype(std::declval<F>()())>& cache, std::mutex& lock, int key, F measure) {
    const std::lock_guard guard(lock);
    auto it = cache.find(key);
    if (it == cache.end()) it = cache.emplace(key, measure()).first;
    return it->second;
}

// One thread's share of the FMA loop: 16 independent chains of 4 doubles (four AVX2 registers'
// worth per FMA port and latency), so the loop is bound by FMA throughput, not latency.
double fma_chains(std::uint64_t steps, double seed) {
    constexpr int kLanes = 64;
    alignas(64) double acc[kLanes];
    for (int j = 0; j < kLanes; ++j) acc[j] = seed + j;
    const double a = 0.999999, b = 1e-7;
    for (std::uint64_t s = 0; s < steps; ++s) {
        // acc's alignas is known here: an aligned(acc : 64) clause crashed clang 14 under -fsanitize=alignment
#pragma omp simd
        for (int j = 0; j < kLanes; ++j) acc[j] = acc[j] * a + b;
    }
    double sum = 0;
    for (double v : acc) sum += v;
    return sum;  // used by the caller, so the loop is not dropped
}

double measure_fma_gflops() {
    constexpr std::uint64_t kSteps = 4'000'000;  // 512 Mflop per thread: tens of ms
    volatile double sink = 0;
    std::vector<double> rates;
    for (int r = 0; r < 6; ++r) {
        double total = 0;
        int threads = 1;
        const auto start = std::chrono::steady_clock::now();
#pragma omp parallel reduction(+ : total)
        {
#ifdef _OPENMP
#pragma omp single
            threads = omp_get_num_threads();
#endif
            total += fma_chains(kSteps, 1.0 + total);
        }
        const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        sink = sink + total;
        if (r > 0) rates.push_back(2.0 * 64 * static_cast<double>(kSteps) * threads / s / 1e9);
    }
    // the best run: a peak bounds what the machine can do, and on a shared machine the median
    // of the runs fell below rates the kernels reached (sweep 70c C5)
    return *std::max_element(rates.begin(), rates.end());
}

// FP32 lanes per multiprocessor by compute capability (NVIDIA's CUDA programming guide table
// of arithmetic throughput); 0 where this table does not know the architecture.
int fp32_lanes_per_sm(int major, int minor) {
    if (major == 7) return 64;
    if (major == 8) return minor == 0 ? 64 : 128;
    if (major == 9 || major == 10 || major == 12) return 128;
    return 0;
}

}  // namespace

std::uint64_t distinct_indices(const CooTensor& t, int mode) {
    std::uint64_t count = 0;
    t.visit([&](auto itag, auto) {
        using I = typename decltype(itag)::type;
        const auto& idx = t.indices<I>(mode);
        const std::uint64_t dim = t.dim(mode);
        if (dim <= std::max<std::uint64_t>(64 * t.nnz(), std::uint64_t{1} << 24)) {
            std::vector<bool> seen(dim, false);
            for (I i : idx)
                if (!seen[i]) seen[i] = true, ++count;
            return;
        }
        std::vector<I> sorted(idx.begin(), idx.end());  // a huge, nearly empty mode
        std::sort(sorted.begin(), sorted.end());
        count = static_cast<std::uint64_t>(std::unique(sorted.begin(), sorted.end()) - sorted.begin());
    });
    return count;
}

double copy_bandwidth_for(Backend backend) {
    static std::mutex lock;
    static std::map<int, double> host, device;
    if (backend == Backend::Cuda) return memo(device, lock, 0, [] { return measure_gpu_copy_bandwidth(); });
    return memo(host, lock, current_threads(), [] { return measure_copy_bandwidth(); });
}

// The device's row rates depend on no thread count: one figure each per process, measured at
// first use (a function-local static's initialisation is thread-safe).
double gather_bandwidth_for(Backend backend) {
    if (backend != Backend::Cuda) return 0;
    static const double gbps = measure_gpu_gather_bandwidth();
    return gbps;
}

double add_bandwidth_for(Backend backend) {
    if (backend != Backend::Cuda) return 0;
    static const double gbps = measure_gpu_add_bandwidth();
    return gbps;
}

std::uint64_t gather_bytes(const CooTensor& t, KernelKind kernel, FormatKind format, Backend backend, std::uint64_t rank) {
    if (backend != Backend::Cuda || rank % 32 != 0) return 0;  // measured for whole 128-byte lines
    const bool rows_per_nonzero = (kernel == KernelKind::MTTKRP && format != FormatKind::HLS) ||
                                  (kernel == KernelKind::SpTTM && format == FormatKind::COO);
    return rows_per_nonzero ? t.nnz() * rank * sizeof(float) : 0;
}

RowTraffic row_traffic(const CooTensor& t, const SparseFormat& f, int mode, KernelKind kernel, Backend backend,
                       std::uint64_t rank) {
    RowTraffic rows{gather_bytes(t, kernel, f.kind(), backend, rank), 0};
    if (rows.gathered == 0) return rows;
    const std::uint64_t row = rank * sizeof(float);
    visit_format(f, overloaded{[&]<class I, class V>(const MmcsfFormat<I, V>& x) {
                                   for (const CsfFormat<I, V>& tree : x.partitions) {
                                       const auto at = std::find(tree.order.begin(), tree.order.end(), mode);
                                       const auto level = static_cast<int>(at - tree.order.begin());
                                       if (level + 1 == static_cast<int>(tree.order.size())) {  // the leaves
                                           rows.gathered -= tree.vals.size() * row;
                                           rows.added += tree.vals.size() * row;
                                       } else if (level > 0) {
                                           rows.added += tree.nodes(level) * row;
                                       }
                                   }
                               },
                               [](const SparseFormat&) {}});
    return rows;
}

RowTraffic tile_row_traffic(const RowTraffic& rows, const SharedTileTraffic& tiles, std::uint64_t nnz,
                            std::uint64_t rank) {
    const std::uint64_t row = rank * sizeof(float);
    const RowTraffic own{tiles.copied_bytes, tiles.added_rows * row};
    if (tiles.nonzeros >= nnz) return own;
    if (rows.gathered == 0 && rows.added == 0) return rows;
    const std::uint64_t skipped = std::min(rows.gathered, tiles.nonzeros * row);
    return {rows.gathered - skipped + own.gathered, rows.added + own.added};
}

void fill_roofline(BenchResult& row, double copy_gbps, const PeakFigure& peak) {
    row.copy_gbps = copy_gbps;
    row.peak_gflops = peak.gflops;
    row.peak_source = peak.source;
    if (!row.ran || row.bytes_moved == 0 || !(row.median_s > 0)) return;
    const double bytes = static_cast<double>(row.bytes_moved);
    row.intensity = row.gflops * 1e9 * row.median_s / bytes;
    if (copy_gbps > 0) {
        row.bound_s = bytes / (copy_gbps * 1e9);
        row.share_of_bound = row.bound_s / row.median_s;
    }
    row.gather_gbps = row.gather_bytes ? gather_bandwidth_for(row.backend) : 0;
    row.add_gbps = row.add_bytes ? add_bandwidth_for(row.backend) : 0;
    if (row.gather_gbps > 0 && (row.add_bytes == 0 || row.add_gbps > 0)) {
        row.gather_bound_s = static_cast<double>(row.gather_bytes) / (row.gather_gbps * 1e9);
        if (row.add_bytes) row.gather_bound_s += static_cast<double>(row.add_bytes) / (row.add_gbps * 1e9);
        row.share_of_gather_bound = row.gather_bound_s / row.median_s;
    }
}

void fill_roofline(BenchResult& row) {
    if (!row.ran) return;
    fill_roofline(row, copy_bandwidth_for(row.backend), row.backend == Backend::Cuda ? gpu_peak() : cpu_peak());
}

PeakFigure cpu_peak() {
    static std::mutex lock;
    static std::map<int, PeakFigure> cache;
    const int threads = current_threads();
    return memo(cache, lock, threads, [threads] {
        return PeakFigure{measure_fma_gflops(), "measured: FP64 FMA loop on " + std::to_string(threads) + " thread" +
                                                    (threads == 1 ? "" : "s")};
    });
}

PeakFigure gpu_peak() {
    const GpuInfo gpu = query_gpu();
    if (!gpu.available) return {0, gpu.reason};
    const int lanes = fp32_lanes_per_sm(gpu.cc_major, gpu.cc_minor);
    if (lanes == 0 || gpu.clock_khz <= 0 || gpu.multiprocessors <= 0)
        return {0, "not known for compute capability " + std::to_string(gpu.cc_major) + "." + std::to_string(gpu.cc_minor)};
    const double gflops = 2.0 * lanes * gpu.multiprocessors * gpu.clock_khz * 1e3 / 1e9;
    return {gflops, "device properties: FP32 FMA, " + std::to_string(gpu.multiprocessors) + " SMs x " + std::to_string(lanes) +
                        " lanes x " + std::to_string(gpu.clock_khz / 1000) + " MHz"};
}

}  // namespace tscope
