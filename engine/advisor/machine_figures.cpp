// The machine figures the advisor's time model scales by: the host's copy bandwidth, measured
// once per process (a STREAM-like copy takes about a second; the GUI and the CLI ask often), and
// the GPU's, measured where there is one and otherwise taken from the recordings.
#include <fstream>
#include <mutex>
#include <string>

#include "tscope/advisor/advisor.hpp"
#include "tscope/bench/kernel_bench.hpp"
#include "tscope/bench/machine.hpp"
#include "tscope/cuda/device.hpp"

namespace tscope {

namespace {

// The last-level cache of CPU 0 from sysfs (the highest index), or 8 MiB where it is not told.
std::uint64_t host_cache_bytes() {
    std::uint64_t best = 0;
    for (int index = 0; index < 8; ++index) {
        std::ifstream in("/sys/devices/system/cpu/cpu0/cache/index" + std::to_string(index) + "/size");
        std::string text;
        if (!(in >> text) || text.empty()) continue;
        std::uint64_t scale = 1;
        if (text.back() == 'K') scale = 1024, text.pop_back();
        else if (text.back() == 'M') scale = 1024 * 1024, text.pop_back();
        try {
            best = std::max<std::uint64_t>(best, std::stoull(text) * scale);
        } catch (const std::exception&) {
        }
    }
    return best ? best : std::uint64_t{8} << 20;
}

// Recorded device figures: the device-to-device copy rate `bench` measured on the lent GPUs
// (docs/bench/h100.json and h100-*.json: 2991-3007 GB/s; h200.json: 4229-4248 GB/s) and their
// L2 (50 MiB on the H100 SXM, 60 MiB on the H200, as the H200 reports it: session 75).
constexpr double kH200CopyGbps = 4242.1;  // h200.json's four gpu_copy_gbps, 4229-4248: their mean
constexpr std::uint64_t kH100L2 = std::uint64_t{50} << 20;
// A host's copy rate where it cannot be measured, on the low side of what machines give (this
// 2-core VM measured 26-52 GB/s in session 69); used only where memory is nearly gone.
constexpr double kAssumedHostCopyGbps = 20.0;
constexpr std::uint64_t kH200L2 = std::uint64_t{60} << 20;

}  // namespace

MachineFigures cpu_figures() {
    static std::once_flag once;
    static MachineFigures figures;
    std::call_once(once, [] {
        const MachineInfo m = describe_machine();
        figures.backend = Backend::Omp;
        figures.threads = m.omp_threads;
        figures.device = m.cpu_model + ", " + std::to_string(m.omp_threads) + " thread" + (m.omp_threads == 1 ? "" : "s");
        figures.bandwidth_gbps = measure_copy_bandwidth();
        figures.source = "measured now (256 MB copy, median of 5)";
        if (!(figures.bandwidth_gbps > 0)) {  // no memory left for even its smallest copy
            figures.bandwidth_gbps = kAssumedHostCopyGbps;
            figures.source = "assumed: not measured, with no memory for the 2 x 32 MiB copy";
        }
        figures.cache_bytes = host_cache_bytes();
    });
    return figures;
}

MachineFigures gpu_figures() {
    static std::once_flag once;
    static MachineFigures figures;
    std::call_once(once, [] {
        figures.backend = Backend::Cuda;
        const GpuInfo gpu = query_gpu();
        if (gpu.available) {
            figures.device = gpu.name;
            figures.bandwidth_gbps = measure_gpu_copy_bandwidth();
            figures.source = "measured now (device-to-device copy)";
            // the device's own L2 where it says (cudaDevAttrL2CacheSize), else by its name
            figures.cache_bytes = gpu.l2_bytes                                 ? gpu.l2_bytes
                                  : gpu.name.find("H200") != std::string::npos ? kH200L2
                                                                               : kH100L2;
        } else {
            // the H200's, on which the GPU advisor's agreement was measured (sessions 25-75)
            figures.device = "NVIDIA H200 (recorded; no GPU here: " + gpu.reason + ")";
            figures.bandwidth_gbps = kH200CopyGbps;
            figures.source = "recorded in docs/bench/h200.json (gpu_copy_gbps)";
            figures.cache_bytes = kH200L2;
        }
        figures.threads = 1;
    });
    return figures;
}

MachineFigures machine_figures(Backend backend) { return backend == Backend::Cuda ? gpu_figures() : cpu_figures(); }

}  // namespace tscope
