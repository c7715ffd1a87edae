#include "blas_buffers.hpp"

#include <cblas.h>
#include <sys/mman.h>
#include <sys/resource.h>

#include <cstdint>
#include <cstdlib>
#include <mutex>
#include <optional>

#include "tscope/blas_threads.hpp"
#include "tscope/error.hpp"
#include "tscope/text_words.hpp"

namespace tscope::linalg {

namespace {

// BUFFER_SIZE of OpenBLAS's x86-64 builds, as strace shows each buffer mapped
constexpr std::uint64_t kBufferBytes = std::uint64_t{128} << 20;

std::mutex probe_mutex;
bool buffer_taken = false;  // OpenBLAS keeps the buffer it took: once it fits, it always does

// RLIMIT_AS in bytes, or none where the address space is not limited.
std::optional<rlim_t> address_space_limit() {
    rlimit limit{};
    if (getrlimit(RLIMIT_AS, &limit) != 0 || limit.rlim_cur == RLIM_INFINITY) return std::nullopt;
    return limit.rlim_cur;
}

}  // namespace

bool address_space_limited() { return address_space_limit().has_value(); }

void ensure_blas_buffers() {
    const std::optional<rlim_t> limit = address_space_limit();
    if (!limit) return;
    // every call, as SerialBlas gives back the count it found: a worker thread would take a buffer of its own
    if (openblas_get_num_threads() != 1) openblas_set_num_threads(1);
    std::lock_guard<std::mutex> lock(probe_mutex);
    if (buffer_taken) return;
    // a reservation that touches no page still counts against RLIMIT_AS, as the buffer will
    void* probe = mmap(nullptr, kBufferBytes, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (probe == MAP_FAILED)
        throw Error("out of memory for the dense steps: OpenBLAS maps a work buffer of " +
                    human_bytes(static_cast<long double>(kBufferBytes)) +
                    " for them, which the process's address-space limit (ulimit -v, " +
                    human_bytes(static_cast<long double>(*limit)) + ") no longer leaves: raise the limit");
    munmap(probe, kBufferBytes);
    buffer_taken = true;
}

}  // namespace tscope::linalg

namespace tscope {

bool ask_one_blas_thread_if_limited() {
    if (!linalg::address_space_limited() || std::getenv("OPENBLAS_NUM_THREADS")) return false;
    return setenv("OPENBLAS_NUM_THREADS", "1", 1) == 0;
}

}  // namespace tscope
