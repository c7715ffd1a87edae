// The malformed-input corpus of tests/data/bad: each file gives a ParseError with the file,
// the line and the column, and a message that says what was expected. Never a crash or hang.
#include <QElapsedTimer>
#include <QTemporaryDir>
#include <fstream>

#include "test_support.hpp"
#include "tscope/error.hpp"
#include "tscope/io/tensor_io.hpp"
#include "tscope/io/tsb_format.hpp"

using namespace tscope;

namespace {

std::string write_temp(const QTemporaryDir& dir, const char* name, const std::string& bytes) {
    const std::string path = dir.filePath(name).toStdString();
    std::ofstream(path, std::ios::binary) << bytes;
    return path;
}

void expect_parse_error(const std::string& path, std::uint64_t line, std::uint64_t column, const std::string& fragment) {
    QElapsedTimer timer;
    timer.start();
    try {
        load_tensor(path);
        QFAIL(("no error for " + path).c_str());
    } catch (const ParseError& e) {
        const std::string what = e.what();
        QVERIFY2(e.file() == path, what.c_str());
        QVERIFY2(e.line() == line, ("line: " + what).c_str());
        QVERIFY2(e.column() == column, ("column: " + what).c_str());
        QVERIFY2(e.detail().find(fragment) != std::string::npos, ("message: " + what).c_str());
        QVERIFY2(what.rfind(path + ":" + std::to_string(line) + ":" + std::to_string(column) + ": ", 0) == 0,
                 what.c_str());
    }
    QVERIFY(timer.elapsed() < 20000);  // generous: this guards against hangs, not speed
}

}  // namespace

class TestBadInput : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void corpus_data() {
        QTest::addColumn<QString>("file");
        QTest::addColumn<int>("line");
        QTest::addColumn<int>("column");
        QTest::addColumn<QString>("fragment");
        auto row = [](const char* f, int l, int c, const char* frag) { QTest::newRow(f) << QString(f) << l << c << QString(frag); };
        row("non_numeric.tns", 2, 3, "expected an integer index, found 'abc'");
        row("too_few_columns.tns", 2, 6, "expected 4 columns (3 indices and a value), found 3");
        row("too_many_columns.tns", 2, 9, "expected 4 columns (3 indices and a value), found more: '5.0'");
        row("negative_index.tns", 2, 3, "non-negative integer index, found the negative '-2'");
        row("index_beyond_64_bits.tns", 2, 5, "does not fit in 64 bits");
        row("fractional_index.tns", 2, 3, "found the fractional number '2.5'");
        row("nan_value.tns", 2, 7, "value 'nan' is not a finite number");
        row("inf_value.tns", 2, 7, "value '-inf' is not a finite number");
        row("huge_value.tns", 2, 7, "out of the range of a double");
        row("empty.tns", 1, 1, "the file is empty");
        row("comments_only.tns", 4, 1, "no nonzeros");
        row("header_dims_too_small.tns", 4, 1, "index 3 of mode 1 is beyond the dimension 2 given in the header");
        row("dims_comment_wrong_order.tns", 1, 1, "gives 2 dims but the entries have 3 indices");
        row("random_binary.tns", 0, 0, "NUL byte");  // position depends on the random bytes
        row("truncated.tns.gz", 9811, 5, "the gzip data ends early");
    }
    void corpus() {
        QFETCH(QString, file);
        QFETCH(int, line);
        QFETCH(int, column);
        QFETCH(QString, fragment);
        const std::string path = tstest::test_data(("bad/" + file).toUtf8().constData());
        if (line == 0) {  // position not fixed: still a ParseError with a real position
            try {
                load_tensor(path);
                QFAIL("no error");
            } catch (const ParseError& e) {
                QVERIFY(e.line() >= 1 && e.column() >= 1);
                QVERIFY2(e.detail().find(fragment.toStdString()) != std::string::npos, e.what());
            }
            return;
        }
        expect_parse_error(path, std::uint64_t(line), std::uint64_t(column), fragment.toStdString());
    }

    void tenMegabyteLines() {
        QTemporaryDir dir;
        // a 10 MB number
        expect_parse_error(write_temp(dir, "long_number.tns", "1 1 1 1\n1 " + std::string(10u << 20, '7') + " 1 1\n"), 2,
                           3, "does not fit in 64 bits");
        // a 10 MB row of columns
        std::string many = "1 1 1 1\n";
        for (int i = 0; i < (5 << 20); ++i) many += "1 ";
        expect_parse_error(write_temp(dir, "long_row.tns", many), 2, 9, "found more");
        // a 10 MB token that isn't a number
        expect_parse_error(write_temp(dir, "long_word.tns", "1 1 1 " + std::string(10u << 20, 'x') + "\n"), 1, 7,
                           "expected a number value, found 'xxxxxxxxxxxxxxxxxxxxxxxx...'");
    }

    void nulInsideALaterLine() {
        QTemporaryDir dir;
        std::string text;
        for (int i = 1; i <= 20000; ++i) text += std::to_string(i) + " 1 1 1\n";  // past the first 64 kB
        text += std::string("5 5 ") + '\0' + " 1\n";
        expect_parse_error(write_temp(dir, "late_nul.tns", text), 20001, 5, "NUL byte");
    }

    void missingFile() {
        try {
            load_tensor("/nonexistent/nope.tns");
            QFAIL("no error");
        } catch (const InputError& e) {
            QVERIFY(std::string(e.what()).find("/nonexistent/nope.tns") != std::string::npos);
            QVERIFY(std::string(e.what()).find("No such file") != std::string::npos);
        }
        QVERIFY_THROWS_EXCEPTION(InputError, load_tensor(TS_TEST_DATA_DIR));  // a directory
    }

    void tsbWithWrongChecksum() {
        QTemporaryDir dir;
        const std::string path = dir.filePath("t.tsb").toStdString();
        write_tsb(tstest::random_tensor({10, 10, 10}, 50, 1), path);
        std::string bytes;
        {
            std::ifstream in(path, std::ios::binary);
            bytes.assign(std::istreambuf_iterator<char>(in), {});
        }
        std::string payload_flip = bytes;
        payload_flip[bytes.size() - 10] ^= 0x40;  // inside the values
        std::string header_flip = bytes;
        header_flip[24] ^= 0x01;  // nnz
        for (const auto& [name, content, fragment] :
             {std::tuple{"payload.tsb", payload_flip, "data checksum does not match"},
              std::tuple{"header.tsb", header_flip, "header checksum does not match"},
              std::tuple{"short.tsb", bytes.substr(0, bytes.size() - 5), "truncated"},
              std::tuple{"header-cut.tsb", bytes.substr(0, 20), "ends inside its header (20 bytes"},
              std::tuple{"long.tsb", bytes + "xx", "trailing data"}}) {
            const std::string p = write_temp(dir, name, content);
            try {
                load_tensor(p);
                QFAIL(name);
            } catch (const InputError& e) {
                QVERIFY2(std::string(e.what()).find(fragment) != std::string::npos, e.what());
                QVERIFY2(std::string(e.what()).find(p) != std::string::npos, e.what());
            }
        }
    }
};

QTEST_APPLESS_MAIN(TestBadInput)
#include "test_bad_input.moc"
