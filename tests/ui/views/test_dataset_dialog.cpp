// File ▸ Open dataset against a catalog and a server of this test's own (127.0.0.1): the list
// with each dataset's state, a download that is converted to .tsb and checked against the
// catalog, a server error, a cut transfer that shows as partial and resumes, a file that is not
// the dataset the catalog describes, and a ready dataset that opens without a download.
#include <QDir>
#include <QFile>
#include <QLabel>
#include <QNetworkProxy>
#include <QPushButton>
#include <QSignalSpy>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>

#include "local_http_server.hpp"
#include "tscope/io/tensor_io.hpp"
#include "tscope/tensor/generator.hpp"
#include "views/DatasetDialog.hpp"

using namespace tsui;

namespace {

// A small order-3 tensor as .tns.gz bytes, and its facts for the catalog.
struct Sample {
    QByteArray gz;
    std::vector<std::uint64_t> dims;
    std::uint64_t nnz = 0;
};

Sample sampleTensor(const QString& dir) {
    tscope::GeneratorSpec spec;
    spec.dims = {40, 30, 20};
    spec.nnz = 3000;
    spec.seed = 5;
    const tscope::CooTensor t = tscope::generate_tensor(spec);
    const QString path = dir + QStringLiteral("/sample.tns.gz");
    tscope::save_tensor(t, path.toStdString());
    QFile f(path);
    f.open(QIODevice::ReadOnly);
    return {f.readAll(), t.dims(), t.nnz()};
}

QString writeCatalog(const QString& dir, const tstest::LocalHttpServer& server, const Sample& s) {
    auto entry = [&](const QString& name, const QString& path, std::uint64_t nnz) {
        return QStringLiteral(R"({"name": "%1", "title": "%1 tensor", "order": 3, "dims": [%2, %3, %4], "nnz": %5,
            "tensors": [{"url": "%6", "what": "Tensor"}], "description": "A test tensor.", "licence": "test only"})")
            .arg(name)
            .arg(s.dims[0])
            .arg(s.dims[1])
            .arg(s.dims[2])
            .arg(nnz)
            .arg(server.url(path).toString());
    };
    const QString path = dir + QStringLiteral("/catalog.json");
    QFile f(path);
    f.open(QIODevice::WriteOnly);
    f.write(QStringLiteral(R"({"source": "this test", "tensors": [%1, %2, %3]})")
                .arg(entry(QStringLiteral("tiny"), QStringLiteral("/tiny.tns.gz"), s.nnz),
                     entry(QStringLiteral("broken"), QStringLiteral("/broken"), s.nnz),
                     entry(QStringLiteral("impostor"), QStringLiteral("/tiny.tns.gz"), s.nnz + 1))
                .toUtf8());
    return path;
}

QString stateOf(const DatasetDialog& d, const QString& name) {
    for (int r = 0; r < d.table()->rowCount(); ++r)
        if (d.table()->item(r, 0)->text() == name) return d.table()->item(r, 4)->text();
    return {};
}

// Presses the fetch button and waits for the dialog to close or the status to say why not.
bool fetchAndWait(DatasetDialog& d) {
    QSignalSpy closed(&d, &QDialog::finished);
    d.fetchButton()->click();
    return QTest::qWaitFor([&] { return !closed.isEmpty() || d.statusLabel()->text().startsWith(QStringLiteral("Not fetched")); }, 20000);
}

}  // namespace

