// TTMc from COO on the GPU against the CPU oracle: orders 3-5, mixed ranks, every mode, the
// real tensors, the COO sorted by the mode and by mode 1, by default and with the
// warp-per-nonzero kernel forced; relative error <= 1e-4 (fp32 inputs, fp32 sums of up to 32
// nonzeros of a row, fp64 atomics). Skips, saying why, where there is no GPU.
#include "test_support.hpp"
#include "tscope/formats/format.hpp"
#include "tscope/io/tensor_io.hpp"
#include "tscope/kernels/ttmc.hpp"

using namespace tscope;

namespace {

// The COO sorted by each mode in turn (ttmc_options), or once by mode 1 as bench builds it, so that
// the other modes' rows repeat only where they happen to among a warp's 32 nonzeros.
void check_against_oracle(const CooTensor& t, const std::vector<std::uint64_t>& ranks, bool bench_order = false) {
    const auto factors = tstest::random_factors(t, ranks, 12);
    for (int mode = 0; mode < t.order(); ++mode) {
        DenseMatrix ref(t.dim(mode), ttmc_columns(factors, mode)), out(t.dim(mode), ttmc_columns(factors, mode));
        ttmc_reference(t, mode, factors, ref);
        const auto coo =
            build_format(FormatKind::COO, t, bench_order ? FormatOptions{} : ttmc_options(t.order(), mode));
        ttmc(Backend::Cuda, *coo, mode, factors, out);
        const double err = max_relative_error(out, ref);
        QVERIFY2(err <= 1e-4, qPrintable(QString("mode %1: %2").arg(mode + 1).arg(err)));
    }
}

}  // namespace

class TestTtmcCuda : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { TS_REQUIRE_GPU(); }

    void randomTensors_data() {
        QTest::addColumn<int>("order");
        for (int order : {3, 4, 5}) QTest::addRow("order %d", order) << order;
    }
    void randomTensors() {
        QFETCH(int, order);
        std::vector<std::uint64_t> dims(static_cast<std::size_t>(order), 11);
        dims[0] = 40;
        const CooTensor t = tstest::random_tensor(dims, 3000, std::uint64_t(order), Distribution::PowerLaw);
        check_against_oracle(t, {3, 2, 4});
        check_against_oracle(t, {3, 2, 4}, true);
        check_against_oracle(tstest::random_tensor(dims, 1, 2, Distribution::Uniform), {1});  // one nonzero, rank 1
    }

    // The warp-per-nonzero kernel, forced as the bench's comparisons do
    void warpPerNonzero() {
        const tstest::ScopedEnv env("TENSORSCOPE_TTMC_KERNEL", "warp");
        check_against_oracle(tstest::random_tensor({40, 11, 11, 11}, 3000, 4, Distribution::PowerLaw), {3, 2, 4});
    }

    // The peers kernel with the order taken at run time, as above order 4, forced on orders 3-4
    void anyOrderKernel() {
        const tstest::ScopedEnv env("TENSORSCOPE_TTMC_KERNEL", "any-order");
        check_against_oracle(tstest::random_tensor({40, 11, 11}, 3000, 3, Distribution::PowerLaw), {3, 2, 4}, true);
        check_against_oracle(tstest::random_tensor({40, 11, 11, 11}, 3000, 4, Distribution::PowerLaw), {3, 2, 4}, true);
    }

    // Runs longer than a warp's 32 nonzeros (mode 1's slices hold about 3,000, spanning many
    // warps' groups, each adding its part) and a mode of 200,000 rows
    void longRunsAndManyRows() {
        check_against_oracle(tstest::random_tensor({5, 200000, 30}, 15000, 9, Distribution::Uniform), {4, 8, 2});
    }

    void realTensors() {
        for (const char* name : {"movielens-100k.tns", "lastfm-tags.tns", "jf17k-4d.tns"}) {
            const std::string path = tstest::shared_tensor(name);
            if (path.empty()) QSKIP("../shared/data is absent: skipped");
            const CooTensor t = load_tensor(path).tensor;
            check_against_oracle(t, {4, 3});
            check_against_oracle(t, {4, 3}, true);
        }
    }

    void onlyCooRunsOnTheGpu() {
        QVERIFY(kernel_supports(KernelKind::TTMc, Backend::Cuda, FormatKind::COO));
        QVERIFY(!kernel_supports(KernelKind::TTMc, Backend::Cuda, FormatKind::CSF));
        const CooTensor t = tstest::random_tensor({8, 8, 8}, 50, 1);
        const auto factors = tstest::random_factors(t, {2}, 1);
        DenseMatrix out(8, 4);
        const auto csf = build_format(FormatKind::CSF, t, ttmc_options(3, 0));
        QVERIFY_THROWS_EXCEPTION(InputError, ttmc(Backend::Cuda, *csf, 0, factors, out));
    }
};

QTEST_APPLESS_MAIN(TestTtmcCuda)
#include "test_ttmc_cuda.moc"
