// SIGTERM in the GUI (issue 24): the signal reaches the GUI thread as received(sig) instead of
// ending the process, and the job it cancels removes the temporary it was writing. In process:
// the handler must neither kill the test nor leave the file behind.
#include <QDir>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <chrono>
#include <csignal>
#include <thread>

#include "jobs/EngineJob.hpp"
#include "test_support.hpp"
#include "tscope/io/tensor_io.hpp"
#include "views/SignalQuit.hpp"

using namespace tsui;

namespace {

// Slows a write down between its 16 MB pieces, so that the test sees the temporary.
struct SlowControl : tscope::RunControl {
    explicit SlowControl(tscope::RunControl& inner) : inner(inner) {}
    void progress(std::uint64_t done, std::uint64_t total) override {
        inner.progress(done, total);
        std::this_thread::sleep_for(std::chrono::milliseconds(150));
    }
    bool cancelled() const override { return inner.cancelled(); }
    tscope::RunControl& inner;
};

}  // namespace

class TestSignalQuit : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void sigtermCancelsTheJobAndItsTemporaryGoes() {
        QTemporaryDir dir;
        const std::string target = dir.filePath(QStringLiteral("out.tsb")).toStdString();
        // 3M nonzeros of order 3 with double values: 60 MB, four pieces of the .tsb writer
        const auto tensor = std::make_shared<tscope::CooTensor>(tstest::random_tensor({1000, 1000, 1000}, 3000000, 7));

        SignalQuit quit;
        EngineJob job;
        QSignalSpy received(&quit, &SignalQuit::received);
        QSignalSpy cancelled(&job, &EngineJob::cancelled);
        connect(&quit, &SignalQuit::received, &job, [&job](int) { job.cancel(); });
        bool finished = false;
        job.start(
            [tensor, target](tscope::RunControl& control) {
                SlowControl slow(control);
                tscope::save_tensor(*tensor, target, slow);
                return 0;
            },
            [&finished](int) { finished = true; });

        bool seen = false;
        for (int i = 0; i < 400 && !seen && job.isBusy(); ++i) {
            QTest::qWait(10);
            seen = tstest::nameless_files_open(QCoreApplication::applicationPid(), dir.path()) > 0;
        }
        QVERIFY2(seen, "the writer's temporary never appeared");
        std::raise(SIGTERM);  // on this thread; the handler only writes to its pipe
        QTRY_COMPARE_WITH_TIMEOUT(received.size(), 1, 10000);
        QCOMPARE(received.at(0).at(0).toInt(), SIGTERM);
        QTRY_COMPARE_WITH_TIMEOUT(cancelled.size(), 1, 30000);
        QVERIFY(!finished);
        QVERIFY2(QDir(dir.path()).entryList(QDir::Files | QDir::Hidden).isEmpty(), "a temporary or a partial target was left");
        QCOMPARE(SignalQuit::exitStatus(SIGTERM), 128 + SIGTERM);
    }
};

QTEST_MAIN(TestSignalQuit)
#include "test_signal_quit.moc"
