// The helper every panel runs its engine work through: one typed outcome per job on the GUI
// thread (result, failed, cancelled), progress, cancel within a bounded time, no exception
// across the event loop, and a destructor that stops and waits for running work.
#include <QElapsedTimer>
#include <QSignalSpy>
#include <QTest>
#include <QThread>
#include <atomic>
#include <functional>
#include <memory>
#include <optional>
#include <stdexcept>
#include <vector>

#include "jobs/EngineJob.hpp"
#include "views/TextFormat.hpp"
#include "tscope/error.hpp"

using namespace tsui;

namespace {

// Works until cancelled, as engine loops do between chunks; counts into `exits` when it leaves.
auto untilCancelled(std::shared_ptr<std::atomic<int>> exits = nullptr) {
    return [exits](tscope::RunControl& control) -> int {
        struct Leave {
            std::shared_ptr<std::atomic<int>> exits;
            ~Leave() {
                if (exits) ++*exits;
            }
        } leave{exits};
        control.stage("spinning");
        for (;;) {
            control.progress(250, 1000);
            control.check();
            QThread::msleep(1);
        }
    };
}

// Runs `work` on a job whose activity is "testing"; the message of its one failure, or "" when
// it did not fail exactly once.
QString failureOf(std::function<int(tscope::RunControl&)> work) {
    EngineJob job;
    job.setActivity(QStringLiteral("testing"));
    QSignalSpy failed(&job, &EngineJob::failed), idle(&job, &EngineJob::idle);
    if (!job.start(std::move(work), [](int) {}) || !idle.wait(10000) || failed.count() != 1) return {};
    return failed.front().front().toString();
}

}  // namespace

