// Which MM-CSF output rows get fp32 copies of their own and which copy a position adds into
// (engine/cuda/hot_rows_rule.hpp), on the host: no device needed. test_mttkrp_cuda runs the
// copies against the oracle (mmcsfHeavyRowsStayAccurate).
#include "cuda/hot_rows_rule.hpp"
#include "test_support.hpp"

#include <vector>

using namespace tscope::gpu;

class TestHotRowsRule : public QObject {
    Q_OBJECT

private Q_SLOTS:
    // A row at the limit keeps its one place; one add past it takes two copies; the copies of
    // the hot rows follow one another in row order.
    void rowsPastTheLimitGetCopies() {
        const std::vector<std::uint64_t> chains = {kHotChain, kHotChain + 1, 3, 5 * kHotChain, 0};
        const std::vector<HotRow> hot = plan_hot_rows(chains);
        QCOMPARE(hot.size(), std::size_t{2});
        QCOMPARE(hot[0].row, 1u);
        QCOMPARE(hot[0].base, 0u);
        QCOMPARE(hot[0].copies, 2u);
        QCOMPARE(hot[1].row, 3u);
        QCOMPARE(hot[1].base, 2u);
        QCOMPARE(hot[1].copies, 5u);
        QCOMPARE(hot_copies(hot), std::uint64_t{7});
        QVERIFY(plan_hot_rows({1, 2, kHotChain}).empty());
        QCOMPARE(hot_copies({}), std::uint64_t{0});
    }

    // Delicious-4d's heaviest mode-2 row (7,447,840 nonzeros) in chains of 8,192 at most: 910 copies.
    void delicious4dHeaviestRow() {
        const std::vector<HotRow> hot = plan_hot_rows({7'447'840});
        QCOMPARE(hot.size(), std::size_t{1});
        QCOMPARE(hot[0].copies, 910u);
        QVERIFY(7'447'840.0 / hot[0].copies <= double(kHotChain));
    }

    // Positions go to a row's copies a span at a time, round robin, after the array's rows.
    void positionsTakeCopiesSpanBySpan() {
        const HotRow h{7, 10, 3};
        QCOMPARE(hot_id(0, 100, h), 110u);
        QCOMPARE(hot_id(kHotSpan - 1, 100, h), 110u);
        QCOMPARE(hot_id(kHotSpan, 100, h), 111u);
        QCOMPARE(hot_id(2 * kHotSpan, 100, h), 112u);
        QCOMPARE(hot_id(3 * kHotSpan, 100, h), 110u);
    }

    // At the leaves every position is an add: row 4 at 300 of 600 positions passes a limit of
    // 100 and takes 3 copies, its positions renumbered past the array's rows (bound 600) a span
    // at a time; the other rows keep their ids.
    void leavesRenumberTheirHotRows() {
        std::vector<std::uint32_t> a(600);
        for (std::uint32_t i = 0; i < 600; ++i) a[i] = i % 2 ? i : 4;
        QCOMPARE(hot_chains(a, false)[4], std::uint64_t{300});
        const std::vector<std::uint32_t> ids = hot_ids(a, false, 100);
        QCOMPARE(ids.size(), a.size());
        QCOMPARE(ids[0], 600u);
        QCOMPARE(ids[kHotSpan], 601u);
        QCOMPARE(ids[2 * kHotSpan], 602u);
        QCOMPARE(ids[1], 1u);
        QCOMPARE(ids[599], 599u);
        QCOMPARE(hot_ids(a, false, 300), a);  // at the limit: unchanged
    }

    // At a level between a run is one flush, and a long run one more for every 8 of its
    // positions: 1,000 positions of row 7 in one run count 1 + 1,000 / 8 = 126 adds.
    void levelsBetweenCountRuns() {
        std::vector<std::uint32_t> a(1000, 7);
        a.push_back(3);
        QCOMPARE(hot_chains(a, true)[7], std::uint64_t{126});
        QCOMPARE(hot_chains(a, true)[3], std::uint64_t{1});
        const std::vector<std::uint32_t> ids = hot_ids(a, true, 100);  // 2 copies, after rows 0-7
        QCOMPARE(ids[0], 8u);
        QCOMPARE(ids[kHotSpan], 9u);
        QCOMPARE(ids[1000], 3u);
        std::vector<std::uint32_t> alternating(1000);
        for (std::uint32_t i = 0; i < 1000; ++i) alternating[i] = i % 2;  // every position a run
        QCOMPARE(hot_chains(alternating, true)[1], std::uint64_t{562});   // 500 runs, 500 / 8 more
    }

