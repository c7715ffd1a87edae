// Replays the committed fuzz corpus (tests/fuzz/corpus/<target>/) through the fuzzers' own
// entry points, with whatever compiler builds the tests: every seed and every input a fuzzer
// ever crashed on must load or be refused in words, never crash or break an invariant (the
// entry points abort on that). Fast: a few hundred small files.
#include <QDir>
#include <QFile>
#include <QTest>

#include "fuzz_entry.hpp"

namespace {

using Entry = int (*)(const std::uint8_t*, std::size_t);

struct Target {
    const char* name;
    Entry entry;
};

const Target kTargets[] = {{"tns", tsfuzz::tns_text}, {"tns_gz", tsfuzz::tns_gz}, {"tsb", tsfuzz::tsb}, {"cli_options", tsfuzz::cli_options}};

}  // namespace

class TestFuzzReplay : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void replay_data() {
        QTest::addColumn<int>("target");
        QTest::addColumn<QString>("file");
        for (int i = 0; i < static_cast<int>(std::size(kTargets)); ++i) {
            const QDir dir(QStringLiteral(TS_FUZZ_CORPUS_DIR "/") + QString::fromLatin1(kTargets[i].name));
            const QStringList files = dir.entryList(QDir::Files, QDir::Name);
            for (const QString& f : files)
                QTest::addRow("%s/%s", kTargets[i].name, qPrintable(f)) << i << dir.filePath(f);
        }
    }
    void replay() {
        QFETCH(int, target);
        QFETCH(QString, file);
        QFile f(file);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QByteArray bytes = f.readAll();
        QCOMPARE(kTargets[target].entry(reinterpret_cast<const std::uint8_t*>(bytes.constData()), static_cast<std::size_t>(bytes.size())), 0);
    }

    // Every target has seeds, and the crashers of tests/data/bad are among them.
    void corpusIsThere() {
        for (const Target& t : kTargets) {
            const QDir dir(QStringLiteral(TS_FUZZ_CORPUS_DIR "/") + QString::fromLatin1(t.name));
            QVERIFY2(dir.entryList(QDir::Files).size() >= 5, t.name);
        }
        const QDir bad(QStringLiteral(TS_TEST_DATA_DIR "/bad"));
        const QDir tns(QStringLiteral(TS_FUZZ_CORPUS_DIR "/tns"));
        for (const QString& f : bad.entryList({QStringLiteral("*.tns")}, QDir::Files))
            QVERIFY2(tns.exists(QStringLiteral("bad-") + f), qPrintable(f));
    }
};

QTEST_APPLESS_MAIN(TestFuzzReplay)
#include "test_fuzz_replay.moc"
