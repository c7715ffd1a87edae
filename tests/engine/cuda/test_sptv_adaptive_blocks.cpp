// How SpTV's adaptive rows cut a CSR into blocks (engine/cuda/sptv_adaptive_blocks.hpp), checked
// against what the kernels assume of them, on the host: no device needed.
#include <random>

#include "cuda/sptv_adaptive_blocks.hpp"
#include "test_support.hpp"

using namespace tscope::gpu;

namespace {

std::vector<std::int32_t> offsets_of(const std::vector<std::uint32_t>& lengths) {
    std::vector<std::int32_t> ptr{0};
    for (std::uint32_t n : lengths) ptr.push_back(ptr.back() + static_cast<std::int32_t>(n));
    return ptr;
}

// What the kernel (sptv_adaptive_kernel) relies on, or the message of the first broken rule.
// With windows, a block of short rows lies within kStreamNnz nonzeros from its first nonzero's
// adaptive_window (the kernels of blocks of 1,024), else from its first.
// span: what a block of short rows may hold from there (255 where the kernel reads 8-bit offsets).
QString broken_rule(const std::vector<std::int32_t>& ptr, const AdaptiveBlocks& b, bool windows,
                    std::uint32_t span = kStreamNnz) {
    const auto rows = static_cast<std::uint32_t>(ptr.size() - 1);
    if (b.row.size() != b.nz.size() || b.row.empty()) return "row and nz differ in size, or hold no sentinel";
    if (b.row.back() != rows || b.nz.back() != static_cast<std::uint32_t>(ptr.back()))
        return "the sentinel is not (rows, nnz)";
    if (b.nz.front() != 0 || (b.row.front() & ~kSplitRow) != 0) return "the first block does not start at 0";
    std::vector<std::uint32_t> pieces_of(rows, 0);
    for (std::size_t k = 0; k + 1 < b.row.size(); ++k) {
        const std::uint32_t row = b.row[k] & ~kSplitRow, next = b.row[k + 1] & ~kSplitRow;
        const std::uint32_t z0 = b.nz[k], z1 = b.nz[k + 1];
        const QString at = QString(" (block %1)").arg(k);
        if (z1 < z0 || next < row) return "a block goes backwards" + at;
        if (b.row[k] & kSplitRow) {  // a piece of one row, within it, at most kPieceNnz
            ++pieces_of[row];
            if (z1 - z0 > kPieceNnz || z1 == z0) return "a piece is empty or longer than kPieceNnz" + at;
            if (z0 < static_cast<std::uint32_t>(ptr[row]) || z1 > static_cast<std::uint32_t>(ptr[row + 1]))
                return "a piece leaves its row" + at;
            continue;
        }
        if (z0 != static_cast<std::uint32_t>(ptr[row]) || z1 != static_cast<std::uint32_t>(ptr[next]))
            return "a block's nonzeros are not its rows'" + at;
        if (z1 - (windows ? adaptive_window(z0) : z0) > span && next != row + 1)
            return "a block running past its span holds more than one row" + at;
        if (z1 - z0 > span && next != row + 1) return "a block's offsets run past its span" + at;
        if (z1 - z0 > kPieceNnz) return "a whole row longer than kPieceNnz" + at;
        if (next - row > kStreamNnz) return "a block holds more than kStreamNnz rows" + at;
        if (next == row) return "a block holds no row" + at;
    }
    std::uint32_t split = 0;
    for (std::uint32_t r = 0; r < rows; ++r) {
        const auto n = static_cast<std::uint32_t>(ptr[r + 1] - ptr[r]);
        const std::uint32_t pieces = n > kPieceNnz ? (n + kPieceNnz - 1) / kPieceNnz : 0;
        if (pieces_of[r] != pieces)
            return QString("row %1 of %2 nonzeros has %3 pieces").arg(r).arg(n).arg(pieces_of[r]);
        if (pieces && (split >= b.split.size() || b.split[split++] != r))
            return QString("split row %1 is not listed").arg(r);
    }
    if (split != b.split.size()) return "rows listed as split that are not";
    return {};
}

}  // namespace

