// The CPU-only build's streamed SpTV: there is none.
#include "gpu_pipeline.hpp"
#include "tscope/error.hpp"

namespace tscope::gpu {

namespace {
[[noreturn]] void none() { throw Error("no CUDA device (this build has no CUDA backend)"); }
}  // namespace

PinnedSptv::PinnedSptv(bool ell_, std::uint64_t rows_, std::uint64_t slices_, std::uint64_t entries_)
    : ell(ell_), rows(rows_), slices(slices_), entries(entries_) {
    none();
}
PinnedSptv::~PinnedSptv() = default;
std::uint64_t streamed_device_bytes(const PinnedSptv&, const std::vector<ChunkRange>&, int, std::uint64_t) { return 0; }
StreamRun sptv_streamed(PinnedSptv&, const std::vector<ChunkRange>&, const float*, std::uint64_t, int) { none(); }

}  // namespace tscope::gpu
