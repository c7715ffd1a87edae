// OpenBLAS's work buffers under an address-space limit (sweep 68a, A2/A3).
//
// OpenBLAS (0.3.x, memory.c) maps a 128 MiB work buffer for each thread that runs a level-3
// call, the first time it needs one, and keeps it for the process's life (its worker threads
// each hold one; calling threads share a pool). Where that mmap fails it retries for ever, so a
// process under `ulimit -v` that cannot give a buffer hung in its first dsyrk or dpotrs (a Tucker
// at 800 MB, a CPD on ALTO at 650 MB) instead of failing.
#pragma once

namespace tscope::linalg {

// Whether RLIMIT_AS is finite. Then the host dense steps run on one thread, OpenBLAS's and the
// caller's alike, so that one buffer, proven to fit before it is taken, serves them all.
bool address_space_limited();

// Before a host BLAS or LAPACK call. Under an address-space limit: OpenBLAS set to one thread,
// and, before the first call, Error in words where its buffer would not fit. Without a limit it
// does nothing.
void ensure_blas_buffers();

}  // namespace tscope::linalg
