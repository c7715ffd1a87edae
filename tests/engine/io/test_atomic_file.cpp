// AtomicFile (engine/io/file_util.hpp), white-box: a write appears whole on commit or not at
// all, by both routes (nameless O_TMPFILE, and the named temporary that filesystems without it
// get), and a process killed by SIGKILL mid-write leaves nothing on the nameless route.
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <QTemporaryDir>
#include <filesystem>

#include "io/file_util.hpp"
#include "test_support.hpp"

using tscope::detail::AtomicFile;

namespace {

std::vector<std::string> names_in(const QTemporaryDir& dir) {
    std::vector<std::string> out;
    for (const auto& e : std::filesystem::directory_iterator(dir.path().toStdString()))
        out.push_back(e.path().filename().string());
    std::sort(out.begin(), out.end());
    return out;
}

}  // namespace

class TestAtomicFile : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void cleanup() { tscope::detail::allow_nameless_temporaries(true); }

    void commitReplacesAndAbandonLeavesNothing_data() {
        QTest::addColumn<bool>("nameless");
        QTest::addRow("nameless") << true;
        QTest::addRow("named") << false;
    }
    void commitReplacesAndAbandonLeavesNothing() {
        QFETCH(bool, nameless);
        tscope::detail::allow_nameless_temporaries(nameless);
        QTemporaryDir dir;
        const std::string target = dir.filePath("out.bin").toStdString();
        QVERIFY(tstest::write_file(QString::fromStdString(target), "old"));
        {
            AtomicFile f(target);
            f.write("new bytes", 9);
            // the nameless route shows nothing in the folder until the commit; the named one its temporary
            QCOMPARE(names_in(dir).size(), nameless ? std::size_t{1} : std::size_t{2});
            QCOMPARE(tstest::nameless_files_open(::getpid(), dir.path()), nameless ? 1 : 0);
            char back[3] = {};
            f.read_at(4, back, 3);
            QCOMPARE(std::string(back, 3), std::string("byt"));
            f.commit();
        }
        QCOMPARE(tstest::read_file_bytes(target), std::string("new bytes"));
        QCOMPARE(names_in(dir), std::vector<std::string>{"out.bin"});
        {
            AtomicFile f(target);
            f.write("abandoned", 9);
        }  // never committed
        QCOMPARE(tstest::read_file_bytes(target), std::string("new bytes"));
        QCOMPARE(names_in(dir), std::vector<std::string>{"out.bin"});
        QCOMPARE(tstest::nameless_files_open(::getpid(), dir.path()), 0);
    }

    // Sweep 70b B5: a name of 245-255 bytes is a legal name, and its temporary (the name and
    // .tmp-PID-N) had passed NAME_MAX: "File name too long" on the named route.
    void aNameNearTheLimitIsWritten_data() { commitReplacesAndAbandonLeavesNothing_data(); }
    void aNameNearTheLimitIsWritten() {
        QFETCH(bool, nameless);
        tscope::detail::allow_nameless_temporaries(nameless);
        QTemporaryDir dir;
        const std::string name = std::string(251, 'h') + ".tns";  // 255 bytes
        {
            AtomicFile f(dir.filePath(QString::fromStdString(name)).toStdString());
            f.write("x", 1);
            f.commit();
        }
        QCOMPARE(names_in(dir), std::vector<std::string>{name});
    }

    // What no handler sees: the process is killed by SIGKILL (as the OOM killer kills) while it
    // writes. Before, its temporary stayed next to the target, as large as what was written.
    void sigkillMidWriteLeavesNothing() {
        QTemporaryDir dir;
        const std::string target = dir.filePath("out.tsb").toStdString();
        int ready[2];
        QCOMPARE(::pipe(ready), 0);
        const pid_t child = ::fork();
        if (child == 0) {  // writes 8 MiB, says so, then waits to be killed
            ::close(ready[0]);
            AtomicFile f(target);
            const std::string block(1 << 20, 'x');
            for (int i = 0; i < 8; ++i) f.write(block.data(), block.size());
            const char c = 1;
            (void)!::write(ready[1], &c, 1);
            ::pause();
            ::_exit(0);
        }
        ::close(ready[1]);
        char c = 0;
        QCOMPARE(::read(ready[0], &c, 1), ssize_t{1});
        ::close(ready[0]);
        QCOMPARE(tstest::nameless_files_open(child, dir.path()), 1);
        QCOMPARE(names_in(dir).size(), std::size_t{0});
        ::kill(child, SIGKILL);
        int status = 0;
        QCOMPARE(::waitpid(child, &status, 0), child);
        QVERIFY(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL);
        QCOMPARE(names_in(dir).size(), std::size_t{0});
    }
};

QTEST_APPLESS_MAIN(TestAtomicFile)
#include "test_atomic_file.moc"
