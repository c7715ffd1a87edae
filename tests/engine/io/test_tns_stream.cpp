// Text read as a stream (issue 24, items 7 and 9): a .tns.gz is inflated and parsed block by
// block, and a pipe / FIFO is read in one pass. Small blocks (LoadOptions::stream_block_bytes)
// put many block boundaries in small files: the result, the counts and every error message
// must be the ones the whole-buffer parser gives for the same text.
#include <QTemporaryDir>
#include <sys/stat.h>
#include <zlib.h>

#include <fstream>
#include <sstream>
#include <thread>

#include "test_support.hpp"
#include "tscope/error.hpp"
#include "tscope/io/tensor_io.hpp"
#include "tscope/io/tns_format.hpp"

using namespace tscope;

namespace {

void write_plain(const std::string& path, const std::string& text) {
    std::ofstream(path, std::ios::binary) << text;
}

void write_gz(const std::string& path, const std::string& text) {
    gzFile gz = gzopen(path.c_str(), "wb1");
    QVERIFY(gz);
    QCOMPARE(gzwrite(gz, text.data(), static_cast<unsigned>(text.size())), static_cast<int>(text.size()));
    QCOMPARE(gzclose(gz), Z_OK);
}

std::string gz_bytes(const std::string& text) {
    QTemporaryDir dir;
    const std::string path = dir.filePath("x.gz").toStdString();
    write_gz(path, text);
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), {}};
}

LoadOptions blocks_of(std::size_t bytes) {
    LoadOptions o;
    o.stream_block_bytes = bytes;
    return o;
}

// The error message of loading, or "" when it loads.
std::string error_of(const std::string& path, const LoadOptions& o = {}) {
    try {
        load_tensor(path, o);
    } catch (const Error& e) {
        return e.what();
    }
    return {};
}

// The message with the file name replaced, to compare the plain and the gzip file's errors.
std::string without_name(std::string msg, const std::string& name) {
    if (const auto at = msg.find(name); at != std::string::npos) msg.replace(at, name.size(), "FILE");
    return msg;
}

// Comments, blank lines, CRLF, a 0-based mode, duplicates and zeros, over ~40 kB.
std::string varied_text() {
    std::ostringstream s;
    s << "# a comment first\n\n# dims: 40 31 9\n";
    for (int i = 0; i < 1500; ++i) {
        s << (i % 40 + 1) << ' ' << (i * 7 % 31) << '\t' << (i % 9 + 1) << "  " << (i % 13 == 0 ? 0.0 : i * 0.25 - 3);
        s << (i % 5 == 0 ? "\r\n" : "\n");
        if (i % 97 == 0) s << "# a comment between the entries, long enough to straddle a block or two\n\n";
        if (i % 211 == 0) s << "3 4 5 1.5\n";  // duplicates
    }
    return s.str();
}

void compare_loads(const LoadedTensor& a, const LoadedTensor& b) {
    QCOMPARE(format_tns(a.tensor), format_tns(b.tensor));
    QCOMPARE(a.tensor.dims(), b.tensor.dims());
    QCOMPARE(a.info.duplicates_summed, b.info.duplicates_summed);
    QCOMPARE(a.info.zeros_dropped, b.info.zeros_dropped);
    QCOMPARE(a.info.lines, b.info.lines);
    QCOMPARE(a.info.header, b.info.header);
    QCOMPARE(a.info.zero_based, b.info.zero_based);
    QCOMPARE(a.info.text_bytes, b.info.text_bytes);
}

// A FIFO in dir that a thread fills with bytes; join() after reading.
struct Fifo {
    std::string path;
    std::thread writer;
    Fifo(const QTemporaryDir& dir, std::string bytes) : path(dir.filePath("fifo").toStdString()) {
        if (::mkfifo(path.c_str(), 0600) != 0) qFatal("mkfifo failed");
        writer = std::thread([p = path, b = std::move(bytes)] {
            std::ofstream out(p, std::ios::binary);  // blocks until the reader opens it
            out << b;
        });
    }
    ~Fifo() {
        if (writer.joinable()) writer.join();
    }
};

}  // namespace

