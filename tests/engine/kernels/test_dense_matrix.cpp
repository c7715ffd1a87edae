// Dense matrices as files (bench --factors, decompose --write): a bad number is named with its
// own line and column, and a folder where a matrix should be is said to be one; and the error
// measure every --check reports.
#include <QTemporaryDir>

#include <cmath>
#include <fstream>

#include "test_support.hpp"
#include "tscope/error.hpp"
#include "tscope/kernels/dense_matrix.hpp"
#include "tscope/kernels/sptv.hpp"
#include "tscope/tensor/coo_tensor.hpp"

using namespace tscope;

class TestDenseMatrix : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void writtenMatricesReadBack() {
        QTemporaryDir dir;
        const std::string path = dir.filePath("m.mat").toStdString();
        const DenseMatrix m = random_matrix(5, 3, 7);
        write_matrix(m, path);
        const DenseMatrix back = read_matrix(path, 5, 3);
        QCOMPARE(back.data, m.data);
    }

    // Drawn by ids: row k is the row random_matrix draws for ids[k] (a relabelled mode's starts)
    void randomRowsFollowTheirIds() {
        const DenseMatrix drawn = random_matrix(4, 3, 9);
        const DenseMatrix by_ids = random_matrix_by_ids({2, 0, 3, 1}, 4, 3, 9);
        const std::uint64_t ids[] = {2, 0, 3, 1};
        for (std::uint64_t k = 0; k < 4; ++k)
            for (std::uint64_t c = 0; c < 3; ++c) QCOMPARE(by_ids.at(k, c), drawn.at(ids[k], c));
        QCOMPARE(random_matrix_by_ids({}, 4, 3, 9).data, drawn.data);
        QVERIFY_THROWS_EXCEPTION(Error, random_matrix_by_ids({0, 1}, 4, 3, 9));
    }

    // 'x' is at column 4 of line 2 ("3  x"): it was always reported at column 1
    void badNumbersAreNamedWhereTheyAre() {
        QTemporaryDir dir;
        const QString path = dir.filePath("mode1.mat");
        QVERIFY(tstest::write_file(path, "1 2\n3  x\n"));
        try {
            read_matrix(path.toStdString(), 2, 2);
            QFAIL("read");
        } catch (const ParseError& e) {
            QVERIFY2(std::string(e.what()).find("mode1.mat:2:4: expected a finite number, found 'x'") != std::string::npos, e.what());
        }
        QVERIFY(tstest::write_file(path, "1 2\n\t3 inf\n"));
        try {
            read_matrix(path.toStdString(), 2, 2);
            QFAIL("read");
        } catch (const ParseError& e) {
            QVERIFY2(std::string(e.what()).find("mode1.mat:2:4:") != std::string::npos, e.what());
        }
    }

    // a folder opened as a file read as a matrix of no rows ("expected 2 rows, found 0")
    // Subnormal numbers are numbers (sweep 65: std::stod refused 1e-320 as "not finite"); past
    // double's range either way is still refused.
    void subnormalNumbersRead() {
        QTemporaryDir dir;
        const std::string path = dir.filePath("m.mat").toStdString();
        std::ofstream(path) << "1e-320 +2\n4.9e-324 -1e-310\n0x1p3 -0X1P-1\n";
        const DenseMatrix m = read_matrix(path, 3, 2);
        QVERIFY(m.at(0, 0) > 0 && m.at(0, 0) < 1e-319 && m.at(0, 1) == 2 && m.at(1, 1) < 0);
        QVERIFY(m.at(2, 0) == 8 && m.at(2, 1) == -0.5);  // hex floats, as std::stod read them
        for (const char* bad : {"1e-400 1\n", "1 1e400\n", "1 0x-1p3\n", "+-1 1\n", "inf 1\n"}) {
            std::ofstream(path) << bad;
            QVERIFY_THROWS_EXCEPTION(ParseError, read_matrix(path, 1, 2));
        }
    }

    void aFolderIsSaidToBeOne() {
        QTemporaryDir dir;
        QVERIFY(QDir(dir.path()).mkpath(QStringLiteral("mode1.mat")));
        try {
            read_matrix(dir.filePath("mode1.mat").toStdString(), 2, 2);
            QFAIL("read");
        } catch (const InputError& e) {
            QVERIFY2(std::string(e.what()).find("is a folder, not a matrix file") != std::string::npos, e.what());
        }
    }

    // Sweep 65: a result or a reference that holds inf or NaN fails every check, dense and
    // sparse alike: the sparse comparison had passed an overflowed SpTV with an error of 0 (an
    // infinite scale) and dropped NaN differences.
    void nonFiniteEntriesFailTheCheck() {
        DenseMatrix ref(2, 2), a(2, 2);
        for (double* m : {ref.data.data(), a.data.data()}) m[0] = 1, m[1] = 2, m[2] = 3, m[3] = 4;
        QCOMPARE(max_relative_error(a, ref), 0.0);
        a.at(1, 1) = 4.5;
        QCOMPARE(max_relative_error(a, ref), 0.125);
        for (const double bad : {INFINITY, -INFINITY, NAN}) {
            a.at(1, 1) = bad;
            QVERIFY(std::isinf(max_relative_error(a, ref)));
            ref.at(1, 1) = bad;  // the same inf on both sides: the reference overflowed
            QVERIFY(std::isinf(max_relative_error(a, ref)));
            ref.at(1, 1) = 4, a.at(1, 1) = 4;
        }
        CooTensor x({2, 2}), y({2, 2});
        for (CooTensor* t : {&x, &y}) {
            t->resize(2);
            const std::uint64_t first[] = {0, 1}, second[] = {1, 0};
            t->set(0, first, 1.0), t->set(1, second, INFINITY);
        }
        QVERIFY(std::isinf(sparse_max_relative_error(x, y)));  // 0 before: inf - inf dropped, inf scale
        x.values<double>()[1] = NAN, y.values<double>()[1] = 2.0;
        QVERIFY(std::isinf(sparse_max_relative_error(x, y)));
        x.values<double>()[1] = 2.5;
        QCOMPARE(sparse_max_relative_error(x, y), 0.25);
    }
};

QTEST_APPLESS_MAIN(TestDenseMatrix)
#include "test_dense_matrix.moc"
