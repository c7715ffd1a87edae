// Issue 15 on whatever GPUs this machine has. N parts on one GPU run the multi-GPU code as on
// N GPUs (the same cuts, builds and combination, with copies where NCCL would move the data);
// where the machine has two GPUs or more, the same checks run through NCCL. Then CPD over
// parts against one part, and the streamed CPD (a tensor copied through the GPU in chunks)
// against the resident one. Skips, saying why, without a GPU.
#include <map>

#include "test_support.hpp"
#include "tscope/bench/kernel_bench.hpp"
#include "tscope/decomp/cpd_als.hpp"
#include "tscope/io/tensor_io.hpp"
#include "tscope/kernels/mttkrp.hpp"
#include "tscope/kernels/mttkrp_multi_gpu.hpp"

using namespace tscope;

namespace {

const char* kFormats[] = {"COO", "CSF", "B-CSF", "MM-CSF"};

std::vector<DenseMatrix> factors_for(const CooTensor& t, std::uint64_t R) {
    std::vector<DenseMatrix> f;
    for (int m = 0; m < t.order(); ++m) f.push_back(random_matrix(t.dim(m), R, 7 + std::uint64_t(m)));
    return f;
}

// Every mode's MTTKRP over `parts_on` against cpu-ref and against one part (fp32: 1e-4).
void check_mttkrp(const CooTensor& t, FormatKind format, const std::vector<int>& parts_on) {
    const std::uint64_t R = 16;
    const auto factors = factors_for(t, R);
    MultiGpuMttkrp one(t, format, 1);
    MultiGpuMttkrp many(t, format, 0, parts_on);
    QCOMPARE(many.parts(), int(parts_on.size()));
    for (const auto& per : many.part_nnz()) {  // every nonzero in one part
        std::uint64_t sum = 0;
        for (auto n : per) sum += n;
        QCOMPARE(sum, t.nnz());
    }
    for (int m = 0; m < t.order(); ++m) {
        DenseMatrix ref(t.dim(m), R), a(t.dim(m), R), b(t.dim(m), R);
        mttkrp_reference(t, m, factors, ref);
        MultiGpuTiming timing;
        one.run(m, factors, a);
        many.run(m, factors, b, &timing);
        QVERIFY2(max_relative_error(b, ref) <= 1e-4, qPrintable(QString("mode %1 against cpu-ref: %2").arg(m + 1).arg(max_relative_error(b, ref))));
        QVERIFY2(max_relative_error(b, a) <= 1e-4, qPrintable(QString("mode %1 against one part: %2").arg(m + 1).arg(max_relative_error(b, a))));
        QVERIFY(timing.kernel_s > 0);
        if (parts_on.size() > 1) QVERIFY(timing.collective_s > 0);
    }
}

// Data rows: every shared tensor with every format.
void shared_rows(std::initializer_list<const char*> files) {
    QTest::addColumn<QString>("file");
    QTest::addColumn<QString>("format");
    for (const char* file : files)
        for (const char* f : kFormats) QTest::addRow("%s %s", file, f) << QString(file) << QString(f);
}

std::vector<int> own_gpus(int n) {
    std::vector<int> s;
    for (int d = 0; d < n; ++d) s.push_back(d);
    return s;
}

}  // namespace

