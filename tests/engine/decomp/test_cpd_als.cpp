// CPD-ALS (mm-csf Alg. 1): exact fits on exactly low-rank sparse tensors through every MTTKRP
// format, the fit formula against brute force (also with duplicates summed on load), the
// per-iteration callback, cancellation between iterations, SPLATT-style output.
#include <QTemporaryDir>

#include <cmath>
#include <fstream>

#include "test_support.hpp"
#include "decomp/cpd_init.hpp"  // white-box: the starting factors
#include "tscope/decomp/cpd_als.hpp"
#include "tscope/io/tensor_io.hpp"

using namespace tscope;


class TestCpdAls : public QObject {
    Q_OBJECT

private Q_SLOTS:
    // Issue 20: one random start can settle in a poor minimum of an exactly low-rank tensor
    // (rank 5, 69k nonzeros: CPD seed 2 ends near fit 0.62 here, asserted below, so that the test
    // keeps a tensor where one start fails); --init nvecs and --restarts 3 both reach the exact
    // fit from every seed tried.
    void nvecsAndRestartsReachTheExactFit_data() {
        QTest::addColumn<int>("order");
        QTest::addRow("order 3") << 3;
        QTest::addRow("order 4") << 4;
    }
    void nvecsAndRestartsReachTheExactFit() {
        QFETCH(int, order);
        const std::vector<std::uint64_t> dims = order == 3 ? std::vector<std::uint64_t>{300, 250, 200}
                                                           : std::vector<std::uint64_t>{120, 90, 80, 60};
        const CooTensor t = tstest::low_rank_tensor(dims, 70000, 5, 5);
        if (order == 3) {
            CpdOptions one;
            one.rank = 5, one.max_iters = 150, one.seed = 2;
            const double fit = cpd_als(t, one).fit;
            QVERIFY2(fit < 0.9, qPrintable(QString("one random start (seed 2) reached fit %1: pick a tensor where it fails").arg(fit)));
        }
        for (std::uint64_t seed = 1; seed <= 10; ++seed) {
            CpdOptions o;
            o.rank = 5, o.max_iters = 150, o.seed = seed;
            o.init = CpdInit::Nvecs;
            const CpdResult nv = cpd_als(t, o);
            QVERIFY2(nv.fit >= 0.99, qPrintable(QString("nvecs, seed %1: fit %2").arg(seed).arg(nv.fit)));
            o.init = CpdInit::Random, o.restarts = 3;
            const CpdResult rs = cpd_als(t, o);
            QVERIFY2(rs.fit >= 0.99, qPrintable(QString("3 restarts, seed %1: fit %2").arg(seed).arg(rs.fit)));
            QCOMPARE(rs.starts.size(), std::size_t{3});
            QCOMPARE(rs.start_fits[std::size_t(rs.best_start)], rs.fit);
            QCOMPARE(*std::max_element(rs.start_fits.begin(), rs.start_fits.end()), rs.fit);
            for (std::size_t k = 0; k < rs.starts.size(); ++k)
                for (const IterationReport& it : rs.starts[k]) QCOMPARE(it.start, int(k));
        }
    }

    // nvecs gives each mode orthonormal leading singular directions where the rank allows, and
    // random columns past the mode's length (rank 6 on a mode of length 4).
    void nvecsFactorsAreOrthonormal() {
        const CooTensor t = tstest::low_rank_tensor({40, 30, 4}, 3000, 3, 9);
        const auto f = detail::cpd_initial_factors(t, CpdInit::Nvecs, 6, 1);
        for (int m = 0; m < 2; ++m) {
            const DenseMatrix& a = f[std::size_t(m)];
            for (std::uint64_t i = 0; i < 6; ++i)
                for (std::uint64_t j = 0; j < 6; ++j) {
                    double dot = 0;
                    for (std::uint64_t r = 0; r < a.rows; ++r) dot += a.at(r, i) * a.at(r, j);
                    QVERIFY2(std::fabs(dot - (i == j ? 1.0 : 0.0)) < 1e-8, qPrintable(QString("mode %1 columns %2, %3: %4").arg(m + 1).arg(i).arg(j).arg(dot)));
                }
        }
        QCOMPARE(f[2].cols, std::uint64_t{6});  // 4 singular directions, 2 random columns
        QVERIFY_THROWS_EXCEPTION(InputError, parse_cpd_init("hosvd"));
    }