class TestTnsStream : public QObject {
    Q_OBJECT

private Q_SLOTS:
    // A .tns.gz read in blocks much smaller than the file gives exactly the plain file's tensor
    // and counts, whatever the block size (a block smaller than a line included).
    void gzipInManyBlocksEqualsPlain() {
        QTemporaryDir dir;
        const std::string text = varied_text();
        const std::string plain = dir.filePath("t.tns").toStdString(), gz = dir.filePath("t.tns.gz").toStdString();
        write_plain(plain, text);
        write_gz(gz, text);
        const LoadedTensor ref = load_tensor(plain);
        QCOMPARE(ref.info.format, std::string("tns"));
        QVERIFY(ref.info.duplicates_summed > 0 && ref.info.zeros_dropped > 0);
        for (std::size_t block : {std::size_t{16}, std::size_t{100}, std::size_t{4096}, std::size_t{0}}) {
            const LoadedTensor got = load_tensor(gz, blocks_of(block));
            QCOMPARE(got.info.format, std::string("tns.gz"));
            compare_loads(got, ref);
        }
        // a float load and a file without a final newline
        write_gz(gz, text.substr(0, text.size() - 1));
        write_plain(plain, text.substr(0, text.size() - 1));
        LoadOptions f = blocks_of(300);
        f.values = ValueType::F32;
        LoadOptions pf;
        pf.values = ValueType::F32;
        compare_loads(load_tensor(gz, f), load_tensor(plain, pf));
    }

    // The streamed reader (gzip, pipes) skips a leading UTF-8 byte order mark as the whole-file
    // reader does, whatever the block size.
    void byteOrderMarkIsSkippedInStreams() {
        QTemporaryDir dir;
        const std::string text = varied_text();
        const std::string plain = dir.filePath("t.tns").toStdString(), gz = dir.filePath("bom.tns.gz").toStdString();
        write_plain(plain, text);
        write_gz(gz, "\xEF\xBB\xBF" + text);
        const LoadedTensor ref = load_tensor(plain);
        for (std::size_t block : {std::size_t{16}, std::size_t{4096}})
            compare_loads(load_tensor(gz, blocks_of(block)), ref);
    }

    // Indices beyond 2^32 met in a later block: the columns widen and nothing is lost.
    void wideIndicesInALaterBlock() {
        QTemporaryDir dir;
        std::string text;
        for (int i = 1; i <= 300; ++i) text += std::to_string(i) + " 2 " + std::to_string(i) + ".5\n";
        text += "7 9876543210 1.25\n";
        const std::string plain = dir.filePath("w.tns").toStdString(), gz = dir.filePath("w.tns.gz").toStdString();
        write_plain(plain, text);
        write_gz(gz, text);
        const LoadedTensor got = load_tensor(gz, blocks_of(256));
        compare_loads(got, load_tensor(plain));
        QCOMPARE(got.tensor.dims()[1], std::uint64_t{9876543210});
    }

    // Errors in a later block name the line counted from the start of the file, and read as
    // the whole-buffer parser's do.
    void errorsInLaterBlocksKeepTheirPositions_data() {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("expected");
        std::string good;
        for (int i = 1; i <= 400; ++i) good += std::to_string(i % 17 + 1) + " " + std::to_string(i % 5 + 1) + " 1.5\n";
        const auto row = [&](const char* name, const std::string& text, const char* expected) {
            QTest::newRow(name) << QString::fromStdString(text) << QString::fromLatin1(expected);
        };
        row("bad value", good + "3 4 abc\n" + good, ":401:5: expected a number value, found 'abc'");
        row("too few columns", good + "# c\n" + good + "3 4\n", ":802:4: expected 3 columns");
        row("beyond the header's dims", "# dims: 18 5\n" + good + "19 1 1.0\n", ":402:1: index 19 of mode 1 is beyond");
        row("0-based found late", "# dims: 18 5\n" + good + "1 0 2.0\n" + good,
            ":5:3: index 5 of mode 2 is beyond the dimension 5 given in the header (this mode holds a 0");
        row("dims comment of the wrong order", "# dims: 18 5 7\n" + good, ":1:1: the '# dims:' comment gives 3 dims");
        row("comments only", "# just\n# comments\n", ":3:1: no nonzeros");
    }
    void errorsInLaterBlocksKeepTheirPositions() {
        QFETCH(QString, text);
        QFETCH(QString, expected);
        QTemporaryDir dir;
        const std::string plain = dir.filePath("e.tns").toStdString(), gz = dir.filePath("e.tns.gz").toStdString();
        write_plain(plain, text.toStdString());
        write_gz(gz, text.toStdString());
        const std::string want = without_name(error_of(plain), plain);
        QVERIFY2(want.find(expected.toStdString()) != std::string::npos, want.c_str());
        for (std::size_t block : {std::size_t{64}, std::size_t{1000}, std::size_t{0}})
            QCOMPARE(without_name(error_of(gz, blocks_of(block)), gz), want);
    }

