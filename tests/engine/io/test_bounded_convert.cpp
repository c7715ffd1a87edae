// The bounded-memory convert (issue 18, item 3): text to .tsb through sorted runs and a merge.
// Small budgets and text blocks force many runs and block boundaries on small files; the
// result must be the tensor the in-memory reader gives (the same entries, the same sums bit for
// bit, the same counts), every error the reader's, and nothing left behind on failure.
#include <QDir>
#include <QTemporaryDir>
#include <zlib.h>

#include <algorithm>
#include <array>
#include <fstream>
#include <random>
#include <sstream>

#include "test_support.hpp"
#include "tscope/error.hpp"
#include "tscope/io/bounded_convert.hpp"
#include "tscope/io/tensor_io.hpp"
#include "tscope/io/tsb_format.hpp"
#include "tscope/tensor/coo_ops.hpp"

using namespace tscope;

namespace {

constexpr std::uint64_t kMiB = std::uint64_t{1} << 20;

// Lines "i j k v" with repeats of earlier coordinates (values that add up in file order, some
// to exactly zero), 0-based or 1-based per mode, in random order.
std::string text_with_duplicates(int order, std::uint64_t lines, std::uint64_t seed, const std::vector<std::uint64_t>& dims,
                                 const std::vector<bool>& zero_based) {
    std::mt19937_64 rng(seed);
    std::vector<std::vector<std::uint64_t>> seen;
    std::ostringstream out;
    out.precision(17);
    for (std::uint64_t l = 0; l < lines; ++l) {
        std::vector<std::uint64_t> c(static_cast<std::size_t>(order));
        const bool repeat = !seen.empty() && rng() % 4 == 0;
        if (repeat)
            c = seen[rng() % seen.size()];
        else
            for (int m = 0; m < order; ++m) c[static_cast<std::size_t>(m)] = rng() % dims[static_cast<std::size_t>(m)];
        if (!repeat && seen.size() < 4096) seen.push_back(c);
        for (int m = 0; m < order; ++m) out << c[static_cast<std::size_t>(m)] + (zero_based[static_cast<std::size_t>(m)] ? 0 : 1) << ' ';
        const int kind = static_cast<int>(rng() % 10);
        if (kind == 0)
            out << "0.1\n";  // 0.1 + 0.2 + ... : sums whose rounding depends on the order
        else if (kind == 1)
            out << "-0.1\n";  // cancels a 0.1: some sums are exactly zero
        else
            out << (static_cast<double>(rng() % 2000000) - 1e6) / 997.0 << "\n";
    }
    return out.str();
}

// The lines of an order-3 text, sorted stably by coordinate: duplicates keep their file order.
std::string sorted_lines(const std::string& text) {
    std::vector<std::pair<std::array<std::uint64_t, 3>, std::string>> lines;
    std::istringstream split(text);
    for (std::string line; std::getline(split, line);) {
        std::istringstream fields(line);
        std::array<std::uint64_t, 3> c{};
        fields >> c[0] >> c[1] >> c[2];
        lines.emplace_back(c, line);
    }
    std::stable_sort(lines.begin(), lines.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    std::string sorted;
    for (const auto& line : lines) sorted += line.second + "\n";
    return sorted;
}

void write_file(const std::string& path, const std::string& text) { std::ofstream(path, std::ios::binary) << text; }

BoundedConvertOptions budget(std::uint64_t bytes, std::size_t block = 4096) {
    BoundedConvertOptions o;
    o.memory_bytes = bytes;
    o.stream_block_bytes = block;
    return o;
}

// Exactly the same entries, values compared bit for bit (same_entries compares exactly).
void expect_same_as_loader(const std::string& text_path, const std::string& tsb_path, const BoundedConvertReport& r,
                           ValueType values = ValueType::F64) {
    LoadOptions o;
    o.values = values;
    const LoadedTensor loaded = load_tensor(text_path, o);
    LoadOptions keep;
    keep.keep_stored_values = true;
    const LoadedTensor converted = load_tensor(tsb_path, keep);
    std::string why;
    QVERIFY2(same_entries(loaded.tensor, converted.tensor, &why), why.c_str());
    QCOMPARE(converted.tensor.value_type(), values);
    QCOMPARE(converted.tensor.index_width(), loaded.tensor.index_width());
    QVERIFY(is_sorted_lexicographic(converted.tensor));  // every .tsb written here
    const std::string again = tsb_path + ".in-memory.tsb";  // the very file the in-memory convert writes
    save_tensor(loaded.tensor, again);
    QVERIFY(tstest::read_file_bytes(tsb_path) == tstest::read_file_bytes(again));
    QFile::remove(QString::fromStdString(again));
    QCOMPARE(r.nnz, loaded.tensor.nnz());
    QCOMPARE(r.dims, loaded.tensor.dims());
    QCOMPARE(r.info.duplicates_summed, loaded.info.duplicates_summed);
    QCOMPARE(r.info.zeros_dropped, loaded.info.zeros_dropped);
    QCOMPARE(r.info.zero_based, loaded.info.zero_based);
    QCOMPARE(r.info.lines, loaded.info.lines);
}

// Files in `dir` other than the inputs named: what a failed convert left behind.
QStringList leftovers(const QTemporaryDir& dir, const QStringList& inputs) {
    QStringList names = QDir(dir.path()).entryList(QDir::Files);
    for (const QString& in : inputs) names.removeAll(in);
    return names;
}

}  // namespace

class TestBoundedConvert : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void equalsTheLoader_data() {
        QTest::addColumn<int>("order");
        QTest::addColumn<quint64>("memory");
        QTest::addColumn<bool>("header");
        for (int order = 1; order <= 5; ++order) {
            const QByteArray o = QByteArray::number(order);
            QTest::newRow(("order " + o + ", many runs").constData()) << order << quint64(kMiB) << false;
            QTest::newRow(("order " + o + ", one run").constData()) << order << quint64(256 * kMiB) << true;
        }
    }
    // Many runs (1 MiB holds ~16K nonzeros of order 3; 60K lines) and one (everything fits).
    void equalsTheLoader() {
        QFETCH(int, order);
        QFETCH(quint64, memory);
        QFETCH(bool, header);
        QTemporaryDir dir;
        const std::string in = dir.filePath("t.tns").toStdString(), out = dir.filePath("t.tsb").toStdString();
        const std::vector<std::uint64_t> dims{700, 90, 40, 13, 5};
        std::vector<bool> zero_based{true, false, true, false, false};
        std::string text = text_with_duplicates(order, 60000, 17 + static_cast<std::uint64_t>(order), dims, zero_based);
        if (header) {
            std::string h = "# dims:";
            for (int m = 0; m < order; ++m) h += " " + std::to_string(dims[static_cast<std::size_t>(m)] + 2);
            text = "# a comment\n" + h + "\n" + text;
        }
        write_file(in, text);
        const BoundedConvertReport r = convert_text_to_tsb(in, out, budget(memory));
        QVERIFY(r.info.duplicates_summed > 1000);
        if (order > 1) QVERIFY(r.info.zeros_dropped > 0);  // order 1: 700 coordinates, sums of ~85 values
        if (memory == kMiB) QVERIFY2(r.runs >= 3, qPrintable(QString("%1 runs").arg(r.runs)));
        if (memory > kMiB) QCOMPARE(r.runs, std::uint64_t{1});
        QCOMPARE(r.run_file_bytes > 0, r.runs > 1);
        expect_same_as_loader(in, out, r);
        QCOMPARE(leftovers(dir, {"t.tns", "t.tsb"}), QStringList());  // the runs are gone
    }