class TestSptvAdaptiveBlocks : public QObject {
    Q_OBJECT

private Q_SLOTS:
    // Rows at every edge: 255-257 nonzeros (a block of short rows holds 256), 1,023-1,025 and
    // 2,048-2,049 (pieces of 1,024), empty rows, runs of one-nonzero rows longer than a block's
    // 256 rows, and no rows at all.
    void edgesKeepTheRules_data() {
        QTest::addColumn<QList<int>>("lengths");
        QTest::addRow("no rows") << QList<int>{};
        QTest::addRow("one empty row") << QList<int>{0};
        QTest::addRow("short edges") << QList<int>{255, 1, 256, 257, 3, 0, 0, 2};
        QTest::addRow("piece edges") << QList<int>{1023, 1024, 1025, 2, 2048, 2049, 7};
        QTest::addRow("300 singles") << QList<int>(300, 1);
        QTest::addRow("600 empty then one") << (QList<int>(600, 0) << 5);
        QTest::addRow("a long row last") << QList<int>{1, 1, 30000};
    }
    void edgesKeepTheRules() {
        QFETCH(QList<int>, lengths);
        std::vector<std::uint32_t> n(lengths.begin(), lengths.end());
        const std::vector<std::int32_t> ptr = offsets_of(n);
        for (bool windows : {false, true}) {
            const QString broken = broken_rule(ptr, adaptive_blocks(ptr.data(), ptr.size() - 1, windows), windows);
            QVERIFY2(broken.isEmpty(), qPrintable(broken));
        }
    }

    // The runs of short rows are cut greedily: 256 rows of one nonzero fill a block, the 257th
    // starts the next; rows of 100 go two to a block; 257 is a block alone.
    void shortRowsAreGrouped() {
        const std::vector<std::int32_t> singles = offsets_of(std::vector<std::uint32_t>(257, 1));
        const AdaptiveBlocks a = adaptive_blocks(singles.data(), singles.size() - 1);
        QCOMPARE(a.row, (std::vector<std::uint32_t>{0, 256, 257}));
        const std::vector<std::int32_t> mixed = offsets_of({100, 100, 100, 257, 1});
        const AdaptiveBlocks b = adaptive_blocks(mixed.data(), mixed.size() - 1);
        QCOMPARE(b.row, (std::vector<std::uint32_t>{0, 2, 3, 4, 5}));
        QCOMPARE(b.nz, (std::vector<std::uint32_t>{0, 200, 300, 557, 558}));
        QVERIFY(b.split.empty());
    }

    // For blocks of 1,024 a block of short rows is one window of 256 nonzeros from its first
    // nonzero rounded down to a multiple of 4 (the kernel's 16-byte loads): after 3 nonzeros
    // (window from 0), a row of 253 fits that block; after 5 (window from 4), a row of 256 would
    // end past it and is a block alone, summed as a longer row, as is a row of 254 after 7 (window
    // from 4 again). A row of 255 after 5 fills its window (4 to 260), so the next row starts
    // another block; without windows (blocks of 512) it joins the 255's.
    void blocksAreWindows() {
        const std::vector<std::int32_t> fits = offsets_of({3, 253, 1});
        QCOMPARE(adaptive_blocks(fits.data(), fits.size() - 1, true).row, (std::vector<std::uint32_t>{0, 2, 3}));
        const std::vector<std::int32_t> past = offsets_of({5, 256, 2, 1});
        const AdaptiveBlocks b = adaptive_blocks(past.data(), past.size() - 1, true);
        QCOMPARE(b.row, (std::vector<std::uint32_t>{0, 1, 2, 4}));
        QCOMPARE(b.nz, (std::vector<std::uint32_t>{0, 5, 261, 264}));
        const std::vector<std::int32_t> alone = offsets_of({1, 1, 1, 1, 1, 1, 1, 254, 1});
        QCOMPARE(adaptive_blocks(alone.data(), alone.size() - 1, true).row, (std::vector<std::uint32_t>{0, 7, 8, 9}));
        const std::vector<std::int32_t> ends = offsets_of({5, 255, 1});
        QCOMPARE(adaptive_blocks(ends.data(), ends.size() - 1, true).row, (std::vector<std::uint32_t>{0, 1, 2, 3}));
        QCOMPARE(adaptive_blocks(ends.data(), ends.size() - 1, false).row, (std::vector<std::uint32_t>{0, 1, 3}));
    }