class TestDatasetDialog : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { QNetworkProxy::setApplicationProxy(QNetworkProxy::NoProxy); }

    void listsTheCatalogWithStates() {
        QTemporaryDir dir;
        tstest::LocalHttpServer server;
        const Sample s = sampleTensor(dir.path());
        DatasetDialog d(writeCatalog(dir.path(), server, s), dir.filePath(QStringLiteral("cache")));
        QCOMPARE(d.table()->rowCount(), 3);
        QCOMPARE(stateOf(d, QStringLiteral("tiny")), QStringLiteral("not fetched"));
        QCOMPARE(d.table()->item(0, 3)->text(), QStringLiteral("3,000"));
        QCOMPARE(d.fetchButton()->text(), QStringLiteral("Download and open"));
        QVERIFY(d.findChild<QLabel*>(QStringLiteral("datasetDetails"))->text().contains(QStringLiteral("licence: test only"), Qt::CaseInsensitive));
    }

    void downloadsConvertsAndOpens() {
        QTemporaryDir dir;
        tstest::LocalHttpServer server;
        const Sample s = sampleTensor(dir.path());
        server.serve("/tiny.tns.gz", s.gz);
        const QString cache = dir.filePath(QStringLiteral("cache"));
        DatasetDialog d(writeCatalog(dir.path(), server, s), cache);
        d.selectDataset(QStringLiteral("tiny"));
        QVERIFY(fetchAndWait(d));
        QCOMPARE(d.result(), int(QDialog::Accepted));
        QCOMPARE(d.chosenPath(), cache + QStringLiteral("/tiny.tsb"));
        const tscope::LoadedTensor t = tscope::load_tensor(d.chosenPath().toStdString());
        QCOMPARE(t.tensor.nnz(), s.nnz);
        QVERIFY(!QFile::exists(cache + QStringLiteral("/tiny.tns.gz")));  // the .tsb holds it all

        DatasetDialog again(writeCatalog(dir.path(), server, s), cache);  // ready: opens without a download
        QCOMPARE(stateOf(again, QStringLiteral("tiny")), QStringLiteral("ready"));
        again.selectDataset(QStringLiteral("tiny"));
        QCOMPARE(again.fetchButton()->text(), QStringLiteral("Open"));
        const int requests = server.ranges.size();
        again.fetchButton()->click();
        QCOMPARE(again.result(), int(QDialog::Accepted));
        QCOMPARE(again.chosenPath(), cache + QStringLiteral("/tiny.tsb"));
        QCOMPARE(server.ranges.size(), requests);
    }

    void aServerErrorIsShownAndNothingOpens() {
        QTemporaryDir dir;
        tstest::LocalHttpServer server;
        const Sample s = sampleTensor(dir.path());
        DatasetDialog d(writeCatalog(dir.path(), server, s), dir.filePath(QStringLiteral("cache")));
        d.selectDataset(QStringLiteral("broken"));
        QVERIFY(fetchAndWait(d));
        QVERIFY2(d.statusLabel()->text().contains(QStringLiteral("HTTP 500")), qPrintable(d.statusLabel()->text()));
        QVERIFY(d.chosenPath().isEmpty());
        QCOMPARE(stateOf(d, QStringLiteral("broken")), QStringLiteral("not fetched"));
        QVERIFY(d.fetchButton()->isEnabled());  // the user can try again
    }

    void aCutTransferIsPartialAndResumes() {
        QTemporaryDir dir;
        tstest::LocalHttpServer server;
        const Sample s = sampleTensor(dir.path());
        server.serve("/tiny.tns.gz", s.gz);
        server.cutAfter = s.gz.size() / 2;
        const QString cache = dir.filePath(QStringLiteral("cache"));
        DatasetDialog d(writeCatalog(dir.path(), server, s), cache);
        d.selectDataset(QStringLiteral("tiny"));
        QVERIFY(fetchAndWait(d));
        QVERIFY2(d.statusLabel()->text().contains(QStringLiteral("closed after")), qPrintable(d.statusLabel()->text()));
        QCOMPARE(stateOf(d, QStringLiteral("tiny")), QStringLiteral("partial (resumes)"));
        server.cutAfter = 0;
        QVERIFY(fetchAndWait(d));
        QCOMPARE(d.result(), int(QDialog::Accepted));
        QVERIFY(server.ranges.last().startsWith("bytes="));
        QCOMPARE(tscope::load_tensor(d.chosenPath().toStdString()).tensor.nnz(), s.nnz);
    }

    // Sweep 65b: Esc (reject) during a fetch is refused with a word, as the disabled Close is; it
    // had cancelled the download silently. Cancel download stops it, and then Esc closes.
    void escapeDuringAFetchDoesNotDropIt() {
        QTemporaryDir dir;
        tstest::LocalHttpServer server;
        const Sample s = sampleTensor(dir.path());
        server.serve("/tiny.tns.gz", s.gz);
        server.stallAfter = 10;  // the transfer hangs: the fetch stays running
        DatasetDialog d(writeCatalog(dir.path(), server, s), dir.filePath(QStringLiteral("cache")));
        d.show();
        QSignalSpy finished(&d, &QDialog::finished);
        d.selectDataset(QStringLiteral("tiny"));
        d.fetchButton()->click();
        QTRY_VERIFY(d.cancelButton()->isVisible());
        QTest::keyClick(&d, Qt::Key_Escape);
        QVERIFY(finished.isEmpty() && d.cancelButton()->isVisible());
        QVERIFY2(d.statusLabel()->text().contains(QStringLiteral("A download is on")),
                 qPrintable(d.statusLabel()->text()));
        QTest::qWait(1500);  // the stalled download reports each second: the word stays above it (sweep 65c)
        QVERIFY2(d.statusLabel()->text().startsWith(QStringLiteral("A download is on")),
                 qPrintable(d.statusLabel()->text()));
        d.cancelButton()->click();
        QTRY_VERIFY_WITH_TIMEOUT(!d.cancelButton()->isVisible(), 20000);
        d.reject();
        QCOMPARE(finished.count(), 1);
    }

    void aFileThatIsNotTheDatasetIsRefused() {
        QTemporaryDir dir;
        tstest::LocalHttpServer server;
        const Sample s = sampleTensor(dir.path());
        server.serve("/tiny.tns.gz", s.gz);
        const QString cache = dir.filePath(QStringLiteral("cache"));
        DatasetDialog d(writeCatalog(dir.path(), server, s), cache);
        d.selectDataset(QStringLiteral("impostor"));  // the catalog says one nonzero more
        QVERIFY(fetchAndWait(d));
        QVERIFY2(d.statusLabel()->text().contains(
                     QStringLiteral("does not match the catalog's impostor: 3,000 nonzeros, expected 3,001")),
                 qPrintable(d.statusLabel()->text()));
        QVERIFY(!QFile::exists(cache + QStringLiteral("/impostor.tsb")));
    }

    // The dialog opens on the smallest dataset, not the catalog's first (amazon-reviews, 1.7
    // billion nonzeros, one Enter from its download), and says what a dataset takes converted;
    // FROSTT's *emphasis* reads as italics (sweep 66b M5).
    void opensOnTheSmallestAndSaysItsSize() {
        QTemporaryDir cache;
        DatasetDialog d(QStringLiteral(TS_CATALOG_FILE), cache.path());
        QCOMPARE(d.table()->item(d.table()->currentRow(), 0)->text(), QStringLiteral("lbnl-network"));
        QVERIFY(!d.table()->tabKeyNavigation());  // Tab reaches the buttons (sweep 66c)
        const QString details = d.findChild<QLabel*>(QStringLiteral("datasetDetails"))->text();
        // 1,698,825 nonzeros of 5 modes under 2^32: 5 x 4 + 8 bytes each
        QVERIFY2(details.contains(QStringLiteral("takes about 47.6 MB on disk")), qPrintable(details));
        QVERIFY2(
            details.contains(QStringLiteral("<i>sender IP-sender port-destination IP-destination port-time</i>")) &&
                !details.contains(QStringLiteral("*sender")),
            qPrintable(details));
    }

    // For docs/screenshots/open-dataset.png: TS_SCREENSHOT_DIR=DIR saves the dialog on the real
    // FROSTT catalog there (an empty cache: every dataset "not fetched").
    void screenshotOfTheCatalog() {
        const QString dir = qEnvironmentVariable("TS_SCREENSHOT_DIR");
        if (dir.isEmpty()) QSKIP("set TS_SCREENSHOT_DIR to save a screenshot of File > Open dataset");
        QTemporaryDir cache;
        DatasetDialog d(QStringLiteral(TS_CATALOG_FILE), cache.path());
        d.selectDataset(QStringLiteral("nell-2"));
        d.show();
        QVERIFY(QTest::qWaitForWindowExposed(&d));
        QVERIFY(d.grab().save(dir + QStringLiteral("/open-dataset.png")));
    }

    void anUnreadableCatalogSaysSo() {
        QTemporaryDir dir;
        DatasetDialog d(dir.filePath(QStringLiteral("missing.json")), dir.path());
        QCOMPARE(d.table()->rowCount(), 0);
        QVERIFY2(d.statusLabel()->text().startsWith(QStringLiteral("The catalog could not be read")), qPrintable(d.statusLabel()->text()));
        QVERIFY(!d.fetchButton()->isEnabled());
    }
};

QTEST_MAIN(TestDatasetDialog)
#include "test_dataset_dialog.moc"
