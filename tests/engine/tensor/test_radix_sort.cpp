// The engine's parallel helpers in tensor/radix_sort: the in-place inclusive scan, in 64 and 32
// bits, against a serial running sum, on lengths around the thread count and the parallel cut;
// the radix sorts with their second buffers kept from one sort to the next (RadixScratch), and
// sorted_order_reusing (tensor/sorted_order_reusing.hpp) against sorted_order on each of its
// three ways.
#include <QtTest>
#include <algorithm>
#include <cstdint>
#include <random>
#include <vector>

#include "tensor/radix_sort.hpp"
#include "tensor/sorted_order_reusing.hpp"
#include "test_support.hpp"
#include "tscope/tensor/coo_ops.hpp"

using namespace tscope;

namespace {

template <class T>
void check_scan(std::uint64_t n, std::uint32_t seed) {
    std::mt19937 rng(seed);
    std::uniform_int_distribution<std::uint32_t> pick(0, 3);  // small steps: 32-bit sums fit
    std::vector<T> x(n);
    for (auto& v : x) v = pick(rng);
    std::vector<T> want(n);
    T sum = 0;
    for (std::uint64_t i = 0; i < n; ++i) want[i] = sum += x[i];
    detail::parallel_inclusive_scan(x);
    QCOMPARE(x, want);
}

}  // namespace

class TestRadixSort : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void inclusiveScanMatchesARunningSum_data() {
        QTest::addColumn<quint64>("n");
        for (quint64 n : {0ull, 1ull, 2ull, 3ull, 65535ull, 65536ull, 65537ull, 1000003ull})
            QTest::addRow("%llu", static_cast<unsigned long long>(n)) << n;
    }
    void inclusiveScanMatchesARunningSum() {
        QFETCH(quint64, n);
        check_scan<std::uint64_t>(n, 7);
        check_scan<std::uint32_t>(n, 8);
    }

    // One scratch through sorts of several lengths (past the parallel cut and under it, longer
    // after shorter), keys alone and with a payload, its buffers holding the last sort's leftovers:
    // the keys come out as std::sort's and the pairs as std::stable_sort's (equal keys keep their
    // payloads' order).
    void sortsReuseTheirScratch() {
        detail::RadixScratch scratch;
        std::mt19937_64 rng(11);
        for (std::uint64_t n : {300000ull, 1000ull, 500000ull, 70000ull}) {
            std::vector<std::uint64_t> keys(n);
            for (auto& k : keys) k = rng() & ((std::uint64_t{1} << 40) - 1);
            std::vector<std::uint64_t> want = keys;
            std::sort(want.begin(), want.end());
            detail::radix_sort(keys, 40, no_control(), &scratch);
            QCOMPARE(keys, want);

            std::vector<std::uint64_t> pk(n), payload(n);
            for (std::uint64_t i = 0; i < n; ++i) pk[i] = rng() % 5000, payload[i] = i;  // many equal keys
            std::vector<std::uint64_t> order(n);
            for (std::uint64_t i = 0; i < n; ++i) order[i] = i;
            std::stable_sort(order.begin(), order.end(), [&](auto a, auto b) { return pk[a] < pk[b]; });
            detail::radix_sort_pairs(pk, payload, 13, no_control(), &scratch);
            QCOMPARE(payload, order);
            QVERIFY(std::is_sorted(pk.begin(), pk.end()));
        }
    }

    // sorted_order_reusing gives sorted_order's permutation whichever way the sort goes: keys and
    // positions in 64 bits, keys alone (pairs with the positions), keys wider than 64 bits (modes
    // in groups); one scratch through all three twice, the permutation handed back each time.
    void reusingSortMatchesSortedOrder() {
        const CooTensor fits = tstest::shuffled(tstest::random_tensor({300, 200, 500}, 200000, 3), 4);
        const CooTensor pairs = tstest::shuffled(tstest::random_tensor({1ull << 30, 1ull << 30, 7}, 100000, 5), 6);
        const CooTensor wide =
            tstest::shuffled(tstest::random_tensor({1ull << 31, 1ull << 31, 1ull << 31, 3}, 80000, 7), 8);
        const std::vector<int> two{0, 1}, three{2, 0, 1};
        detail::SortScratch scratch;
        for (int round = 0; round < 2; ++round) {
            for (const CooTensor* t : {&fits, &pairs, &wide}) {
                const std::vector<int>& modes = t->order() == 4 ? three : two;
                std::vector<std::uint64_t> perm = detail::sorted_order_reusing(*t, modes, scratch);
                QCOMPARE(perm, sorted_order(*t, modes));
                scratch.keys.swap(perm);
            }
        }
    }
};

QTEST_APPLESS_MAIN(TestRadixSort)
#include "test_radix_sort.moc"
