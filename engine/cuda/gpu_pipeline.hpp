// The streamed SpTV's device side (hocfs-sptv-pipeline Sec. 6.2, Fig. 11-13): a tensor
// flattened into pinned host memory, cut into chunks, each chunk copied in, multiplied and
// copied out on one of s CUDA streams, with an event at both ends of every stage. Private to
// the engine; no CUDA types here so that C++20 code can include it.
#pragma once

#include <cstdint>
#include <vector>

namespace tscope::gpu {

// The fibers of a HOCFS or CFB tensor as rows, flattened into page-locked host memory so
// that copies can run asynchronously. CSR (HOCFS-CSR, CFB): row q is [ptr[q], ptr[q+1]).
// ELL (HOCFS-ELL): slice s holds rows [first[s], first[s+1]) and entries [ap[s], ap[s+1]),
// column-major; fiber_slice[q] is row q's slice. `out` receives one value per row.
class PinnedSptv {
public:
    PinnedSptv(bool ell, std::uint64_t rows, std::uint64_t slices, std::uint64_t entries);  // throws Error
    ~PinnedSptv();
    PinnedSptv(const PinnedSptv&) = delete;
    PinnedSptv& operator=(const PinnedSptv&) = delete;

    bool ell;
    std::uint64_t rows, slices, entries;
    std::uint64_t* ptr = nullptr;            // CSR: rows + 1
    std::uint64_t* first = nullptr;          // ELL: slices + 1
    std::uint64_t* ap = nullptr;             // ELL: slices + 1
    std::uint32_t* fiber_slice = nullptr;    // ELL: rows
    std::uint32_t* col = nullptr;            // entries
    float* val = nullptr;                    // entries
    float* out = nullptr;                    // rows

private:
    void* block_ = nullptr;  // one cudaHostAlloc for all arrays
};

// A chunk: rows [row_begin, row_end), and for ELL the slices [slice_begin, slice_end) that
// hold them; entries [entry_begin, entry_end).
struct ChunkRange {
    std::uint64_t row_begin = 0, row_end = 0;
    std::uint64_t slice_begin = 0, slice_end = 0;
    std::uint64_t entry_begin = 0, entry_end = 0;
};

// Seconds since the run's first event, read from CUDA events on the device.
struct ChunkTimes {
    int stream = 0;
    double in_start = 0, in_end = 0, kernel_start = 0, kernel_end = 0, out_start = 0, out_end = 0;
};

struct StreamRun {
    std::vector<ChunkTimes> chunks;
    double total_s = 0;            // first copy-in's start to last copy-out's end
    double vector_upload_s = 0;    // v, once, before the timeline
    std::uint64_t device_bytes = 0;  // what the run allocated on the device
};

// Device memory a run with these chunks over `streams` streams allocates.
std::uint64_t streamed_device_bytes(const PinnedSptv& x, const std::vector<ChunkRange>& chunks, int streams,
                                    std::uint64_t vlen);

// Runs every chunk; chunk i goes to stream i % streams. Each stage also waits for the same
// stage of chunk i-1, so stages run in issue order (one copy engine per direction, one kernel
// at a time, as in Fig. 13) and each start event marks when the stage really began.
// Results land in x.out. Throws Error (out of GPU memory, no CUDA device, CUDA failures).
StreamRun sptv_streamed(PinnedSptv& x, const std::vector<ChunkRange>& chunks, const float* v, std::uint64_t vlen,
                        int streams);

}  // namespace tscope::gpu