    // Text well within the budget: loaded whole when its lines are in order, put in order by
    // sorted runs of about an eighth of it when they are not (faster, bounded_convert.cpp;
    // here the smallest batch, 16 MiB, ~210K nonzeros); the same file either way.
    void textOutOfOrderGoesThroughRuns_data() {
        QTest::addColumn<bool>("sorted");
        QTest::newRow("out of order") << false;
        QTest::newRow("in order") << true;
    }
    void textOutOfOrderGoesThroughRuns() {
        QFETCH(bool, sorted);
        QTemporaryDir dir;
        const std::string in = dir.filePath("t.tns").toStdString(), out = dir.filePath("t.tsb").toStdString();
        std::string text = text_with_duplicates(3, 500000, 41, {100000, 3000, 700}, {false, false, true});
        if (sorted) text = sorted_lines(text);
        write_file(in, text);
        const BoundedConvertReport r = convert_text_to_tsb(in, out, budget(1024 * kMiB, 0));
        QCOMPARE(r.memory_bytes, 1024 * kMiB);
        if (sorted) {
            QCOMPARE(r.runs, std::uint64_t{1});
            QCOMPARE(r.batch_bytes, r.memory_bytes);
        } else {
            QVERIFY2(r.runs >= 2, qPrintable(QString("%1 runs").arg(r.runs)));
            QCOMPARE(r.batch_bytes, 16 * kMiB);
        }
        expect_same_as_loader(in, out, r);
        QCOMPARE(leftovers(dir, {"t.tns", "t.tsb"}), QStringList());
    }