    // COO's chains at its teams' group (128 nonzeros): a slice of 100,000 nonzeros in one run is
    // 1 + 100,000 / 128 = 782 adds; rows 1 and 5 alternate over 10,000 positions, each a run, so
    // 5,000 x 129 / 128 = 5,039 adds each. Past a limit of 1,000 rows 1 and 5 are hot, past 700
    // row 2 too; the slots name each hot row's number.
    void cooChainsAndSlots() {
        std::vector<std::uint32_t> a(100000, 2);
        for (int i = 0; i < 10000; ++i) a.push_back(i % 2 ? 5 : 1);
        const std::vector<std::uint64_t> chains = row_chains(a, 128);
        QCOMPARE(chains.size(), std::size_t{6});
        QCOMPARE(chains[2], std::uint64_t{782});
        QCOMPARE(chains[5], std::uint64_t{5000 * 129 / 128});
        const std::vector<HotRow> hot = plan_hot_rows(chains, 1000);
        QCOMPARE(hot.size(), std::size_t{2});
        QCOMPARE(hot[1].row, 5u);
        const std::vector<HotRow> hot2 = plan_hot_rows(chains, 700);
        QCOMPARE(hot2.size(), std::size_t{3});
        const HotBitmap m = hot_bitmap(hot2, chains.size());
        QCOMPARE(hot_slot(m, 0), kColdRow);
        QCOMPARE(hot_slot(m, 2), 1u);
        QCOMPARE(hot2[hot_slot(m, 5)].row, 5u);
        QCOMPARE(hot2[hot_slot(m, 2)].copies, 2u);  // ceil(782 / 700)
    }

    // The bitmap's lookup names every hot row's number and no other row, over many words: rows
    // hot at random (about one in 7, whole words of them and empty words among them), the last
    // word partial.
    void bitmapNamesEachHotRow() {
        const std::uint64_t rows = 10'000'003;
        std::vector<std::uint64_t> chains(rows, 1);
        std::uint64_t x = 99;
        for (std::uint64_t r = 0; r < rows; ++r) {
            x = x * 6364136223846793005ULL + 1442695040888963407ULL;
            if ((x >> 60) < 2 || (r >= 64 && r < 128)) chains[r] = 100 + (x >> 50) % 1000;
        }
        chains[rows - 1] = 5000;
        const std::vector<HotRow> hot = plan_hot_rows(chains, 50);
        const HotBitmap m = hot_bitmap(hot, rows);
        QCOMPARE(m.size(), std::uint64_t{(rows + 31) / 32});
        std::size_t next = 0;
        for (std::uint64_t r = 0; r < rows; ++r) {
            const std::uint32_t s = hot_slot(m, r);
            if (next < hot.size() && hot[next].row == r) {
                if (s != next) QFAIL(qPrintable(QString("row %1: %2, not %3").arg(r).arg(s).arg(next)));
                ++next;
            } else if (s != kColdRow) {
                QFAIL(qPrintable(QString("cold row %1 named %2").arg(r).arg(s)));
            }
        }
        QCOMPARE(next, hot.size());
        QVERIFY(hot.size() > rows / 10);
    }

    // Copy ids follow the rows' in 32-bit arrays: none where rows and copies would pass 2^32.
    void copiesThatWouldNotFitAreNone() {
        std::vector<std::uint64_t> chains(8, 0);
        chains[0] = (std::uint64_t{1} << 32) * kHotChain;  // 2^32 copies
        QVERIFY(plan_hot_rows(chains).empty());
        chains[0] = 2 * kHotChain;
        QCOMPARE(plan_hot_rows(chains).size(), std::size_t{1});
    }
};

QTEST_APPLESS_MAIN(TestHotRowsRule)
#include "test_hot_rows_rule.moc"
