#include "tscope/tensor/column.hpp"

#include <mutex>
#include <vector>

#ifdef __linux__
#include <sys/mman.h>
#endif

#include "tscope/failed_allocation.hpp"

namespace tscope {

namespace {

constexpr std::size_t kHugePage = std::size_t{2} << 20;
constexpr std::size_t kHugeThreshold = std::size_t{4} << 20;  // below this, huge pages buy nothing

std::align_val_t alignment_for(std::size_t bytes) {
    return std::align_val_t(bytes >= kHugeThreshold ? kHugePage : kColumnAlignment);
}

// Large blocks freed recently, kept for the next allocation of the same size. Kernels that
// return fresh results (SpTV's fiber list, SpTTM's sCOO) are called again and again with the
// same sizes; handing each call new pages from the kernel costs a page-zeroing pass that took
// as long as the kernel itself (measured on SpTV). Bounded, so an idle engine holds little.
class BlockCache {
public:
    void* take(std::size_t bytes) {
        std::lock_guard lock(mutex_);
        for (std::size_t i = 0; i < blocks_.size(); ++i) {
            if (blocks_[i].bytes != bytes) continue;
            void* p = blocks_[i].p;
            held_ -= bytes;
            blocks_.erase(blocks_.begin() + static_cast<std::ptrdiff_t>(i));
            return p;
        }
        return nullptr;
    }
    // false: not kept, the caller frees it.
    bool keep(void* p, std::size_t bytes) {
        std::lock_guard lock(mutex_);
        if (bytes > kMaxHeld) return false;
        while (held_ + bytes > kMaxHeld) {  // oldest out first
            ::operator delete(blocks_.front().p, alignment_for(blocks_.front().bytes));
            held_ -= blocks_.front().bytes;
            blocks_.erase(blocks_.begin());
        }
        blocks_.push_back({p, bytes});
        held_ += bytes;
        return true;
    }
    // Frees every block kept; whether there was any.
    bool release_all() noexcept {
        std::lock_guard lock(mutex_);
        for (const Block& b : blocks_) ::operator delete(b.p, alignment_for(b.bytes));
        const bool any = !blocks_.empty();
        blocks_.clear();
        held_ = 0;
        return any;
    }

private:
    static constexpr std::size_t kMaxHeld = std::size_t{512} << 20;
    struct Block {
        void* p;
        std::size_t bytes;
    };
    std::mutex mutex_;
    std::vector<Block> blocks_;
    std::size_t held_ = 0;
};

BlockCache& cache() {
    static BlockCache* c = new BlockCache;  // never destroyed: columns may die during static destruction
    return *c;
}

}  // namespace

void* column_allocate(std::size_t bytes) {
    if (bytes < kHugeThreshold) return ::operator new(bytes, alignment_for(bytes));
    if (void* p = cache().take(bytes)) return p;
    void* p = nullptr;
    try {
        p = ::operator new(bytes, alignment_for(bytes));
    } catch (const std::bad_alloc&) {
        // the blocks kept for reuse go first: under a tight limit they held what this needs (the
        // copy probe's 2 x 256 MiB, kept, failed its retry at 32 MiB; sweep 68a A5)
        if (!cache().release_all()) throw;
        p = ::operator new(bytes, alignment_for(bytes));
        (void)take_failed_allocation_size();  // the first try's size: no failure after all
    }
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    // Advice only: where THP is off the call fails harmlessly and pages stay 4 KB.
    ::madvise(p, bytes, MADV_HUGEPAGE);
#endif
    return p;
}

void release_column_cache() noexcept { cache().release_all(); }

void column_deallocate(void* p, std::size_t bytes) noexcept {
    if (bytes >= kHugeThreshold) {
        try {
            if (cache().keep(p, bytes)) return;
        } catch (...) {  // a failed push_back: just free it
        }
    }
    ::operator delete(p, alignment_for(bytes));
}

}  // namespace tscope
