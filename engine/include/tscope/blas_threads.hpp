// OpenBLAS under an address-space limit (`ulimit -v`; sweep 68a A2/A3, F2).
//
// OpenBLAS starts its worker threads as the library loads, before main, and each maps a 128 MiB
// work buffer as it starts; where the mmap fails it retries for ever. Under a tight limit such a
// worker spins from the start and the process hangs at exit, joining it. The mains ask this first
// and, where it says so, run the program again (execv of /proc/self/exe, the same arguments) for
// OpenBLAS to read OPENBLAS_NUM_THREADS=1 as it loads and start no worker; the dense steps then
// run on one thread (engine/decomp/blas_buffers.hpp).
#pragma once

namespace tscope {

// Where RLIMIT_AS is finite and OPENBLAS_NUM_THREADS is not set: sets it to 1 and returns true
// (the program must run again for OpenBLAS to read it). Otherwise false, and nothing changes.
bool ask_one_blas_thread_if_limited();

}  // namespace tscope