    // Many runs, their buffers reused from one to the next (the sort's scratch swapped with
    // them): in random order and sorted (no sort), the very file the in-memory convert writes
    // once its tensor is sorted.
    void manyRunsWriteTheSortedLoaderFile_data() {
        QTest::addColumn<bool>("sorted");
        QTest::newRow("random order") << false;
        QTest::newRow("sorted") << true;
    }
    void manyRunsWriteTheSortedLoaderFile() {
        QFETCH(bool, sorted);
        QTemporaryDir dir;
        const std::string in = dir.filePath("t.tns").toStdString(), out = dir.filePath("t.tsb").toStdString();
        std::string text = text_with_duplicates(3, 200000, 31, {5000, 300, 70}, {false, true, false});
        if (sorted) text = sorted_lines(text);
        write_file(in, text);
        const BoundedConvertReport r = convert_text_to_tsb(in, out, budget(kMiB));
        QVERIFY2(r.runs >= 10, qPrintable(QString("%1 runs").arg(r.runs)));
        expect_same_as_loader(in, out, r);
        LoadedTensor loaded = load_tensor(in);
        sort_lexicographic(loaded.tensor);
        const std::string again = dir.filePath("again.tsb").toStdString();
        save_tensor(loaded.tensor, again);
        QVERIFY(tstest::read_file_bytes(out) == tstest::read_file_bytes(again));
        QCOMPARE(leftovers(dir, {"t.tns", "t.tsb", "again.tsb"}), QStringList());
    }

    // Coordinates too wide for the packed merge: 63-bit keys (no room left for a run's number)
    // merged entry by entry; and record runs after runs of packed keys, once indices grew past
    // 64 bits of key.
    void keysWiderThanTheMerge_data() {
        QTest::addColumn<int>("order");
        QTest::addColumn<quint64>("small");  // lines with indices below it first (0: none)
        QTest::newRow("63-bit keys") << 3 << quint64(0);
        QTest::newRow("record runs after packed ones") << 4 << quint64(3000);
    }
    void keysWiderThanTheMerge() {
        QFETCH(int, order);
        QFETCH(quint64, small);
        QTemporaryDir dir;
        const std::string in = dir.filePath("t.tns").toStdString(), out = dir.filePath("t.tsb").toStdString();
        const std::vector<bool> zero_based(static_cast<std::size_t>(order), true);
        std::string text;
        if (small > 0) text = text_with_duplicates(order, 40000, 41, std::vector<std::uint64_t>(4, small), zero_based);
        text += text_with_duplicates(order, 40000, 42, std::vector<std::uint64_t>(4, std::uint64_t{1} << 21), zero_based);
        write_file(in, text);
        const BoundedConvertReport r = convert_text_to_tsb(in, out, budget(kMiB));
        QVERIFY2(r.runs >= 3, qPrintable(QString("%1 runs").arg(r.runs)));
        expect_same_as_loader(in, out, r);
        QCOMPARE(leftovers(dir, {"t.tns", "t.tsb"}), QStringList());
    }

    // fp32: the sums are float sums in file order, as the loader's.
    void floatValues() {
        QTemporaryDir dir;
        const std::string in = dir.filePath("t.tns").toStdString(), out = dir.filePath("t.tsb").toStdString();
        write_file(in, text_with_duplicates(3, 50000, 5, {300, 200, 100}, {false, false, false}));
        BoundedConvertOptions o = budget(kMiB);
        o.values = ValueType::F32;
        const BoundedConvertReport r = convert_text_to_tsb(in, out, o);
        QVERIFY(r.runs >= 2);
        expect_same_as_loader(in, out, r, ValueType::F32);
    }

    // Indices past 2^32: 64-bit runs and a 64-bit .tsb; one that turns up after the first runs
    // (32-bit so far) as well.
    void wideIndices() {
        QTemporaryDir dir;
        const std::string in = dir.filePath("w.tns").toStdString(), out = dir.filePath("w.tsb").toStdString();
        std::string text = text_with_duplicates(3, 40000, 9, {1000, 1000, 1000}, {false, false, false});
        text += "7 8 9000000000 2.5\n7 8 9000000000 0.5\n";
        write_file(in, text);
        const BoundedConvertReport r = convert_text_to_tsb(in, out, budget(kMiB));
        QVERIFY(r.runs >= 2);
        QCOMPARE(r.dims[2], std::uint64_t{9000000000});
        expect_same_as_loader(in, out, r);
        QCOMPARE(read_tsb_header(out).width, IndexWidth::U64);
    }

    void gzipInput() {
        QTemporaryDir dir;
        const std::string text = text_with_duplicates(4, 30000, 3, {50, 60, 70, 80}, {true, true, false, false});
        const std::string in = dir.filePath("t.tns.gz").toStdString(), out = dir.filePath("t.tsb").toStdString();
        gzFile gz = gzopen(in.c_str(), "wb1");
        QVERIFY(gz);
        QCOMPARE(gzwrite(gz, text.data(), static_cast<unsigned>(text.size())), static_cast<int>(text.size()));
        QCOMPARE(gzclose(gz), Z_OK);
        for (std::uint64_t memory : {kMiB, 256 * kMiB}) {  // runs; one batch of the stream, never spilled
            const BoundedConvertReport r = convert_text_to_tsb(in, out, budget(memory));
            QCOMPARE(r.info.format, std::string("tns.gz"));
            QCOMPARE(r.runs > 1, memory == kMiB);
            expect_same_as_loader(in, out, r);
        }
    }

