// The generator's duplicate filter: on any thread count it keeps exactly what one serial pass
// over the keys would keep (the first occurrence of each, in order, across calls).
#include <random>
#include <unordered_set>

#include "tensor/distinct_keys.hpp"
#include "test_support.hpp"

#ifdef _OPENMP
#include <omp.h>
#endif

using tscope::detail::DistinctKeys;

class TestDistinctKeys : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void keepsTheFirstOccurrences_data() {
        QTest::addColumn<int>("threads");
        QTest::addColumn<int>("expected");  // sizes the shards: 1 shard below 65,536 keys
        for (int threads : {1, 2, 5})
            for (int expected : {1000, 300000, 2000000})
                QTest::newRow(qPrintable(QString("%1 threads, %2 expected").arg(threads).arg(expected))) << threads << expected;
    }
    void keepsTheFirstOccurrences() {
        QFETCH(int, threads);
        QFETCH(int, expected);
#ifdef _OPENMP
        omp_set_num_threads(threads);
#endif
        // two batches of keys drawn from a range small enough for many repeats, within and
        // across batches
        std::mt19937_64 rng(static_cast<std::uint64_t>(expected) + static_cast<std::uint64_t>(threads));
        const auto range = static_cast<std::uint64_t>(expected);
        DistinctKeys seen(static_cast<std::uint64_t>(expected));
        std::unordered_set<std::uint64_t> reference;
        std::uint64_t kept = 0;
        for (int batch = 0; batch < 2; ++batch) {
            std::vector<std::uint64_t> keys(static_cast<std::size_t>(expected) / 2 + 7);
            for (auto& k : keys) k = rng() % range * 0x9e3779b97f4a7c15ULL;  // spread over 64 bits, still repeating
            std::vector<std::uint8_t> keep(keys.size(), 2);
            seen.mark_new(keys.data(), keys.size(), keep.data());
            for (std::size_t i = 0; i < keys.size(); ++i) {
                const bool first = reference.insert(keys[i]).second;
                QCOMPARE(keep[i], std::uint8_t(first ? 1 : 0));
                kept += first;
            }
        }
        QVERIFY(kept > range / 4);  // the keys were mostly distinct, the repeats real
        QVERIFY(kept < static_cast<std::uint64_t>(expected) + 14);
    }
};

QTEST_APPLESS_MAIN(TestDistinctKeys)
#include "test_distinct_keys.moc"
