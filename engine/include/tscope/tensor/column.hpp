// Column<T>: the vector type of tensor arrays. Like std::vector, except that
//  - resize() leaves new elements of trivial types uninitialised instead of zero-filling them:
//    the big arrays of a tensor are always written right after they are sized, and
//    zero-filling hundreds of MB first costs a full extra pass over memory (use assign(n, 0)
//    where zeros are wanted);
//  - storage is aligned to 64 bytes, a cache line: a factor-matrix row of R doubles then
//    spans R/8 lines instead of R/8 + 1, which matters for kernels bound by random row reads;
//  - arrays of several MB are asked to live on transparent huge pages: kernels read factor rows
//    at random across tens of MB, and with 4 KB pages nearly every such read also misses the TLB.
#pragma once

#include <cstddef>
#include <memory>
#include <new>
#include <type_traits>
#include <utility>
#include <vector>

namespace tscope {

inline constexpr std::size_t kColumnAlignment = 64;

// Cache-line aligned storage; large blocks are 2 MB aligned and advised onto huge pages.
void* column_allocate(std::size_t bytes);
void column_deallocate(void* p, std::size_t bytes) noexcept;
// Frees the large blocks kept for reuse (up to 512 MiB), after one-off work whose sizes nothing
// asks for again (the copy-bandwidth probe's 2 x 256 MiB).
void release_column_cache() noexcept;

template <class T>
class DefaultInitAllocator {
public:
    using value_type = T;
    template <class U> struct rebind { using other = DefaultInitAllocator<U>; };
    DefaultInitAllocator() noexcept = default;
    template <class U> DefaultInitAllocator(const DefaultInitAllocator<U>&) noexcept {}

    T* allocate(std::size_t n) { return static_cast<T*>(column_allocate(n * sizeof(T))); }
    void deallocate(T* p, std::size_t n) noexcept { column_deallocate(p, n * sizeof(T)); }
    template <class U> bool operator==(const DefaultInitAllocator<U>&) const noexcept { return true; }

    template <class U> void construct(U* p) noexcept(std::is_nothrow_default_constructible_v<U>) {
        ::new (static_cast<void*>(p)) U;  // default-initialisation: no zeroing for trivial types
    }
    template <class U, class... Args> void construct(U* p, Args&&... args) {
        ::new (static_cast<void*>(p)) U(std::forward<Args>(args)...);
    }
};

template <class T> using Column = std::vector<T, DefaultInitAllocator<T>>;

}  // namespace tscope