    // A bad line after several runs were written: the reader's message (file, line), and neither
    // the output nor a run file is left.
    void badLineLeavesNothing() {
        QTemporaryDir dir;
        const std::string in = dir.filePath("bad.tns").toStdString(), out = dir.filePath("bad.tsb").toStdString();
        std::string text = text_with_duplicates(3, 50000, 4, {100, 100, 100}, {false, false, false});
        text += "1 2 x3 4.0\n";
        write_file(in, text);
        std::string message;
        try {
            convert_text_to_tsb(in, out, budget(kMiB));
        } catch (const ParseError& e) {
            message = e.what();
        }
        QVERIFY2(message.find("bad.tns:50001:") != std::string::npos, message.c_str());
        QVERIFY2(message.find("expected an integer index") != std::string::npos, message.c_str());
        QCOMPARE(leftovers(dir, {"bad.tns"}), QStringList());
    }

    // Duplicates that sum past double's range: refused, naming the coordinate as the file does.
    void overflowingSumIsRefused() {
        QTemporaryDir dir;
        const std::string in = dir.filePath("big.tns").toStdString(), out = dir.filePath("big.tsb").toStdString();
        std::string text = text_with_duplicates(3, 40000, 6, {100, 100, 100}, {false, false, false});
        text = "3 4 5 1e308\n" + text + "3 4 5 1e308\n";
        write_file(in, text);
        QVERIFY_THROWS_EXCEPTION(InputError, convert_text_to_tsb(in, out, budget(kMiB)));
        try {
            convert_text_to_tsb(in, out, budget(kMiB));
        } catch (const InputError& e) {
            QVERIFY2(std::string(e.what()).find("(3, 4, 5) sum to a value beyond the range of double") != std::string::npos, e.what());
        }
        QCOMPARE(leftovers(dir, {"big.tns"}), QStringList());
    }

    // An index beyond the header's dims, found after runs were written: the reader's message.
    void outOfBoundsAfterRuns() {
        QTemporaryDir dir;
        const std::string in = dir.filePath("oob.tns").toStdString(), out = dir.filePath("oob.tsb").toStdString();
        std::string text = "3\n100 100 100\n" + text_with_duplicates(3, 40000, 8, {100, 100, 100}, {false, false, false});
        text += "101 1 1 1.0\n";
        write_file(in, text);
        std::string loader, bounded;
        try {
            load_tensor(in);
        } catch (const Error& e) {
            loader = e.what();
        }
        try {
            convert_text_to_tsb(in, out, budget(kMiB));
        } catch (const Error& e) {
            bounded = e.what();
        }
        QVERIFY(!loader.empty());
        QCOMPARE(bounded, loader);
        QCOMPARE(leftovers(dir, {"oob.tns"}), QStringList());
    }

    // Cancelled in the middle (parsing, sorting, merging): Cancelled, and nothing left behind.
    void cancelLeavesNothing() {
        QTemporaryDir dir;
        const std::string in = dir.filePath("c.tns").toStdString(), out = dir.filePath("c.tsb").toStdString();
        write_file(in, text_with_duplicates(3, 60000, 2, {300, 300, 300}, {false, false, false}));
        tstest::CountingControl count;
        convert_text_to_tsb(in, out, budget(kMiB), count);
        const std::uint64_t checks = count.checks();
        QVERIFY(checks > 20);
        QFile::remove(QString::fromStdString(out));
        for (std::uint64_t at : {std::uint64_t{2}, checks / 2, checks - 1}) {
            tstest::CountingControl cancel(at);
            QVERIFY_THROWS_EXCEPTION(Cancelled, convert_text_to_tsb(in, out, budget(kMiB), cancel));
            QCOMPARE(leftovers(dir, {"c.tns"}), QStringList());
        }
    }

    void tooSmallABudgetIsRefused() {
        QTemporaryDir dir;
        const std::string in = dir.filePath("t.tns").toStdString();
        write_file(in, "1 1 1 1.0\n");
        QVERIFY_THROWS_EXCEPTION(InputError, convert_text_to_tsb(in, dir.filePath("t.tsb").toStdString(), budget(1000)));
        QVERIFY(default_convert_memory() >= 64 * kMiB);
    }
};

QTEST_APPLESS_MAIN(TestBoundedConvert)
#include "test_bounded_convert.moc"
