// The kernel registry against the code it describes: every registered (kernel, backend,
// format) entry runs through the bench harness and is compared with cpu-ref, so an entry
// added to a register_K_kernels function is tested here without anyone listing it, and an
// entry whose kernel or oracle comparison is missing fails.
#include <QtTest>
#include <set>

#include "test_support.hpp"
#include "tscope/bench/kernel_bench.hpp"
#include "tscope/cuda/device.hpp"
#include "tscope/decomp/cpd_als.hpp"
#include "tscope/error.hpp"
#include "tscope/io/tensor_io.hpp"
#include "tscope/kernels/kernel_registry.hpp"

using namespace tscope;

namespace {

double tolerance(const KernelEntry& e) {
    if (e.backend != Backend::Cuda) return 1e-8;
    return e.format == FormatKind::HLS ? 1e-2 : 1e-4;  // fp16 tensor cores; fp32 elsewhere
}

// Runs one entry on every mode with --check; `ran` counts the rows that ran.
void run_entry(const CooTensor& t, const KernelEntry& e, const QString& what, int& ran) {
    BenchRequest r;
    r.kernel = e.kernel;
    r.formats = {e.format};
    r.backends = {e.backend};
    r.rank = 4;
    r.repeat = 1;
    r.check = true;
    r.options.bcsf_fiber_threshold = 3;  // split fibers even on small tensors
    ran = 0;
    for (const BenchResult& row : run_bench(t, r)) {
        const QString where = QString("%1: %2 %3 on %4, mode %5")
                                  .arg(what, kernel_name(e.kernel), backend_name(e.backend), format_name(e.format))
                                  .arg(row.mode + 1);
        if (!row.ran) {  // the refusals a registered entry may give: HLS is third-order only, and HOCSR /
                         // HOCFS-ELL refuse shapes past their stated storage limits
            const bool allowed = (e.format == FormatKind::HLS && t.order() != 3) || row.error.find("limit") != std::string::npos;
            QVERIFY2(allowed, qPrintable(where + ": did not run: " + row.error.c_str()));
            continue;
        }
        QVERIFY2(row.max_rel_error.has_value(), qPrintable(where + ": no comparison with cpu-ref"));
        QVERIFY2(*row.max_rel_error <= tolerance(e),
                 qPrintable(where + QString(": error %1 against cpu-ref").arg(*row.max_rel_error)));
        ++ran;
    }
}

bool runnable_here(const KernelEntry& e) { return e.backend != Backend::Cuda || query_gpu().available; }

}  // namespace

