// CUDA SpTV (hocfs-sptv-pipeline Sec. 6.1), the whole tensor at once, kept on the device across
// vectors. The CSR-shaped formats and HOCOO's segments (Fig. 9 and Alg. 3) are a sparse
// matrix-vector product, rows = fibers, columns = the mode's indices: our own row kernels
// (sptv_shared_vector.cuh, sptv_adaptive_rows.cuh) where shared memory or L2 holds the vector,
// cuSPARSE's CSR SpMV otherwise (see adaptive_rows and rows_through_l1 below); HOCFS-ELL
// (Fig. 10) has one thread per fiber (sptv_kernels.cuh), HOCSR (Alg. 4) its non-empty rows kept
// by a pass over its pointer array then the CSR's product (sptv_kept_rows.cuh), or a thread per
// few rows streaming that array (sptv_tuples.cuh).
//
// Why cuSPARSE and not our own row kernel: measured side by side on one H200 (session 21,
// docs/bench/h200-issue19-session21-sptv-nell2.json), our nonzero-balanced tiles (1,024 nonzeros a
// block, rows found by a block-wide scan of row marks, sums met in shared memory) took
// 0.58-0.64 ms a mode on the nell-2 shape, cuSPARSE's CSR_ALG1 0.32-0.35 ms and its merge-path
// ALG2 0.39-0.42 ms; on the uniform shape 0.57-0.63, 0.49-0.59 and 0.56-0.62 ms. HOCSR's
// own kernel (sptv_tuples.cuh, a thread per 4 rows) in its place, session 23
// (h200-issue19-session23.json, call 6): 0.60-1.16 ms a mode on the nell-2 shape against
// cuSPARSE's 0.31-0.34, 1.45-2.32 against 1.02-1.47 on delicious-4d's, 0.47-0.60 against
// 0.48-0.58 on the uniform shape. Session 44 (a34967a, TENSORSCOPE_SPTV_ROWS=tiles, h200-issue19-
// session44.json call 1, alternating twice): a warp a tile of 512 nonzeros, a lane 16 of them
// loaded as 16-byte vectors, the vector in shared memory (one block of 1,024 threads an SM), each
// lane's first row found by bisection in its warp's staged offsets, rows met across lanes by a
// segmented shuffle scan and across tiles by a second kernel's atomics: on the nell-2 shape
// 0.36-0.38 ms on modes 1-2 and 0.34 on mode 3 against cuSPARSE's 0.31-0.32 and 0.33; on the
// uniform shape 0.75-0.92 ms against the shared-vector kernels' 0.32-0.40 (a lane closes a dozen
// rows of 1-2 nonzeros one by one). Nsight Compute on the nell-2 shape's mode 3: 312 us against
// cuSPARSE's 292, 0.38 warps issued a cycle against 0.45, 48% of the warps resident (64
// registers, one block an SM) against 95%; removed.
//
// A product's launches are captured once as a CUDA graph (launch_graph.cuh) and replayed.
#include <memory>

#include <cub/device/device_scan.cuh>

#include "cuda_util.cuh"
#include "gpu_sptv.hpp"
#include "launch_graph.cuh"
#include "sparse_library.cuh"
#include "sptv_adaptive_rows.cuh"
#include "sptv_hot_columns.cuh"
#include "sptv_kept_rows.cuh"
#include "sptv_kernels.cuh"
#include "sptv_shared_vector.cuh"
#include "sptv_tuples.cuh"