class TestMultiGpuCuda : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { TS_REQUIRE_GPU(); }

    void partsOnOneGpu_data() {
        QTest::addColumn<int>("order");
        QTest::addColumn<int>("parts");
        QTest::addColumn<QString>("format");
        for (int order : {3, 4, 5})
            for (int parts : {2, 3})
                for (const char* f : kFormats) QTest::addRow("order %d, %d parts, %s", order, parts, f) << order << parts << QString(f);
    }
    void partsOnOneGpu() {
        QFETCH(int, order);
        QFETCH(int, parts);
        QFETCH(QString, format);
        std::vector<std::uint64_t> dims(static_cast<std::size_t>(order), 25);
        dims[0] = 300;
        const CooTensor t = tstest::random_tensor(dims, 20000, std::uint64_t(order * 11 + parts), Distribution::PowerLaw);
        check_mttkrp(t, parse_format(format.toStdString()), std::vector<int>(std::size_t(parts), 0));
    }

    void partsOnTheSharedTensors_data() { shared_rows({"movielens-100k.tns", "lastfm-tags.tns", "jf17k-4d.tns"}); }
    void partsOnTheSharedTensors() {
        QFETCH(QString, file);
        QFETCH(QString, format);
        const std::string path = tstest::shared_tensor(file.toStdString().c_str());
        if (path.empty()) QSKIP("../shared/data is absent (a fresh clone): skipped");
        const CooTensor t = load_tensor(path).tensor;
        check_mttkrp(t, parse_format(format.toStdString()), {0, 0, 0});
        if (query_gpu().count >= 2) check_mttkrp(t, parse_format(format.toStdString()), own_gpus(query_gpu().count));
    }

    void partsOnTheirOwnGpus_data() {
        QTest::addColumn<QString>("format");
        for (const char* f : kFormats) QTest::addRow("%s", f) << QString(f);
    }
    void partsOnTheirOwnGpus() {
        QFETCH(QString, format);
        if (query_gpu().count < 2) QSKIP("one GPU here: NCCL across GPUs needs two (the parts-on-one-GPU cases ran)");
        for (int order : {3, 4, 5}) {
            std::vector<std::uint64_t> dims(static_cast<std::size_t>(order), 25);
            dims[0] = 300;
            const CooTensor t = tstest::random_tensor(dims, 20000, std::uint64_t(order), Distribution::PowerLaw);
            check_mttkrp(t, parse_format(format.toStdString()), own_gpus(query_gpu().count));
        }
    }

    // bench --gpus: a format without a multi-GPU build is its own row, the others run.
    void benchRefusesAFormatInItsRow() {
        const CooTensor t = tstest::random_tensor({60, 50, 40}, 3000, 2);
        BenchRequest request;
        request.backends = {Backend::Cuda};
        request.formats = {FormatKind::HiCOO, FormatKind::CSF};
        request.rank = 8, request.repeat = 1, request.check = true, request.gpus = 1;
        const std::vector<BenchResult> rows = run_bench(t, request);
        QCOMPARE(rows.size(), std::size_t{6});
        for (const BenchResult& r : rows) {
            QCOMPARE(r.gpus, 1);
            if (r.format == FormatKind::HiCOO) {
                QVERIFY(!r.ran);
                QVERIFY2(r.error.find("no multi-GPU build for HiCOO") != std::string::npos, r.error.c_str());
            } else {
                QVERIFY2(r.ran && r.max_rel_error && *r.max_rel_error <= 1e-4, r.error.c_str());
            }
        }
    }

    // Parts whose trees take the shared-memory tiles (forced): the MTTKRP still matches cpu-ref,
    // the bench's row names the path, and its minimum bytes are the formats' arrays, not the
    // tiles kept beside them (the same as with the tiles off).
    void partsOverTiles() {
        const CooTensor t = tstest::random_tensor({3000, 1500, 5000}, 200000, 81, Distribution::PowerLaw);
        const int cc = query_gpu().cc_major;
        const bool tiles = cc == 9 || cc == 10;  // 192 KiB of shared memory a block
        BenchRequest request;
        request.backends = {Backend::Cuda};
        request.formats = {FormatKind::CSF};
        request.modes = {0};
        request.rank = 32, request.repeat = 1, request.check = true, request.gpus = 2;
        request.gpu_slots = {0, 0};  // two parts on one GPU
        std::uint64_t without = 0;
        {
            const tstest::ScopedEnv off("TENSORSCOPE_FIBER_TILES", "0");
            const std::vector<BenchResult> rows = run_bench(t, request);
            QCOMPARE(rows.size(), std::size_t{1});
            QVERIFY(rows[0].path.empty());
            without = rows[0].bytes_moved;
        }
        const tstest::ScopedEnv on("TENSORSCOPE_FIBER_TILES", "1");
        const std::vector<BenchResult> rows = run_bench(t, request);
        QCOMPARE(rows.size(), std::size_t{1});
        const BenchResult& r = rows[0];
        QVERIFY2(r.ran && r.max_rel_error && *r.max_rel_error <= 1e-4, r.error.c_str());
        QCOMPARE(r.path, std::string(tiles ? "shared tiles" : ""));
        QCOMPARE(r.bytes_moved, without);
        MultiGpuMttkrp mg(t, FormatKind::CSF, 0, {0, 0});
        QCOMPARE(mg.tile_nonzeros(0, 32), tiles ? t.nnz() : 0);
        QCOMPARE(mg.tile_nonzeros(0, 8), std::uint64_t{0});
    }

    // bench --gpus builds CSF's and B-CSF's trees in the GPU's level order at its rank, as a
    // one-GPU row does: a 1,000-row mode at the leaves where the other factors are past L2
    // (modes 1 and 3), SPLATT's order on mode 2 (rooted at the short mode) and without a rank;
    // MM-CSF's partitions with that mode just above the leaves of modes 1 and 3 (the rows' cuts
    // then at the new roots). Every row still matches cpu-ref over two parts.
    void benchOverPartsTakesTheGpuLevelOrder() {
        const CooTensor t = tstest::random_tensor({2'000'000, 1'000, 1'500'000}, 50000, 29);
        BenchRequest request;
        request.backends = {Backend::Cuda};
        request.formats = {FormatKind::CSF, FormatKind::BCSF, FormatKind::MMCSF};
        request.rank = 32, request.repeat = 1, request.check = true, request.gpus = 2;
        request.gpu_slots = {0, 0};
        const std::vector<BenchResult> rows = run_bench(t, request);
        QCOMPARE(rows.size(), std::size_t{9});
        const std::map<int, std::string> moved = {{0, "levels 1,3,2"}, {2, "levels 3,1,2"}};
        for (const BenchResult& r : rows) {
            const std::string what =
                std::string(format_name(r.format)) + " mode " + std::to_string(r.mode) + " " + r.path;
            QVERIFY2(r.ran && r.max_rel_error && *r.max_rel_error <= 1e-4, (what + " " + r.error).c_str());
            if (r.format == FormatKind::MMCSF)
                QVERIFY2(r.path.find("partitions' levels 3,2,1; 3,1,2; 1,2,3") != std::string::npos, what.c_str());
            else if (moved.count(r.mode))
                QVERIFY2(r.path.find(moved.at(r.mode)) != std::string::npos, what.c_str());
            else
                QVERIFY2(r.path.find("levels") == std::string::npos, what.c_str());
        }
        MultiGpuMttkrp ranked(t, FormatKind::BCSF, 0, {0, 0}, no_control(), 32);
        QCOMPARE(ranked.tree_order(0), (std::vector<int>{0, 2, 1}));
        QCOMPARE(ranked.tree_order(1), (std::vector<int>{1, 2, 0}));
        QVERIFY(ranked.partition_orders().empty());
        MultiGpuMttkrp unranked(t, FormatKind::BCSF, 0, {0, 0});
        QCOMPARE(unranked.tree_order(0), (std::vector<int>{0, 1, 2}));
        QVERIFY(MultiGpuMttkrp(t, FormatKind::COO, 1).tree_order(0).empty());
        MultiGpuMttkrp mmcsf(t, FormatKind::MMCSF, 0, {0, 0}, no_control(), 32);
        QCOMPARE(mmcsf.partition_orders(), (std::vector<std::vector<int>>{{2, 1, 0}, {2, 0, 1}, {0, 1, 2}}));
        QCOMPARE(MultiGpuMttkrp(t, FormatKind::MMCSF, 0, {0, 0}).partition_orders(),
                 (std::vector<std::vector<int>>{{1, 2, 0}, {2, 0, 1}, {1, 0, 2}}));  // the paper's, without a rank
    }

    void tooManyGpusIsRefused() {
        const CooTensor t = tstest::random_tensor({30, 30, 30}, 500, 1);
        const int n = query_gpu().count;
        QVERIFY_THROWS_EXCEPTION(InputError, MultiGpuMttkrp(t, FormatKind::CSF, n + 1));
        QVERIFY_THROWS_EXCEPTION(InputError, MultiGpuMttkrp(t, FormatKind::CSF, 0, {0, n}));
        QVERIFY_THROWS_EXCEPTION(InputError, MultiGpuMttkrp(t, FormatKind::HiCOO, 1));
        CpdOptions o;
        o.backend = Backend::Cuda, o.gpus = n + 1;
        QVERIFY_THROWS_EXCEPTION(InputError, cpd_als(t, o));
    }

    // N-part CPD against one part: the same fit within 1e-5 after 10 iterations, same seed.
    void cpdOverParts_data() { shared_rows({"movielens-100k.tns", "jf17k-4d.tns"}); }
    void cpdOverParts() {
        QFETCH(QString, file);
        QFETCH(QString, format);
        const std::string path = tstest::shared_tensor(file.toStdString().c_str());
        if (path.empty()) QSKIP("../shared/data is absent (a fresh clone): skipped");
        const CooTensor t = load_tensor(path).tensor;
        CpdOptions o;
        o.rank = 16, o.max_iters = 10, o.tolerance = 0, o.backend = Backend::Cuda, o.format = parse_format(format.toStdString());
        const CpdResult one = cpd_als(t, o);
        std::vector<std::vector<int>> layouts{{0, 0}, {0, 0, 0}};
        if (query_gpu().count >= 2) layouts.push_back(own_gpus(query_gpu().count));
        for (const auto& parts_on : layouts) {
            o.gpu_slots = parts_on;
            const CpdResult many = cpd_als(t, o);
            QCOMPARE(many.gpus, int(parts_on.size()));
            QCOMPARE(many.iterations.size(), std::size_t{10});
            QVERIFY2(std::fabs(many.fit - one.fit) <= 1e-5,
                     qPrintable(QString("%1 parts: fit %2, one part %3").arg(parts_on.size()).arg(many.fit, 0, 'g', 10).arg(one.fit, 0, 'g', 10)));
            for (const auto& per : many.gpu_nnz) {
                std::uint64_t sum = 0;
                for (auto n : per) sum += n;
                QCOMPARE(sum, t.nnz());
            }
            QVERIFY(many.collective_seconds > 0);
        }
    }

    // The row-split dense steps: each part solves, normalises and forms the Gram of its own
    // rows, and the factors come back gathered from every part. The factors a run returns give
    // the fit it reports (brute force over every cell), which fails if a part's rows were stale,
    // missing or counted twice; orders 3 and 4, rows owned by cuts (CSF, B-CSF) or by an even
    // split after a reduce-scatter (COO, MM-CSF), and a part that owns no rows of a short mode.
    void cpdOverPartsReturnsEveryRow_data() {
        QTest::addColumn<QString>("format");
        for (const char* f : kFormats) QTest::addRow("%s", f) << QString(f);
    }
    void cpdOverPartsReturnsEveryRow() {
        QFETCH(QString, format);
        for (const auto& dims : {std::vector<std::uint64_t>{30, 40, 25}, std::vector<std::uint64_t>{12, 9, 3, 8}}) {
            const CooTensor t = tstest::random_tensor(dims, 1500, 21);
            CpdOptions o;
            o.rank = 6, o.max_iters = 8, o.tolerance = 0, o.backend = Backend::Cuda, o.format = parse_format(format.toStdString());
            const CpdResult one = cpd_als(t, o);
            o.gpu_slots = {0, 0, 0, 0, 0};
            const CpdResult many = cpd_als(t, o);
            const double dense = cpd_dense_fit(t, many.factors, many.lambda);
            QVERIFY2(std::fabs(many.fit - dense) <= 1e-4,
                     qPrintable(QString("order %1: reported fit %2, the factors' fit %3").arg(t.order()).arg(many.fit, 0, 'g', 10).arg(dense, 0, 'g', 10)));
            QVERIFY2(std::fabs(many.fit - one.fit) <= 1e-5,
                     qPrintable(QString("order %1: 5 parts %2, one part %3").arg(t.order()).arg(many.fit, 0, 'g', 10).arg(one.fit, 0, 'g', 10)));
        }
    }

    // The streamed CPD (forced, in small chunks so that there are many) against the resident
    // one: the same fit within 1e-5 after 10 iterations, the timeline measured.
    void streamedCpd_data() { shared_rows({"movielens-100k.tns", "lastfm-tags.tns", "jf17k-4d.tns"}); }
    void streamedCpd() {
        QFETCH(QString, file);
        QFETCH(QString, format);
        const std::string path = tstest::shared_tensor(file.toStdString().c_str());
        if (path.empty()) QSKIP("../shared/data is absent (a fresh clone): skipped");
        const CooTensor t = load_tensor(path).tensor;
        CpdOptions o;
        o.rank = 16, o.max_iters = 10, o.tolerance = 0, o.backend = Backend::Cuda, o.format = parse_format(format.toStdString());
        const CpdResult resident = cpd_als(t, o);
        QVERIFY(!resident.streaming);
        o.stream = true, o.streams = 3, o.chunk_bytes = 64 << 10;
        const CpdResult streamed = cpd_als(t, o);
        QVERIFY(streamed.streaming.has_value());
        const CpdStreaming& s = *streamed.streaming;
        QVERIFY2(std::fabs(streamed.fit - resident.fit) <= 1e-5,
                 qPrintable(QString("streamed fit %1, resident %2").arg(streamed.fit, 0, 'g', 10).arg(resident.fit, 0, 'g', 10)));
        QVERIFY(s.chunks > std::uint64_t(t.order()));
        QVERIFY(s.bytes_per_iteration >= s.tensor_bytes);
        QVERIFY(s.copy_rate > 0 && s.copy_s > 0 && s.kernel_s > 0);
        QVERIFY(!s.timeline.empty());
        for (const PipelineChunk& c : s.timeline) QVERIFY(c.in_start <= c.in_end && c.in_end <= c.kernel_end);
    }

    // A memory limit below what the resident build needs makes the run stream by itself.
    void aMemoryLimitStreams() {
        const CooTensor t = tstest::random_tensor({20000, 3000, 2000}, 12000000, 5, Distribution::PowerLaw);
        CpdOptions o;
        o.rank = 16, o.max_iters = 3, o.tolerance = 0, o.backend = Backend::Cuda, o.format = FormatKind::BCSF;
        const CpdResult resident = cpd_als(t, o);
        o.gpu_memory_limit = 320ull << 20;  // the COO and its sort alone take 432 MB
        CpdResult streamed;
        try {
            streamed = cpd_als(t, o);
        } catch (const std::exception& e) {
            QFAIL(e.what());
        }
        QVERIFY(streamed.streaming.has_value());
        QVERIFY(!streamed.streaming->reason.empty());
        QVERIFY2(std::fabs(streamed.fit - resident.fit) <= 1e-5,
                 qPrintable(QString("streamed fit %1, resident %2").arg(streamed.fit, 0, 'g', 10).arg(resident.fit, 0, 'g', 10)));
        QVERIFY(streamed.peak_device_bytes <= o.gpu_memory_limit);
    }
};

QTEST_APPLESS_MAIN(TestMultiGpuCuda)
#include "test_multi_gpu_cuda.moc"