class TestKernelRegistry : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void namesRoundTrip() {
        for (KernelKind k : all_kernels()) QCOMPARE(parse_kernel(kernel_name(k)), k);
        QVERIFY_THROWS_EXCEPTION(InputError, parse_kernel("spmv"));
        std::set<std::tuple<int, int, int>> seen;
        for (const KernelEntry& e : kernel_entries()) {
            QVERIFY2(seen.insert({int(e.kernel), int(e.backend), int(e.format)}).second, "an entry registered twice");
            QVERIFY(kernel_supports(e.kernel, e.backend, e.format));
        }
    }

    // kernel_formats is the registry's view in display order, and nothing else.
    void formatListsFollowTheRegistry() {
        for (KernelKind k : all_kernels())
            for (Backend b : {Backend::CpuRef, Backend::Omp, Backend::Cuda}) {
                std::size_t n = 0;
                for (const KernelEntry& e : kernel_entries()) n += e.kernel == k && e.backend == b;
                const auto kinds = kernel_formats(k, b);
                QCOMPARE(kinds.size(), n);
                for (std::size_t i = 1; i < kinds.size(); ++i) QVERIFY(int(kinds[i - 1]) < int(kinds[i]));
            }
        QVERIFY(!kernel_supports(KernelKind::MTTKRP, Backend::Omp, FormatKind::CFB));
        QVERIFY(!kernel_supports(KernelKind::SpTTM, Backend::Omp, FormatKind::CSF));
        QVERIFY(kernel_formats(KernelKind::MTTKRP, Backend::CpuRef).size() == available_formats().size());
        if (!cuda_built()) QVERIFY(kernel_formats(KernelKind::MTTKRP, Backend::Cuda).empty());
        // CPD offers exactly the formats MTTKRP runs on
        QCOMPARE(cpd_formats(Backend::Omp), kernel_formats(KernelKind::MTTKRP, Backend::Omp));
    }

    void everyEntryMatchesTheOracle_data() {
        QTest::addColumn<int>("order");
        for (int order : {3, 4}) QTest::addRow("order %d", order) << order;
    }
    void everyEntryMatchesTheOracle() {
        QFETCH(int, order);
        const std::vector<std::uint64_t> dims = order == 3 ? std::vector<std::uint64_t>{19, 23, 17}
                                                           : std::vector<std::uint64_t>{9, 11, 8, 7};
        const CooTensor t = tstest::random_tensor(dims, 600, 31 + std::uint64_t(order), Distribution::PowerLaw);
        int entries = 0, skipped = 0;
        for (const KernelEntry& e : kernel_entries()) {
            if (!runnable_here(e)) {
                ++skipped;
                continue;
            }
            int ran = 0;
            run_entry(t, e, QString("order %1").arg(order), ran);
            if (QTest::currentTestFailed()) return;
            QVERIFY2(ran > 0 || (e.format == FormatKind::HLS && order != 3),
                     qPrintable(QString("%1 %2 on %3 ran on no mode").arg(kernel_name(e.kernel), backend_name(e.backend), format_name(e.format))));
            ++entries;
        }
        qInfo("%d entries checked against cpu-ref, %d cuda entries skipped (no GPU here)", entries, skipped);
        QVERIFY(entries >= 20);
    }

    // A vector (order 1): every entry either runs and matches cpu-ref or refuses in words (the
    // tree formats need order 2, HLS order 3); none crashes (they did: CFB's and B-CSF's builds,
    // TTMc's buffer).
    // A bench says how far it is, a row at a time, against the rows it will make (the Kernels
    // tab's bar read 0% with 8 of 42 rows in, sweep 66b M2); rows refused count as made.
    void benchReportsItsRowsAsProgress() {
        const CooTensor t = tstest::random_tensor({30, 20, 10}, 500, 3);
        BenchRequest r;
        r.kernel = KernelKind::MTTKRP, r.formats = {FormatKind::COO, FormatKind::CSF, FormatKind::HLS};
        r.backends = {Backend::CpuRef, Backend::Omp}, r.rank = 2, r.repeat = 1;
        AtomicRunControl control;
        std::vector<std::pair<std::uint64_t, std::uint64_t>> seen;  // done, total as each row arrived
        r.on_result = [&](const BenchResult&) { seen.emplace_back(control.done(), control.total()); };
        const std::vector<BenchResult> rows = run_bench(t, r, control);
        QCOMPARE(rows.size(), std::size_t{3 * 2 * 3});
        QCOMPARE(seen.size(), rows.size());
        for (std::size_t i = 0; i < seen.size(); ++i) {
            QCOMPARE(seen[i].first, std::uint64_t(i + 1));
            QCOMPARE(seen[i].second, std::uint64_t(rows.size()));
        }
    }

    void orderOneTensor() {
        CooTensor t({9});
        t.resize(3);
        t.set(0, std::vector<std::uint64_t>{2}, 1.5);
        t.set(1, std::vector<std::uint64_t>{0}, 2.0);
        t.set(2, std::vector<std::uint64_t>{6}, -1.0);
        int ran = 0, refused = 0;
        for (const KernelEntry& e : kernel_entries()) {
            if (!runnable_here(e)) continue;
            BenchRequest r;
            r.kernel = e.kernel, r.formats = {e.format}, r.backends = {e.backend}, r.rank = 3, r.repeat = 1, r.check = true;
            for (const BenchResult& row : run_bench(t, r)) {
                const QString where = QString("%1 %2 on %3").arg(kernel_name(e.kernel), backend_name(e.backend), format_name(e.format));
                if (row.ran) {
                    ++ran;
                    QVERIFY2(row.max_rel_error && *row.max_rel_error <= tolerance(e), qPrintable(where));
                } else {
                    ++refused;
                    QVERIFY2(row.error.find("order") != std::string::npos, qPrintable(where + ": " + row.error.c_str()));
                }
            }
        }
        QVERIFY(ran > 0 && refused > 0);
    }

    // The real tensors too (the omp and cuda entries; the oracle against itself says nothing).
    void realTensors() {
        TS_REQUIRE_SHARED(path, "jf17k-4d.tns");
        const CooTensor t = load_tensor(path).tensor;
        for (const KernelEntry& e : kernel_entries())
            if (e.backend != Backend::CpuRef && runnable_here(e)) {
                int ran = 0;
                run_entry(t, e, "JF17K", ran);
                if (QTest::currentTestFailed()) return;
            }
    }
};

QTEST_GUILESS_MAIN(TestKernelRegistry)
#include "test_kernel_registry.moc"
