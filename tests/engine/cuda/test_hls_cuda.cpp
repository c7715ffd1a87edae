// HLS on the GPU (hls Alg. 1-2): dense tiles on the tensor cores (fp16 in, fp32 accumulate),
// the sparse part on CUDA cores (MTTKRP's on the COO kernels, TTMc's on the COO TTMc's peers
// kernel, either on the paper's element-wise kernel where it is forced). MTTKRP and TTMc against the fp64 oracle: the SMAPE of hls
// Eq. 17 stays under 0.5% for every threshold (all tiles dense, the paper's 78, all sparse),
// on a block-clustered and a uniform tensor and on the real order-3 tensors. Skips, saying
// why, where there is no GPU.
#include <cmath>

#include "test_support.hpp"
#include "tscope/formats/format.hpp"
#include "tscope/formats/hls_format.hpp"
#include "tscope/io/tensor_io.hpp"
#include "tscope/kernels/mttkrp.hpp"
#include "tscope/kernels/ttmc.hpp"

using namespace tscope;

namespace {

CooTensor blocked(std::vector<std::uint64_t> dims = {96, 80, 64}, std::uint64_t nnz = 30000, std::uint64_t blocks = 12,
                  std::uint64_t edge = 16, std::uint64_t seed = 3) {
    GeneratorSpec spec;
    spec.dims = std::move(dims);
    spec.nnz = nnz;
    spec.distribution = Distribution::Blocks;
    spec.blocks = blocks, spec.block_edge = edge, spec.seed = seed;
    return generate_tensor(spec);
}

// Entry by entry: |out - ref| <= 1e-5 |ref| + 1e-6 max|ref| (a nonzero lost from a light row shows
// here, where max_relative_error's scale is the heaviest row's).
bool close_everywhere(const DenseMatrix& out, const DenseMatrix& ref) {
    double top = 0;
    for (double v : ref.data) top = std::max(top, std::fabs(v));
    for (std::size_t i = 0; i < ref.data.size(); ++i)
        if (std::fabs(out.data[i] - ref.data[i]) > 1e-5 * std::fabs(ref.data[i]) + 1e-6 * top) return false;
    return true;
}

void check(const CooTensor& t, std::uint64_t threshold, const char* what) {
    FormatOptions o;
    o.hls_threshold = threshold;
    const auto hls = build_format(FormatKind::HLS, t, o);
    double worst = 0;
    // rank 6 runs the COO warp kernel on the sparse part, 8 and 32 its team kernels
    for (std::uint64_t rank : {6, 8, 32}) {
        const auto factors = tstest::random_factors(t, {rank}, 5);
        for (int mode = 0; mode < 3; ++mode) {
            DenseMatrix ref(t.dim(mode), rank), out(t.dim(mode), rank);
            mttkrp_reference(t, mode, factors, ref);
            DeviceTiming timing;
            mttkrp(Backend::Cuda, *hls, mode, factors, out, no_control(), &timing);
            const double s = smape_percent(out, ref);
            worst = std::max(worst, s);
            QVERIFY2(s < 0.5, qPrintable(QString("%1 MTTKRP threshold %2 rank %3 mode %4: SMAPE %5%").arg(what).arg(threshold).arg(rank).arg(mode + 1).arg(s)));
            QVERIFY(max_relative_error(out, ref) < 1e-2);
            // all sparse: no fp16 tile, only the sparse kernels' fp32 sums, added in fp32 copies or fp64
            if (threshold > kHlsTileCells)
                QVERIFY2(close_everywhere(out, ref),
                         qPrintable(QString("%1 all sparse, rank %2 mode %3").arg(what).arg(rank).arg(mode + 1)));
            QVERIFY(timing.kernel_s > 0);
        }
    }
    for (std::uint64_t rank : {4, 8}) {  // TTMc: R^2 = 16, 64 columns
        const auto factors = tstest::random_factors(t, {rank}, 9);
        for (int mode = 0; mode < 3; ++mode) {
            DenseMatrix ref(t.dim(mode), ttmc_columns(factors, mode)), out(t.dim(mode), ttmc_columns(factors, mode));
            ttmc_reference(t, mode, factors, ref);
            ttmc(Backend::Cuda, *hls, mode, factors, out);
            const double s = smape_percent(out, ref);
            worst = std::max(worst, s);
            if (threshold > kHlsTileCells)
                QVERIFY2(close_everywhere(out, ref),
                         qPrintable(QString("%1 TTMc all sparse, mode %2").arg(what).arg(mode + 1)));
            QVERIFY2(s < 0.5, qPrintable(QString("%1 TTMc threshold %2 rank %3 mode %4: SMAPE %5%").arg(what).arg(threshold).arg(rank).arg(mode + 1).arg(s)));
        }
    }
    qInfo("%s, threshold %llu: worst SMAPE %.4f%%", what, static_cast<unsigned long long>(threshold), worst);
}

}  // namespace