    // With 8-bit offsets a block of short rows holds at most 255 nonzeros from its window: 255
    // one-nonzero rows fill one, rows of 250 and 5 from 0 make 255 and fit, a further one does not;
    // a row of 255 after 1 (window from 0, ending at 256) is a block alone.
    void spanOf255() {
        const std::vector<std::int32_t> singles = offsets_of(std::vector<std::uint32_t>(256, 1));
        QCOMPARE(adaptive_blocks(singles.data(), 256, true, kLow8Span).row, (std::vector<std::uint32_t>{0, 255, 256}));
        const std::vector<std::int32_t> fill = offsets_of({250, 5, 1});
        QCOMPARE(adaptive_blocks(fill.data(), 3, true, kLow8Span).row, (std::vector<std::uint32_t>{0, 2, 3}));
        const std::vector<std::int32_t> alone = offsets_of({1, 255, 1});
        QCOMPARE(adaptive_blocks(alone.data(), 3, true, kLow8Span).row, (std::vector<std::uint32_t>{0, 1, 2, 3}));
        QCOMPARE(adaptive_blocks(alone.data(), 3, true).row, (std::vector<std::uint32_t>{0, 2, 3}));
    }

    // What a lane would walk alone in blocks of short rows: the rows over 32 nonzeros there (40
    // and 100 below), not a row that is its block alone (300) nor a piece's (2,000).
    void laneLongNonzeros() {
        const std::vector<std::int32_t> ptr = offsets_of({3, 40, 32, 100, 300, 2000, 33, 1});
        for (bool windows : {false, true}) {
            const AdaptiveBlocks b = adaptive_blocks(ptr.data(), ptr.size() - 1, windows);
            QCOMPARE(b.lane_long, std::uint64_t{40 + 100 + 33});
        }
        const std::vector<std::int32_t> short_rows = offsets_of(std::vector<std::uint32_t>(500, 32));
        QCOMPARE(adaptive_blocks(short_rows.data(), 500, true).lane_long, std::uint64_t{0});
    }

    // A row of 2,500 nonzeros: three pieces (1,024, 1,024, 452), marked, listed once.
    void longRowsArePieces() {
        const std::vector<std::int32_t> ptr = offsets_of({3, 2500, 4});
        const AdaptiveBlocks b = adaptive_blocks(ptr.data(), ptr.size() - 1);
        QCOMPARE(b.row, (std::vector<std::uint32_t>{0, 1 | kSplitRow, 1 | kSplitRow, 1 | kSplitRow, 2, 3}));
        QCOMPARE(b.nz, (std::vector<std::uint32_t>{0, 3, 1027, 2051, 2503, 2507}));
        QCOMPARE(b.split, (std::vector<std::uint32_t>{1}));
    }

    // Power-law row lengths (most rows of a few nonzeros, some of thousands), as on the nell-2
    // shape, and uniform ones: every rule holds.
    void randomRowsKeepTheRules() {
        std::mt19937_64 rng(47);
        for (int trial = 0; trial < 20; ++trial) {
            std::vector<std::uint32_t> n(1 + rng() % 5000);
            const bool power = trial % 2 == 0;
            for (auto& len : n) {
                const double u = std::uniform_real_distribution<double>(0.0, 1.0)(rng);
                len = power ? static_cast<std::uint32_t>(std::min(20000.0, 1.0 / (u * u + 1e-9)) - 1)
                            : static_cast<std::uint32_t>(rng() % 5);
            }
            const std::vector<std::int32_t> ptr = offsets_of(n);
            for (bool windows : {false, true}) {
                const QString broken = broken_rule(ptr, adaptive_blocks(ptr.data(), ptr.size() - 1, windows), windows);
                QVERIFY2(broken.isEmpty(),
                         qPrintable(QString("trial %1 (windows %2): %3").arg(trial).arg(windows).arg(broken)));
            }
            const QString narrow =
                broken_rule(ptr, adaptive_blocks(ptr.data(), ptr.size() - 1, true, kLow8Span), true, kLow8Span);
            QVERIFY2(narrow.isEmpty(), qPrintable(QString("trial %1 (span 255): %2").arg(trial).arg(narrow)));
        }
    }
};

QTEST_GUILESS_MAIN(TestSptvAdaptiveBlocks)
#include "test_sptv_adaptive_blocks.moc"
