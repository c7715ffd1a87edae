// The engine's parallel helpers in tensor/radix_sort: the in-place inclusive scan, in 64 and 32
// bits, against a serial running sum, on lengths around the thread count and the parallel cut.
#include <QtTest>
#include <cstdint>
#include <random>
#include <vector>

#include "tensor/radix_sort.hpp"

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
};

QTEST_APPLESS_MAIN(TestRadixSort)
#include "test_radix_sort.moc"