class TestHlsCuda : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { TS_REQUIRE_GPU(); }

    void smapeIsTheFormulaOfEq17() {
        DenseMatrix a(1, 3), b(1, 3);
        a.data[0] = 1, a.data[1] = 2, a.data[2] = 0;
        b.data[0] = 1, b.data[1] = 1, b.data[2] = 0;
        QCOMPARE(smape_percent(a, b), 100.0 / 3 * (1.0 / 3.0));  // |2-1| / (2+1), the others 0
    }

    void blockedTensor() {
        const CooTensor t = blocked();
        for (std::uint64_t threshold : {1, 78, 4097}) check(t, threshold, "blocked");
    }

    // Past 4,096 dense tiles a warp takes all of a tile's column chunks, loading it once
    // (gpu_hls.cu, kTilesForWholeWarps): threshold 1 makes every non-empty tile dense.
    void manyDenseTilesOneWarpEach() {
        const CooTensor t = blocked({4000, 4000, 4000}, 100000, 800, 32, 11);
        FormatOptions o;
        o.hls_threshold = 1;
        const auto built = build_format(FormatKind::HLS, t, o);
        const auto* hls = dynamic_cast<const HlsFormat<std::uint32_t, double>*>(built.get());
        QVERIFY(hls != nullptr);
        QVERIFY2(hls->tiles() >= 4096, qPrintable(QString::number(hls->tiles())));
        check(t, 1, "4,096 dense tiles and more");
    }

    void uniformTensor() {
        const CooTensor t = tstest::random_tensor({70, 60, 50}, 20000, 4, Distribution::Uniform);
        for (std::uint64_t threshold : {1, 78}) check(t, threshold, "uniform");
    }

    // Power-law modes: the sparse part's heavy rows take thousands of adds each, which the COO
    // kernels spread over several fp32 output copies (gpu_mttkrp.cu, copies_for).
    void powerLawTensor() {
        const CooTensor t = tstest::random_tensor({300, 400, 500}, 60000, 8, Distribution::PowerLaw);
        for (std::uint64_t threshold : {78, 4097}) check(t, threshold, "power-law");
    }

    // A power-law part of 120,000 nonzeros, whose heaviest rows take 12-14K nonzeros each: more
    // output copies than powerLawTensor's (session 76 kept it for the small-part rule, gone since).
    void largerPowerLawTensor() {
        check(tstest::random_tensor({300, 400, 500}, 120000, 8, Distribution::PowerLaw), 4097, "power-law, 120,000");
    }

    // The paper's element-wise kernel, forced for the sparse part (MTTKRP's and TTMc's) as the
    // bench's comparisons do.
    void elementWiseSparsePart() {
        const tstest::ScopedEnv env("TENSORSCOPE_HLS_SPARSE", "element");
        check(tstest::random_tensor({300, 400, 500}, 60000, 8, Distribution::PowerLaw), 78, "power-law, element-wise");
    }

    void realTensors() {  // by default and on the element-wise kernel
        for (const char* name : {"movielens-100k.tns", "lastfm-tags.tns"}) {
            const std::string path = tstest::shared_tensor(name);
            if (path.empty()) QSKIP("../shared/data is absent: skipped");
            const CooTensor t = load_tensor(path).tensor;
            check(t, 78, name);
            const tstest::ScopedEnv env("TENSORSCOPE_HLS_SPARSE", "element");
            check(t, 78, name);
        }
    }
};

QTEST_APPLESS_MAIN(TestHlsCuda)
#include "test_hls_cuda.moc"
