// The bench harness's memory (sweep 68a A6): rows carry a dense output only where asked, one
// per mode, and TTMc with --check is refused before it starts where the serial results it keeps
// for every mode would not fit beside the tensor (23.7 GB of copies had been killed unreported).
#include <QtTest>

#include "test_support.hpp"
#include "tscope/bench/kernel_bench.hpp"
#include "tscope/bench/machine.hpp"
#include "tscope/error.hpp"
#include "tscope/formats/format_registry.hpp"

using namespace tscope;

namespace {

BenchRequest small_request(KernelKind kernel, bool keep) {
    BenchRequest r;
    r.kernel = kernel;
    r.formats = {FormatKind::COO, FormatKind::CSF};
    r.backends = {Backend::CpuRef, Backend::Omp};
    r.rank = 4;
    r.repeat = 1;
    r.keep_outputs = keep;
    return r;
}

}  // namespace

class TestKernelBench : public QObject {
    Q_OBJECT

private Q_SLOTS:
    // The format column's words: the variant in brackets, the path the engine took in parentheses.
    void formatLabelNamesVariantAndPath() {
        BenchResult r{};
        r.format = FormatKind::BCSF;
        QCOMPARE(format_label(r), std::string("B-CSF"));
        r.path = "shared tiles";
        QCOMPARE(format_label(r), std::string("B-CSF (shared tiles)"));
        QCOMPARE(format_label(r, false), std::string("B-CSF"));
        r.format = FormatKind::COO, r.variant = "sm", r.path.clear();
        QCOMPARE(format_label(r), std::string("COO [sm]"));
    }

    void rowsCarryAnOutputOnlyWhereAsked_data() {
        QTest::addColumn<int>("kernel");
        QTest::addRow("MTTKRP") << static_cast<int>(KernelKind::MTTKRP);
        QTest::addRow("TTMc") << static_cast<int>(KernelKind::TTMc);
    }
    void rowsCarryAnOutputOnlyWhereAsked() {
        QFETCH(int, kernel);
        const CooTensor t = tstest::random_tensor({30, 20, 10}, 500, 5);
        for (bool keep : {false, true}) {
            const std::vector<BenchResult> rows = run_bench(t, small_request(static_cast<KernelKind>(kernel), keep));
            QCOMPARE(rows.size(), std::size_t{2 * 2 * 3});  // formats x backends x modes
            std::vector<int> with_output(3, 0);
            for (const BenchResult& r : rows) {
                QVERIFY2(r.ran, r.error.c_str());
                if (r.output.data.empty()) continue;
                ++with_output[static_cast<std::size_t>(r.mode)];
                QCOMPARE(r.output.rows, t.dim(r.mode));
            }
            for (int m = 0; m < 3; ++m) QCOMPARE(with_output[static_cast<std::size_t>(m)], keep ? 1 : 0);
        }
    }

    // Each mode's output alone fits (a third of memory), all of them kept at once do not.
    void ttmcCheckCountsEverySerialResult() {
        const std::uint64_t memory = physical_memory_bytes();
        const std::uint64_t rank = 32, cols = rank * rank * rank;  // order 4: R^3 columns a mode
        const std::uint64_t dim = memory / 3 / (cols * 8);
        const CooTensor t = tstest::random_tensor({dim, dim, dim, dim}, 100, 6);
        BenchRequest r = small_request(KernelKind::TTMc, false);
        r.formats = {FormatKind::COO};
        r.backends = {Backend::Omp};
        r.rank = rank;
        r.check = true;
        try {
            run_bench(t, r);
            QFAIL("not refused");
        } catch (const InputError& e) {
            QVERIFY2(std::string(e.what()).find("TTMc at rank 32 with --check") == 0, e.what());
        }
    }

    // TTMc builds HLS with SpTTMChain's own threshold (61, hls Sec. VII-A3), MTTKRP with 78: a
    // tile of 70 nonzeros is dense for the first and sparse for the second, so TTMc's bytes
    // follow the 61 build's storage; --hls-threshold sets both (audit 74b F6).
    void ttmcBuildsHlsWithItsOwnThreshold() {
        CooTensor t({16, 16, 16});  // one 16^3 tile
        t.resize(70);
        for (std::uint64_t z = 0; z < 70; ++z) {
            const std::uint64_t at[3] = {z % 16, (z / 16) % 16, z % 7};
            t.set(z, std::span<const std::uint64_t>(at, 3), 1.0 + static_cast<double>(z));
        }
        const FormatOptions dflt;
        QCOMPARE(dflt.hls_threshold, std::uint64_t{78});
        QCOMPARE(dflt.hls_ttmc_threshold, std::uint64_t{61});
        FormatOptions at61 = dflt, at78 = dflt;
        at61.hls_threshold = 61;
        const std::uint64_t dense = build_format(FormatKind::HLS, t, at61)->storage().bytes();
        const std::uint64_t sparse = build_format(FormatKind::HLS, t, at78)->storage().bytes();
        QVERIFY(dense != sparse);  // the threshold changes what HLS stores here
        BenchRequest r = small_request(KernelKind::TTMc, false);
        r.formats = {FormatKind::HLS};
        r.backends = {Backend::Omp};
        r.modes = {0};
        const BenchResult by_default = run_bench(t, r).front();
        r.options.hls_ttmc_threshold = 78;  // as --hls-threshold 78 sets it
        const BenchResult by_78 = run_bench(t, r).front();
        QVERIFY2(by_default.ran && by_78.ran, by_default.error.c_str());
        QCOMPARE(static_cast<std::int64_t>(by_default.bytes_moved) - static_cast<std::int64_t>(by_78.bytes_moved),
                 static_cast<std::int64_t>(dense) - static_cast<std::int64_t>(sparse));
    }
};

QTEST_APPLESS_MAIN(TestKernelBench)
#include "test_kernel_bench.moc"
