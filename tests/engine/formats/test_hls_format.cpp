// HLS (hls-tcu-sptmcm Sec. V): binary linear indices, tile classification, bitmaps.
#include <bit>
#include <map>

#include "test_support.hpp"
#include "tscope/error.hpp"
#include "tscope/formats/hls_format.hpp"
#include "tscope/tensor/coo_ops.hpp"

using namespace tscope;

using Hls = HlsFormat<std::uint32_t, double>;

class TestHlsFormat : public QObject {
    Q_OBJECT

private Q_SLOTS:
    // The shapes HLS cannot hold, said before any work: its nonzero and tile bit fields past 64
    // bits, and dims near 2^64 (whose tile count once rounded up to zero).
    void refusesWhatItsIndicesCannotHold() {
        QCOMPARE(hls_refusal({100, 200, 300}), std::string());
        QVERIFY(hls_refusal({100, 200}).find("third-order") != std::string::npos);
        QVERIFY(hls_refusal({std::uint64_t{1} << 40, std::uint64_t{1} << 40, 2}).find("more than 64 bits") !=
                std::string::npos);
        QVERIFY(hls_refusal({~std::uint64_t{0}, 1, 1}).find("more than 52 bits") != std::string::npos);
    }

    // Fig. 4(a): mode sizes 6, 4, 4 give nnz_linear_bits {3, 2, 2}; the nonzero (1, 3, 3)
    // becomes {001, 11, 11}, i.e. 0011111.
    void figure4aBinaryLinearIndex() {
        CooTensor t({6, 4, 4});
        t.resize(1);
        t.set(0, std::vector<std::uint64_t>{1, 3, 3}, 2.0);
        const auto f = build_format(FormatKind::HLS, t, {});
        const Hls& h = dynamic_cast<const Hls&>(*f);
        QCOMPARE(h.nnz_linear_bits, (std::array<int, 3>{3, 2, 2}));
        QCOMPARE(h.nnz_inds.size(), std::size_t{1});
        QCOMPARE(h.nnz_inds[0], std::uint64_t{0b0011111});
        QCOMPARE(hls_unpack(h.nnz_inds[0], h.nnz_linear_bits), (std::array<std::uint64_t, 3>{1, 3, 3}));
        QCOMPARE(h.tiles(), std::uint64_t{0});
    }

    void tilesAtOrAboveTheThresholdAreDense_data() {
        QTest::addColumn<int>("threshold");
        for (int t : {1, 20, 78, 400, 5000}) QTest::addRow("T=%d", t) << t;
    }
    void tilesAtOrAboveTheThresholdAreDense() {
        QFETCH(int, threshold);
        GeneratorSpec spec;
        spec.dims = {200, 180, 170};
        spec.nnz = 30000;
        parse_distribution("blocks:40:16", spec);
        const CooTensor t = generate_tensor(spec);
        std::map<std::vector<std::uint64_t>, std::uint64_t> per_tile;  // the oracle
        for (std::uint64_t n = 0; n < t.nnz(); ++n) ++per_tile[{t.index(0, n) / 16, t.index(1, n) / 16, t.index(2, n) / 16}];
        std::uint64_t dense_tiles = 0, dense_nnz = 0;
        for (auto& [tile, count] : per_tile)
            if (count >= std::uint64_t(threshold)) ++dense_tiles, dense_nnz += count;
        FormatOptions o;
        o.hls_threshold = std::uint64_t(threshold);
        const auto f = build_format(FormatKind::HLS, t, o);
        const Hls& h = dynamic_cast<const Hls&>(*f);
        QCOMPARE(h.tiles(), dense_tiles);
        QCOMPARE(std::uint64_t(h.b_vals.size()), dense_nnz);
        QCOMPARE(std::uint64_t(h.nnz_vals.size()), t.nnz() - dense_nnz);
        QCOMPARE(std::uint64_t(h.b_bmp.size()), dense_tiles * kHlsBitmapWords);
        std::uint64_t bits = 0;
        for (auto w : h.b_bmp) bits += std::uint64_t(std::popcount(w));
        QCOMPARE(bits, dense_nnz);  // one bit per nonzero of a dense tile
        std::string why;
        QVERIFY2(same_entries(t, f->to_coo(), &why), why.c_str());
        // Eq. 16 (bits, 16-bit values) from the counts
        const std::uint64_t ns = t.nnz() - dense_nnz;
        QCOMPARE(h.paper_bits(), (8 + 8 + 8) * ns + (4 + 4 + 4) * dense_tiles + 4096 * dense_tiles + 16 * t.nnz());
    }

    void bitmapPositions() {
        // cells (0,0,0), (0,0,5), (1,2,3) of the tile at (16, 32, 0), threshold 3: one dense tile
        CooTensor t({64, 64, 64});
        t.resize(3);
        t.set(0, std::vector<std::uint64_t>{16, 32, 0}, 1.0);
        t.set(1, std::vector<std::uint64_t>{16, 32, 5}, 2.0);
        t.set(2, std::vector<std::uint64_t>{17, 34, 3}, 3.0);
        FormatOptions o;
        o.hls_threshold = 3;
        const auto f = build_format(FormatKind::HLS, t, o);
        const Hls& h = dynamic_cast<const Hls&>(*f);
        QCOMPARE(h.tiles(), std::uint64_t{1});
        QCOMPARE(hls_unpack(h.b_inds[0], h.b_linear_bits), (std::array<std::uint64_t, 3>{1, 2, 0}));
        QCOMPARE(h.b_bmp[0], (std::uint64_t{1} << 0) | (std::uint64_t{1} << 5));
        const int cell = 1 * 256 + 2 * 16 + 3;
        QCOMPARE(h.b_bmp[std::size_t(cell / 64)], std::uint64_t{1} << (cell % 64));
        QCOMPARE(std::vector<double>(h.b_vals.begin(), h.b_vals.end()), (std::vector<double>{1, 2, 3}));  // bitmap order
    }

    void thirdOrderOnly() {
        const CooTensor t4 = tstest::random_tensor({20, 20, 20, 20}, 100, 1);
        try {
            build_format(FormatKind::HLS, t4, {});
            QFAIL("no error");
        } catch (const InputError& e) {
            QVERIFY(std::string(e.what()).find("third-order") != std::string::npos);
        }
        FormatOptions o;
        o.hls_threshold = 0;
        QVERIFY_THROWS_EXCEPTION(InputError, build_format(FormatKind::HLS, tstest::random_tensor({9, 9, 9}, 10, 1), o));
    }
};

QTEST_APPLESS_MAIN(TestHlsFormat)
#include "test_hls_format.moc"
