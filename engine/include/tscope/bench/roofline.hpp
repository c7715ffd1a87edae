// The roofline of a benchmark row: the bytes a kernel must move at least, the time that many
// bytes take at the copy bandwidth measured in the same process, and how close a run came to
// it; plus the compute roof (the peak) that the Kernels tab draws above the bandwidth line.
#pragma once

#include <cstdint>
#include <string>

#include "tscope/formats/format.hpp"
#include "tscope/kernels/backend.hpp"
#include "tscope/kernels/kernel_registry.hpp"
#include "tscope/tensor/coo_tensor.hpp"

namespace tscope {

struct SharedTileTraffic;  // tscope/kernels/mttkrp.hpp

struct BenchResult;

// How many distinct indices mode `mode` holds: the rows of that mode's factor a kernel gathers
// at least once (the non-empty slices).
std::uint64_t distinct_indices(const CooTensor& t, int mode);

// The copy bandwidth a backend's rows are judged against: measure_copy_bandwidth() with the
// current OpenMP thread count (cpu-ref and omp alike), measure_gpu_copy_bandwidth() for cuda;
// measured once per process (per thread count), later calls reuse it. 0 where not measurable.
double copy_bandwidth_for(Backend backend);
// measure_gpu_gather_bandwidth() for cuda, once per process; 0 for the CPU backends.
double gather_bandwidth_for(Backend backend);
// measure_gpu_add_bandwidth() likewise.
double add_bandwidth_for(Backend backend);
// The factor-row bytes a kernel gathers at least from the cache (BenchResult::gather_bytes):
// nnz x R x 4 for cuda MTTKRP (not HLS) and SpTTM on COO with R a multiple of 32; else 0.
std::uint64_t gather_bytes(const CooTensor& t, KernelKind kernel, FormatKind format, Backend backend, std::uint64_t rank);

// The rows of R floats a GPU kernel moves through L2 at least, in bytes: gathered (factor rows)
// and added into by atomics (result rows). For MM-CSF's MTTKRP on `mode`, a partition whose
// leaves are the mode adds a row per nonzero and gathers none for them (mm-csf Alg. 8); one where
// the mode is a middle level adds a row per node of that level (Alg. 7); the nonzeros of the
// others gather their leaf rows. Every other format: gather_bytes(), nothing added.
struct RowTraffic {
    std::uint64_t gathered = 0;
    std::uint64_t added = 0;
};
RowTraffic row_traffic(const CooTensor& t, const SparseFormat& f, int mode, KernelKind kernel, Backend backend,
                       std::uint64_t rank);
// The same where an MTTKRP ran some or all of its nonzeros over shared-memory tiles
// (MttkrpPlan::shared_tiles): those nonzeros gather no row from L2 (each gathered one in `rows`,
// row_traffic's count), the blocks copy their tiles' rows (as gathers) and add an output row of
// `rank` floats per run. Where the tiles hold every nonzero (of `nnz`) the tiles' traffic is all;
// where they hold some and `rows` is not defined (0: a rank not a multiple of 32), neither is this.
RowTraffic tile_row_traffic(const RowTraffic& rows, const SharedTileTraffic& tiles, std::uint64_t nnz,
                            std::uint64_t rank);

// The compute roof. `source` says where the number comes from.
struct PeakFigure {
    double gflops = 0;  // 0: not known
    std::string source;
};
// FP64 fused multiply-adds on the OpenMP threads (independent vector chains, as compiled for
// this binary's -march), the best of five after a warm-up; once per process per thread count.
PeakFigure cpu_peak();
// The GPU's from its properties where they say enough; else gflops 0 and the reason.
PeakFigure gpu_peak();

// Fills a run row's roofline from its flops (gflops x median_s), bytes_moved, `copy_gbps` and
// `peak`: intensity = flops / bytes, bound_s = bytes / bandwidth, share_of_bound = bound_s /
// median_s; and, where the row has gather_bytes or add_bytes, their bound at
// gather_bandwidth_for(backend) and add_bandwidth_for(backend), the two times summed.
void fill_roofline(BenchResult& row, double copy_gbps, const PeakFigure& peak);
// The same with the backend's measured bandwidth and peak (copy_bandwidth_for, cpu/gpu_peak).
void fill_roofline(BenchResult& row);

}  // namespace tscope
