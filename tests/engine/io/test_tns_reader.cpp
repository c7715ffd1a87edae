// The FROSTT .tns reader on well-formed input: every accepted variant, and big parallel input.
#include <QTemporaryDir>
#include <atomic>
#include <sstream>

#include "test_support.hpp"
#include "tscope/error.hpp"
#include "tscope/io/tns_format.hpp"
#include "tscope/io/tsb_format.hpp"
#include "tscope/tensor/coo_ops.hpp"

#ifdef _OPENMP
#include <omp.h>
#endif

using namespace tscope;

namespace {

LoadedTensor parse(const std::string& text, LoadOptions options = {}) { return parse_tns(text, "mem.tns", options); }

}  // namespace

class TestTnsReader : public QObject {
    Q_OBJECT

private Q_SLOTS:
    // Zeros, written so or summed to, are left out and counted (issue 24, item 3): every format
    // then holds what the tensor holds (sCOO cannot tell a stored zero from its padding).
    void zerosAreLeftOutAndCounted() {
        const auto r = parse("1 1 1 1.0\n2 2 2 0.0\n2 1 2 3.0\n1 2 1 2.0\n1 2 1 -2.0\n2 2 1 -0.0\n");
        QCOMPARE(r.tensor.nnz(), std::uint64_t{2});
        QCOMPARE(r.info.duplicates_summed, std::uint64_t{1});
        QCOMPARE(r.info.zeros_dropped, std::uint64_t{3});
        const auto m = tstest::as_map(r.tensor);
        QCOMPARE(m.at({0, 0, 0}), 1.0);
        QCOMPARE(m.at({1, 0, 1}), 3.0);
        QCOMPARE(r.tensor.dims(), (std::vector<std::uint64_t>{2, 2, 2}));  // the dims stay the file's
        // the binary cache reads the same way
        QTemporaryDir dir;
        CooTensor z({3, 3});
        z.resize(3);
        z.set(0, std::vector<std::uint64_t>{0, 1}, 0.0);
        z.set(1, std::vector<std::uint64_t>{2, 2}, 4.0);
        z.set(2, std::vector<std::uint64_t>{1, 0}, 0.0);
        const std::string path = dir.filePath("z.tsb").toStdString();
        write_tsb(z, path);
        const LoadedTensor back = read_tsb(path);
        QCOMPARE(back.tensor.nnz(), std::uint64_t{1});
        QCOMPARE(back.info.zeros_dropped, std::uint64_t{2});
        QCOMPARE(back.tensor.value(0), 4.0);
    }

    void plainFile() {
        const auto r = parse("# comment\n1 1 1 1.5\n2 3 1 -2\n\n1 2 4 3e2\n");
        const CooTensor& t = r.tensor;
        QCOMPARE(t.order(), 3);
        QCOMPARE(t.dims(), (std::vector<std::uint64_t>{2, 3, 4}));
        QCOMPARE(t.nnz(), std::uint64_t{3});
        QCOMPARE(r.info.lines, std::uint64_t{5});
        QCOMPARE(r.info.zero_based, (std::vector<bool>{false, false, false}));
        QVERIFY(!r.info.header);
        const auto m = tstest::as_map(t);
        QCOMPARE(m.at({0, 0, 0}), 1.5);
        QCOMPARE(m.at({1, 2, 0}), -2.0);
        QCOMPARE(m.at({0, 1, 3}), 300.0);
    }

    void whitespaceVariants() {
        // CRLF, tabs, leading blanks, trailing blanks, comment lines in the middle, no final newline
        const auto r = parse("1\t2 3 1.0\r\n  # mid comment\r\n 2  1\t1   2.0  \r\n\r\n3 3 3 +4");
        QCOMPARE(r.tensor.nnz(), std::uint64_t{3});
        QCOMPARE(tstest::as_map(r.tensor).at({2, 2, 2}), 4.0);
    }

    // A UTF-8 byte order mark (Notepad's UTF-8) before the text is skipped: the first index was
    // read as '\xef\xbb\xbf1'. An error on line 1 counts columns from after it; a mark anywhere
    // else is still an error.
    void byteOrderMarkIsSkipped() {
        const std::string bom = "\xEF\xBB\xBF";
        const auto r = parse(bom + "1 2 3 1.0\n2 1 1 2.0\n");
        QCOMPARE(r.tensor.nnz(), std::uint64_t{2});
        QCOMPARE(tstest::as_map(r.tensor).at({0, 1, 2}), 1.0);
        QCOMPARE(parse(bom + "# dims: 4 4 4\n1 1 1 1\n").tensor.dims(), (std::vector<std::uint64_t>{4, 4, 4}));
        try {
            parse(bom + "1 x 1 1.0\n");
            QFAIL("a bad index was read");
        } catch (const ParseError& e) {
            QVERIFY2(std::string(e.what()).find("mem.tns:1:3:") != std::string::npos, e.what());
        }
        QVERIFY_THROWS_EXCEPTION(ParseError, parse("1 1 1 1.0\n" + bom + "2 2 2 2.0\n"));
    }

    void valueSyntax() {
        const auto r = parse("1 1 1 0.1\n1 1 2 -.5\n1 1 3 1e-3\n1 1 4 2.5E+2\n1 1 5 1234567890123456789\n1 1 6 7.\n");
        const auto m = tstest::as_map(r.tensor);
        QCOMPARE(m.at({0, 0, 0}), 0.1);  // the same double as the literal: exact parsing
        QCOMPARE(m.at({0, 0, 1}), -0.5);
        QCOMPARE(m.at({0, 0, 2}), 1e-3);
        QCOMPARE(m.at({0, 0, 3}), 250.0);
        QCOMPARE(m.at({0, 0, 4}), 1234567890123456789.0);
        QCOMPARE(m.at({0, 0, 5}), 7.0);
    }

