// The benchmark harness behind `tensorscope-cli bench` (and the GUI's Kernels tab): builds each
// format, warms up, times repeats, reports the median, GFLOP/s on the COO basis (mm-csf: MTTKRP
// 3 nnz R per mode), GB/s over the bytes the kernel must move at least once, the roofline that
// follows from them and the measured copy bandwidth, and with check the max relative error
// against cpu-ref.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "tscope/formats/format.hpp"
#include "tscope/kernels/backend.hpp"
#include "tscope/kernels/dense_matrix.hpp"
#include "tscope/kernels/kernel_registry.hpp"
#include "tscope/kernels/spttm.hpp"
#include "tscope/run_control.hpp"

namespace tscope {

struct BenchResult;

struct BenchRequest {
    KernelKind kernel = KernelKind::MTTKRP;
    std::vector<FormatKind> formats;  // empty: every format the backends support
    std::vector<Backend> backends{Backend::Omp};
    std::vector<int> modes;           // empty: every mode
    std::uint64_t rank = 32;
    int repeat = 5;
    bool check = false;
    FormatOptions options;            // mode overridden per row
    std::vector<DenseMatrix> factors; // empty: random, seeded per mode
    // A relabelled tensor's ids in the file (--reorder), per mode: the random factors are drawn
    // by them, so that the results are the file's, row for row. Empty: the tensor's own ids.
    std::vector<std::vector<std::uint64_t>> original_ids;
    std::vector<SpttmVariant> spttm_variants;  // cuda SpTTM on COO: the GPU kernels to run (empty: all seven)
    // MTTKRP on cuda over parts, one per GPU (mttkrp_multi_gpu.hpp): the part count (0: every
    // GPU), and where given the GPU of each part. Unset: the single-GPU kernels on a host-built
    // format.
    std::optional<int> gpus;
    std::vector<int> gpu_slots;
    // MTTKRP on cuda streamed from host memory (bench/streamed_bench.hpp): the format (COO, CSF,
    // B-CSF, MM-CSF, BLCO; BLCO where none is named) stays in page-locked host memory and goes
    // through the GPU in chunks of chunk_bytes (0: 64 MiB) over `streams` CUDA streams.
    bool stream = false;
    int streams = 4;
    std::uint64_t chunk_bytes = 0;
    // Attach each mode's first dense output to its row (for --write). Off, rows carry none: a
    // copy per row held TTMc's 3 GB outputs of JF17K at rank 32 until 23.7 GB were killed (sweep 68a A6).
    bool keep_outputs = false;
    // Called with each row as soon as it is complete (a GUI fills its chart meanwhile); the
    // row's output matrix, where kept, is still attached. Runs on the benchmarking thread.
    std::function<void(const BenchResult&)> on_result;
};

struct BenchResult {
    KernelKind kernel;
    FormatKind format;
    Backend backend;
    std::string variant;  // which GPU kernel, where a kernel has several (SpTTM: naive .. sm)
    // The way the engine ran it, where it picks one by the tensor's shape: "shared tiles" where a
    // cuda MTTKRP on an order-3 tree ran over shared-memory tiles (its rule in
    // cuda/shared_tiles_rule.hpp), "shared tiles on N% of the nonzeros" where some of MM-CSF's
    // partitions (or some GPUs' parts) did; "levels 1,3,2,4" where a cuda CSF or B-CSF tree took
    // the GPU's level order rather than SPLATT's (kernels/gpu_level_order.hpp); both, a comma
    // between, where both hold; empty otherwise.
    std::string path;
    int mode = 0;  // 0-based
    std::uint64_t rank = 0;
    bool ran = false;
    std::string error;  // why it did not run
    double build_seconds = 0;
    std::vector<double> seconds;  // every timed repeat
    double median_s = 0;        // GPU: the kernels alone
    double transfer_s = 0;      // GPU: median of upload + download (0 on the CPU)
    double gflops = 0;
    double gbps = 0;
    // The roofline (bench/roofline.hpp): the bytes the kernel must move at least (the format's
    // arrays, each distinct factor or vector row gathered once, the result written), the copy
    // bandwidth of the row's backend measured in this process, the time those bytes take at it,
    // and bound_s / median_s; intensity is flops per minimum byte.
    std::uint64_t bytes_moved = 0;
    double intensity = 0;
    double copy_gbps = 0;
    double bound_s = 0;
    double share_of_bound = 0;
    // A second ceiling on the GPU, for MTTKRP (not HLS, whose dense tiles share rows) and SpTTM
    // on COO at ranks that are multiples of 32: every nonzero gathers at least one factor row
    // that no other nonzero of its fiber shares (R floats: the leaf level's), from L2 where the
    // factors are megabytes; gather_bytes = nnz x R x 4, at the device's measured rate for such
    // gathers (measure_gpu_gather_bandwidth); 0 where not defined. MM-CSF's nonzeros whose
    // partition keeps the mode at its leaves gather no such row but add one into the output by an
    // atomic (mm-csf Alg. 8), and each node of a middle level holding the mode adds one (Alg. 7):
    // add_bytes, at the measured rate of such adds (measure_gpu_add_bandwidth), and gather_bytes
    // leaves the leaves' nonzeros out. gather_bound_s is the time of both, one after the other
    // (both are L2's work). The nonzeros that ran over shared-memory tiles (path) gather no row:
    // their share of gather_bytes is replaced by the tiles' rows each block copies into shared
    // memory, and add_bytes gains an output row per run of one row (tile_row_traffic).
    std::uint64_t gather_bytes = 0;
    double gather_gbps = 0;
    std::uint64_t add_bytes = 0;
    double add_gbps = 0;
    double gather_bound_s = 0;
    double share_of_gather_bound = 0;
    // The compute roof of the row's backend (roofline.hpp: cpu_peak(), gpu_peak()); 0: not known.
    double peak_gflops = 0;
    std::string peak_source;
    // cuda SpTV: the vector's entries packed ahead of it (SptvPlan::vector_packed); 0 otherwise.
    std::uint64_t vector_packed = 0;
    // cuda MTTKRP: the output rows added into fp32 copies of their own (MttkrpPlan::hot_rows) and
    // their copies; 0 otherwise.
    std::uint64_t hot_rows = 0, hot_copies = 0;
    std::optional<double> max_rel_error;
    std::string device;
    DenseMatrix output;  // of the last repeat, where BenchRequest::keep_outputs (for --write)
    // multi-GPU rows: the parts, each part's nonzeros (this mode's format), and the medians of
    // the kernels (all GPUs together) and of the collectives apart; median_s is their sum
    int gpus = 0;
    std::vector<std::uint64_t> per_gpu_nnz;
    double kernel_s = 0, collective_s = 0;
    // streamed rows: the bytes copied to the GPU per run, the host-to-device rate measured over
    // the same chunks in this run (GB/s), and bytes / rate / median_s (1: the copy is all the time)
    bool streamed = false;
    std::uint64_t bytes_streamed = 0;
    double h2d_gbps = 0, h2d_share_of_bound = 0;
};

std::vector<BenchResult> run_bench(const CooTensor& t, const BenchRequest& request, RunControl& control = no_control());

// The format as a row's tables and charts name it: "COO [sm]" where a kernel has several GPU
// variants, "B-CSF (shared tiles)" where the row took another path (with_path).
std::string format_label(const BenchResult& r, bool with_path = true);

// The median of five large copies (256 MB, split over the OpenMP threads) after a warm-up,
// counting bytes read plus written, in GB/s. Smaller where memory is short, down to 32 MiB; 0
// where not even that can be had.
double measure_copy_bandwidth();
// The same on the GPU, device to device (0 without a GPU).
double measure_gpu_copy_bandwidth();
// The GPU's rate for gathering random 128-byte rows of an L2-resident matrix, in GB/s gathered
// (cuda/gpu_gather.hpp; 0 without a GPU).
double measure_gpu_gather_bandwidth();
// The same for adding into such rows by 16-byte vector atomics, in GB/s added (0 without a GPU).
double measure_gpu_add_bandwidth();

}  // namespace tscope
