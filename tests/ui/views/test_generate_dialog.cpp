// The Generate dialog turns its fields into a generator spec, or explains what is wrong.
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QLabel>
#include <QLineEdit>
#include <QSpinBox>

#include "test_support.hpp"
#include "views/GenerateDialog.hpp"

using namespace tsui;

class TestGenerateDialog : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void fieldsMakeASpec() {
        GenerateDialog d;
        const QList<QLineEdit*> edits{d.findChild<QLineEdit*>(QStringLiteral("dims")), d.findChild<QLineEdit*>(QStringLiteral("nnz"))};
        QVERIFY(edits[0] && edits[1]);
        edits[0]->setText(QStringLiteral("100,200,300,40"));
        edits[1]->setText(QStringLiteral("2k"));
        d.findChild<QComboBox*>()->setCurrentIndex(1);
        d.findChild<QDoubleSpinBox*>()->setValue(0.8);
        const auto spec = d.spec();
        QVERIFY(spec.has_value());
        QCOMPARE(spec->dims, (std::vector<std::uint64_t>{100, 200, 300, 40}));
        QCOMPARE(spec->nnz, std::uint64_t{2000});
        QCOMPARE(spec->distribution, tscope::Distribution::PowerLaw);
        QCOMPARE(spec->zipf, std::vector<double>{0.8});
        // Low-rank, as the CLI's lowrank:R (sweep 66b A8): its rank box only then
        auto* rank = d.findChild<QSpinBox*>(QStringLiteral("generateRank"));
        QVERIFY(rank && !rank->isEnabled());
        d.findChild<QComboBox*>()->setCurrentIndex(3);
        QVERIFY(rank->isEnabled());
        rank->setValue(5);
        const auto lowRank = d.spec();
        QVERIFY(lowRank.has_value());
        QCOMPARE(lowRank->distribution, tscope::Distribution::LowRank);
        QCOMPARE(lowRank->rank, std::uint64_t{5});
    }

    void badFieldsExplainThemselves() {
        GenerateDialog d;
        const QList<QLineEdit*> edits{d.findChild<QLineEdit*>(QStringLiteral("dims")), d.findChild<QLineEdit*>(QStringLiteral("nnz"))};
        edits[0]->setText(QStringLiteral("100,abc"));
        QVERIFY(!d.spec().has_value());
        edits[0]->setText(QStringLiteral("10,10"));
        edits[1]->setText(QStringLiteral("0"));
        QVERIFY(!d.spec().has_value());
        // more distinct nonzeros than cells: said in the dialog (before, only after Accept, in
        // the window's banner)
        edits[0]->setText(QStringLiteral("2,2"));
        edits[1]->setText(QStringLiteral("10"));
        QVERIFY(!d.spec().has_value());
        auto* error = d.findChild<QLabel*>(QStringLiteral("generateError"));
        QVERIFY(error);
        QVERIFY2(error->text().contains(QStringLiteral("don't fit in 4 cells")), qPrintable(error->text()));
        edits[1]->setText(QStringLiteral("4"));
        QVERIFY(d.spec().has_value());
        QCOMPARE(error->styleSheet(), QStringLiteral("color: #b00020"));  // the light palette's dark red
    }

    // In a dark palette the error is a light red (sweep 74a F9: #b00020 on near-black).
    void theErrorReadsOnADarkPalette() {
        const QPalette light = QApplication::palette();
        QPalette dark = light;
        dark.setColor(QPalette::Window, QColor(0x22, 0x20, 0x20));
        dark.setColor(QPalette::WindowText, Qt::white);
        QApplication::setPalette(dark);
        {
            GenerateDialog d;
            QCOMPARE(d.findChild<QLabel*>(QStringLiteral("generateError"))->styleSheet(),
                     QStringLiteral("color: #ff8a80"));
        }
        QApplication::setPalette(light);
    }
};

QTEST_MAIN(TestGenerateDialog)
#include "test_generate_dialog.moc"
