// The bench's roofline: distinct rows counted as a set would, the minimum bytes of an MTTKRP
// and an SpTV row rebuilt here from their parts, and the bound and share that follow from the
// copy bandwidth measured in the same process; the peak measured, not assumed.
#include <QtTest>
#include <cmath>
#include <set>

#include "test_support.hpp"
#include "tscope/bench/kernel_bench.hpp"
#include "tscope/bench/roofline.hpp"
#include "tscope/formats/balanced_formats.hpp"
#include "tscope/formats/format.hpp"
#include "tscope/io/tensor_io.hpp"
#include "tscope/kernels/mttkrp.hpp"
#include "tscope/kernels/sptv.hpp"

using namespace tscope;

namespace {

std::uint64_t distinct_by_set(const CooTensor& t, int mode) {
    std::set<std::uint64_t> s;
    for (std::uint64_t n = 0; n < t.nnz(); ++n) s.insert(t.index(mode, n));
    return s.size();
}

// MM-CSF's row traffic for `mode`, counted from its partitioning here (each partition's nonzeros,
// and the distinct index prefixes down to the mode's level as a set counts them).
RowTraffic mmcsf_traffic_by_sets(const CooTensor& t, int mode, std::uint64_t row) {
    const std::vector<std::uint8_t> part = mmcsf_partition(t, true);
    RowTraffic expected{t.nnz() * row, 0};
    for (int p = 0; p < t.order(); ++p) {
        const std::vector<int> order = mmcsf_partition_order(t, p);
        const auto level = static_cast<std::size_t>(std::find(order.begin(), order.end(), mode) - order.begin());
        std::set<std::vector<std::uint64_t>> prefixes;
        std::uint64_t members = 0;
        for (std::uint64_t n = 0; n < t.nnz(); ++n) {
            if (part[n] != p) continue;
            ++members;
            std::vector<std::uint64_t> prefix;
            for (std::size_t l = 0; l <= level; ++l) prefix.push_back(t.index(order[l], n));
            prefixes.insert(prefix);
        }
        if (level + 1 == order.size())
            expected.gathered -= members * row, expected.added += members * row;
        else if (level > 0)
            expected.added += prefixes.size() * row;
    }
    return expected;
}

void check_bound(const BenchResult& r) {
    QVERIFY(r.ran);
    QVERIFY(r.copy_gbps > 0);
    QVERIFY(std::fabs(r.bound_s - double(r.bytes_moved) / (r.copy_gbps * 1e9)) <= 1e-12 * r.bound_s);
    QVERIFY(std::fabs(r.share_of_bound - r.bound_s / r.median_s) <= 1e-12 * r.share_of_bound);
    QVERIFY(r.peak_gflops > 0);
    QVERIFY(QString::fromStdString(r.peak_source).contains(QStringLiteral("FMA")));
}

}  // namespace

