// write_text_file: the factor matrices', Tucker core's and permutations' writer. A file appears
// whole or not at all, and only a regular file is ever replaced.
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <QTemporaryDir>
#include <QtTest>

#include <filesystem>
#include <stdexcept>

#include "test_support.hpp"
#include "tscope/error.hpp"
#include "tscope/io/output_lock.hpp"
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

    // Sweep 64: a set of files (a CPD's factors and weights) is replaced whole or not at all. A
    // later file's failure (its fill throws, or its name is a FIFO) leaves every earlier file of
    // the previous set as it was, where each file had been renamed into place as it was done.
    void aSetIsReplacedWholeOrNotAtAll() {
        QTemporaryDir dir;
        std::vector<std::string> paths;
        for (const char* name : {"mode1.mat", "mode2.mat", "lambda.mat"})
            paths.push_back(dir.filePath(name).toStdString());
        auto text = [](const char* s) { return [s](std::ostream& out) { out << s; }; };
        write_text_files({{paths[0], text("old 1\n")}, {paths[1], text("old 2\n")}, {paths[2], text("old 3\n")}});
        QVERIFY_THROWS_EXCEPTION(
            std::runtime_error,
            write_text_files({{paths[0], text("new 1\n")},
                              {paths[1], text("new 2\n")},
                              {paths[2], [](std::ostream&) { throw std::runtime_error("disk full"); }}}));
        QCOMPARE(tstest::read_file_bytes(paths[0]), std::string("old 1\n"));
        QCOMPARE(tstest::read_file_bytes(paths[1]), std::string("old 2\n"));
        QCOMPARE(QDir(dir.path()).entryList(QDir::Files).size(), 3);
        const std::string fifo = dir.filePath("mode3.mat").toStdString();
        QCOMPARE(::mkfifo(fifo.c_str(), 0600), 0);
        QVERIFY_THROWS_EXCEPTION(InputError, write_text_files({{paths[0], text("new 1\n")}, {fifo, text("new 3\n")}}));
        QCOMPARE(tstest::read_file_bytes(paths[0]), std::string("old 1\n"));
        write_text_files({{paths[0], text("new 1\n")}, {paths[1], text("new 2\n")}});
        QCOMPARE(tstest::read_file_bytes(paths[1]), std::string("new 2\n"));
        // in two steps (reorder's permutations around its tensor): nothing moves until commit()
        {
            TextFileSet set({{paths[0], text("two 1\n")}});
            QCOMPARE(tstest::read_file_bytes(paths[0]), std::string("new 1\n"));
        }  // never committed
        QCOMPARE(tstest::read_file_bytes(paths[0]), std::string("new 1\n"));
        TextFileSet set({{paths[0], text("two 1\n")}});
        set.commit();
        QCOMPARE(tstest::read_file_bytes(paths[0]), std::string("two 1\n"));
        QCOMPARE(QDir(dir.path()).entryList(QDir::Files).size(), 3);
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

    // Sweep 70b B6/B7: two runs writing one set at once left files of each. A set's renames
    // hold a lock on its folders: another process waits for it, and a process takes it again
    // inside without waiting (a reorder's tensor and permutations hold it around the
    // permutations' own). The child says "locked", waits, says "releasing" and exits: taking the
    // lock here must come after that last word (told by order, not by time: review 70 R10).
    void anOutputLockHoldsOffOtherProcesses() {
        QTemporaryDir dir;
        const std::string a = dir.filePath("a.mat").toStdString(), b = dir.filePath("sub/b.perm").toStdString();
        std::filesystem::create_directory(dir.filePath("sub").toStdString());
        int words[2];
        QCOMPARE(::pipe(words), 0);
        const pid_t child = ::fork();
        QVERIFY(child >= 0);
        if (child == 0) {
            const OutputLock theirs(std::vector<std::string>{b});
            if (::write(words[1], "L", 1) != 1) _exit(1);
            ::usleep(300000);
            _exit(::write(words[1], "R", 1) == 1 ? 0 : 1);  // the lock goes with the process
        }
        ::close(words[1]);
        char word = 0;
        QCOMPARE(::read(words[0], &word, 1), ssize_t{1});
        QCOMPARE(word, 'L');
        {
            const OutputLock mine(std::vector<std::string>{a, b});
            ::fcntl(words[0], F_SETFL, O_NONBLOCK);
            QVERIFY2(::read(words[0], &word, 1) == 1 && word == 'R', "took the folder while the child held it");
            const OutputLock nested(std::vector<std::string>{b});  // would wait for ever were it taken again
        }
        int status = -1;
        QCOMPARE(::waitpid(child, &status, 0), child);
        QVERIFY(WIFEXITED(status) && WEXITSTATUS(status) == 0);
        ::close(words[0]);
    }
};

QTEST_GUILESS_MAIN(TestTextFile)
#include "test_text_file.moc"
