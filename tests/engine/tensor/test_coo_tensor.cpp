// CooTensor and the whole-tensor operations of coo_ops.hpp.
#include <algorithm>
#include <numeric>
#include <random>
#include <tuple>

#include "test_support.hpp"
#include "tscope/tensor/coo_ops.hpp"

using namespace tscope;

class TestCooTensor : public QObject {
    Q_OBJECT

private Q_SLOTS:
    // Keys wider than 64 bits (here 2^90 cells) sort by stable radix passes over groups of
    // modes: the order must be lexicographic, ties in input order, and a permutation.
    void sortsKeysWiderThan64Bits() {
        const std::uint64_t D = std::uint64_t{1} << 30;
        CooTensor t({D, D, D});
        const std::uint64_t n = 200000;  // above the parallel threshold
        t.resize(n);
        std::mt19937_64 rng(5);
        for (std::uint64_t z = 0; z < n; ++z)  // few distinct leading indices: many ties below them
            t.set(z, std::vector<std::uint64_t>{rng() % 7, rng() % D, rng() % 3}, static_cast<double>(z));
        const std::vector<int> modes{0, 2, 1};
        QVERIFY(!key_layout(t, modes).fits);
        const std::vector<std::uint64_t> perm = sorted_order(t, modes);
        QCOMPARE(perm.size(), std::size_t(n));
        std::vector<bool> seen(n, false);
        for (std::uint64_t p : perm) {
            QVERIFY(p < n && !seen[p]);
            seen[p] = true;
        }
        for (std::uint64_t i = 1; i < n; ++i) {
            const std::uint64_t a = perm[i - 1], b = perm[i];
            const auto ka = std::make_tuple(t.index(0, a), t.index(2, a), t.index(1, a));
            const auto kb = std::make_tuple(t.index(0, b), t.index(2, b), t.index(1, b));
            QVERIFY(ka < kb || (ka == kb && a < b));
        }
    }

    void indexWidthFollowsDims() {
        QCOMPARE(CooTensor::width_for({10, 20, 30}), IndexWidth::U32);
        QCOMPARE(CooTensor::width_for({10, (1ULL << 32), 30}), IndexWidth::U32);  // indices < 2^32
        QCOMPARE(CooTensor::width_for({10, (1ULL << 32) + 1, 30}), IndexWidth::U64);
        CooTensor t({4, 5, 6});
        QCOMPARE(t.order(), 3);
        QCOMPARE(t.nnz(), std::uint64_t{0});
        QVERIFY_THROWS_EXCEPTION(Error, t.indices<std::uint64_t>(0));
    }

    void anyOrderUpToTheLimit() {
        for (int order : {1, 2, 3, 5, 8, kMaxOrder}) {
            std::vector<std::uint64_t> dims(static_cast<std::size_t>(order), 3);
            CooTensor t(dims);
            t.resize(2);
            std::vector<std::uint64_t> c(static_cast<std::size_t>(order), 2);
            t.set(1, c, 7.5);
            QCOMPARE(t.index(order - 1, 1), std::uint64_t{2});
            QCOMPARE(t.value(1), 7.5);
        }
        QVERIFY_THROWS_EXCEPTION(InputError, CooTensor(std::vector<std::uint64_t>(kMaxOrder + 1, 2)));
        QVERIFY_THROWS_EXCEPTION(InputError, CooTensor(std::vector<std::uint64_t>{3, 0, 2}));
    }

    void setRejectsOutOfRange() {
        CooTensor t({2, 2});
        t.resize(1);
        const std::vector<std::uint64_t> bad{0, 2};
        QVERIFY_THROWS_EXCEPTION(InputError, t.set(0, bad, 1.0));
        QVERIFY_THROWS_EXCEPTION(InputError, t.index(2, 0));
    }

    void sixtyFourBitIndices() {
        const std::uint64_t big = 1ULL << 40;
        CooTensor t({big, 3});
        QCOMPARE(t.index_width(), IndexWidth::U64);
        t.resize(2);
        t.set(0, std::vector<std::uint64_t>{big - 1, 2}, 1.0);
        t.set(1, std::vector<std::uint64_t>{5, 0}, 2.0);
        sort_lexicographic(t);
        QCOMPARE(t.index(0, 0), std::uint64_t{5});
        QCOMPARE(t.index(0, 1), big - 1);
    }

