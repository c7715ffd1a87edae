// Density views' counts: slices, the binned two-mode map and HLS's 16^3 tile map against
// brute-force counting.
#include <map>

#include "test_support.hpp"
#include "tscope/error.hpp"
#include "tscope/io/tns_format.hpp"
#include "tscope/tensor/density_map.hpp"

using namespace tscope;

class TestDensityMap : public QObject {
    Q_OBJECT

private Q_SLOTS:
    // Dims near 2^64: binned and tiled without overflow (a mode of 2^64 - 1 indices rounded up
    // to zero tiles, and the tile map divided by it), and a shape of over 2^64 tiles refused in
    // words (its keys would have wrapped onto each other).
    void hugeDimsAreMappedOrRefused() {
        const CooTensor t = parse_tns("1 1 1 1.0\n18446744073709551615 1 1 2.0\n", "u.tns").tensor;
        const TileMap tiles = hls_tile_map(t, 0, 1, 78, 16);
        QCOMPARE(tiles.tiles, std::uint64_t{2});
        QCOMPARE(density_map(t, 0, 1, 64).values.size(), std::size_t{64});
        const CooTensor wide = parse_tns("1 1 1 1.0\n1099511627776 1099511627776 1099511627776 2.0\n", "w.tns").tensor;
        QVERIFY_THROWS_EXCEPTION(InputError, hls_tile_map(wide, 0, 1, 78, 16));
    }

    void slicesAndBinsCountEveryNonzeroOnce() {
        const CooTensor t = tstest::random_tensor({1000, 300, 50}, 20000, 3, Distribution::PowerLaw);
        const auto s = slice_counts(t, 1);
        QCOMPARE(s.size(), std::size_t{300});
        std::uint64_t total = 0;
        for (auto c : s) total += c;
        QCOMPARE(total, t.nnz());
        const DensityMap m = density_map(t, 0, 1, 256);
        QCOMPARE(m.cells_x, std::uint64_t{4});  // 1000 / 256 rounded up
        QCOMPARE(m.cells_y, std::uint64_t{2});
        QCOMPARE(m.bins_x, std::uint64_t{250});
        QCOMPARE(m.bins_y, std::uint64_t{150});
        std::map<std::pair<std::uint64_t, std::uint64_t>, double> brute;
        for (std::uint64_t z = 0; z < t.nnz(); ++z) brute[{t.index(0, z) / 4, t.index(1, z) / 2}] += 1;
        for (const auto& [k, v] : brute) QCOMPARE(m.values[k.first * m.bins_y + k.second], v);
        QVERIFY_THROWS_EXCEPTION(InputError, density_map(t, 1, 1));
    }

    void tilesFindTheDenseBlocks() {
        GeneratorSpec spec;
        spec.dims = {64, 64, 64};
        spec.nnz = 3000;
        spec.distribution = Distribution::Blocks;
        spec.blocks = 1, spec.block_edge = 16, spec.seed = 2;
        const CooTensor t = generate_tensor(spec);
        const TileMap tm = hls_tile_map(t, 0, 1, 78);
        QCOMPARE(tm.tiles, std::uint64_t{1});  // one 16^3 block on the tile grid
        QCOMPARE(tm.dense_tiles, std::uint64_t{1});
        QCOMPARE(tm.dense_nnz, t.nnz());
        QCOMPARE(tm.map.max_value, 3000.0 / 4096.0);
        QVERIFY_THROWS_EXCEPTION(InputError, hls_tile_map(tstest::random_tensor({8, 8, 8, 8}, 10, 1), 0, 1));
    }
};

QTEST_APPLESS_MAIN(TestDensityMap)
#include "test_density_map.moc"
