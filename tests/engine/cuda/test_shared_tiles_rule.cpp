// Where MTTKRP runs over shared-memory tiles and how many nonzeros a block takes
// (engine/cuda/shared_tiles_rule.hpp), on the host: no device needed. test_mttkrp_cuda runs the
// tiles against the oracle.
#include "cuda/shared_tiles_rule.hpp"
#include "test_support.hpp"

#include <array>
#include <vector>

using namespace tscope::gpu;

class TestSharedTilesRule : public QObject {
    Q_OBJECT

private Q_SLOTS:
    // Session 79's shapes (one H200): the uniform shape's mode 1 (76.9M nonzeros in 55.6M fibers,
    // 18 x 29 tiles) takes the tiles; the nell-2 shape's (fibers of 4) keeps the fiber kernels;
    // 20M uniform nonzeros take them on mode 1 (40 x 30 tiles, 16.7K a tile) but not on mode 2
    // (40 x 40, 12.5K a tile).
    void sessionShapes() {
        QCOMPARE(tile_count(9184, 28818), std::uint64_t{18 * 29});
        QVERIFY(tiles_wanted(55'600'000, 76'900'000, tile_count(9184, 28818), TilesSwitch::Rule));
        QVERIFY(!tiles_wanted(19'000'000, 76'900'000, tile_count(9184, 28818), TilesSwitch::Rule));
        QVERIFY(tiles_wanted(19'000'000, 20'000'000, tile_count(20000, 30000), TilesSwitch::Rule));
        QVERIFY(!tiles_wanted(19'000'000, 20'000'000, tile_count(20000, 60000), TilesSwitch::Rule));  // 8.5K a tile
        // session 82's smallest: 1M uniform nonzeros over 96 tiles (10.4K a tile) ran faster over them
        QVERIFY(tiles_wanted(999'000, 1'000'000, tile_count(8000, 6000), TilesSwitch::Rule));
    }

    // The edges: exactly 2 nonzeros a fiber is not short; exactly 10K a tile is dense enough;
    // exactly kTileFewest nonzeros is large enough, one fewer is not.
    void edges() {
        QVERIFY(!fibers_short(500, 1000));
        QVERIFY(fibers_short(501, 1000));
        const std::uint64_t tiles = kTileFewest / kTileDenseEnough;  // 97, so 10,309 a tile
        QVERIFY(tiles_wanted(kTileFewest, kTileFewest, tiles, TilesSwitch::Rule));
        QVERIFY(!tiles_wanted(kTileFewest, kTileFewest - 1, 1, TilesSwitch::Rule));
        QVERIFY(!tiles_wanted(kTileFewest, kTileFewest, kTileFewest / kTileDenseEnough + 1, TilesSwitch::Rule));
        QVERIFY(!tiles_wanted(1, 1, 0, TilesSwitch::Rule));
        // session 79's 0.6M uniform tensor (50K a tile, fibers of about 1): too small
        QVERIFY(!tiles_wanted(590'000, 600'000, 12, TilesSwitch::Rule));
    }

    // The switch overrides the rule both ways.
    void switchForces() {
        QVERIFY(tiles_wanted(1, 100, 1000, TilesSwitch::On));
        QVERIFY(!tiles_wanted(55'600'000, 76'900'000, 522, TilesSwitch::Off));
    }

    // 64K a block on large trees; fewer so that an H200's 132 SMs get 8 blocks each, down to 4K;
    // a forced chunk of 1,024 to 2^24.
    // Rank 32 by the rule; rank 16 (96 KiB a block) only when forced; no other rank.
    void ranks() {
        QCOMPARE(tile_bytes(32), std::uint64_t{192 * 1024});
        QCOMPARE(tile_bytes(16), std::uint64_t{96 * 1024});
        QVERIFY(tiles_rank(32));
        QVERIFY(tiles_rank(16));  // by the rule since session 81's measurement
        for (std::uint64_t R : {1, 8, 24, 31, 33, 64}) QVERIFY(!tiles_rank(R));
    }

    // MM-CSF's partitions: by the rule unless TENSORSCOPE_MMCSF_TILES=0, or forced; never off.
    void severalTrees() {
        QVERIFY(tiles_for_trees(1, TilesSwitch::Rule, false));
        QVERIFY(!tiles_for_trees(3, TilesSwitch::Rule, false));  // TENSORSCOPE_MMCSF_TILES=0
        QVERIFY(tiles_for_trees(3, TilesSwitch::Rule, true));    // the default since session 81
        QVERIFY(tiles_for_trees(3, TilesSwitch::On, false));
        QVERIFY(!tiles_for_trees(3, TilesSwitch::Off, true));
    }

    void chunks() {
        QCOMPARE(tile_chunk(76'900'000, 132, 0), kTileChunk);
        QCOMPARE(tile_chunk(20'000'000, 132, 0), std::uint64_t{20'000'000 / (8 * 132)});
        QCOMPARE(tile_chunk(600'000, 132, 0), kTileSmallChunk);
        QCOMPARE(tile_chunk(200'000, 0, 0), std::uint64_t{200'000 / 8});  // no SM count: one
        QCOMPARE(tile_chunk(76'900'000, 132, 100), std::uint64_t{1024});
        QCOMPARE(tile_chunk(76'900'000, 132, 32768), std::uint64_t{32768});
        QCOMPARE(tile_chunk(76'900'000, 132, std::uint64_t{1} << 40), kTileMostChunk);
    }

    // Each tile cut into chunks, the last one shorter, the tiles one after another and empty
    // ones skipped: every nonzero in exactly one block, of its own tile.
    void itemsCoverEveryNonzeroOnce() {
        const std::vector<TileItem> items = tile_items({0, 5, 3, 10, 0}, 4);
        const std::vector<std::array<std::uint32_t, 3>> want = {{1, 0, 4},  {1, 4, 5},   {2, 5, 8},
                                                                {3, 8, 12}, {3, 12, 16}, {3, 16, 18}};
        QCOMPARE(items.size(), want.size());
        for (std::size_t i = 0; i < items.size(); ++i) {
            QCOMPARE(items[i].tile, want[i][0]);
            QCOMPARE(items[i].begin, want[i][1]);
            QCOMPARE(items[i].end, want[i][2]);
        }
        QVERIFY(tile_items({}, 4).empty());
        QCOMPARE(tile_items({7}, 65536).size(), std::size_t{1});
    }
};

QTEST_APPLESS_MAIN(TestSharedTilesRule)
#include "test_shared_tiles_rule.moc"
