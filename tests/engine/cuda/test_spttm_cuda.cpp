// The seven CUDA SpTTM kernels (spttm Sec. 4.2's five, our warp batches, cuSPARSE's SpMM) and SspTTM against the CPU oracle: fp32 on the
// device, relative error <= 1e-4, on random tensors of order 3-5 and the shared tensors.
#include <optional>

#include "test_support.hpp"
#include "tscope/cuda/device.hpp"
#include "tscope/formats/format.hpp"
#include "tscope/io/tensor_io.hpp"
#include "tscope/kernels/spttm.hpp"

using namespace tscope;
using tstest::ScopedEnv;

namespace {

// Every variant (or only `only`, where given) against the oracle on every mode.
void check_spttm(const CooTensor& t, std::uint64_t rank, std::optional<SpttmVariant> only = std::nullopt) {
    for (int mode = 0; mode < t.order(); ++mode) {
        const DenseMatrix u = random_matrix(t.dim(mode), rank, 30 + std::uint64_t(mode));
        const auto ref = spttm_reference(t, mode, u);
        const auto x = build_format(FormatKind::COO, t, spttm_options(t.order(), mode));
        for (SpttmVariant v : kSpttmVariants) {
            if (only && v != *only) continue;
            SpttmPlan plan = SpttmPlan::prepare(*x, mode, rank, Backend::Cuda, v);
            DeviceTiming timing;
            plan.compute(u, no_control(), &timing);
            plan.compute(u, no_control(), &timing);  // a second run must not accumulate onto the first
            const double err = semi_sparse_max_relative_error(plan.result(), *ref);
            QVERIFY2(err <= 1e-4, qPrintable(QString("%1 mode %2 rank %3: %4").arg(spttm_variant_name(v)).arg(mode + 1).arg(rank).arg(err)));
            QVERIFY(timing.kernel_s > 0);
        }
    }
}

// SpTTM on mode a (omp), then SspTTM on mode b on the GPU, against the oracle on Y's entries.
void check_sspttm(const CooTensor& t, std::uint64_t rank) {
    for (int a = 0; a < t.order(); ++a)
        for (int b = 0; b < t.order(); ++b) {
            if (a == b) continue;
            const auto x = build_format(FormatKind::COO, t, spttm_options(t.order(), a));
            const auto y = spttm(Backend::Omp, *x, a, random_matrix(t.dim(a), 3, 1));
            const DenseMatrix ub = random_matrix(t.dim(b), rank, 2);
            const auto z = spttm(Backend::Cuda, *y, b, ub);
            const auto ref = spttm_reference(y->to_coo(), b, ub);
            const double err = semi_sparse_max_relative_error(*z, *ref);
            QVERIFY2(err <= 1e-4, qPrintable(QString("modes %1,%2: %3").arg(a + 1).arg(b + 1).arg(err)));
        }
}

// A 61 x 1 x 2100 tensor whose first fibers (mode 3) hold `heads` nonzeros and the rest one
// each, shuffled (61 heads: no fiber of one nonzero unless named).
CooTensor fibers_of(const QList<int>& heads) {
    std::vector<std::uint64_t> lengths(61, 1);
    for (int i = 0; i < int(heads.size()); ++i) lengths[std::size_t(i)] = std::uint64_t(heads[i]);
    CooTensor t({61, 1, 2100});
    std::uint64_t total = 0;
    for (std::uint64_t len : lengths) total += len;
    t.resize(total);
    std::uint64_t z = 0;
    for (std::uint64_t i = 0; i < 61; ++i)
        for (std::uint64_t k = 0; k < lengths[i]; ++k)
            t.set(z++, std::vector<std::uint64_t>{i, 0, (k * 13 + i) % 2100}, 0.5 + double((k + i) % 9));
    return tstest::shuffled(t, 8);
}

// The shared real tensors that are present, at rank 32 by the warp-batch variant (its walks).
void shared_tensors_by_warp_batches() {
    for (const char* name : {"movielens-100k.tns", "lastfm-tags.tns", "jf17k-4d.tns"}) {
        const std::string path = tstest::shared_tensor(name);
        if (!path.empty()) check_spttm(load_tensor(path).tensor, 32, SpttmVariant::WarpBatches);
    }
}

}  // namespace