namespace tscope::gpu {

namespace {

// y = A v with A the rows x vlen CSR of the fibers (empty rows give 0), cuSPARSE's SpMV. P: the
// offsets' type, the engine's 64-bit ones or 32-bit ones the caller keeps (DeviceCsr).
// Keeping v in L2 does not help where it is larger than L2: on the delicious-4d shape's mode 2
// (69 MB vector, 58-64% of the bound) an access policy window marking v's accesses persisting
// (CUDA Programming Guide 4.13) made COO, CFB, HOCFS-CSR and CSF 2.17-2.19 ms against 1.44-1.45
// without (one H200, alternating twice, h200-issue19-session37.json call 3): the set-aside holds
// a fraction of v, and the streamed arrays lose that much of L2. Removed.
class CsrSpmv {
public:
    template <class P>
    CsrSpmv(std::uint64_t rows, std::uint64_t vlen, std::uint64_t nnz, P* ptr, std::uint32_t* col, float* val, float* dv, float* dout)
        : csr_(rows, vlen, nnz, ptr, col, val) {
        check_sparse(cusparseCreateDnVec(&v_, static_cast<std::int64_t>(vlen), dv, CUDA_R_32F), "describing the vector");
        check_sparse(cusparseCreateDnVec(&out_, static_cast<std::int64_t>(rows), dout, CUDA_R_32F), "describing the output");
        std::size_t bytes = 0;
        check_sparse(cusparseSpMV_bufferSize(csr_.handle(), kOp, &one_, csr_.matrix(), v_, &zero_, out_, CUDA_R_32F, kAlg, &bytes),
                     "sizing its buffer");
        buffer_ = DeviceArray<std::uint8_t>(bytes);
        // the analysis a plan keeps for every vector
        check_sparse(cusparseSpMV_preprocess(csr_.handle(), kOp, &one_, csr_.matrix(), v_, &zero_, out_, CUDA_R_32F, kAlg, buffer_.get()),
                     "preparing the SpMV");
    }
    ~CsrSpmv() {
        cusparseDestroyDnVec(out_);
        cusparseDestroyDnVec(v_);
    }
    CsrSpmv(const CsrSpmv&) = delete;
    CsrSpmv& operator=(const CsrSpmv&) = delete;
    const DeviceCsr& csr() const { return csr_; }
    void run(cudaStream_t stream) {
        check_sparse(cusparseSetStream(csr_.handle(), stream), "choosing its stream");
        check_sparse(cusparseSpMV(csr_.handle(), kOp, &one_, csr_.matrix(), v_, &zero_, out_, CUDA_R_32F, kAlg, buffer_.get()), "in its SpMV");
    }

private:
    static constexpr cusparseOperation_t kOp = CUSPARSE_OPERATION_NON_TRANSPOSE;
    // ALG1. Where cuSPARSE still runs (a vector past L2: delicious-4d's mode 2, the packed front)
    // ALG2 took 1.301-1.305 ms against 1.171-1.183 for COO and CFB, alternating twice on one H200
    // (h200-sptv-alg2-session60.json; the switch removed).
    static constexpr cusparseSpMVAlg_t kAlg = CUSPARSE_SPMV_CSR_ALG1;
    const float one_ = 1.0f, zero_ = 0.0f;
    DeviceCsr csr_;
    DeviceArray<std::uint8_t> buffer_;
    cusparseDnVecDescr_t v_ = nullptr, out_ = nullptr;
};

// Whether a CSR runs sptv_adaptive_rows.cuh's blocks rather than cuSPARSE (rows not all short)
// or the thread-a-row shared-vector kernel (all short, a vector above kRunVectorBytes; see
// SharedVectorRows::grid_for_csr): where they fit (the vector in a block's shared memory), unless
// TENSORSCOPE_SPTV_ROWS=cusparse or TENSORSCOPE_SPTV_HOT=1 (cuSPARSE with the hot columns
// packed); =adaptive takes them for any rows.
bool adaptive_rows(std::uint64_t rows, std::uint64_t nnz, std::uint64_t vlen) {
    if (env_is("TENSORSCOPE_SPTV_ROWS", "cusparse") || !AdaptiveRows::fits(rows, nnz, vlen)) return false;
    return env_is("TENSORSCOPE_SPTV_ROWS", "adaptive") || !HotColumns::wanted(vlen);
}

// Whether a CSR whose vector no block's shared memory holds runs the adaptive rows with the vector
// read through L1 rather than cuSPARSE: where its sizes fit 32 bits and the vector (`vlen`
// columns, its packed front included) fits in L2. TENSORSCOPE_SPTV_ROWS=through-l1 takes them
// for any vector, =cusparse never.
// Measured on one H200 (h200-issue19-session51.json, delicious-4d's shape, medians of 10, COO /
// CFB; calls 1-2, alternating three times): mode 1 (a 2.1 MB vector) 0.935-0.943 / 0.936-0.940 ms
// against cuSPARSE's 0.999-1.002 / 0.994-1.002; mode 3 (9.9 MB) 0.968-0.978 / 0.966-0.968 against
// 1.017-1.023 / 1.017-1.022; mode 2 (69 MB, 95 MB packed, over L2; call 1, twice) 1.192-1.212 /
// 1.174-1.185 against 1.173-1.182 / 1.168-1.173, so there cuSPARSE stays.
bool rows_through_l1(std::uint64_t rows, std::uint64_t nnz, std::uint64_t vlen) {
    if (env_is("TENSORSCOPE_SPTV_ROWS", "cusparse") || !AdaptiveRows::fits_through(rows, nnz, vlen)) return false;
    return env_is("TENSORSCOPE_SPTV_ROWS", "through-l1") || vlen * sizeof(float) <= l2_bytes();
}

// y = A v with v in shared memory (sptv_shared_vector.cuh: a run of 4 rows a thread for a vector
// of up to kRunVectorBytes, a thread per row above): A's 64-bit offsets are converted to the 32
// bits the kernels read; the columns and values stay the caller's.
class SharedVectorRows {
public:
    SharedVectorRows(std::uint64_t rows, std::uint64_t vlen, const std::uint64_t* ptr, const std::uint32_t* col,
                     const float* val, const float* dv, float* dout, int grid)
        : rows_(static_cast<std::uint32_t>(rows)),
          vlen_(static_cast<std::uint32_t>(vlen)),
          ptr_(rows, ptr),
          col_(col),
          val_(val),
          v_(dv),
          out_(dout),
          grid_(grid) {}
    // Over 32-bit offsets the caller holds (and may rewrite between products).
    SharedVectorRows(std::uint64_t rows, std::uint64_t vlen, const std::int32_t* ptr32, const std::uint32_t* col, const float* val,
                     const float* dv, float* dout, int grid)
        : rows_(static_cast<std::uint32_t>(rows)), vlen_(static_cast<std::uint32_t>(vlen)), ptr_(ptr32), col_(col), val_(val), v_(dv),
          out_(dout), grid_(grid) {}
    void run(cudaStream_t stream) {
        const std::int32_t* ptr = ptr_.get();
        const std::size_t bytes = vlen_ * sizeof(float);
        if (bytes > kRunVectorBytes)
            sptv_shared_vector_row_kernel<<<grid_, kSharedVectorThreads, bytes, stream>>>(rows_, ptr, col_, val_, v_,
                                                                                          vlen_, out_);
        else
            sptv_shared_vector_kernel<<<grid_, kSharedVectorThreads, bytes, stream>>>(rows_, ptr, col_, val_, v_, vlen_,
                                                                                      out_);
    }

