#include <algorithm>
#include <iostream>
#include <utility>
#include <vector>
#include <string>

#include "commands.hpp"
#include "tscope/decomp/cpd_als.hpp"
#include "tscope/formats/format_registry.hpp"
#include "tscope/kernels/kernel_registry.hpp"

namespace tscope::cli {

namespace {

// The lists below come from the registries, so the usage names what this build runs.
std::string all_format_names() {
    std::string names;
    for (const auto& e : format_registry()) names += std::string(names.empty() ? "" : " ") + e.name;
    return names;
}

// "--mode-order (COO, HOCSR, ...), --fiber-threshold (B-CSF), ...": which format reads which option.
std::string format_parameters() {
    std::vector<std::pair<std::string, std::string>> options;  // option, formats; in first-use order
    for (const auto& e : format_registry()) {
        const std::string list = e.parameters;
        for (std::size_t start = 0; start < list.size();) {
            const std::size_t comma = std::min(list.find(',', start), list.size());
            const std::string option = "--" + list.substr(start, comma - start);
            auto it = std::find_if(options.begin(), options.end(), [&](const auto& o) { return o.first == option; });
            if (it == options.end()) it = options.insert(options.end(), {option, ""});
            it->second += (it->second.empty() ? "" : ", ") + std::string(e.name);
            start = comma + 1;
        }
    }
    std::string text;
    for (const auto& [option, formats] : options) text += (text.empty() ? "" : "; ") + option + ": " + formats;
    return text;
}

std::string runs_on(KernelKind k) {
    const std::string omp = kernel_formats_text(k, Backend::Omp), cuda = kernel_formats_text(k, Backend::Cuda);
    return omp + " (omp) and " + (cuda.empty() ? "none in this build" : cuda) + " (cuda)";
}

}  // namespace

void print_usage(bool to_stderr) {
    (to_stderr ? std::cerr : std::cout) << R"(usage: tensorscope-cli COMMAND ...   (tensorscope-cli --version: the version)

  info FILE [--json] [--threads T] [--float]
      shape, nnz, density, load report and per-mode slice/fiber statistics
  info FILE.tsb --streamed [--json] [--part-nnz N] [--sketch-fibers]
      the exact slice statistics of a .tsb read in blocks, never loaded whole (no fibers); --sketch-fibers
      counts each mode's non-empty fibers in a second pass: mode 1's estimated (HyperLogLog, standard error
      0.8%) with their lengths from a sample of its fibers, the others' exactly with their lengths where the
      file is in slice order of mode 1
  generate --dims I,J,K[,..] --nnz N [--dist uniform|powerlaw:A[,A..]|blocks:B[:EDGE]|lowrank:R]
           [--seed S] [--float] -o FILE
      a reproducible synthetic tensor with exactly N distinct nonzeros (.tns, .tns.gz, .tsb); lowrank:R is a sum
      of R rank-one tensors with sparse factor vectors (about N nonzeros), for checking decompositions
  formats FILE [--mode M[,M..]|all] [--format F[,F..]|all] [--verify] [--json] [--mode-order 1,2,3]
          [--fiber-threshold T] [--hicoo-bits B] [--hls-threshold T]
      builds every storage format for every mode: storage units, bytes, ratio to COO, build time;
      --verify converts each back to COO and compares exactly
  formats FILE.tsb --streamed [--part-nnz N] [--mode ..] [--format ..] [--json] [--mode-order 1,2,3]
          [--fiber-threshold T] [--hicoo-bits B] [--hls-threshold T]
      the same survey for a .tsb read in parts, never loaded whole: each format's bytes predicted from counts
      over the file (exact, or sketched where they cross the slices of mode 1; MM-CSF, and on an order-3
      tensor HOCFS-ELL's modes past the first, not determined; a row of none says why in its footnote)
      formats: )" + all_format_names() + R"(
      options read by: )" + format_parameters() + R"(
      --fiber-threshold T: B-CSF splits fibers of over T nonzeros into pieces of at most T (default 128);
      --hicoo-bits B: HiCOO's blocks are 2^B indices a side (1 to 16, default 7); --hls-threshold T: HLS stores
      a 16^3 tile dense when it holds at least T nonzeros (default 78, for TTMc 61 as hls Sec. VII-A3 has it);
      advise, and bench (but --hicoo-bits), alike
  bench FILE [--kernel mttkrp|sptv|spttm|ttmc] [--format F[,F..]|all] [--backend cpu-ref|omp|cuda[,..]|all]
        [--mode M|all] [--rank R] [--repeat K] [--threads T] [--check] [--factors DIR] [--write DIR] [--json|--jsonl]
        [--mode-order 1,2,3] [--fiber-threshold T] [--hls-threshold T] [--variant naive,fg,mc,rb,sm,wb,cusparse|all] [--gpus N|all]
        [--stream [--streams K] [--chunk-bytes B]]
      times a kernel: warm-up, K repeats, median, GFLOP/s (3 nnz R per MTTKRP mode), GB/s;
      --jsonl prints each row as one JSON line as soon as it is measured (a run cut short keeps its finished rows),
      then a line with the sweeps and the machine;
      --stream (MTTKRP on cuda; BLCO unless --format names COO, CSF, B-CSF or MM-CSF) keeps the format in host memory
      and streams it through the GPU in chunks (default 64M) over K streams (default 4) for every run; its rows give
      the bytes streamed, the host-to-device rate measured over the same chunks and the share of that bound reached;
      --write DIR (mttkrp, ttmc) writes each mode's dense result as DIR/KERNEL_modeM.mat;
      --check compares with cpu-ref (exit 1 above 1e-8, 1e-4 for the fp32 cuda backend, 1e-2 for HLS on cuda, whose
      tensor cores take fp16 inputs); the cuda backend's time is its kernels alone, transfers apart (on it the CSF
      family's fibers are cut to at most 16 nonzeros on upload, whatever --fiber-threshold B-CSF was built with);
      MTTKRP runs on )" + runs_on(KernelKind::MTTKRP) + R"(;
      SpTV (2 nnz flops) on )" + runs_on(KernelKind::SpTV) + R"(, each built to contract the mode;
      SpTTM (2 nnz R flops) on COO sorted with the mode last, producing sCOO (cuda: the five GPU kernels of spttm
      Sec. 4.2, our warp batches and cuSPARSE's CSR SpMM, --variant picks); on sCOO it is SspTTM, the second product of a TTM chain;
      TTMc (2 nnz R^(N-1) flops, every other mode's factor) on )" + runs_on(KernelKind::TTMc) + R"(, CSF rooted at the mode;
      --gpus N (MTTKRP, cuda): the nonzeros in N balanced parts, one per GPU, combined with NCCL; a row's
      median is kernels plus collectives, each reported apart, with every part's nonzeros
  decompose FILE [--method cpd|tucker|fastertucker] [--rank R] [--iters N] [--backend omp|cuda] [--threads T]
            [--seed S] [--json]
            cpd and tucker: [--tol X] [--write DIR]; fastertucker: [--fiber-threshold T]
            cpd on cuda: [--gpus N|all] [--limit-gpu-memory B] [--stream] [--streams K] [--chunk-bytes B]
      cpd: CPD-ALS (mm-csf Alg. 1), MTTKRP through --format (default CSF; omp: )" + kernel_formats_text(KernelKind::MTTKRP, Backend::Omp) + R"(),
           fit per iteration; stops when the fit changes by less than --tol X (default 1e-5; tucker too);
           --init random|nvecs (each unfolding's leading singular vectors, from the nonzeros), --restarts K
           (K starts, the first --init's, the others random; the best fit kept); on cuda (COO, CSF, B-CSF,
           MM-CSF) --gpus N splits the nonzeros over N GPUs
           (NCCL), factors replicated; a tensor that does not fit in the free device memory, or in
           --limit-gpu-memory B, is built on the host and streamed through the GPU in chunks (64M) over
           K streams (4) for every MTTKRP (--stream forces it); the report gives the copy rate and bound;
           --write DIR: mode1.mat .. modeN.mat and lambda.mat; --distributed [--grid AxBxC] under
           mpirun -np P, on a .tsb: the medium-grained CPD over P ranks (rank 0 reports ranks, grid,
           nonzeros and factor rows exchanged per rank, MPI time; --backend cuda: one GPU per rank;
           MPI messages of at most 1 GiB, or TENSORSCOPE_MPI_MESSAGE_BYTES)
      tucker: HOOI (spttm Alg. 6) with SpTTM/SspTTM chains; --rank R or R1,R2,..; --init hosvd|random
           (hosvd: randomized, each unfolding's range through one sketch of R+10 columns); --write DIR: modeN.mat and core.tns
      fastertucker: SGD (cufastertucker Alg. 2-5) over B-CSF; --rank R (core), --j J or J1,J2,.. (factor widths),
           --lr-a, --lr-b, --reg-a, --reg-b, --test-fraction (0.1); train/test RMSE and MAE per epoch;
           --schedule hogwild (the paper's, timing-dependent) or ordered (each factor row's steps in tree order:
           the serial result with any threads, CPU and GPU alike)
  pipeline FILE [--format hocfs|hocfs-ell|cfb] [--mode M] [--streams K|auto] [--chunk-bytes B|auto]
           [--limit-gpu-memory B] [--check] [--json]
      SpTV pipelined over K CUDA streams (hocfs Sec. 6.2): chunks of slices (CFB: fiber buckets) of at most B
      input bytes (64M), each copied in, multiplied and copied out on its stream; prints T_s (same chunks, one
      stream), T_p, the model's T_p and the share of copy time hidden under kernels; auto sweeps streams
      2,3,4,5,8 x chunks 16M,64M,256M; --limit-gpu-memory leaves only B bytes free (the rest is held during
      the run, as other users of a shared GPU would hold it)
  convert IN OUT [--float] [--memory B] [--in-memory] [--json]
      between .tns, .tns.gz and the binary cache .tsb (chosen by OUT's extension: .tsb, .gz, else text;
      .txt or none is text too, another such as .csv is refused); text to .tsb is an
      external sort in bounded memory: runs of at most B bytes of nonzeros (default a quarter of the
      memory, at most 4G) sorted into temporary files next to OUT, then merged (duplicates summed in file
      order, zeros dropped; the .tsb holds the nonzeros sorted); --in-memory loads the tensor whole instead
  advise FILE [--kernel K[,K..]|all] [--backend omp|cuda|all] [--mode M|all] [--rank R] [--threads T] [--json]
         [--fiber-threshold T] [--hicoo-bits B] [--hls-threshold T]
      the format advisor: from the tensor's statistics alone (nothing built, nothing run) each format's
      storage, the bytes the kernel moves and its time at the measured copy bandwidth (cuda: measured,
      else the recorded H200 figures), ranked over a sweep of the modes, with the reason in a sentence
  reorder IN OUT [--method lexi|bfs-mcs|degree|random] [--iters K] [--seed S] [--perm-out DIR] [--float] [--json]
      relabels every mode's indices (lexi: Lexi-Order, up to K rounds, default 2; bfs-mcs: maximum
      cardinality search; degree: by descending nonzero count; random: shuffled) and writes the
      reordered tensor; --perm-out DIR writes DIR/modeN.perm, line k the original id of new index k.
      formats, bench and decompose take --reorder METHOD [--reorder-iters K]: they work on the relabelled
      tensor and show and write everything in the original ids (bench reads --factors in them too)
  fetch --list | NAME [--json] [--cache DIR] [--catalog FILE]
      the dataset catalog (every FROSTT tensor: order, dims, nonzeros, files, licence) and what the cache
      folder (--cache DIR, else TENSORSCOPE_CACHE, else XDG_CACHE_HOME/tensorscope, else ~/.cache/tensorscope)
      holds of each: ready, partial (an interrupted download), damaged (fetched again) or not fetched;
      NAME not yet ready: downloads it (resuming a partial download), checks it against the catalog and
      converts it once to NAME.tsb in the cache (builds without the GUI: says where it is instead); a
      download that gets nothing for 60 s (TENSORSCOPE_FETCH_STALL_S) stops, kept to be resumed;
      --catalog FILE reads that catalog instead of the installed BIN/../share/tensorscope/catalog/frostt.json

FILE may be FROSTT .tns text, gzip-compressed .tns.gz, or .tsb. Modes are numbered from 1.
--float (info, generate, convert, reorder): the values held as fp32 instead of double (a .tsb written so stores 4 bytes
a value; a value a float cannot hold is refused).
B (--chunk-bytes, --limit-gpu-memory, --memory) is a number of bytes, with K, M, G, T or KiB ... TiB for binary
units (64M, 1G), kB, MB, GB, TB for decimal ones (512MB, as sizes are shown), or auto (the command chooses).
Every command but fetch takes --threads T (OpenMP threads; default: every core); --name=value is --name value;
--csf-order is another name for --mode-order. Defaults: bench --kernel mttkrp --format all --backend omp
--rank 32 --repeat 5; decompose --method cpd --seed 1, --rank 16 (cpd, fastertucker) or 8 (tucker), --iters 50
(cpd, fastertucker) or 25 (tucker); fastertucker --fiber-threshold 128 (its B-CSF's sub-fibers); advise --rank 32;
pipeline --format hocfs; reorder --method degree.
Exit status: 0 success, 2 bad input, 1 other failures.
This text is the help: tensorscope-cli help, --help, or COMMAND ... --help.
)";
}

}  // namespace tscope::cli