class TestRoofline : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void distinctIndicesAsASetCounts() {
        const CooTensor t = tstest::random_tensor({300, 40, 7000}, 2000, 5, Distribution::PowerLaw);
        for (int m = 0; m < 3; ++m) QCOMPARE(distinct_indices(t, m), distinct_by_set(t, m));
        CooTensor huge({1ULL << 40, 3});  // a mode far longer than the nonzeros: sorted, not marked
        huge.resize(3);
        huge.set(0, std::vector<std::uint64_t>{(1ULL << 40) - 1, 0}, 1);
        huge.set(1, std::vector<std::uint64_t>{5, 1}, 1);
        huge.set(2, std::vector<std::uint64_t>{(1ULL << 40) - 1, 2}, 1);
        QCOMPARE(distinct_indices(huge, 0), std::uint64_t{2});
        QCOMPARE(distinct_indices(huge, 1), std::uint64_t{3});
    }

    // MTTKRP: the format's bytes, each distinct row of the other factors once, the output.
    void mttkrpMinimumBytes() {
        const CooTensor t = tstest::random_tensor({500, 60, 9000}, 3000, 7, Distribution::PowerLaw);
        BenchRequest req;
        req.kernel = KernelKind::MTTKRP;
        req.formats = {FormatKind::COO, FormatKind::CSF};
        req.modes = {0, 2};
        req.rank = 8;
        req.repeat = 2;
        const auto rows = run_bench(t, req);
        QCOMPARE(rows.size(), std::size_t{4});
        for (const BenchResult& r : rows) {
            check_bound(r);
            FormatOptions o;
            o.mode = r.mode;
            const std::uint64_t format = build_format(r.format, t, o)->storage().bytes();
            std::uint64_t factors = 0;
            for (int m = 0; m < 3; ++m)
                if (m != r.mode) factors += distinct_by_set(t, m) * 8 * sizeof(double);
            QCOMPARE(r.bytes_moved, format + factors + t.dim(r.mode) * 8 * sizeof(double));
            QCOMPARE(r.gather_bytes, std::uint64_t{0});  // the gather ceiling is the GPU's
            QCOMPARE(r.gather_bound_s, 0.0);
            const double flops = 3.0 * double(t.nnz()) * 8;
            QVERIFY(std::fabs(r.intensity - flops / double(r.bytes_moved)) <= 1e-12 * r.intensity);
        }
    }

    // SpTV on cpu-ref: the format, the vector's distinct entries, the whole result.
    void sptvMinimumBytes() {
        const CooTensor t = tstest::random_tensor({50, 6000, 80}, 1500, 9);
        BenchRequest req;
        req.kernel = KernelKind::SpTV;
        req.formats = {FormatKind::COO};
        req.backends = {Backend::CpuRef};
        req.modes = {1};
        req.repeat = 1;
        const auto rows = run_bench(t, req);
        QCOMPARE(rows.size(), std::size_t{1});
        const BenchResult& r = rows.front();
        check_bound(r);
        const std::uint64_t format = build_format(FormatKind::COO, t, sptv_options(FormatKind::COO, 3, 1))->storage().bytes();
        const std::uint64_t result = sptv_reference(t, 1, std::vector<double>(t.dim(1), 1.0)).bytes();
        QCOMPARE(r.bytes_moved, format + distinct_by_set(t, 1) * sizeof(double) + result);
    }

    // The GPU's second ceiling: a factor row of R floats per nonzero, where R fills whole
    // 128-byte lines, for MTTKRP on every format but HLS and for SpTTM on COO; none elsewhere.
    void gatherBytesWhereDefined() {
        const CooTensor t = tstest::random_tensor({40, 50, 60}, 700, 3);
        QCOMPARE(gather_bytes(t, KernelKind::MTTKRP, FormatKind::BCSF, Backend::Cuda, 32), t.nnz() * 32 * 4);
        QCOMPARE(gather_bytes(t, KernelKind::MTTKRP, FormatKind::COO, Backend::Cuda, 64), t.nnz() * 64 * 4);
        QCOMPARE(gather_bytes(t, KernelKind::SpTTM, FormatKind::COO, Backend::Cuda, 32), t.nnz() * 32 * 4);
        QCOMPARE(gather_bytes(t, KernelKind::MTTKRP, FormatKind::HLS, Backend::Cuda, 32), std::uint64_t{0});
        QCOMPARE(gather_bytes(t, KernelKind::SpTTM, FormatKind::sCOO, Backend::Cuda, 32), std::uint64_t{0});
        QCOMPARE(gather_bytes(t, KernelKind::SpTV, FormatKind::COO, Backend::Cuda, 32), std::uint64_t{0});
        QCOMPARE(gather_bytes(t, KernelKind::MTTKRP, FormatKind::CSF, Backend::Cuda, 16), std::uint64_t{0});
        QCOMPARE(gather_bytes(t, KernelKind::MTTKRP, FormatKind::CSF, Backend::Omp, 32), std::uint64_t{0});
        QCOMPARE(gather_bandwidth_for(Backend::Omp), 0.0);
    }

    // MM-CSF on the GPU: a partition whose leaves are the mode adds a row a nonzero instead of
    // gathering one (mm-csf Alg. 8), one whose middle level is the mode a row a node (Alg. 7);
    // the other formats add nothing. A 4-order random tensor and JF17K (two middle levels).
    void mmcsfRowTrafficCountsItsAtomics() {
        std::vector<CooTensor> tensors;
        tensors.push_back(tstest::random_tensor({30, 8, 400, 12}, 3000, 11, Distribution::PowerLaw));
        const std::string jf17k = tstest::shared_tensor("jf17k-4d.tns");
        if (!jf17k.empty()) tensors.push_back(load_tensor(jf17k).tensor);
        for (const CooTensor& t : tensors) {
            const auto mm = build_format(FormatKind::MMCSF, t, FormatOptions{});
            std::uint64_t added_over_modes = 0;
            for (int m = 0; m < t.order(); ++m) {
                const RowTraffic got = row_traffic(t, *mm, m, KernelKind::MTTKRP, Backend::Cuda, 32);
                const RowTraffic want = mmcsf_traffic_by_sets(t, m, 128);
                QCOMPARE(got.gathered, want.gathered);
                QCOMPARE(got.added, want.added);
                added_over_modes += got.added;
            }
            QVERIFY(added_over_modes >= t.nnz() * 128);  // each nonzero sits at one partition's leaves
            const RowTraffic narrow = row_traffic(t, *mm, 0, KernelKind::MTTKRP, Backend::Cuda, 16);
            QCOMPARE(narrow.gathered + narrow.added, std::uint64_t{0});  // no whole lines: no ceiling
            const RowTraffic host = row_traffic(t, *mm, 0, KernelKind::MTTKRP, Backend::Omp, 32);
            QCOMPARE(host.gathered + host.added, std::uint64_t{0});
            FormatOptions o;
            o.mode = 1;
            const RowTraffic bcsf =
                row_traffic(t, *build_format(FormatKind::BCSF, t, o), 1, KernelKind::MTTKRP, Backend::Cuda, 32);
            QCOMPARE(bcsf.gathered, t.nnz() * 128);
            QCOMPARE(bcsf.added, std::uint64_t{0});
        }
    }

    // Over shared-memory tiles: the blocks' copies as gathers, R floats added per run; where the
    // tiles hold only some nonzeros (MM-CSF's partition rooted at the mode), those gather no row
    // and the rest keep row_traffic's count; undefined stays undefined.
    void tileRowTrafficCountsCopiesAndRuns() {
        const RowTraffic base{1000 * 128, 64 * 128};  // row_traffic's count for 1,000 nonzeros
        const RowTraffic all = tile_row_traffic(base, SharedTileTraffic{3 * 196608, 1000, 1000}, 1000, 32);
        QCOMPARE(all.gathered, std::uint64_t{589824});
        QCOMPARE(all.added, std::uint64_t{128000});
        QCOMPARE(tile_row_traffic({}, SharedTileTraffic{98304, 7, 1000}, 1000, 16).added, std::uint64_t{448});
        const RowTraffic some = tile_row_traffic(base, SharedTileTraffic{196608, 100, 600}, 1000, 32);
        QCOMPARE(some.gathered, std::uint64_t{400 * 128 + 196608});
        QCOMPARE(some.added, std::uint64_t{64 * 128 + 100 * 128});
        const RowTraffic undefined = tile_row_traffic({}, SharedTileTraffic{196608, 100, 600}, 1000, 16);
        QCOMPARE(undefined.gathered + undefined.added, std::uint64_t{0});
        BenchResult row{};
        row.ran = true, row.backend = Backend::Omp;  // no device rates here: the bound stays unset
        row.median_s = 1e-3, row.bytes_moved = 1000, row.gather_bytes = all.gathered, row.add_bytes = all.added;
        fill_roofline(row, 10, PeakFigure{5, "measured"});
        QCOMPARE(row.gather_bound_s, 0.0);
    }

    void rowsThatDidNotRunStayEmpty() {
        BenchResult r{};
        r.ran = false;
        fill_roofline(r, 10, PeakFigure{5, "measured"});
        QCOMPARE(r.intensity, 0.0);
        QCOMPARE(r.bound_s, 0.0);
        QCOMPARE(r.share_of_bound, 0.0);
    }

    void cpuPeakIsMeasured() {
        const PeakFigure p = cpu_peak();
        QVERIFY(p.gflops > 0);
        QVERIFY(QString::fromStdString(p.source).startsWith(QStringLiteral("measured")));
    }
};

QTEST_MAIN(TestRoofline)
#include "test_roofline.moc"