    // The blocks to launch where a CSR of these sizes, whose offsets are ptr on the device, can
    // run it; 0 where not: offsets or rows beyond 32 bits, a vector larger than a block's shared
    // memory, a row longer than kSharedVectorRowsMax, or a vector above kRunVectorBytes or rows
    // of over 1.25 nonzeros on average where adaptive_rows takes them. TENSORSCOPE_SPTV_ROWS=
    // cusparse keeps cuSPARSE, =shared takes this kernel whatever the rows' lengths and vector
    // (comparisons, tests).
    // Why the blocks above kRunVectorBytes: on the uniform shape's mode 3 (rows all short, a
    // 115 KB vector) they took 0.310-0.318 ms in COO, CSF, CFB and HOCFS-CSR against 0.382-0.390
    // for the thread-a-row kernel here (95-111% of the copy bound against 77-93%), while on modes
    // 1-2 (the 4-row kernel) this one stays ahead, 0.311-0.323 ms against 0.319-0.332 (one H200,
    // 68d535f, h200-issue19-session48.json call 5, one run each). HOCSR's mode 3 there then ran
    // its one-pass kernel either way (0.523 and 0.529 ms).
    // Why rows of about one nonzero only (nnz <= 1.25 rows): a thread walks its 4 rows one
    // nonzero after another, and a block of 1,024 takes 4,096 rows, so longer rows and fewer of
    // them leave most SMs idle and each thread a chain of dependent loads. On the advisor's
    // 600K-nonzero blocks tensors (one H200, session 75, h200-session75b.json, COO, CFB,
    // HOCFS-CSR and CSF, min of 2 rounds' medians of 10) it took 37.5-40.3 us a mode against
    // 7.9-8.5 for the adaptive blocks with fibers of 14.6 (41K rows, 10 blocks), 19-33 against
    // 6.2-7.3 with 8.2, 8.3-13.5 against 6.2-7.2 with 2.9, 11-15 against 7.1-9.4 with 2.0, and
    // MovieLens's mode 1 (1.5) 10.1-10.9 against 6.9-7.0; with rows of 1.0-1.1 it stays ahead
    // (uniform 3-5d 5.3-9.7 us against 6.8-13.0, MovieLens's mode 3 5.0-5.3 against 6.9-7.2); on
    // blocks-5d's modes 1-4 (rows of 1.26-1.30) the adaptive blocks took 8.4-9.2 and this kernel
    // 7.9-10.3 (ahead on mode 3 alone). The power-law tensors' longest rows pass 32 nonzeros: this
    // kernel never took them, whatever their average.
    template <class P>
    static int grid_for_csr(std::uint64_t rows, std::uint64_t nnz, std::uint64_t vlen, const P* ptr) {
        constexpr std::uint64_t kInt = std::uint64_t{1} << 31;
        if (env_is("TENSORSCOPE_SPTV_ROWS", "cusparse") || env_is("TENSORSCOPE_SPTV_ROWS", "adaptive") || rows == 0 ||
            rows >= kInt || nnz >= kInt || vlen >= kInt)
            return 0;
        const std::uint64_t bytes = vlen * sizeof(float);
        if (bytes > static_cast<std::uint64_t>(device_attribute(cudaDevAttrMaxSharedMemoryPerBlockOptin))) return 0;
        const bool forced = env_is("TENSORSCOPE_SPTV_ROWS", "shared");
        if (!forced && bytes > kRunVectorBytes && adaptive_rows(rows, nnz, vlen)) return 0;
        if (!forced && nnz * 4 > rows * 5 && adaptive_rows(rows, nnz, vlen)) return 0;  // rows of over 1.25 nonzeros
        if (!forced) {
            DeviceArray<unsigned long long> longest(1);
            longest.zero();
            csr_longest_row_kernel<<<grid_for(rows), 256>>>(rows, ptr, longest.get());
            check(cudaGetLastError(), "measuring the SpTV rows");
            unsigned long long n = 0;
            longest.download(&n);
            if (n > kSharedVectorRowsMax) return 0;
        }
        check(cudaFuncSetAttribute(sptv_shared_vector_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(bytes)),
              "sizing the SpTV kernel's shared memory");
        check(cudaFuncSetAttribute(sptv_shared_vector_row_kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(bytes)),
              "sizing the SpTV kernel's shared memory");
        return resident_grid(sptv_shared_vector_kernel, kSharedVectorThreads, bytes,
                             ((rows + 3) / 4 + kSharedVectorThreads - 1) / kSharedVectorThreads);
    }

private:
    std::uint32_t rows_, vlen_;
    Offsets32 ptr_;
    const std::uint32_t* col_;
    const float* val_;
    const float* v_;
    float* out_;
    int grid_;
};

}  // namespace

struct SptvDevice::Impl {
    bool ell = false;
    std::uint64_t outputs = 0, tuples = 0;  // tuples: HOCSR's rows (its outputs are the non-empty ones)
    DeviceArray<float> v, out;
    // the format's arrays: a CSR's row offsets or HOCFS-ELL's slice starts, then its columns and
    // values (the CSR frees the index array cuSPARSE does not read, see DeviceCsr)
    DeviceArray<std::uint64_t> ptr, ap;  // ap: ELL only
    DeviceArray<std::uint32_t> ptr32, fiber_slice, col;  // ptr32: HOCSR's offsets where they fit
    DeviceArray<std::uint64_t> block_base;                // HOCSR: the outputs before each block
    DeviceArray<float> val;
    std::unique_ptr<CsrSpmv> rows;  // the CSR-shaped formats, where there are nonzeros
    std::unique_ptr<SharedVectorRows> short_rows;  // or those whose rows are all short (then no rows)
    std::unique_ptr<AdaptiveRows> mixed_rows;      // or those of every length (sptv_adaptive_rows.cuh)
    // HOCSR in two passes (sptv_kept_rows.cuh): then rows or short_rows run its kept rows
    std::unique_ptr<KeptRows> kept;
    // rows' columns relabelled where the vector is larger than L2 (sptv_hot_columns.cuh): v then
    // holds its much-read entries ahead of the vector as given
    std::unique_ptr<HotColumns> hot;
    // the product's launches (below), captured once the plan is made (launch_graph.cuh)
    LaunchGraph graph;

