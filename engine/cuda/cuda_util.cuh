// What every .cu file of the engine shares: checked CUDA calls, RAII device memory and events,
// and a grid size that fills the chip. Private to engine/cuda; C++17 (nvcc), no engine headers
// but error.hpp.
#pragma once

#include <cuda_runtime.h>

#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "device_scope.hpp"
#include "env_switch.hpp"
#include "tscope/error.hpp"

namespace tscope::gpu {

// Throws tscope::Error with CUDA's message; an out-of-memory says so plainly.
inline void check(cudaError_t err, const char* what) {
    if (err == cudaSuccess) return;
    cudaGetLastError();  // clear it so the next call starts clean
    if (err == cudaErrorMemoryAllocation) throw Error(std::string("out of GPU memory while ") + what);
    throw Error(std::string("CUDA error while ") + what + ": " + cudaGetErrorString(err));
}

// What the engine's DeviceArrays hold now and at most, process-wide (the runs report the peak).
struct DeviceBytes {
    std::atomic<std::uint64_t> now{0}, peak{0};
    void add(std::uint64_t b) {
        const std::uint64_t n = now += b;
        std::uint64_t p = peak.load();
        while (n > p && !peak.compare_exchange_weak(p, n)) {
        }
    }
    void sub(std::uint64_t b) { now -= b; }
};
inline DeviceBytes& device_bytes() {
    static DeviceBytes counter;
    return counter;
}

// Owns device memory; frees it on every path, never throws from the destructor.
template <class T>
class DeviceArray {
public:
    DeviceArray() = default;
    explicit DeviceArray(std::uint64_t n) : n_(n) {
        if (n) {
            check(cudaMalloc(&ptr_, n * sizeof(T)), "allocating device memory");
            device_bytes().add(n * sizeof(T));
        }
    }
    DeviceArray(const T* host, std::uint64_t n) : DeviceArray(n) {
        if (n) check(cudaMemcpy(ptr_, host, n * sizeof(T), cudaMemcpyHostToDevice), "copying to the device");
    }
    ~DeviceArray() { release(); }
    DeviceArray(DeviceArray&& o) noexcept : ptr_(o.ptr_), n_(o.n_) { o.ptr_ = nullptr; o.n_ = 0; }
    DeviceArray& operator=(DeviceArray&& o) noexcept {
        if (this != &o) {
            release();
            ptr_ = o.ptr_, n_ = o.n_;
            o.ptr_ = nullptr, o.n_ = 0;
        }
        return *this;
    }
    DeviceArray(const DeviceArray&) = delete;
    T* get() const { return ptr_; }
    std::uint64_t size() const { return n_; }
    void upload(const T* host) {
        if (n_) check(cudaMemcpy(ptr_, host, n_ * sizeof(T), cudaMemcpyHostToDevice), "copying to the device");
    }
    void download(T* host) const {
        if (n_) check(cudaMemcpy(host, ptr_, n_ * sizeof(T), cudaMemcpyDeviceToHost), "copying the result back");
    }
    void zero() {
        if (n_) check(cudaMemset(ptr_, 0, n_ * sizeof(T)), "clearing device memory");
    }

private:
    void release() noexcept {
        if (!ptr_) return;
        cudaFree(ptr_);
        device_bytes().sub(n_ * sizeof(T));
        ptr_ = nullptr;
    }
    T* ptr_ = nullptr;
    std::uint64_t n_ = 0;
};

class Event {
public:
    Event() { check(cudaEventCreate(&e_), "creating an event"); }
    ~Event() { cudaEventDestroy(e_); }
    Event(const Event&) = delete;
    Event& operator=(const Event&) = delete;
    void record(cudaStream_t s = nullptr) { check(cudaEventRecord(e_, s), "recording an event"); }
    cudaEvent_t get() const { return e_; }
    static double seconds(const Event& a, const Event& b) {
        check(cudaEventSynchronize(b.e_), "waiting for the device");
        float ms = 0;
        check(cudaEventElapsedTime(&ms, a.e_, b.e_), "timing");
        return ms / 1000.0;
    }

private:
    cudaEvent_t e_{};
};

inline void use_device() { check(cudaSetDevice(engine_device()), "selecting the GPU"); }
using DeviceScope = OnDevice;

// An attribute of the current device (its SMs, a block's opt-in shared memory, ...).
inline int device_attribute(cudaDeviceAttr what) {
    int device = 0, value = 0;
    check(cudaGetDevice(&device), "reading the device");
    check(cudaDeviceGetAttribute(&value, what, device), "reading the device");
    return value;
}
inline int sm_count() { return device_attribute(cudaDevAttrMultiProcessorCount); }
inline std::uint64_t l2_bytes() { return static_cast<std::uint64_t>(device_attribute(cudaDevAttrL2CacheSize)); }

// Blocks of `threads` for `items` work items, capped at a few waves of the current chip
// (kernels are grid-stride loops).
inline int grid_for(std::uint64_t items, int threads = 256) {
    const int sms = sm_count();
    const std::uint64_t blocks = (items + static_cast<std::uint64_t>(threads) - 1) / static_cast<std::uint64_t>(threads);
    const std::uint64_t cap = static_cast<std::uint64_t>(sms) * 32;
    return static_cast<int>(blocks < cap ? (blocks ? blocks : 1) : cap);
}
// Blocks of `threads` covering `items` work items, a thread each (kernels without a stride loop).
inline unsigned blocks_covering(std::uint64_t items, unsigned threads = 256) {
    return static_cast<unsigned>((items + threads - 1) / threads);
}

// A non-blocking CUDA stream, destroyed with the object.
class Stream {
public:
    Stream() { check(cudaStreamCreateWithFlags(&s_, cudaStreamNonBlocking), "creating a stream"); }
    ~Stream() { cudaStreamDestroy(s_); }
    Stream(const Stream&) = delete;
    Stream& operator=(const Stream&) = delete;
    cudaStream_t get() const { return s_; }

private:
    cudaStream_t s_{};
};

// Device memory free now on the current device, in bytes.
inline std::uint64_t free_device_bytes() {
    std::size_t free_bytes = 0, total = 0;
    check(cudaMemGetInfo(&free_bytes, &total), "reading free device memory");
    return free_bytes;
}

// Refuses, before any allocation, work that needs more device memory at once than is free.
inline void require_free(std::uint64_t bytes, const char* what) {
    const std::uint64_t free_bytes = free_device_bytes();
    if (bytes > free_bytes)
        throw Error(std::string("out of GPU memory: ") + what + " needs " + std::to_string(bytes >> 20) + " MiB at once, " +
                    std::to_string(free_bytes >> 20) + " MiB are free (tensorscope-cli pipeline streams it in chunks)");
}

}  // namespace tscope::gpu
