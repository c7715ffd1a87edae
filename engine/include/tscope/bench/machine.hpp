// A description of the machine a result was measured on, stored with every benchmark.
#pragma once

#include <cstdint>
#include <string>

namespace tscope {

struct MachineInfo {
    std::string cpu_model;  // from /proc/cpuinfo
    int hardware_threads = 0;
    int omp_threads = 0;  // what OpenMP would use now
    std::string gpu;      // device name, or the reason there is none
};

MachineInfo describe_machine();

// The process's peak resident host memory so far (VmHWM; getrusage's maxrss where /proc has
// none), in bytes.
std::uint64_t peak_host_memory_bytes();
// The machine's physical memory (0 where it cannot be told).
std::uint64_t physical_memory_bytes();

}  // namespace tscope