    void product(cudaStream_t stream);
    void capture() {
        if (ell ? outputs != 0 : rows || short_rows || mixed_rows || tuples)
            graph.capture([this](cudaStream_t s) { product(s); });
    }
};

namespace {

// Whether HOCSR runs in two passes (sptv_kept_rows.cuh): wherever the kept rows' CSR fits 32-bit
// offsets and columns, unless TENSORSCOPE_HOCSR=one-pass. Until session 49 one pass ran where a
// third of the rows or more hold nonzeros and those hold under two on average. Since the wide
// first pass and the adaptive rows (sessions 48-49), two passes win there too: one H200,
// alternating twice (h200-issue19-session49.json calls 1-2), the uniform shape's mode 3 (2.0
// rows a non-empty row, 1.39 nonzeros) 0.490-0.493 ms against one pass's 0.523-0.528; a denser
// uniform shape (8,000 x 6,400 x 28,818, 76.9M nonzeros) mode 1 (about 2.9, 1.22) 0.557-0.559
// against 0.669-0.674, mode 3 (1.29, 1.93) 0.417-0.418 against 0.460-0.462.
// Before (rows a non-empty row and nonzeros a non-empty row, from tensorscope-cli info's fibers;
// h200-issue19-session34.json calls 2-3):
//   nell-2 shape mode 1 (12.8 rows, 3.73 nonzeros): two passes 0.683-0.693 ms, one 1.11-1.12 (session 33)
//   nell-2 shape mode 3 (6.9, 4.74):                two passes 0.504-0.508 ms, one 1.34-1.37 (session 33)
//   uniform shape mode 1 (3.95, 1.15):              two passes 0.752-0.764 ms, one 0.896-0.902
//   uniform shape mode 3 (2.0, 1.39):               two passes 0.605-0.612 ms, one 0.565-0.575
// Again with CUB's warp scans in both passes (session 35 call 5, two rounds in turn): uniform
// shape mode 1 two passes 0.707-0.708 ms, one 0.912-0.916; mode 3 two 0.581-0.584, one 0.541-0.544.
// One pass reads the offsets once; two passes read them, write the kept rows' offsets and read
// those again, which costs most where most rows are kept and short (uniform mode 3), and least
// where most rows are empty, which the one-pass kernel's block scans walk for few outputs, or
// long, which a thread a row balances badly (nell-2: power-law rows).
bool hocsr_kept(std::uint64_t outputs, std::uint64_t nnz, std::uint64_t vlen) {
    constexpr std::uint64_t kInt = std::uint64_t{1} << 31;
    if (outputs == 0 || outputs >= kInt || nnz >= kInt || vlen >= kInt) return false;
    return !env_is("TENSORSCOPE_HOCSR", "one-pass");
}

// How many of the offsets' bits HOCSR's two passes keep: only the low 16 (sptv_kept_rows.cuh's
// keep_row says where they won) wherever the adaptive rows run; TENSORSCOPE_SPTV_ROWS=shared still forces
// the shared-vector kernels there, and TENSORSCOPE_HOCSR_LOW16=0 keeps 32 bits (for comparisons
// and tests). Until session 55 blocks of 1,024 kept 32 bits where the kept rows held three
// nonzeros or more on average (the nell-2 shape's mode 3, 4.7); with those blocks' 16-byte loads
// and the warp's sums of long rows, the low bits won there too (one H200, ad59ae1, h200-issue19-
// session55.json call 5, alternating twice, medians of 10): 0.363-0.364 ms (73.1-73.5% of the copy
// bound) against 0.373-0.375 (71.0-71.4%), within 1.4e-7 of cpu-ref.
// Since session 56 blocks of 1,024 keep only the low 8 bits (the plan cuts their blocks of short
// rows to 255 nonzeros from their window, kLow8Span): the uniform shape's mode 3 keeps 55M rows,
// 110 MB in 16 bits written and read again each product. One H200 (b3f1a2c, h200-issue19-
// session56.json call 1, alternating twice, medians of 10, mode 3): uniform 0.418-0.424 ms
// (71.1-72.1% of the copy bound) against 0.425-0.429 (70.3-70.9%), nell-2 0.357-0.359 (73.8-74.3%)
// against 0.363-0.368 (72.0-73.0%); within 1.4e-7 of cpu-ref. TENSORSCOPE_HOCSR_KEEP8=0 keeps 16
// there (for comparisons and tests). Returns 0 (all 32), 16 or 8.
int hocsr_low_bits(std::uint64_t outputs, std::uint64_t nnz, std::uint64_t vlen) {
    if (!adaptive_rows(outputs, nnz, vlen) || env_is("TENSORSCOPE_SPTV_ROWS", "shared")) return 0;
    if (env_is("TENSORSCOPE_HOCSR_LOW16", "0")) return 0;
    return env_is("TENSORSCOPE_HOCSR_KEEP8", "0") || AdaptiveRows::small(vlen) ? 16 : 8;
}

// HOCSR's one pass (sptv_tuples.cuh) over `rows` index tuples.
template <class P>
void launch_tuples(std::uint64_t rows, const P* ptr, const std::uint32_t* col, const float* val, const float* v,
                   const std::uint64_t* block_base, float* out, cudaStream_t stream) {
    const auto blocks = static_cast<unsigned>((rows + kTupleBlockRows - 1) / kTupleBlockRows);
    if (!blocks) return;
    sptv_tuple_kernel<P><<<blocks, kTupleThreads, 0, stream>>>(rows, ptr, col, val, v, block_base, out);
}

}  // namespace

SptvDevice::SptvDevice(const SptvRows& x, std::uint64_t vlen, Timing& timing) : impl_(new Impl) {
    use_device();
    require_free((x.rows + 1) * 8 + x.nnz * 8 + vlen * 4 + x.rows * 4, "SpTV on the whole tensor");
    Event t0, t1;
    t0.record();
    Impl& d = *impl_;
    d.outputs = x.rows;
    d.v = DeviceArray<float>(vlen);
    d.out = DeviceArray<float>(x.rows);
    if (x.rows && x.nnz) {
        d.ptr = DeviceArray<std::uint64_t>(x.ptr, x.rows + 1);
        d.col = adaptive_padded(x.col, x.nnz);
        d.val = adaptive_padded(x.val, x.nnz);
        if (const int grid = SharedVectorRows::grid_for_csr(x.rows, x.nnz, vlen, d.ptr.get())) {
            d.short_rows = std::make_unique<SharedVectorRows>(x.rows, vlen, d.ptr.get(), d.col.get(), d.val.get(), d.v.get(), d.out.get(), grid);
            d.ptr = {};
        } else if (adaptive_rows(x.rows, x.nnz, vlen)) {
            d.mixed_rows = std::make_unique<AdaptiveRows>(x.rows, vlen, x.ptr, d.ptr.get(), d.col.get(), d.val.get(),
                                                          d.v.get(), d.out.get());
            d.ptr = {};
        } else {
            std::uint64_t columns = vlen;
            if (HotColumns::wanted(vlen)) {
                require_free(HotColumns::needed(vlen), "packing SpTV's much-read vector entries");
                d.hot = std::make_unique<HotColumns>(x.nnz, d.col.get(), static_cast<std::uint32_t>(vlen));
                columns = d.hot->columns();
                d.v = {};  // v' replaces it, rather than beside it
                d.v = DeviceArray<float>(columns);
            }
            if (rows_through_l1(x.rows, x.nnz, columns)) {
                d.mixed_rows = std::make_unique<AdaptiveRows>(x.rows, columns, x.ptr, d.ptr.get(), d.col.get(),
                                                              d.val.get(), d.v.get(), d.out.get(), true);
                d.ptr = {};
            } else {
                d.rows = std::make_unique<CsrSpmv>(x.rows, columns, x.nnz, d.ptr.get(), d.col.get(), d.val.get(),
                                                   d.v.get(), d.out.get());
                if (d.rows->csr().narrow())
                    d.ptr = {};
                else
                    d.col = {};
            }
        }
    }
    d.capture();
    t1.record();
    timing.upload_s = Event::seconds(t0, t1);
}

SptvDevice::SptvDevice(const SptvEll& x, std::uint64_t vlen, Timing& timing) : impl_(new Impl) {
    use_device();
    require_free((x.slices + 1) * 16 + x.fibers * 8 + x.entries * 8 + vlen * 4, "SpTV on the whole tensor");
    Event t0, t1;
    t0.record();
    Impl& d = *impl_;
    d.ell = true, d.outputs = x.fibers;
    d.ptr = DeviceArray<std::uint64_t>(x.first, x.slices + 1);
    d.ap = DeviceArray<std::uint64_t>(x.ap, x.slices + 1);
    d.fiber_slice = DeviceArray<std::uint32_t>(x.fiber_slice, x.fibers);
    d.col = DeviceArray<std::uint32_t>(x.col, x.entries);
    d.val = DeviceArray<float>(x.val, x.entries);
    d.v = DeviceArray<float>(vlen);
    d.out = DeviceArray<float>(x.fibers);
    d.capture();
    t1.record();
    timing.upload_s = Event::seconds(t0, t1);
}

SptvDevice::SptvDevice(const SptvTuples& x, std::uint64_t vlen, Timing& timing) : impl_(new Impl) {
    use_device();
    const std::uint64_t blocks = (x.rows + kTupleBlockRows - 1) / kTupleBlockRows;
    // the outputs at most: one per nonzero
    require_free((x.rows + 1) * (x.ptr32 ? 4 : 8) + x.nnz * 12 + vlen * 4 + (blocks + 1) * 16, "SpTV on the whole tensor");
    Event t0, t1;
    t0.record();
    Impl& d = *impl_;
    d.tuples = x.rows;
    d.v = DeviceArray<float>(vlen);
    if (x.ptr32)
        d.ptr32 = DeviceArray<std::uint32_t>(x.ptr32, x.rows + 1);
    else
        d.ptr = DeviceArray<std::uint64_t>(x.ptr64, x.rows + 1);
    d.col = adaptive_padded(x.col, x.nnz);
    d.val = adaptive_padded(x.val, x.nnz);
    // each block's first output: its non-empty rows counted, then scanned; the entry after the
    // last block (counted 0) ends up holding them all, the outputs
    d.block_base = DeviceArray<std::uint64_t>(blocks + 1);
    d.block_base.zero();
    std::uint64_t* base = d.block_base.get();
    if (blocks) {
        const auto grid = static_cast<unsigned>(blocks);
        if (x.ptr32)
            sptv_tuple_count_kernel<<<grid, kTupleThreads>>>(x.rows, d.ptr32.get(), base);
        else
            sptv_tuple_count_kernel<<<grid, kTupleThreads>>>(x.rows, d.ptr.get(), base);
        check(cudaGetLastError(), "counting HOCSR's non-empty rows");
        std::size_t bytes = 0;
        check(cub::DeviceScan::ExclusiveSum(nullptr, bytes, base, base, blocks + 1), "sizing the scan");
        DeviceArray<unsigned char> temp(bytes);
        check(cub::DeviceScan::ExclusiveSum(temp.get(), bytes, base, base, blocks + 1), "placing HOCSR's outputs");
    }
    check(cudaMemcpy(&d.outputs, base + blocks, sizeof d.outputs, cudaMemcpyDeviceToHost), "reading HOCSR's output count");
    d.out = DeviceArray<float>(d.outputs);
    if (hocsr_kept(d.outputs, x.nnz, vlen)) {
        const int low_bits = hocsr_low_bits(d.outputs, x.nnz, vlen);
        d.kept = std::make_unique<KeptRows>(x.rows, d.outputs, x.nnz, d.ptr32.get(), d.ptr.get(), base, low_bits);
        std::int32_t* kept = d.kept->offsets();
        if (low_bits)
            d.mixed_rows = std::make_unique<AdaptiveRows>(d.outputs, vlen, kept, d.col.get(), d.val.get(), d.v.get(),
                                                          d.out.get(), d.kept->low(), low_bits);
        else if (const int grid = SharedVectorRows::grid_for_csr(d.outputs, x.nnz, vlen, kept))
            d.short_rows =
                std::make_unique<SharedVectorRows>(d.outputs, vlen, kept, d.col.get(), d.val.get(), d.v.get(), d.out.get(), grid);
        else if (adaptive_rows(d.outputs, x.nnz, vlen))
            d.mixed_rows =
                std::make_unique<AdaptiveRows>(d.outputs, vlen, kept, d.col.get(), d.val.get(), d.v.get(), d.out.get());
        else
            d.rows = std::make_unique<CsrSpmv>(d.outputs, vlen, x.nnz, kept, d.col.get(), d.val.get(), d.v.get(),
                                               d.out.get());
    }
    d.capture();
    t1.record();
    timing.upload_s = Event::seconds(t0, t1);
}

// The product's kernels on `stream`, the vector in place: the packed entries' gather, HOCSR's
// kept rows, then the rows' product.
void SptvDevice::Impl::product(cudaStream_t stream) {
    if (hot) hot->gather(v.get(), stream);
    if (kept) kept->run(stream);
    if (short_rows)
        short_rows->run(stream);
    else if (mixed_rows)
        mixed_rows->run(stream);
    else if (rows)
        rows->run(stream);
    else if (tuples && ptr32.size())
        launch_tuples(tuples, ptr32.get(), col.get(), val.get(), v.get(), block_base.get(), out.get(), stream);
    else if (tuples)
        launch_tuples(tuples, ptr.get(), col.get(), val.get(), v.get(), block_base.get(), out.get(), stream);
    else if (!ell)
        check(cudaMemsetAsync(out.get(), 0, out.size() * sizeof(float), stream), "clearing the output");  // no nonzeros
    else if (outputs)
        launch_sptv_ell(outputs, 0, 0, 0, ptr.get(), ap.get(), fiber_slice.get(), col.get(), val.get(), v.get(),
                        out.get(), stream);
    check(cudaGetLastError(), "launching the SpTV kernel");
}

SptvDevice::~SptvDevice() = default;

std::uint64_t SptvDevice::outputs() const { return impl_->outputs; }
std::uint64_t SptvDevice::packed() const { return impl_->hot ? impl_->hot->hot() : 0; }
bool SptvDevice::replays() const { return impl_->graph.captured(); }

void SptvDevice::compute(const float* v, float* out, Timing& timing) {
    use_device();
    Impl& d = *impl_;
    Event t0, t1, t2, t3;
    t0.record();
    if (d.hot) {  // v lands behind the hot entries, which are gathered from it
        const std::uint64_t hot = d.hot->hot();
        check(cudaMemcpy(d.v.get() + hot, v, (d.v.size() - hot) * sizeof(float), cudaMemcpyHostToDevice),
              "copying to the device");
    } else {
        d.v.upload(v);
    }
    t1.record();
    if (d.graph.captured())
        d.graph.launch();
    else
        d.product(nullptr);
    t2.record();
    d.out.download(out);
    t3.record();
    timing = {Event::seconds(t0, t1), Event::seconds(t1, t2), Event::seconds(t2, t3)};
}

}  // namespace tscope::gpu