    void lowRankTensorsFitExactly_data() {
        QTest::addColumn<int>("order");
        QTest::addColumn<QString>("format");
        for (int order : {3, 4})
            for (const char* f : {"COO", "CSF", "B-CSF", "MM-CSF", "HiCOO"}) QTest::addRow("order %d %s", order, f) << order << QString(f);
    }
    void lowRankTensorsFitExactly() {
        QFETCH(int, order);
        QFETCH(QString, format);
        std::vector<std::uint64_t> dims = {80, 60, 50, 30};
        dims.resize(static_cast<std::size_t>(order));
        const CooTensor t = tstest::low_rank_tensor(dims, order == 3 ? 8000 : 20000, 4, 11);
        QVERIFY(t.nnz() > 1000);
        CpdOptions o;
        o.rank = 4, o.max_iters = 300, o.tolerance = 1e-10, o.format = parse_format(format.toStdString());
        const CpdResult r = cpd_als(t, o);
        QVERIFY2(r.fit >= 0.99, qPrintable(QString("fit %1 after %2 iterations").arg(r.fit).arg(r.iterations.size())));
        QCOMPARE(r.lambda.size(), std::size_t{4});
    }

    void fitEqualsBruteForce() {
        const CooTensor t = tstest::random_tensor({9, 7, 6}, 150, 4);
        CpdOptions o;
        o.rank = 3, o.max_iters = 4, o.tolerance = 0;
        const CpdResult r = cpd_als(t, o);
        QCOMPARE(r.iterations.size(), std::size_t{4});
        QVERIFY(std::fabs(r.fit - cpd_dense_fit(t, r.factors, r.lambda)) < 1e-10);
        QVERIFY(r.fit < 1);
    }

    // SPLATT reports fits above 1 for files with duplicate coordinates; ours sums them on load.
    void duplicatesAreSummedAndTheFitIsRight() {
        QTemporaryDir dir;
        const std::string path = dir.filePath("dup.tns").toStdString();
        {
            std::ofstream f(path);
            f << "1 1 1 2.0\n2 3 1 1.0\n1 1 1 3.0\n3 2 2 4.0\n2 3 1 -0.5\n1 2 3 1.5\n3 3 3 2.5\n";
        }
        const LoadedTensor loaded = load_tensor(path);
        QCOMPARE(loaded.info.duplicates_summed, std::uint64_t{2});
        CpdOptions o;
        o.rank = 2, o.max_iters = 30;
        const CpdResult r = cpd_als(loaded.tensor, o);
        QVERIFY2(r.fit <= 1.0 + 1e-12, qPrintable(QString::number(r.fit)));
        QVERIFY(std::fabs(r.fit - cpd_dense_fit(loaded.tensor, r.factors, r.lambda)) < 1e-9);
    }

    void reportsEveryIterationAndStopsOnRequest() {
        const CooTensor t = tstest::random_tensor({30, 20, 10}, 600, 2);
        AtomicRunControl control;
        std::vector<IterationReport> seen;
        CpdOptions o;
        o.rank = 3, o.max_iters = 50, o.tolerance = 0;
        QVERIFY_THROWS_EXCEPTION(Cancelled, cpd_als(t, o, [&](const IterationReport& r) {
            seen.push_back(r);
            if (r.iter == 3) control.request_cancel();
        }, control));
        QCOMPARE(seen.size(), std::size_t{3});
        for (std::size_t i = 0; i < seen.size(); ++i) {
            QCOMPARE(seen[i].iter, int(i) + 1);
            QVERIFY(seen[i].fit > -1 && seen[i].fit <= 1);
            if (i) QVERIFY(seen[i].seconds >= seen[i - 1].seconds);
        }
    }