    // Two nonzeros among many comment lines (item 7's file, small): the comment-only blocks are
    // dropped as they pass, a ParTI header may wait behind them.
    void commentHeavyGzip() {
        QTemporaryDir dir;
        std::string comments;
        for (int i = 0; i < 20000; ++i) comments += "# comment line " + std::to_string(i) + "\n";
        const std::string texts[] = {comments + "1 2 3 1.5\n" + comments + "4 5 6 -2\n" + comments,
                                     "3\n" + comments + "4 5 6\n" + comments + "1 2 3 1.5\n" + comments + "4 5 6 -2\n"};
        for (const std::string& text : texts) {
            const std::string plain = dir.filePath("c.tns").toStdString(), gz = dir.filePath("c.tns.gz").toStdString();
            write_plain(plain, text);
            write_gz(gz, text);
            const LoadedTensor got = load_tensor(gz, blocks_of(64 * 1024));
            QCOMPARE(got.tensor.nnz(), std::uint64_t{2});
            compare_loads(got, load_tensor(plain));
        }
    }

    // A truncated gzip stream is an error at the end of the text inflated so far.
    void truncatedGzip() {
        QTemporaryDir dir;
        const std::string bytes = gz_bytes(varied_text());
        const std::string gz = dir.filePath("cut.tns.gz").toStdString();
        write_plain(gz, bytes.substr(0, bytes.size() / 2));
        const std::string msg = error_of(gz, blocks_of(512));
        QVERIFY2(msg.find("the gzip data ends early") != std::string::npos, msg.c_str());
    }

    // A stream that never ends a line is refused, not held: NULs (/dev/zero, a gzip of zeros) at
    // the first block, before a line end is looked for; text past 64 MiB of one line there.
    // Before, both grew their one line until memory ran out.
    void streamsWithoutLineEndsAreRefused() {
        QTemporaryDir dir;
        const std::string zeros = dir.filePath("zeros.tns.gz").toStdString();
        write_gz(zeros, std::string(std::size_t{8} << 20, '\0'));
        std::string msg = error_of(zeros, blocks_of(1 << 20));
        QVERIFY2(msg.find(":1:1: found a NUL byte") != std::string::npos, msg.c_str());
        const std::string digits = dir.filePath("digits.tns.gz").toStdString();
        write_gz(digits, "1 1 1 1.0\n" + std::string((std::size_t{64} << 20) + 10, '7'));
        msg = error_of(digits, blocks_of(1 << 20));
        QVERIFY2(msg.find(":2:1: a line of over 64 MiB without a line end") != std::string::npos, msg.c_str());
        const std::string comment = dir.filePath("comment.tns.gz").toStdString();  // long, but ended
        write_gz(comment, "# " + std::string(std::size_t{3} << 20, 'x') + "\n1 1 1 1.0\n");
        QCOMPARE(load_tensor(comment, blocks_of(1 << 20)).tensor.nnz(), std::uint64_t{1});
    }

    // A FIFO is read in one pass: gzip by its magic bytes, else text; a .tsb is refused in words.
    void fifoGzipTextAndTsb() {
        const std::string text = varied_text();
        QTemporaryDir ref_dir;
        const std::string plain = ref_dir.filePath("t.tns").toStdString();
        write_plain(plain, text);
        const LoadedTensor ref = load_tensor(plain);
        {
            QTemporaryDir dir;
            Fifo fifo(dir, gz_bytes(text));
            const LoadedTensor got = load_tensor(fifo.path, blocks_of(700));
            QCOMPARE(got.info.format, std::string("tns.gz"));
            compare_loads(got, ref);
        }
        {
            QTemporaryDir dir;
            Fifo fifo(dir, text);
            const LoadedTensor got = load_tensor(fifo.path);
            QCOMPARE(got.info.format, std::string("tns"));
            compare_loads(got, ref);
        }
        {
            QTemporaryDir dir;
            const std::string tsb = dir.filePath("t.tsb").toStdString();
            save_tensor(ref.tensor, tsb);
            std::ifstream in(tsb, std::ios::binary);
            Fifo fifo(dir, std::string(std::istreambuf_iterator<char>(in), {}));
            const std::string msg = error_of(fifo.path);
            QVERIFY2(msg.find("random access") != std::string::npos, msg.c_str());
        }
        QTemporaryDir dir;
        QVERIFY(error_of(dir.path().toStdString()).find("directory") != std::string::npos);
    }
};

QTEST_APPLESS_MAIN(TestTnsStream)
#include "test_tns_stream.moc"