class TestEngineJob : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void finishedDeliversTheResult() {
        EngineJob job;
        QSignalSpy failed(&job, &EngineJob::failed), cancelled(&job, &EngineJob::cancelled), idle(&job, &EngineJob::idle);
        std::optional<std::vector<int>> got;
        Qt::HANDLE workerThread = nullptr, deliveryThread = nullptr;
        QVERIFY(job.start(
            [&workerThread](tscope::RunControl&) {
                workerThread = QThread::currentThreadId();
                return std::vector<int>{1, 2, 3};
            },
            [&](std::vector<int> v) {
                deliveryThread = QThread::currentThreadId();
                QVERIFY(!job.isBusy());  // a handler may start the next job
                got = std::move(v);
            }));
        QVERIFY(job.isBusy());
        QVERIFY(idle.wait(10000));
        QVERIFY(got.has_value());
        QCOMPARE(*got, (std::vector<int>{1, 2, 3}));
        QVERIFY(workerThread != QThread::currentThreadId());  // the work ran off the GUI thread
        QCOMPARE(deliveryThread, QThread::currentThreadId());
        QCOMPARE(failed.count(), 0);
        QCOMPARE(cancelled.count(), 0);
        QCOMPARE(idle.count(), 1);
        QVERIFY(!job.isBusy());
    }

    void engineErrorBecomesFailedWithItsMessage() {
        EngineJob job;
        QSignalSpy failed(&job, &EngineJob::failed), cancelled(&job, &EngineJob::cancelled), idle(&job, &EngineJob::idle);
        bool finished = false;
        QVERIFY(job.start([](tscope::RunControl&) -> int { throw tscope::InputError("mode 4 does not exist"); },
                          [&](int) { finished = true; }));
        QVERIFY(idle.wait(10000));
        QCOMPARE(failed.count(), 1);
        QCOMPARE(failed.front().front().toString(), QStringLiteral("mode 4 does not exist"));
        QCOMPARE(cancelled.count(), 0);
        QVERIFY(!finished);
    }

    // Issue 22: an allocation that fails says how much it asked for (1 PiB: more than any
    // address space here), not only "out of memory".
    void failedAllocationSaysHowMuch() {
        const QString message = failureOf([](tscope::RunControl&) -> int {
            std::vector<char> huge(std::size_t{1} << 50);
            return static_cast<int>(huge.size());
        });
        QVERIFY2(message.startsWith(QStringLiteral("out of memory while testing: it needed ")), qPrintable(message));
        QVERIFY2(message.contains(humanBytes(std::uint64_t{1} << 50)), qPrintable(message));
    }

    // ... also for the engine's aligned columns (a tensor's index and value arrays)
    void failedAlignedAllocationSaysHowMuch() {
        const QString message = failureOf([](tscope::RunControl&) -> int {
            void* p = ::operator new(std::size_t{1} << 50, std::align_val_t{64});
            ::operator delete(p, std::align_val_t{64});
            return 0;
        });
        QVERIFY2(message.contains(humanBytes(std::uint64_t{1} << 50)), qPrintable(message));
    }

    void nonStdExceptionBecomesFailed() {
        EngineJob job;
        job.setActivity(QStringLiteral("testing"));
        QSignalSpy failed(&job, &EngineJob::failed), idle(&job, &EngineJob::idle);
        bool finished = false;
        QVERIFY(job.start([](tscope::RunControl&) -> int { throw 42; }, [&](int) { finished = true; }));
        QVERIFY(idle.wait(10000));
        QCOMPARE(failed.count(), 1);
        QCOMPARE(failed.front().front().toString(), QStringLiteral("unexpected error while testing"));
        QVERIFY(!finished);
    }

    // A handler that throws while it shows the result: failed says so, and idle still comes
    // (before, the exception went into the event loop and idle never came: the GUI's
    // --screenshot waited for ever on an order-1 tensor's Density tab).
    void throwingHandlerIsFailedAndIdleStillComes() {
        EngineJob job;
        QSignalSpy failed(&job, &EngineJob::failed), idle(&job, &EngineJob::idle);
        QVERIFY(job.start([](tscope::RunControl&) { return 1; },
                          [](int) { throw std::out_of_range("vector::_M_range_check"); }));
        QVERIFY(idle.wait(10000));
        QCOMPARE(failed.count(), 1);
        QVERIFY2(failed.front().front().toString().contains(QStringLiteral("while showing the result")),
                 qPrintable(failed.front().front().toString()));
        QVERIFY(!job.isBusy());
    }

    void cancelArrivesAsCancelledPromptly() {
        EngineJob job;
        QSignalSpy failed(&job, &EngineJob::failed), cancelled(&job, &EngineJob::cancelled), idle(&job, &EngineJob::idle);
        bool finished = false;
        QVERIFY(job.start(untilCancelled(), [&](int) { finished = true; }));
        QTest::qWait(150);
        QVERIFY(job.isBusy());  // it really loops until told
        QCOMPARE(cancelled.count(), 0);
        QElapsedTimer clock;
        clock.start();
        job.cancel();
        QVERIFY(cancelled.wait(5000));
        QVERIFY2(clock.elapsed() < 2000, qPrintable(QStringLiteral("cancel took %1 ms").arg(clock.elapsed())));
        QCOMPARE(cancelled.count(), 1);
        QCOMPARE(failed.count(), 0);
        QVERIFY(!finished);
        QVERIFY(!job.isBusy());
        QTRY_COMPARE(idle.count(), 1);
    }

    void progressReportsPermilleAndStage() {
        EngineJob job;
        job.setPollInterval(10);
        QSignalSpy progress(&job, &EngineJob::progress), cancelled(&job, &EngineJob::cancelled);
        QVERIFY(job.start(untilCancelled(), [](int) {}));
        QTRY_VERIFY_WITH_TIMEOUT(progress.count() > 0 && progress.last().at(0).toInt() == 250, 5000);
        QCOMPARE(progress.last().at(1).toString(), QStringLiteral("spinning"));
        job.cancel();
        QVERIFY(cancelled.wait(5000));
    }

    // Another tensor's open stops a panel's run: the run ends cancelled, its handlers can tell it
    // was superseded (the panels' own flags for it went stale, sweep 65b), its progress is
    // silent from then on, and the next start is an ordinary run again.
    void supersedeCancelsSilentlyAndIsToldUntilTheNextStart() {
        EngineJob job;
        job.setPollInterval(10);
        QSignalSpy progress(&job, &EngineJob::progress), cancelled(&job, &EngineJob::cancelled);
        bool toldInHandler = false;
        connect(&job, &EngineJob::cancelled, this, [&] { toldInHandler = job.superseded(); });
        QVERIFY(job.start(untilCancelled(), [](int) {}));
        QTRY_VERIFY_WITH_TIMEOUT(progress.count() > 0, 5000);
        QVERIFY(!job.superseded());
        job.supersede();
        const qsizetype before = progress.count();
        QVERIFY(cancelled.wait(5000));
        QCOMPARE(progress.count(), before);
        QVERIFY(toldInHandler);
        QVERIFY(job.superseded());
        QVERIFY(job.start([](tscope::RunControl&) { return 1; }, [](int) {}));
        QVERIFY(!job.superseded());
        QTRY_VERIFY(!job.isBusy());
        QVERIFY(!job.superseded());
        EngineJob idle;
        idle.supersede();  // nothing running: nothing to tell
        QVERIFY(!idle.superseded());
    }

    void startWhileBusyIsRefused() {
        EngineJob job;
        QSignalSpy cancelled(&job, &EngineJob::cancelled);
        QVERIFY(job.start(untilCancelled(), [](int) {}));
        bool second = false;
        QVERIFY(!job.start([](tscope::RunControl&) { return 1; }, [&](int) { second = true; }));
        job.cancel();
        QVERIFY(cancelled.wait(5000));
        QTest::qWait(50);
        QVERIFY(!second);
    }

    void handlerMayStartTheNextJobAndIdleWaitsForIt() {
        EngineJob job;
        QSignalSpy idle(&job, &EngineJob::idle);
        std::vector<int> got;
        QVERIFY(job.start([](tscope::RunControl&) { return 1; }, [&](int v) {
            got.push_back(v);
            QVERIFY(job.start([](tscope::RunControl&) { return 2; }, [&](int w) { got.push_back(w); }));
        }));
        QVERIFY(idle.wait(10000));
        QTest::qWait(50);
        QCOMPARE(got, (std::vector<int>{1, 2}));
        QCOMPARE(idle.count(), 1);
    }

    void destructionWhileRunningCancelsAndWaits() {
        auto exits = std::make_shared<std::atomic<int>>(0);
        bool delivered = false;
        auto job = std::make_unique<EngineJob>();
        QVERIFY(job->start(untilCancelled(exits), [&](int) { delivered = true; }));
        QTest::qWait(100);
        QCOMPARE(exits->load(), 0);  // still running
        QElapsedTimer clock;
        clock.start();
        job.reset();
        QVERIFY2(clock.elapsed() < 5000, qPrintable(QStringLiteral("destruction took %1 ms").arg(clock.elapsed())));
        QCOMPARE(exits->load(), 1);  // the worker had left before the destructor returned
        QTest::qWait(50);            // nothing is delivered to a job that is gone
        QVERIFY(!delivered);
    }
};

QTEST_GUILESS_MAIN(TestEngineJob)
#include "test_engine_job.moc"