    // Two modes of length 2 and rank 5: their Grams' Hadamard product has rank 4 at most, so
    // the third mode's solve is singular and the pseudo-inverse steps in.
    void singularGramFallsBackToPseudoInverse() {
        const CooTensor t = tstest::random_tensor({2, 2, 30}, 100, 6);
        CpdOptions o;
        o.rank = 5, o.max_iters = 5, o.tolerance = 0;
        const CpdResult r = cpd_als(t, o);
        QVERIFY(r.pseudo_inverse_solves > 0);
        QVERIFY(std::isfinite(r.fit));
        QVERIFY(std::fabs(r.fit - cpd_dense_fit(t, r.factors, r.lambda)) < 1e-8);
    }

    void writesSplattStyleFiles() {
        QTemporaryDir dir;
        const CooTensor t = tstest::random_tensor({12, 11, 10}, 200, 8);
        CpdOptions o;
        o.rank = 3, o.max_iters = 3;
        const CpdResult r = cpd_als(t, o);
        write_cpd(r, dir.path().toStdString());
        for (int m = 0; m < 3; ++m) {
            const DenseMatrix a = read_matrix(dir.filePath(QString("mode%1.mat").arg(m + 1)).toStdString(), t.dim(m), 3);
            QVERIFY(max_relative_error(a, r.factors[static_cast<std::size_t>(m)]) < 1e-12);
        }
        QCOMPARE(read_matrix(dir.filePath("lambda.mat").toStdString(), 3, 1).rows, std::uint64_t{3});
    }

    void badOptionsAreInputErrors() {
        const CooTensor t = tstest::random_tensor({5, 5, 5}, 20, 1);
        CpdOptions o;
        o.rank = 0;
        QVERIFY_THROWS_EXCEPTION(InputError, cpd_als(t, o));
        o.rank = 2, o.format = FormatKind::HOCSR;
        QVERIFY_THROWS_EXCEPTION(InputError, cpd_als(t, o));
    }

    // Values near 1e308 are refused in words before anything runs ("the Cholesky solve failed"
    // before); 1e150, whose squares still fit, decomposes to a finite fit.
    void valuesTooLargeForDoublesAreRefused() {
        CooTensor t = tstest::random_tensor({8, 8, 8}, 60, 3);
        auto& v = t.values<double>();
        for (std::size_t z = 0; z < v.size(); ++z) v[z] = (z % 2 ? -1e308 : 1e308);
        CpdOptions o;
        o.rank = 3;
        try {
            cpd_als(t, o);
            QFAIL("a tensor of values near 1e308 was decomposed");
        } catch (const InputError& e) {
            QVERIFY2(std::string(e.what()).find("too large for double precision") != std::string::npos, e.what());
        }
        for (std::size_t z = 0; z < v.size(); ++z) v[z] = (z % 2 ? -1e150 : 1e150);
        QVERIFY(std::isfinite(cpd_als(t, o).fit));
    }

    // Sweep 65: values whose squares underflow to 0 (below about 1e-162) are refused too; the
    // fit came out as 1 with all-zero factors. 1e-140 and 1e-158 (subnormal squares, sweep 65c)
    // still decompose, to the fit the same tensor has at unit scale.
    void valuesTooSmallForDoublesAreRefused() {
        CooTensor t = tstest::random_tensor({8, 8, 8}, 60, 3);
        auto& v = t.values<double>();
        const std::vector<double> unit(v.begin(), v.end());
        CpdOptions o;
        o.rank = 3;
        const double fit = cpd_als(t, o).fit;
        for (const double scale : {1e-170, 1e-300}) {
            for (std::size_t z = 0; z < v.size(); ++z) v[z] = unit[z] * scale;
            try {
                cpd_als(t, o);
                QFAIL("a tensor of tiny values was decomposed");
            } catch (const InputError& e) {
                QVERIFY2(std::string(e.what()).find("too small for double precision") != std::string::npos, e.what());
            }
        }
        for (const double scale : {1e-140, 1e-158}) {
            for (std::size_t z = 0; z < v.size(); ++z) v[z] = unit[z] * scale;
            QVERIFY2(std::fabs(cpd_als(t, o).fit - fit) < 1e-4, qPrintable(QString::number(scale)));
        }
    }
};

QTEST_APPLESS_MAIN(TestCpdAls)
#include "test_cpd_als.moc"