    void sortedOrderMatchesStdSort_data() {
        QTest::addColumn<int>("keyBits");
        QTest::newRow("key and position packed in 64 bits") << 6;
        QTest::newRow("key fits 64 bits, key + position don't (pairs)") << 20;
        QTest::newRow("keys overflow 64 bits (tuple compare)") << 30;
    }
    void sortedOrderMatchesStdSort() {
        QFETCH(int, keyBits);
        const std::vector<std::uint64_t> dims(3, std::uint64_t{1} << keyBits);
        CooTensor t(dims);
        t.resize(5000);
        std::mt19937_64 rng(3);
        for (std::uint64_t n = 0; n < t.nnz(); ++n) {
            std::vector<std::uint64_t> c;
            for (auto d : dims) c.push_back(rng() % std::min<std::uint64_t>(d, 20));
            t.set(n, c, static_cast<double>(n));
        }
        const std::vector<int> modes{2, 0, 1};
        const auto perm = sorted_order(t, modes);
        // a subset sorts to the same relative order
        std::vector<std::uint64_t> odd;
        for (std::uint64_t n = 1; n < t.nnz(); n += 2) odd.push_back(n);
        std::vector<std::uint64_t> odd_sorted;
        for (auto p : perm)
            if (p % 2) odd_sorted.push_back(p);
        QVERIFY(sorted_order(t, modes, odd) == odd_sorted);
        std::vector<std::uint64_t> expected(t.nnz());
        std::iota(expected.begin(), expected.end(), 0);
        std::stable_sort(expected.begin(), expected.end(), [&](auto a, auto b) {
            for (int m : modes)
                if (t.index(m, a) != t.index(m, b)) return t.index(m, a) < t.index(m, b);
            return false;
        });
        QVERIFY(perm == expected);
    }

    void sumDuplicatesMatchesMap_data() {
        QTest::addColumn<bool>("presorted");
        QTest::newRow("unsorted input") << false;
        QTest::newRow("sorted input") << true;
    }
    void sumDuplicatesMatchesMap() {
        QFETCH(bool, presorted);
        CooTensor t({6, 5, 4, 3});
        t.resize(3000);  // 360 cells: many duplicates
        std::mt19937_64 rng(11);
        for (std::uint64_t n = 0; n < t.nnz(); ++n)
            t.set(n, std::vector<std::uint64_t>{rng() % 6, rng() % 5, rng() % 4, rng() % 3}, static_cast<double>(rng() % 7));
        if (presorted) sort_lexicographic(t);
        const auto expected = tstest::as_map(t);
        const std::uint64_t merged = sum_duplicates(t);
        QCOMPARE(merged, 3000 - expected.size());
        QCOMPARE(t.nnz(), std::uint64_t(expected.size()));
        QVERIFY(is_sorted_lexicographic(t));
        QVERIFY(tstest::as_map(t) == expected);
        QCOMPARE(sum_duplicates(t), std::uint64_t{0});  // idempotent
    }

    void noDuplicatesLeavesTensorUntouched() {
        CooTensor t = tstest::random_tensor({30, 30, 30}, 500, 5);
        std::mt19937_64 rng(1);
        std::vector<std::uint64_t> perm(t.nnz());
        std::iota(perm.begin(), perm.end(), 0);
        std::shuffle(perm.begin(), perm.end(), rng);
        apply_permutation(t, perm);
        const CooTensor before = t;
        QCOMPARE(sum_duplicates(t), std::uint64_t{0});
        for (std::uint64_t n = 0; n < t.nnz(); ++n) QCOMPARE(t.index(1, n), before.index(1, n));
    }

    void sameEntriesIsOrderIndependent() {
        CooTensor a = tstest::random_tensor({20, 20, 20}, 300, 2);
        CooTensor b = a;
        std::vector<std::uint64_t> perm(b.nnz());
        std::iota(perm.rbegin(), perm.rend(), 0);
        apply_permutation(b, perm);
        std::string why;
        QVERIFY2(same_entries(a, b, &why), why.c_str());
        b.set(7, std::vector<std::uint64_t>{b.index(0, 7), b.index(1, 7), b.index(2, 7)}, b.value(7) + 1e-12);
        QVERIFY(!same_entries(a, b, &why));
        QVERIFY(why.find("values differ") != std::string::npos);
    }

    void valueTypeConversion() {
        CooTensor a = tstest::random_tensor({9, 9, 9}, 50, 4);
        CooTensor f = a.with_value_type(ValueType::F32);
        QCOMPARE(f.value_type(), ValueType::F32);
        QCOMPARE(f.bytes(), std::uint64_t{50 * (3 * 4 + 4)});
        for (std::uint64_t n = 0; n < a.nnz(); ++n) QCOMPARE(f.value(n), double(float(a.value(n))));
    }

    // A sort of millions of entries looks at Cancel between its passes, not only before or
    // after: a cancel in the Kernels tab waits one pass, not the whole build.
    void sortChecksCancelBetweenPasses() {
        const CooTensor t = tstest::random_tensor({100000, 80000, 60000}, 200000, 5);
        tstest::CountingControl counting;
        const auto perm = sorted_order(t, natural_modes(3), counting);
        QCOMPARE(perm, sorted_order(t, natural_modes(3)));
        QVERIFY2(counting.checks() >= 4, qPrintable(QString("%1 checks").arg(counting.checks())));  // keys, positions, passes
        tstest::CountingControl cancelMidway(3);
        QVERIFY_THROWS_EXCEPTION(Cancelled, sorted_order(t, natural_modes(3), cancelMidway));
        QCOMPARE(cancelMidway.checks(), std::uint64_t{3});
    }
};

QTEST_APPLESS_MAIN(TestCooTensor)
#include "test_coo_tensor.moc"
