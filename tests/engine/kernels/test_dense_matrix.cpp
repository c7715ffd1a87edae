// Dense matrices as files (bench --factors, decompose --write): a bad number is named with its
// own line and column, and a folder where a matrix should be is said to be one.
#include <QTemporaryDir>

#include "test_support.hpp"
#include "tscope/error.hpp"
#include "tscope/kernels/dense_matrix.hpp"

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
};

QTEST_APPLESS_MAIN(TestDenseMatrix)
#include "test_dense_matrix.moc"