    void zeroBasedDetectedPerMode() {
        // mode 2 holds a 0: it is 0-based; modes 1 and 3 stay 1-based
        const auto r = parse("1 0 1 1\n3 4 2 1\n");
        QCOMPARE(r.info.zero_based, (std::vector<bool>{false, true, false}));
        QCOMPARE(r.tensor.dims(), (std::vector<std::uint64_t>{3, 5, 2}));
        const auto m = tstest::as_map(r.tensor);
        QVERIFY(m.count({0, 0, 0}));
        QVERIFY(m.count({2, 4, 1}));
    }

    void emptySlicesKeptAsDimsImply() {
        // indices 1 and 9 in mode 1: slices 2..8 are empty but the mode has length 9
        const auto r = parse("1 1 1\n9 2 1\n");
        QCOMPARE(r.tensor.order(), 2);
        QCOMPARE(r.tensor.dims(), (std::vector<std::uint64_t>{9, 2}));
    }

    void partiHeader() {
        const auto r = parse("# ParTI style\n3\n10 20 30\n1 2 3 1.0\n4 5 6 2.0\n");
        QVERIFY(r.info.header);
        QCOMPARE(r.tensor.dims(), (std::vector<std::uint64_t>{10, 20, 30}));  // trailing empty slices kept
        QCOMPARE(r.tensor.nnz(), std::uint64_t{2});
    }

    void dimsComment() {
        const auto r = parse("# dims: 7 8 9\n1 2 3 1.0\n");
        QVERIFY(r.info.header);
        QCOMPARE(r.tensor.dims(), (std::vector<std::uint64_t>{7, 8, 9}));
    }

    void duplicatesSummedAndCounted() {
        const auto r = parse("1 1 1 1\n2 2 2 5\n1 1 1 2\n1 1 1 0.5\n");
        QCOMPARE(r.info.duplicates_summed, std::uint64_t{2});
        QCOMPARE(r.tensor.nnz(), std::uint64_t{2});
        QCOMPARE(tstest::as_map(r.tensor).at({0, 0, 0}), 3.5);
    }

    void highOrder() {
        std::string text;
        for (int n = 1; n <= 20; ++n) {
            for (int m = 0; m < 8; ++m) text += std::to_string((n * (m + 3)) % 11 + 1) + " ";
            text += std::to_string(n) + "\n";
        }
        const auto r = parse(text);
        QCOMPARE(r.tensor.order(), 8);
        QCOMPARE(r.tensor.nnz() + r.info.duplicates_summed, std::uint64_t{20});
    }

    void floatValues() {
        LoadOptions o;
        o.values = ValueType::F32;
        const auto r = parse("1 1 0.1\n", o);
        QCOMPARE(r.tensor.value_type(), ValueType::F32);
        QCOMPARE(r.tensor.value(0), double(0.1f));
    }

    void bigInputParsesInParallelBlocks() {
        // ~14 MB of text: several 4 MB blocks; unsorted with duplicates.
        const CooTensor source = tstest::random_tensor({5000, 4000, 3000}, 600000, 9);
        std::string text = format_tns(source);
        text += "1 1 1 0.25\n1 1 1 0.25\n";  // duplicates at the very end
        std::map<std::vector<std::uint64_t>, double> expected = tstest::as_map(source);
        expected[{0, 0, 0}] += 0.5;
#ifdef _OPENMP
        omp_set_num_threads(2);
#endif
        AtomicRunControl control;
        const auto r = parse_tns(text, "big.tns", {}, control);
        QVERIFY(control.total() > 0);
        QCOMPARE(control.done(), control.total());
        QCOMPARE(r.tensor.dims(), source.dims());
        QVERIFY(r.info.duplicates_summed >= 1);
        QVERIFY(tstest::as_map(r.tensor) == expected);
    }

    void cancellationStopsParsing() {
        const CooTensor source = tstest::random_tensor({500, 400, 300}, 200000, 9);
        const std::string text = format_tns(source);
        AtomicRunControl control;
        control.request_cancel();
        QVERIFY_THROWS_EXCEPTION(Cancelled, parse_tns(text, "x.tns", {}, control));
    }

    // A progress report that throws (a control may stop work so, as the tests' do) while the
    // blocks are parsed on OpenMP workers: the exception reaches the caller. It escaped the
    // parallel region and ended the program (std::terminate).
    void aProgressReportThatThrowsInsideTheParseReachesTheCaller() {
        struct Stop : RunControl {
            std::atomic<int> reports{0};
            void progress(std::uint64_t, std::uint64_t) override {
                if (++reports == 2) throw Cancelled();
            }
        } stop;
        // ~14 MB of text: several blocks, so the throwing report is a worker's
        const std::string text = format_tns(tstest::random_tensor({5000, 4000, 3000}, 600000, 9));
        QVERIFY_THROWS_EXCEPTION(Cancelled, parse_tns(text, "x.tns", {}, stop));
        QVERIFY(stop.reports.load() >= 2);
    }

    void huge10MbLineOfBlanksStillParses() {
        std::string text(10u << 20, ' ');
        text += "1 2 3 4.0\n";
        const auto r = parse(text);
        QCOMPARE(r.tensor.nnz(), std::uint64_t{1});
    }
};

QTEST_APPLESS_MAIN(TestTnsReader)
#include "test_tns_reader.moc"
