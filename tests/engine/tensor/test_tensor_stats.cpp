// Slice and fiber statistics against a brute-force count, and on a hand-computed tensor.
#include <bit>
#include <cmath>
#include <set>

#include "test_support.hpp"
#include "tscope/tensor/coo_ops.hpp"
#include "tscope/tensor/tensor_stats.hpp"

using namespace tscope;

namespace {

// Groups nonzeros by a key function and returns the group sizes.
template <class Key>
std::map<std::vector<std::uint64_t>, std::uint64_t> group_sizes(const CooTensor& t, Key key) {
    std::map<std::vector<std::uint64_t>, std::uint64_t> out;
    for (std::uint64_t n = 0; n < t.nnz(); ++n) ++out[key(n)];
    return out;
}

void check_against_brute_force(const CooTensor& t) {
    const TensorStats s = compute_stats(t);
    QCOMPARE(int(s.modes.size()), t.order());
    for (int mode = 0; mode < t.order(); ++mode) {
        const auto slices = group_sizes(t, [&](std::uint64_t n) { return std::vector<std::uint64_t>{t.index(mode, n)}; });
        const auto fibers = group_sizes(t, [&](std::uint64_t n) {
            std::vector<std::uint64_t> k;
            for (int m = 0; m < t.order(); ++m)
                if (m != mode) k.push_back(t.index(m, n));
            return k;
        });
        const ModeStats& ms = s.modes[static_cast<std::size_t>(mode)];
        QCOMPARE(ms.slices, std::uint64_t(slices.size()));
        QCOMPARE(ms.fibers, std::uint64_t(fibers.size()));
        std::uint64_t max_fiber = 0, sum = 0;
        for (auto& [k, c] : fibers) max_fiber = std::max(max_fiber, c), sum += c;
        QCOMPARE(ms.fiber_nnz.max, max_fiber);
        QCOMPARE(sum, t.nnz());
        QVERIFY(std::fabs(ms.fiber_nnz.mean - double(t.nnz()) / double(fibers.size())) < 1e-9);
        // the whole distribution of fiber lengths, whichever way the fibers were grouped
        std::vector<std::uint64_t> hist;
        double sq = 0;
        for (auto& [k, c] : fibers) {
            const auto bin = static_cast<std::size_t>(std::bit_width(c) - 1);
            if (hist.size() <= bin) hist.resize(bin + 1, 0);
            ++hist[bin];
            sq += double(c) * double(c);
        }
        QCOMPARE(ms.fiber_nnz.log2_histogram, hist);
        const double mean = double(t.nnz()) / double(fibers.size());
        QVERIFY(std::fabs(ms.fiber_nnz.std - std::sqrt(std::max(0.0, sq / double(fibers.size()) - mean * mean))) < 1e-9);
        std::uint64_t hist_total = 0;
        for (auto h : ms.slice_nnz.log2_histogram) hist_total += h;
        QCOMPARE(hist_total, ms.slices);
    }
}

}  // namespace

class TestTensorStats : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void handComputed() {
        // 2x3x2 tensor with 4 nonzeros (0-based coordinates):
        // (0,0,0) (0,0,1) (0,2,1) (1,2,1)
        CooTensor t({2, 3, 2});
        t.resize(4);
        const std::vector<std::vector<std::uint64_t>> coords{{0, 0, 0}, {0, 0, 1}, {0, 2, 1}, {1, 2, 1}};
        for (std::size_t n = 0; n < coords.size(); ++n) t.set(n, coords[n], 1.0);
        const TensorStats s = compute_stats(t);
        // mode 1 slices: i=0 holds 3, i=1 holds 1
        QCOMPARE(s.modes[0].slices, std::uint64_t{2});
        QCOMPARE(s.modes[0].slice_nnz.max, std::uint64_t{3});
        QCOMPARE(s.modes[0].slice_nnz.mean, 2.0);
        QCOMPARE(s.modes[0].slice_nnz.std, 1.0);
        // mode-1 fibers (vary i): (j,k) = (0,0) (0,1) (2,1): 3 fibers, (2,1) holds 2
        QCOMPARE(s.modes[0].fibers, std::uint64_t{3});
        QCOMPARE(s.modes[0].fiber_nnz.max, std::uint64_t{2});
        // mode 2 slices: j=0 and j=2; j=1 is empty
        QCOMPARE(s.modes[1].slices, std::uint64_t{2});
        // mode-3 fibers (vary k): (i,j) = (0,0) holds 2, (0,2) 1, (1,2) 1
        QCOMPARE(s.modes[2].fibers, std::uint64_t{3});
        QCOMPARE(s.modes[2].fiber_nnz.log2_histogram, (std::vector<std::uint64_t>{2, 1}));
        QCOMPARE(s.density, 4.0 / 12.0);
    }

    void randomTensorsMatchBruteForce_data() {
        QTest::addColumn<int>("order");
        QTest::addColumn<int>("dist");
        for (int order : {2, 3, 4, 5})
            for (int dist : {0, 1, 2})
                QTest::addRow("order %d dist %d", order, dist) << order << dist;
    }
    void randomTensorsMatchBruteForce() {
        QFETCH(int, order);
        QFETCH(int, dist);
        std::vector<std::uint64_t> dims(static_cast<std::size_t>(order), 12);
        dims[0] = 40;
        const std::uint64_t nnz = order == 2 ? 100 : 600;  // 40 x 12 has only 480 cells
        CooTensor t = tstest::random_tensor(dims, nnz, std::uint64_t(order * 10 + dist), Distribution(dist));
        check_against_brute_force(t);  // sorted (generator output)
        std::vector<std::uint64_t> rev(t.nnz());
        for (std::uint64_t n = 0; n < t.nnz(); ++n) rev[n] = t.nnz() - 1 - n;
        apply_permutation(t, rev);
        check_against_brute_force(t);  // unsorted
    }

    void hugeModesUseSortingNotCountArrays() {
        CooTensor t({1ULL << 40, 1ULL << 35, 7});
        t.resize(3);
        t.set(0, std::vector<std::uint64_t>{(1ULL << 40) - 1, 5, 1}, 1);
        t.set(1, std::vector<std::uint64_t>{(1ULL << 40) - 1, 6, 1}, 1);
        t.set(2, std::vector<std::uint64_t>{3, 5, 1}, 1);
        check_against_brute_force(t);
    }

    void cancellationStops() {
        CooTensor t = tstest::random_tensor({100, 100, 100}, 10000, 1);
        AtomicRunControl control;
        control.request_cancel();
        QVERIFY_THROWS_EXCEPTION(Cancelled, compute_stats(t, control));
    }
};

QTEST_APPLESS_MAIN(TestTensorStats)
#include "test_tensor_stats.moc"
