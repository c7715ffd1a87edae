// How SpTV's shared front numbers a product's columns (engine/cuda/sptv_front_labels.hpp), on
// the host: no device needed.
#include <random>
#include <set>

#include "cuda/sptv_front_labels.hpp"
#include "test_support.hpp"

using namespace tscope::gpu;

class TestSptvFrontLabels : public QObject {
    Q_OBJECT

private Q_SLOTS:
    // The most-read columns take 0 .. n-1 in order of their counts (ties to the lower column);
    // the others c with the top bit set; a column read no time stays out of the front even where
    // it has room.
    void mostReadFirst() {
        const std::vector<std::uint32_t> counts{3, 0, 9, 3, 1, 0, 7};
        const FrontLabels f = front_labels(counts, 3);
        QCOMPARE(f.ids, (std::vector<std::uint32_t>{2, 6, 0}));
        const std::uint32_t cold = kColdColumn;
        QCOMPARE(f.label, (std::vector<std::uint32_t>{2, cold | 1, 0, cold | 3, cold | 4, cold | 5, 1}));
        QCOMPARE(f.coverage, 19.0 / 23.0);
        const FrontLabels roomy = front_labels(counts, 100);
        QCOMPARE(roomy.ids, (std::vector<std::uint32_t>{2, 6, 0, 3, 4}));
        QCOMPARE(roomy.coverage, 1.0);
        QCOMPARE(roomy.label[1], kColdColumn | 1u);  // unread: outside the front, at its own place
    }

    // On random counts: the labels are distinct; a label under n names its front entry, and every
    // other is the column itself with the top bit set, where the kernel reads the vector.
    void labelsAreABijection() {
        std::mt19937 rng(17);
        for (std::uint32_t columns : {1u, 31u, 1000u, 28818u}) {
            std::vector<std::uint32_t> counts(columns);
            for (auto& c : counts) c = rng() % 5 == 0 ? 0 : rng() % 1000;
            for (std::uint32_t capacity : {0u, 1u, 15104u}) {
                const FrontLabels f = front_labels(counts, capacity);
                const auto n = static_cast<std::uint32_t>(f.ids.size());
                QVERIFY(n <= capacity);
                std::set<std::uint32_t> seen(f.label.begin(), f.label.end());
                QCOMPARE(seen.size(), std::size_t{columns});
                for (std::uint32_t c = 0; c < columns; ++c) {
                    if (f.label[c] < n)
                        QCOMPARE(f.ids[f.label[c]], c);
                    else
                        QCOMPARE(f.label[c], c | kColdColumn);
                }
                for (std::uint32_t k = 1; k < n; ++k) QVERIFY(counts[f.ids[k - 1]] >= counts[f.ids[k]]);
            }
        }
    }

    void noNonzeros() {
        const FrontLabels f = front_labels(std::vector<std::uint32_t>(5, 0), 4);
        QVERIFY(f.ids.empty());
        QCOMPARE(f.coverage, 0.0);
        for (std::uint32_t c = 0; c < 5; ++c) QCOMPARE(f.label[c], c | kColdColumn);
    }
};

QTEST_GUILESS_MAIN(TestSptvFrontLabels)
#include "test_sptv_front_labels.moc"
