// The dense steps of the decompositions on the host: under SerialBlas, gram(), solve_spd_right()
// and normalize_columns() split a tall matrix's rows over the OpenMP team; they must give what
// OpenBLAS gives on its own threads, and the scope must hand OpenBLAS its thread count back.
#include <cblas.h>

#include <cmath>

#include "decomp/dense_linalg.hpp"
#include "test_support.hpp"
#include "tscope/error.hpp"

#ifdef _OPENMP
#include <omp.h>
#endif

using namespace tscope;

namespace {

double max_abs_difference(const DenseMatrix& a, const DenseMatrix& b) {
    double d = 0;
    for (std::size_t k = 0; k < a.data.size(); ++k) d = std::max(d, std::fabs(a.data[k] - b.data[k]));
    return d;
}

// A symmetric positive definite R x R system, as CPD's Hadamard product of Grams is.
DenseMatrix spd(std::uint64_t r) {
    const DenseMatrix b = random_matrix(3 * r, r, 5);
    DenseMatrix v = linalg::gram(b);
    for (std::uint64_t i = 0; i < r; ++i) v.at(i, i) += 1.0;
    return v;
}

}  // namespace

class TestDenseLinalg : public QObject {
    Q_OBJECT

private Q_SLOTS:
    // Both sides past 1024 take the randomized passes, which look at Cancel between them (a
    // 3,000 x 16,384 Tucker unfolding took a second); looked at, the answer is the same.
    void randomizedVectorsLookAtCancel() {
        const DenseMatrix y = random_matrix(1100, 1300, 4);
        tstest::CountingControl looks;
        const DenseMatrix watched = linalg::leading_left_singular_vectors(y, 6, linalg::Where::Host, looks);
        QVERIFY2(looks.checks() >= 7, qPrintable(QString::number(looks.checks())));
        QCOMPARE(max_abs_difference(watched, linalg::leading_left_singular_vectors(y, 6)), 0.0);
        tstest::CountingControl stop(1);
        QVERIFY_THROWS_EXCEPTION(Cancelled, linalg::leading_left_singular_vectors(y, 6, linalg::Where::Host, stop));
    }

    void serialScopeRestoresTheThreadCount() {
        openblas_set_num_threads(2);
        const int before = openblas_get_num_threads();
        {
            const linalg::SerialBlas serial;
            QCOMPARE(openblas_get_num_threads(), 1);
            const linalg::SerialBlas nested;
            QCOMPARE(openblas_get_num_threads(), 1);
        }
        QCOMPARE(openblas_get_num_threads(), before);
    }

    // 50,003 rows split over 3 threads: parts of unequal size, each through its own BLAS call.
    void splitRowsGiveWhatOneCallGives_data() {
        QTest::addColumn<int>("rank");
        QTest::addRow("rank 16") << 16;
        QTest::addRow("rank 7") << 7;
    }
    void splitRowsGiveWhatOneCallGives() {
        QFETCH(int, rank);
        const auto R = static_cast<std::uint64_t>(rank);
        const DenseMatrix a = random_matrix(50'003, R, 3);
        const DenseMatrix v = spd(R);
        DenseMatrix whole_solve = a, whole_norm = a;
        const DenseMatrix whole_gram = linalg::gram(a);
        QVERIFY(linalg::solve_spd_right(whole_solve, v));
        const std::vector<double> whole_norms = linalg::normalize_columns(whole_norm);
#ifdef _OPENMP
        const int threads = omp_get_max_threads();
        omp_set_num_threads(3);
#endif
        DenseMatrix split_solve = a, split_norm = a, split_gram;
        std::vector<double> split_norms;
        {
            const linalg::SerialBlas serial;
            split_gram = linalg::gram(a);
            QVERIFY(linalg::solve_spd_right(split_solve, v));
            split_norms = linalg::normalize_columns(split_norm);
        }
#ifdef _OPENMP
        omp_set_num_threads(threads);
#endif
        QVERIFY(max_abs_difference(split_gram, whole_gram) <= 1e-9 * std::fabs(whole_gram.at(0, 0)));
        QVERIFY(max_abs_difference(split_solve, whole_solve) <= 1e-12);
        QVERIFY(max_abs_difference(split_norm, whole_norm) <= 1e-14);
        for (std::uint64_t j = 0; j < R; ++j) QVERIFY(std::fabs(split_norms[j] - whole_norms[j]) <= 1e-12 * whole_norms[j]);
        // the solve is right: (a V^-1) V = a on every row, the last part's included
        DenseMatrix back = linalg::multiply(split_solve, false, v, false);
        QVERIFY(max_abs_difference(back, a) <= 1e-10);
        // every column has norm 1 after
        const DenseMatrix g = linalg::gram(split_norm);
        for (std::uint64_t j = 0; j < R; ++j) QVERIFY(std::fabs(g.at(j, j) - 1.0) <= 1e-12);
    }
};

QTEST_APPLESS_MAIN(TestDenseLinalg)
#include "test_dense_linalg.moc"
