// write_text_file: the factor matrices', Tucker core's and permutations' writer. A file appears
// whole or not at all, and only a regular file is ever replaced.
#include <sys/stat.h>
#include <QTemporaryDir>
#include <QtTest>

#include <filesystem>
#include <stdexcept>

#include "test_support.hpp"
#include "tscope/error.hpp"
#include "tscope/io/text_file.hpp"

using namespace tscope;

class TestTextFile : public QObject {
    Q_OBJECT

private Q_SLOTS:
    // Written whole (past the 1 MiB buffer); a fill that throws leaves the old file and no
    // temporary beside it.
    void wholeOrNotAtAll() {
        QTemporaryDir dir;
        const std::string path = dir.filePath("m.mat").toStdString();
        const std::string big(3u << 20, 'x');
        write_text_file(path, [&](std::ostream& out) { out << big << "\n"; });
        QCOMPARE(tstest::read_file_bytes(path), big + "\n");
        QVERIFY_THROWS_EXCEPTION(std::runtime_error, write_text_file(path, [](std::ostream& out) {
                                     out << "half";
                                     throw std::runtime_error("stopped");
                                 }));
        QCOMPARE(tstest::read_file_bytes(path), big + "\n");
        QCOMPARE(QDir(dir.path()).entryList(QDir::Files), QStringList{"m.mat"});
    }

    // A FIFO, a folder and a link to nothing are refused and left as they were; a link to a
    // file is written through and stays a link.
    void onlyRegularFilesAreReplaced() {
        QTemporaryDir dir;
        const std::string fifo = dir.filePath("fifo").toStdString(), folder = dir.filePath("folder").toStdString();
        QCOMPARE(::mkfifo(fifo.c_str(), 0644), 0);
        QVERIFY(std::filesystem::create_directory(folder));
        auto fill = [](std::ostream& out) { out << "1 2\n"; };
        for (const std::string& path : {fifo, folder}) {
            try {
                write_text_file(path, fill);
                QFAIL("written");
            } catch (const InputError& e) {
                QVERIFY2(std::string(e.what()).find("output goes to a regular file") != std::string::npos, e.what());
            }
        }
        QVERIFY(std::filesystem::is_fifo(fifo));
        QVERIFY(std::filesystem::is_directory(folder));
        const std::string link = dir.filePath("link").toStdString(), target = dir.filePath("target").toStdString();
        std::filesystem::create_symlink(target, link);
        QVERIFY_THROWS_EXCEPTION(InputError, write_text_file(link, fill));
        QVERIFY(tstest::write_file(QString::fromStdString(target), "old\n"));
        write_text_file(link, fill);
        QVERIFY(std::filesystem::is_symlink(link));
        QCOMPARE(tstest::read_file_bytes(target), std::string("1 2\n"));
    }
};

QTEST_GUILESS_MAIN(TestTextFile)
#include "test_text_file.moc"
