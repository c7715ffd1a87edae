// The Overview's per-mode table model: structure (QAbstractItemModelTester) and content.
#include <QAbstractItemModelTester>

#include "models/ModeStatsModel.hpp"
#include "test_support.hpp"
#include "views/TableExport.hpp"

using namespace tsui;

class TestModeStatsModel : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void structureAndValues() {
        ModeStatsModel model;
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        QCOMPARE(model.rowCount(), 0);
        auto ds = std::make_shared<Dataset>();
        ds->tensor = tstest::random_tensor({40, 30, 20, 10}, 1500, 3, tscope::Distribution::PowerLaw);
        ds->stats = tscope::compute_stats(ds->tensor);
        model.setDataset(ds);
        QCOMPARE(model.rowCount(), 4);
        QCOMPARE(model.columnCount(), int(ModeStatsModel::ColumnCount));
        for (int r = 0; r < 4; ++r) {
            const auto& s = ds->stats.modes[std::size_t(r)];
            QCOMPARE(model.data(model.index(r, ModeStatsModel::Mode)).toInt(), r + 1);
            QCOMPARE(model.data(model.index(r, ModeStatsModel::Slices), Qt::UserRole).toULongLong(), s.slices);
            QCOMPARE(model.data(model.index(r, ModeStatsModel::Fibers), Qt::UserRole).toULongLong(), s.fibers);
            QCOMPARE(model.data(model.index(r, ModeStatsModel::FiberMean), Qt::UserRole).toDouble(), s.fiber_nnz.mean);
        }
        const QString csv = toCsv(model);
        QCOMPARE(csv.count(QLatin1Char('\n')), 5);  // header + 4 modes
        QVERIFY(csv.startsWith(QStringLiteral("Mode,Length,Slices (non-empty),nnz/slice mean")));
        model.setDataset(nullptr);
        QCOMPARE(model.rowCount(), 0);
    }
};

QTEST_MAIN(TestModeStatsModel)
#include "test_mode_stats_model.moc"
