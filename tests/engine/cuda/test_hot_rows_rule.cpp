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
