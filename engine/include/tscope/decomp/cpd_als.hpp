// CPD by alternating least squares (mm-csf-mttkrp Alg. 1): X ~ sum_r lambda_r a1_r o ... o aN_r.
// Each mode's update is an MTTKRP through the chosen format and backend, then a solve with the
// Hadamard product of the other modes' Gram matrices (Cholesky, or a pseudo-inverse when it is
// not positive definite), then column normalisation into lambda. The fit of every iteration
// comes from the last mode's MTTKRP and the Gram matrices, without forming the dense tensor.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "tscope/decomp/decomposition.hpp"
#include "tscope/formats/format.hpp"
#include "tscope/kernels/backend.hpp"
#include "tscope/kernels/dense_matrix.hpp"
#include "tscope/pipeline/pipeline_sptv.hpp"
#include "tscope/run_control.hpp"

namespace tscope {

// How CPD-ALS starts: random factors (seeded), or nvecs, each mode's R leading left singular
// vectors of its unfolding (Kolda & Bader's HOSVD start for CP; SPLATT's and Tensor Toolbox's
// "nvecs"), computed from the nonzeros alone.
enum class CpdInit { Random, Nvecs };
const char* cpd_init_name(CpdInit init);          // random, nvecs
CpdInit parse_cpd_init(const std::string& name);  // InputError naming the choices

struct CpdOptions {
    std::uint64_t rank = 16;
    int max_iters = 50;
    double tolerance = 1e-5;   // stop when the fit changes by less
    std::uint64_t seed = 1;    // the random initial factors
    CpdInit init = CpdInit::Random;
    // Starts to run (1: one); the best fit is kept. The first start is `init`'s, the others
    // random with seeds seed + 1, seed + 2, ...: one random start can settle in a poor minimum.
    int restarts = 1;
    // A relabelled tensor's ids in the file (--reorder; Relabelling::old_id, per mode): the
    // random numbers of a start are drawn by those ids, so that the relabelled tensor starts, and
    // ends, where the file's does for the same seed. Empty: the tensor's own ids.
    std::vector<std::vector<std::uint64_t>> original_ids;
    FormatKind format = FormatKind::CSF;  // MTTKRP's format: one of cpd_formats(backend)
    Backend backend = Backend::Omp;
    // cuda only. gpus: the parts the nonzeros are split into, one per GPU (0: every GPU this
    // machine has). gpu_slots: the GPU of each part, where given (tests put N parts on one GPU).
    int gpus = 1;
    std::vector<int> gpu_slots;
    // The device memory the run may use (0: what is free); the rest is held during the run,
    // as other users of a shared GPU would. A tensor that does not fit is streamed.
    std::uint64_t gpu_memory_limit = 0;
    bool stream = false;                   // stream the tensor even where it would fit
    int streams = 4;                       // CUDA streams of a streamed run
    std::uint64_t chunk_bytes = 0;         // a streamed chunk (0: 64 MiB, less where memory is short)
};

// How a streamed CPD went (cuda, tensors larger than the GPU memory it may use).
struct CpdStreaming {
    std::string reason;                   // why it streamed
    int streams = 0;
    std::uint64_t chunk_bytes = 0, chunks = 0;  // per MTTKRP sweep over all modes
    std::uint64_t bytes_per_iteration = 0;      // host to device, every mode's MTTKRP
    std::uint64_t tensor_bytes = 0;             // the format in host memory
    bool pinned = true;                         // the host page-locked the format
    double copy_rate = 0;                       // host to device, bytes/s, measured in the run
    double copy_s = 0, kernel_s = 0, pipeline_s = 0;  // over the run: copies, kernels, the timelines' spans
    double copy_hidden = 0;                     // share of the copy time under kernels
    double overlap_of_possible = 0;             // hidden / min(copy, kernel)
    // The last MTTKRP's timeline, in the Pipeline view's terms (out_* = the kernel's end).
    std::vector<PipelineChunk> timeline;
};

struct CpdResult {
    std::vector<DenseMatrix> factors;  // I_n x R, unit columns
    std::vector<double> lambda;        // R
    std::vector<IterationReport> iterations;
    double fit = 0;
    bool converged = false;
    int pseudo_inverse_solves = 0;     // solves where Cholesky failed
    double setup_seconds = 0;          // format build (and, on the GPU, the upload)
    double build_seconds = 0;          // the formats alone
    double upload_seconds = 0;         // cuda: the tensor to the device
    bool built_on_device = false;      // cuda: the formats were built on the GPU (COO, CSF, B-CSF)
    std::uint64_t peak_device_bytes = 0;  // cuda: the engine's device arrays at their peak
    // cuda: the dense steps' device time over the run: A = M V^-1, normalisation, Grams
    double solve_seconds = 0, normalize_seconds = 0, gram_seconds = 0;
    // cuda: the parts and their GPUs; per structure (each mode's format for the per-mode
    // formats, else one) the nonzeros of each part; the time in collectives over the run
    int gpus = 1;
    std::vector<int> gpu_devices;
    std::vector<std::vector<std::uint64_t>> gpu_nnz;
    double collective_seconds = 0;
    std::uint64_t gpu_memory_limit = 0;
    std::optional<CpdStreaming> streaming;  // set where the tensor was streamed
    // With restarts: every start's iterations (iterations above are the kept one's), its final
    // fit, and which start was kept (0-based).
    std::vector<std::vector<IterationReport>> starts;
    std::vector<double> start_fits;
    int best_start = 0;
};

// The formats CPD-ALS can run its MTTKRPs on with a backend: the kernel registry's MTTKRP entries.
std::vector<FormatKind> cpd_formats(Backend backend);

CpdResult cpd_als(const CooTensor& t, const CpdOptions& options, const IterationCallback& on_iteration = {},
                  RunControl& control = no_control());

// ||X - X^||^2 by brute force over every cell: a check for small tensors in the tests.
double cpd_dense_fit(const CooTensor& t, const std::vector<DenseMatrix>& factors, const std::vector<double>& lambda);

// SPLATT-style output: DIR/mode1.mat ... modeN.mat and DIR/lambda.mat (one value per line),
// each written whole or not at all.
void write_cpd(const CpdResult& r, const std::string& dir);
// The files write_cpd writes for an order-N result, the factors' first.
std::vector<std::string> cpd_file_paths(const std::string& dir, int order);

}  // namespace tscope