class TestSpttmCuda : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { TS_REQUIRE_GPU(); }

    void randomTensors_data() {
        QTest::addColumn<int>("order");
        QTest::addColumn<int>("rank");
        for (int order : {3, 4, 5})
            for (int rank : {1, 16, 40}) QTest::addRow("order %d rank %d", order, rank) << order << rank;
    }
    void randomTensors() {
        QFETCH(int, order);
        QFETCH(int, rank);
        std::vector<std::uint64_t> dims(static_cast<std::size_t>(order), 10);
        dims[0] = 40;
        const CooTensor t = tstest::random_tensor(dims, 1500, std::uint64_t(order * 7 + rank), Distribution::PowerLaw);
        check_spttm(t, std::uint64_t(rank));
        check_sspttm(t, std::uint64_t(rank));
    }

    // Warp batches walk segments of 256 nonzeros whatever the fibers: fibers of 700 and 2000
    // nonzeros cross several segments (their shares carried), runs of single-nonzero fibers
    // fill whole segments, and fibers of 256, 512, 1 and 255 begin exactly on segment edges.
    // Ranks 1, 32 and 40 (two column passes).
    void longAndShortFibers_data() {
        QTest::addColumn<QList<int>>("heads");  // the lengths of the first fibers; the rest hold one nonzero
        QTest::addRow("long fibers inside") << QList<int>{1, 1, 1, 700, 1, 1, 2000, 33};
        QTest::addRow("segment edges") << QList<int>{256, 512, 1, 255, 300};
    }
    void longAndShortFibers() {
        QFETCH(QList<int>, heads);
        const CooTensor t = fibers_of(heads);
        for (std::uint64_t rank : {1, 32, 40}) check_spttm(t, rank);
    }

    // The warp-batch variant's walks: fiber teams (rank 32, the default: one-nonzero fibers taken
    // by U's row, the others cut into pieces of 8, rows of fibers cut across teams added by
    // atomics), fiber teams with the singles among the pieces (TENSORSCOPE_SPTTM_SINGLES=0), and
    // the warp batches (TENSORSCOPE_SPTTM_TEAMS=0, and every other rank): long and short fibers,
    // fibers all of one nonzero and none of one, random tensors of order 3-5 at ranks 1, 16, 32
    // and 40, and the shared ones, against the oracle.
    void bothWalksKeepTheResult_data() {
        QTest::addColumn<QByteArray>("teams");
        QTest::addColumn<QByteArray>("singles");
        QTest::addRow("fiber teams") << QByteArray("") << QByteArray("");
        QTest::addRow("fiber teams, singles in pieces") << QByteArray("") << QByteArray("0");
        QTest::addRow("warp batches") << QByteArray("0") << QByteArray("");
    }
    void bothWalksKeepTheResult() {
        QFETCH(QByteArray, teams);
        QFETCH(QByteArray, singles);
        const ScopedEnv walk("TENSORSCOPE_SPTTM_TEAMS", teams), apart("TENSORSCOPE_SPTTM_SINGLES", singles);
        for (const QList<int>& heads :
             {QList<int>{1, 1, 1, 700, 1, 1, 2000, 33}, QList<int>{16, 17, 32, 1, 15, 129, 300}, QList<int>{1},
              QList<int>{8}, QList<int>{9}, QList<int>{16}, QList<int>{17}, QList<int>(61, 2), QList<int>(61, 9),
              QList<int>(60, 3)})
            check_spttm(fibers_of(heads), 32, SpttmVariant::WarpBatches);
        for (int order : {3, 4, 5}) {
            std::vector<std::uint64_t> dims(static_cast<std::size_t>(order), 10);
            dims[0] = 40;
            const CooTensor t = tstest::random_tensor(dims, 3000, std::uint64_t(order * 11), Distribution::PowerLaw);
            for (std::uint64_t rank : {1, 16, 32, 40}) check_spttm(t, rank, SpttmVariant::WarpBatches);
        }
        shared_tensors_by_warp_batches();
    }

    // The fiber teams with pieces of 4 to 64 nonzeros (TENSORSCOPE_SPTTM_PIECE) and groups of 2 to
    // 16 pieces a team (TENSORSCOPE_SPTTM_GROUP; 3: a group that is no power of two), on fibers
    // around those lengths, random tensors and the shared ones, against the oracle.
    void fiberTeamShapesKeepTheResult_data() {
        QTest::addColumn<QByteArray>("piece");
        QTest::addColumn<QByteArray>("group");
        for (const char* piece : {"4", "8", "16", "32", "64"})
            for (const char* group : {"2", "3", "4", "8", "16"})
                QTest::addRow("piece %s, group %s", piece, group) << QByteArray(piece) << QByteArray(group);
    }
    void fiberTeamShapesKeepTheResult() {
        QFETCH(QByteArray, piece);
        QFETCH(QByteArray, group);
        const ScopedEnv p("TENSORSCOPE_SPTTM_PIECE", piece), g("TENSORSCOPE_SPTTM_GROUP", group);
        for (const QList<int>& heads :
             {QList<int>{1, 1, 1, 700, 1, 1, 2000, 33}, QList<int>{8, 9, 64, 65, 1, 31, 33, 129, 300},
              QList<int>{63, 64, 65, 2, 16, 17}})
            check_spttm(fibers_of(heads), 32, SpttmVariant::WarpBatches);
        const CooTensor t = tstest::random_tensor({40, 10, 10, 10}, 3000, 37, Distribution::PowerLaw);
        check_spttm(t, 32, SpttmVariant::WarpBatches);
        shared_tensors_by_warp_batches();
    }

    void realTensors() {
        for (const char* name : {"movielens-100k.tns", "lastfm-tags.tns", "jf17k-4d.tns"}) {
            const std::string path = tstest::shared_tensor(name);
            if (path.empty()) QSKIP("../shared/data is absent: skipped");
            check_spttm(load_tensor(path).tensor, 16);
        }
    }
};

QTEST_APPLESS_MAIN(TestSpttmCuda)
#include "test_spttm_cuda.moc"
