// ParallelErrors (tscope/parallel_errors.hpp) on OpenMP threads: an exception thrown on one
// thread of several comes out after the region as itself, the first one caught wins, and the
// other threads' run() does nothing once a failure is seen. The threads wait on each other
// through atomics, so the order of events is fixed whatever the scheduler does.
#include <QtTest>
#include <atomic>
#include <functional>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#ifdef _OPENMP
#include <omp.h>
#endif

#include "tscope/error.hpp"
#include "tscope/failed_allocation.hpp"
#include "tscope/parallel_errors.hpp"

using namespace tscope;

namespace {

constexpr int kThreads = 4;  // more than the test machine's cores: the waits below must not spin hot

void wait_until(const std::function<bool()>& ready) {
    while (!ready()) std::this_thread::yield();
}

}  // namespace

class TestParallelErrors : public QObject {
    Q_OBJECT
private slots:
    void init() {
#ifndef _OPENMP
        QSKIP("built without OpenMP");
#endif
    }

    // One thread of four throws a tscope::Error once the others are done: the region ends
    // normally, and rethrow() raises that error with its message.
    void oneThreadsErrorIsRethrownAfterTheRegion() {
        ParallelErrors errors;
        std::atomic<int> finished{0}, threads{0};
#pragma omp parallel num_threads(kThreads)
        {
#ifdef _OPENMP
#pragma omp single
            threads = omp_get_num_threads();
            const int me = omp_get_thread_num();
#else
            threads = 1;
            const int me = 0;
#endif
            errors.run([&] {
                if (me != threads.load() - 1) {
                    ++finished;
                    return;
                }
                wait_until([&] { return finished.load() == threads.load() - 1; });
                throw InputError("the last thread failed");
            });
        }
        QVERIFY(threads.load() > 1);
        QVERIFY(errors.failed());
        QCOMPARE(finished.load(), threads.load() - 1);
        try {
            errors.rethrow();
            QFAIL("rethrow() did not throw");
        } catch (const InputError& e) {
            QCOMPARE(std::string(e.what()), std::string("the last thread failed"));
        }
    }

    // Every thread is inside run() when thread 0 throws; the others throw only once they see its
    // failure. Thread 0's exception is the one rethrown.
    void theFirstExceptionWins() {
        ParallelErrors errors;
        std::atomic<int> inside{0}, threads{0};
#pragma omp parallel num_threads(kThreads)
        {
#ifdef _OPENMP
#pragma omp single
            threads = omp_get_num_threads();
            const int me = omp_get_thread_num();
#else
            threads = 1;
            const int me = 0;
#endif
            errors.run([&] {
                ++inside;
                wait_until([&] { return inside.load() == threads.load(); });
                if (me == 0) throw std::runtime_error("first");
                wait_until([&] { return errors.failed(); });
                throw std::runtime_error("later, thread " + std::to_string(me));
            });
        }
        QVERIFY(threads.load() > 1);
        QVERIFY_THROWS_EXCEPTION(std::runtime_error, errors.rethrow());
        try {
            errors.rethrow();
        } catch (const std::runtime_error& e) {
            QCOMPARE(std::string(e.what()), std::string("first"));
        }
    }

    // Once one thread has failed, run() on the others passes their work over: a loop's remaining
    // chunks are skipped, not computed for a result that is thrown away.
    void theOthersStopEarly() {
        ParallelErrors errors;
        std::atomic<int> ran{0};
#pragma omp parallel num_threads(kThreads)
        {
#ifdef _OPENMP
            const int me = omp_get_thread_num();
#else
            const int me = 0;
#endif
            if (me == 0) errors.run([] { throw std::bad_alloc(); });
            wait_until([&] { return errors.failed(); });
            for (int chunk = 0; chunk < 100; ++chunk) errors.run([&] { ++ran; });
        }
        QCOMPARE(ran.load(), 0);
        QVERIFY_THROWS_EXCEPTION(std::bad_alloc, errors.rethrow());
    }

    // No failure: run() reports each piece done and rethrow() is silent.
    // A worker's out of memory says its size on the thread that rethrows it, as the CLI and the
    // window read it there (sweep 68a A4: FasterTucker's said no size).
    void aWorkersFailedSizeReachesTheRethrow() {
        constexpr std::size_t kHuge = std::size_t{1} << 50;
        tscope::ParallelErrors errors;
        std::thread worker([&] { errors.run([] { std::vector<char> v(kHuge); }); });
        worker.join();
        QCOMPARE(tscope::take_failed_allocation_size(), std::size_t{0});  // not this thread's, yet
        bool threw = false;
        try {
            errors.rethrow();
        } catch (const std::bad_alloc&) {
            threw = true;
        }
        QVERIFY(threw);
        QCOMPARE(tscope::take_failed_allocation_size(), kHuge);
    }

    void noFailureThrowsNothing() {
        ParallelErrors errors;
        std::atomic<int> ran{0};
#pragma omp parallel for num_threads(kThreads)
        for (int i = 0; i < 1000; ++i) errors.run([&] { ++ran; });
        QCOMPARE(ran.load(), 1000);
        QVERIFY(!errors.failed());
        errors.rethrow();
    }
};

QTEST_APPLESS_MAIN(TestParallelErrors)
#include "test_parallel_errors.moc"
