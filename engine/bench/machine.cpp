#include "tscope/bench/machine.hpp"

#include <sys/resource.h>

#include <fstream>
#include <thread>

#include "tscope/cuda/device.hpp"

#ifdef _OPENMP
#include <omp.h>
#endif

namespace tscope {

MachineInfo describe_machine() {
    MachineInfo info;
    std::ifstream cpuinfo("/proc/cpuinfo");
    for (std::string line; std::getline(cpuinfo, line);) {
        if (line.rfind("model name", 0) == 0) {
            const auto colon = line.find(':');
            if (colon != std::string::npos) info.cpu_model = line.substr(line.find_first_not_of(' ', colon + 1));
            break;
        }
    }
    info.hardware_threads = static_cast<int>(std::thread::hardware_concurrency());
#ifdef _OPENMP
    info.omp_threads = omp_get_max_threads();
#else
    info.omp_threads = 1;
#endif
    const GpuInfo gpu = query_gpu();
    info.gpu = gpu.available ? gpu.name : gpu.reason;
    return info;
}

std::uint64_t physical_memory_bytes() {
    const long pages = ::sysconf(_SC_PHYS_PAGES), page = ::sysconf(_SC_PAGESIZE);
    return pages > 0 && page > 0 ? static_cast<std::uint64_t>(pages) * static_cast<std::uint64_t>(page) : 0;
}

std::uint64_t peak_host_memory_bytes() {
    // VmHWM is this program's own peak; ru_maxrss also keeps the peak of the process image that
    // exec replaced (a test that forks from a large process would see the test's size)
    std::ifstream status("/proc/self/status");
    for (std::string line; std::getline(status, line);)
        if (line.rfind("VmHWM:", 0) == 0) return std::stoull(line.substr(6)) * 1024;  // "VmHWM:   1234 kB"
    rusage u{};
    if (getrusage(RUSAGE_SELF, &u) != 0) return 0;
    return static_cast<std::uint64_t>(u.ru_maxrss) * 1024;  // Linux reports KiB
}

}  // namespace tscope
