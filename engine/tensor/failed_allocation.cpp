// Replaces the global operator new / new[] (throwing forms, plain and aligned) of a program
// that asks for the failed size (tscope/failed_allocation.hpp): the same malloc / aligned_alloc
// the library's would call, plus a note of the size when it fails. The matching operator delete
// forms are replaced too: libstdc++'s happen to call free, but ASan (and any other library) may
// not, and reported every delete as an alloc-dealloc mismatch (sanitizer run, session 68).
#include "tscope/failed_allocation.hpp"

#include <cstdlib>
#include <new>
#include <string>

#include "tscope/text_words.hpp"

namespace {

thread_local std::size_t failed_size = 0;

void* allocate(std::size_t size) {
    if (size == 0) size = 1;
    for (;;) {
        if (void* p = std::malloc(size)) return p;
        // as the standard's operator new does: a new-handler may free memory and retry
        if (std::new_handler handler = std::get_new_handler()) {
            handler();
            continue;
        }
        failed_size = size;
        throw std::bad_alloc();
    }
}

// The engine's columns are aligned (tensor/column.cpp): the same, through aligned_alloc, whose
// size must be a multiple of the alignment.
void* allocate_aligned(std::size_t size, std::align_val_t alignment) {
    const auto align = static_cast<std::size_t>(alignment);
    if (size == 0) size = 1;
    if (size > static_cast<std::size_t>(-1) - align) {
        failed_size = size;
        throw std::bad_alloc();
    }
    const std::size_t rounded = (size + align - 1) / align * align;
    for (;;) {
        if (void* p = std::aligned_alloc(align, rounded)) return p;
        if (std::new_handler handler = std::get_new_handler()) {
            handler();
            continue;
        }
        failed_size = size;
        throw std::bad_alloc();
    }
}

}  // namespace

void* operator new(std::size_t size) { return allocate(size); }
void* operator new[](std::size_t size) { return allocate(size); }
void* operator new(std::size_t size, std::align_val_t alignment) { return allocate_aligned(size, alignment); }
void* operator new[](std::size_t size, std::align_val_t alignment) { return allocate_aligned(size, alignment); }
// The nothrow forms too: their library versions are not bound to call malloc, and ASan's are
// not, so a block from std::get_temporary_buffer (std::stable_sort) or Qt's new (std::nothrow)
// reached the free above as a mismatch (sanitizer run, session 69: 45 reports in 44 suites)
void* operator new(std::size_t size, const std::nothrow_t&) noexcept { return std::malloc(size ? size : 1); }
void* operator new[](std::size_t size, const std::nothrow_t&) noexcept { return std::malloc(size ? size : 1); }
void* operator new(std::size_t size, std::align_val_t alignment, const std::nothrow_t&) noexcept {
    const auto align = static_cast<std::size_t>(alignment);
    if (size == 0) size = 1;
    if (size > static_cast<std::size_t>(-1) - align) return nullptr;
    return std::aligned_alloc(align, (size + align - 1) / align * align);
}
void* operator new[](std::size_t size, std::align_val_t alignment, const std::nothrow_t& tag) noexcept {
    return operator new(size, alignment, tag);
}
void operator delete(void* p, const std::nothrow_t&) noexcept { std::free(p); }
void operator delete[](void* p, const std::nothrow_t&) noexcept { std::free(p); }
void operator delete(void* p, std::align_val_t, const std::nothrow_t&) noexcept { std::free(p); }
void operator delete[](void* p, std::align_val_t, const std::nothrow_t&) noexcept { std::free(p); }
void operator delete(void* p) noexcept { std::free(p); }
void operator delete[](void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t) noexcept { std::free(p); }
void operator delete(void* p, std::align_val_t) noexcept { std::free(p); }
void operator delete[](void* p, std::align_val_t) noexcept { std::free(p); }
void operator delete(void* p, std::size_t, std::align_val_t) noexcept { std::free(p); }
void operator delete[](void* p, std::size_t, std::align_val_t) noexcept { std::free(p); }

namespace tscope {

std::size_t take_failed_allocation_size() {
    const std::size_t size = failed_size;
    failed_size = 0;
    return size;
}

void note_failed_allocation_size(std::size_t bytes) { failed_size = bytes; }

std::string out_of_memory_words(const std::string& doing) {
    const std::size_t asked = take_failed_allocation_size();
    std::string words = "out of memory " + doing;
    if (asked)
        words += ": it needed " + human_bytes(static_cast<long double>(asked)) +
                 " more at once, which this machine could not give";
    return words;
}

}  // namespace tscope
