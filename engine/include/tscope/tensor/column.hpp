// Column<T>: the vector type of tensor arrays. Like std::vector, except that resize() leaves
// new elements of trivial types uninitialised instead of zero-filling them: the big arrays of
// a tensor are always written right after they are sized, and zero-filling hundreds of MB first
// costs a full extra pass over memory. Use assign(n, 0) where zeros are wanted.
#pragma once

#include <memory>
#include <new>
#include <type_traits>
#include <utility>
#include <vector>

namespace tscope {

template <class T>
class DefaultInitAllocator : public std::allocator<T> {
public:
    template <class U> struct rebind { using other = DefaultInitAllocator<U>; };
    using std::allocator<T>::allocator;
    DefaultInitAllocator() noexcept = default;
    template <class U> DefaultInitAllocator(const DefaultInitAllocator<U>&) noexcept {}

    template <class U> void construct(U* p) noexcept(std::is_nothrow_default_constructible_v<U>) {
        ::new (static_cast<void*>(p)) U;  // default-initialisation: no zeroing for trivial types
    }
    template <class U, class... Args> void construct(U* p, Args&&... args) {
        ::new (static_cast<void*>(p)) U(std::forward<Args>(args)...);
    }
};

template <class T> using Column = std::vector<T, DefaultInitAllocator<T>>;

}  // namespace tscope
