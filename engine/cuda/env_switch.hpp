// The environment switches that force one GPU kernel path over another, for comparisons and
// tests (TENSORSCOPE_FIBER_LOOP=fibers, TENSORSCOPE_CSF_SHORT=nonzero-groups, ...): read by the
// .cu files and by their hosts in engine/kernels. Plain C++17, no CUDA. Private to the engine.
#pragma once

#include <cstdlib>
#include <string>

namespace tscope::gpu {

// Whether environment variable `name` is set to `value`.
inline bool env_is(const char* name, const char* value) {
    const char* e = std::getenv(name);
    return e && std::string(e) == value;
}

// The unsigned number environment variable `name` holds; `fallback` where it is unset or holds
// none.
inline unsigned long env_unsigned(const char* name, unsigned long fallback) {
    const char* e = std::getenv(name);
    if (!e || *e < '0' || *e > '9') return fallback;
    return std::strtoul(e, nullptr, 10);
}

}  // namespace tscope::gpu
