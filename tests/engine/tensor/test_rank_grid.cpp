// The distributed CPD's grid alone, on the CPU (no MPI): --grid parsing and its errors, the grid
// chosen when none is given, the layers of each mode, and that the blocks of a grid hold every
// nonzero exactly once.
#include "test_support.hpp"
#include "tscope/error.hpp"
#include "tscope/io/tensor_io.hpp"
#include "tscope/tensor/rank_grid.hpp"

using namespace tscope;

namespace {

int product(const std::vector<int>& g) {
    int p = 1;
    for (int x : g) p *= x;
    return p;
}

// Every nonzero's block, found from its layers; the blocks' nonzeros must add up to nnz.
std::vector<std::uint64_t> block_sizes(const CooTensor& t, const std::vector<int>& grid) {
    const auto cuts = layer_cuts(t, grid);
    std::vector<std::uint64_t> per(static_cast<std::size_t>(product(grid)), 0);
    std::vector<int> coords(grid.size());
    for (std::uint64_t z = 0; z < t.nnz(); ++z) {
        for (int m = 0; m < t.order(); ++m) {
            const std::uint64_t i = t.index(m, z);
            const int l = layer_of(cuts[std::size_t(m)], i);
            if (i < cuts[std::size_t(m)][std::size_t(l)] || i >= cuts[std::size_t(m)][std::size_t(l) + 1]) return {};
            coords[std::size_t(m)] = l;
        }
        ++per[std::size_t(block_rank(grid, coords))];
    }
    return per;
}

}  // namespace

class TestRankGrid : public QObject {
    Q_OBJECT

private slots:
    void parsesAGrid() {
        QCOMPARE(parse_grid("2x2x1", 3, 4), std::vector<int>({2, 2, 1}));
        QCOMPARE(parse_grid("3", 1, 3), std::vector<int>({3}));
        QCOMPARE(grid_name({2, 1, 3, 1}), std::string("2x1x3x1"));
    }

    void badGridsSayWhatWasExpected() {
        for (const char* bad : {"2x2", "2x2x2", "2x0x2", "2xx2", "ax2x2", "2x2x1x", "", "-2x-2x1", "2.0x2x1"}) {
            try {
                parse_grid(bad, 3, 4);
                QFAIL(qPrintable(QString("'%1' was accepted").arg(bad)));
            } catch (const InputError& e) {
                const std::string msg = e.what();
                QVERIFY2(msg.find(std::string("'") + bad + "'") != std::string::npos, e.what());
                QVERIFY2(msg.find("3 positive factors") != std::string::npos, e.what());
            }
        }
    }

    // Any order, any number of ranks: the product is the ranks; primes go to the longest modes.
    void chosenGridsCoverTheRanks() {
        for (int ranks = 1; ranks <= 64; ++ranks)
            for (const auto& dims : {std::vector<std::uint64_t>{100, 80, 60}, std::vector<std::uint64_t>{5, 5, 5, 5, 5},
                                     std::vector<std::uint64_t>{1000}, std::vector<std::uint64_t>{943, 1682, 31}})
                QCOMPARE(product(choose_grid(dims, ranks)), ranks);
        QCOMPARE(choose_grid({100000, 80000, 60000}, 4), std::vector<int>({2, 2, 1}));
        QCOMPARE(choose_grid({10, 1000, 10}, 4), std::vector<int>({1, 4, 1}));
        QCOMPARE(choose_grid({50, 50, 50}, 3), std::vector<int>({3, 1, 1}));
        QCOMPARE(choose_grid({50, 50, 50}, 7), std::vector<int>({7, 1, 1}));
        QVERIFY_THROWS_EXCEPTION(InputError, choose_grid({10, 10}, 0));
    }

    void coordsAndRanksRoundTrip() {
        const std::vector<int> grid{3, 1, 2, 2};
        for (int r = 0; r < product(grid); ++r) QCOMPARE(block_rank(grid, block_coords(grid, r)), r);
        QCOMPARE(block_coords(grid, 0), std::vector<int>({0, 0, 0, 0}));
        QCOMPARE(block_coords(grid, 11), std::vector<int>({2, 0, 1, 1}));
    }

    void layerOfSkipsEmptyLayers() {
        const std::vector<std::uint64_t> cuts{0, 3, 3, 7};
        QCOMPARE(layer_of(cuts, 0), 0);
        QCOMPARE(layer_of(cuts, 2), 0);
        QCOMPARE(layer_of(cuts, 3), 2);
        QCOMPARE(layer_of(cuts, 6), 2);
    }

    void blocksHoldEveryNonzeroOnce_data() {
        QTest::addColumn<int>("order");
        QTest::addColumn<int>("ranks");
        for (int order : {3, 4, 5})
            for (int ranks : {2, 3, 4, 6}) QTest::addRow("order %d, %d ranks", order, ranks) << order << ranks;
    }
    void blocksHoldEveryNonzeroOnce() {
        QFETCH(int, order);
        QFETCH(int, ranks);
        std::vector<std::uint64_t> dims(static_cast<std::size_t>(order), 30);
        dims[0] = 400;
        const CooTensor t = tstest::random_tensor(dims, 20000, std::uint64_t(order * 11 + ranks), Distribution::PowerLaw);
        const auto grid = choose_grid(t.dims(), ranks);
        const auto per = block_sizes(t, grid);
        QCOMPARE(per.size(), std::size_t(ranks));
        std::uint64_t sum = 0;
        for (auto n : per) sum += n;
        QCOMPARE(sum, t.nnz());
        // layers balanced by nonzeros: each mode's cut layers hold shares near 1/p of the nonzeros
        const auto cuts = layer_cuts(t, grid);
        for (int m = 0; m < order; ++m) QCOMPARE(cuts[std::size_t(m)].size(), std::size_t(grid[std::size_t(m)] + 1));
    }

    void realTensor() {
        const std::string path = tstest::shared_tensor("jf17k-4d.tns");
        if (path.empty()) QSKIP("../shared/data is absent (a fresh clone): skipped");
        const CooTensor t = load_tensor(path).tensor;
        for (int ranks : {2, 3, 4}) {
            const auto per = block_sizes(t, choose_grid(t.dims(), ranks));
            std::uint64_t sum = 0;
            for (auto n : per) sum += n;
            QCOMPARE(sum, t.nnz());
        }
        QVERIFY_THROWS_EXCEPTION(InputError, layer_cuts(t, {2, 2}));
    }
};

QTEST_APPLESS_MAIN(TestRankGrid)
#include "test_rank_grid.moc"
