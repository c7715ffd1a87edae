// Writing and reading back: .tns, .tns.gz and .tsb round-trip exactly; formats are recognised
// by content; writes are atomic.
#include <unistd.h>

#include <zlib.h>
#include <QTemporaryDir>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>

#include "foreign_tsb.hpp"
#include "test_support.hpp"
#include "tscope/error.hpp"
#include "tscope/io/tensor_io.hpp"
#include "tscope/io/tns_format.hpp"
#include "tscope/io/tsb_format.hpp"
#include "tscope/tensor/coo_ops.hpp"
#include "tscope/tensor/generator.hpp"

using namespace tscope;
using tstest::tsb_bytes;

namespace {

std::string write_bytes(const QTemporaryDir& dir, const char* name, const std::string& bytes) {
    const std::string path = dir.filePath(name).toStdString();
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    return path;
}

}  // namespace

class TestTensorFiles : public QObject {
    Q_OBJECT

private Q_SLOTS:
    // Every .tsb written here is in slice order of mode 1 (lexicographic), whatever order the
    // tensor held: the streamed passes refuse a file out of that order, and a text converted
    // in one batch (or a reordered tensor) had been written in its own order. fp64 and fp32
    // values, and dims whose coordinates need more than 64 bits of sort key (2^90: sorted by
    // groups of modes). 4.5M nonzeros: the arrays go out in several 16 MB pieces.
    void tsbIsWrittenInSliceOrder_data() {
        QTest::addColumn<QList<quint64>>("dims");
        QTest::addColumn<quint64>("nnz");
        QTest::addColumn<bool>("fp32");
        QTest::newRow("fp64") << QList<quint64>{3000, 2000, 1000} << quint64(4'500'000) << false;
        QTest::newRow("fp32") << QList<quint64>{3000, 2000, 1000} << quint64(200'000) << true;
        QTest::newRow("90-bit keys") << QList<quint64>{1ull << 30, 1ull << 30, 1ull << 30} << quint64(200'000) << false;
    }
    void tsbIsWrittenInSliceOrder() {
        QFETCH(QList<quint64>, dims);
        QFETCH(quint64, nnz);
        QFETCH(bool, fp32);
        QTemporaryDir dir;
        GeneratorSpec spec;
        spec.dims.assign(dims.begin(), dims.end());
        spec.nnz = nnz;
        spec.seed = 7;
        spec.values = fp32 ? ValueType::F32 : ValueType::F64;
        const CooTensor sorted = generate_tensor(spec);
        QVERIFY(is_sorted_lexicographic(sorted));
        QCOMPARE(key_layout(sorted, natural_modes(3)).fits, dims[0] < (1ull << 30));
        const CooTensor mixed = tstest::shuffled(sorted, 11);
        QVERIFY(!is_sorted_lexicographic(mixed));
        const std::string a = dir.filePath("a.tsb").toStdString(), b = dir.filePath("b.tsb").toStdString();
        write_tsb(mixed, a);
        write_tsb(sorted, b);
        LoadOptions keep;
        keep.keep_stored_values = true;
        const LoadedTensor back = read_tsb(a, keep);
        QVERIFY(is_sorted_lexicographic(back.tensor));
        QCOMPARE(back.tensor.value_type(), spec.values);
        std::string why;
        QVERIFY2(same_entries(back.tensor, mixed, &why), why.c_str());
        QVERIFY(tstest::read_file_bytes(a) == tstest::read_file_bytes(b));  // one tensor, one file
    }

    // A .tsb header that contradicts itself (32-bit indices for a mode of 2^33) is bad input,
    // even with a right checksum (issue 24).
    void tsbHeaderThatContradictsItself() {
        QTemporaryDir dir;
        const std::string path = dir.filePath("c.tsb").toStdString();
        write_tsb(tstest::random_tensor({5, 5, 5}, 10, 1), path);
        std::string bytes = tstest::read_file_bytes(path);
        const std::uint64_t huge = std::uint64_t{1} << 33;
        std::memcpy(bytes.data() + 32, &huge, 8);  // mode 1's dim: magic 8, four u32, nnz 8
        const std::size_t header = 32 + 3 * 8 + 4;
        const auto crc = static_cast<std::uint32_t>(crc32_z(0, reinterpret_cast<const Bytef*>(bytes.data()), header - 4));
        std::memcpy(bytes.data() + header - 4, &crc, 4);
        {
            std::ofstream out(path, std::ios::binary | std::ios::trunc);
            out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
        }
        try {
            read_tsb(path);
            QFAIL("a contradictory header was read");
        } catch (const InputError& e) {
            QVERIFY2(std::string(e.what()).find("32-bit indices") != std::string::npos, e.what());
        }
    }

    // Issue 24: a .tsb with a coordinate stored twice reads as the same text does: the values
    // summed, the merges counted, a sum of zero left out.
    void tsbDuplicatesGetTheTextReadersSemantics() {
        QTemporaryDir dir;
        const std::vector<std::vector<std::uint64_t>> idx{{0, 1, 0, 2, 2}, {0, 1, 0, 2, 2}, {0, 1, 0, 2, 2}};
        const std::vector<double> vals{1, 2, 3, 5, -5};
        for (std::uint32_t ibytes : {4u, 8u}) {
            const LoadedTensor tsb = load_tensor(write_bytes(dir, "dup.tsb", tsb_bytes(ibytes, 5, {3, 3, 3}, idx, vals)));
            const LoadedTensor tns = load_tensor(write_bytes(dir, "dup.tns", "# dims: 3 3 3\n1 1 1 1\n2 2 2 2\n1 1 1 3\n3 3 3 5\n3 3 3 -5\n"));
            QCOMPARE(tsb.info.duplicates_summed, std::uint64_t{2});
            QCOMPARE(tsb.info.zeros_dropped, std::uint64_t{1});
            QCOMPARE(tsb.info.duplicates_summed, tns.info.duplicates_summed);
            QCOMPARE(tsb.info.zeros_dropped, tns.info.zeros_dropped);
            std::string why;
            QVERIFY2(same_entries(tsb.tensor, tns.tensor, &why), why.c_str());
            QCOMPARE(tsb.tensor.nnz(), std::uint64_t{2});
            QCOMPARE(tsb.tensor.value(0), 4.0);  // (1,1,1): 1 + 3
        }
    }

    // Issue 24: duplicates whose sum leaves the value type's range are refused in words, in text
    // and in a .tsb (two 1e308 used to load as an infinite nonzero).
    void duplicatesSummingPastTheRangeAreBadInput() {
        QTemporaryDir dir;
        const std::string text = write_bytes(dir, "inf.tns", "1 2 3 1e308\n2 2 2 1\n1 2 3 1e308\n");
        const std::string tsb = write_bytes(dir, "inf.tsb", tsb_bytes(4, 2, {1, 2, 3}, {{0, 0}, {1, 1}, {2, 2}}, {1e308, 1e308}));
        LoadOptions f32;
        f32.values = ValueType::F32;
        const std::string text32 = write_bytes(dir, "inf32.tns", "1 2 3 3e38\n1 2 3 3e38\n");
        for (const auto& [path, options] : {std::pair{text, LoadOptions{}}, std::pair{tsb, LoadOptions{}}, std::pair{text32, f32}}) {
            try {
                load_tensor(path, options);
                QFAIL(path.c_str());
            } catch (const InputError& e) {
                const std::string what = e.what();
                QVERIFY2(what.find(path) != std::string::npos && what.find("(1, 2, 3)") != std::string::npos &&
                             what.find("beyond the range of") != std::string::npos,
                         e.what());
            }
        }
        // a gzip stream goes through the streaming reader: same refusal
        const std::string gz = dir.filePath("inf.tns.gz").toStdString();
        {
            gzFile f = gzopen(gz.c_str(), "wb");
            gzputs(f, "1 2 3 1e308\n1 2 3 1e308\n");
            gzclose(f);
        }
        QVERIFY_THROWS_EXCEPTION(InputError, load_tensor(gz));
    }

    // Issue 24: a header whose nnz the file cannot hold is refused before anything is allocated
    // for it (2^40 nonzeros would be 20 TB), with a right header checksum.
    void tsbNnzLargerThanTheFileIsBadInput() {
        QTemporaryDir dir;
        const std::vector<std::vector<std::uint64_t>> idx{{0, 1}, {0, 1}, {0, 1}};
        // past 2^64 bytes the count itself is refused: the 64-bit cast of the expected size read
        // "its size (124 bytes) does not match its header (124 bytes)" for 2^62 + 3 nonzeros
        for (std::uint64_t nnz :
             {std::uint64_t{3}, std::uint64_t{1} << 40, (std::uint64_t{1} << 62) + 3, ~std::uint64_t{0}}) {
            const bool past64 = nnz > (std::uint64_t{1} << 60);
            std::string bytes = tsb_bytes(4, 2, {3, 3, 3}, idx, {1, 2});
            std::memcpy(bytes.data() + 24, &nnz, 8);
            const std::size_t header = 32 + 3 * 8 + 4;
            const auto crc = static_cast<std::uint32_t>(crc32_z(0, reinterpret_cast<const Bytef*>(bytes.data()), header - 4));
            std::memcpy(bytes.data() + header - 4, &crc, 4);
            const std::string path = write_bytes(dir, "nnz.tsb", bytes);
            try {
                load_tensor(path);
                QFAIL("a header with more nonzeros than the file holds was read");
            } catch (const InputError& e) {
                QVERIFY2(std::string(e.what()).find(past64 ? "more than any file can hold"
                                                           : "does not match its header") != std::string::npos,
                         e.what());
            }
        }
    }

    // A file whose size matches a header of 2^36 nonzeros (a sparse file of 1.4 TB): loading it
    // is refused in words, not "out of memory" after trying.
    void tsbLargerThanMemoryIsRefusedInWords() {
        QTemporaryDir dir;
        const std::uint64_t nnz = std::uint64_t{1} << 36;
        std::string bytes = tsb_bytes(4, 2, {3, 3, 3}, {{0, 1}, {0, 1}, {0, 1}}, {1, 2});
        std::memcpy(bytes.data() + 24, &nnz, 8);
        const std::size_t header = 32 + 3 * 8 + 4;
        const auto crc =
            static_cast<std::uint32_t>(crc32_z(0, reinterpret_cast<const Bytef*>(bytes.data()), header - 4));
        std::memcpy(bytes.data() + header - 4, &crc, 4);
        const std::string path = write_bytes(dir, "big.tsb", bytes.substr(0, header));
        std::error_code ec;
        std::filesystem::resize_file(path, header + nnz * (3 * 4 + 8) + 4, ec);
        if (ec) QSKIP(("this file system holds no sparse file of 1.4 TB: " + ec.message()).c_str());
        try {
            load_tensor(path);
            QFAIL("loaded");
        } catch (const InputError& e) {
            QVERIFY2(std::string(e.what()).find("68719476736 nonzeros (read it in parts") != std::string::npos,
                     e.what());
            QVERIFY2(std::string(e.what()).find("would need") != std::string::npos, e.what());
        }
    }

    // Found by fuzz_tsb: a header with a mode of length 0 was refused by CooTensor's own check,
    // whose message does not name the file.
    void tsbModeOfLengthZeroNamesTheFile() {
        QTemporaryDir dir;
        const std::string path = write_bytes(dir, "zero.tsb", tsb_bytes(4, 0, {3, 0, 4}, {{}, {}, {}}, {}));
        try {
            load_tensor(path);
            QFAIL("a mode of length 0 was read");
        } catch (const InputError& e) {
            const std::string what = e.what();
            QVERIFY2(what.find(path) != std::string::npos && what.find("mode 2 length 0") != std::string::npos, e.what());
        }
    }

    // Issue 24: a double .tsb read as float refuses a value beyond float's range, as the text
    // reader does (1e300 used to load as an infinite nonzero); so are values below it (sweep 65:
    // 1e-50 became 0 and was left out as if it had been 0), in text too. Subnormal floats load.
    void tsbValueBeyondFloatIsBadInputWithFloat() {
        QTemporaryDir dir;
        const std::string path =
            write_bytes(dir, "big.tsb", tsb_bytes(4, 3, {3, 3, 3}, {{0, 1, 2}, {0, 1, 2}, {0, 1, 2}}, {1, 1e300, 1e-50}));
        LoadOptions f32;
        f32.values = ValueType::F32;
        try {
            load_tensor(path, f32);
            QFAIL("1e300 was narrowed to a float");
        } catch (const InputError& e) {
            const std::string what = e.what();
            QVERIFY2(what.find(path) != std::string::npos && what.find("entry 1") != std::string::npos &&
                         what.find("does not fit a float") != std::string::npos,
                     e.what());
        }
        QCOMPARE(load_tensor(path).tensor.nnz(), std::uint64_t{3});  // as double: all three
        const std::string small = write_bytes(dir, "small.tsb", tsb_bytes(4, 2, {3, 3, 3}, {{0, 1}, {0, 1}, {0, 1}}, {1, 1e-50}));
        QVERIFY_THROWS_EXCEPTION(InputError, load_tensor(small, f32));
        const std::string text = write_bytes(dir, "small.tns", "1 1 1 1\n2 2 2 1e-50\n");
        try {
            load_tensor(text, f32);
            QFAIL("1e-50 was narrowed to a float 0");
        } catch (const InputError& e) {
            QVERIFY2(
                std::string(e.what()).find(
                    "'1e-50' does not fit a float (a float holds magnitudes from about 1.4e-45") != std::string::npos,
                e.what());
        }
        const std::string subnormal = write_bytes(dir, "subnormal.tns", "1 1 1 1\n2 2 2 1e-44\n");
        QCOMPARE(load_tensor(subnormal, f32).tensor.nnz(), std::uint64_t{2});
        // float's largest as it is usually printed: a double a little above it, rounding to it (sweep 65c)
        const std::string largest = write_bytes(dir, "largest.tns", "1 1 1 3.4028235e38\n2 2 2 -3.4028235e38\n");
        QCOMPARE(load_tensor(largest, f32).tensor.values<float>()[0], std::numeric_limits<float>::max());
    }

    void roundTrip_data() {
        QTest::addColumn<QString>("name");
        QTest::addColumn<bool>("floats");
        QTest::addColumn<bool>("wide");
        for (const char* n : {"t.tns", "t.tns.gz", "t.tsb"})
            for (bool f : {false, true})
                for (bool w : {false, true})
                    QTest::addRow("%s %s %s", n, f ? "float" : "double", w ? "64-bit" : "32-bit") << QString(n) << f << w;
    }
    void roundTrip() {
        QFETCH(QString, name);
        QFETCH(bool, floats);
        QFETCH(bool, wide);
        QTemporaryDir dir;
        CooTensor t = tstest::random_tensor({60, 50, 40, 30}, 3000, 17);
        if (wide) {  // one huge mode forces 64-bit indices; the empty tail must survive
            CooTensor w({60, 50, 40, (1ULL << 33)}, ValueType::F64);
            w.resize(t.nnz());
            for (std::uint64_t n = 0; n < t.nnz(); ++n)
                w.set(n, std::vector<std::uint64_t>{t.index(0, n), t.index(1, n), t.index(2, n), t.index(3, n) * 1000003},
                      t.value(n));
            t = w;
        }
        if (floats) t = t.with_value_type(ValueType::F32);
        const std::string path = dir.filePath(name).toStdString();
        save_tensor(t, path);
        LoadOptions o;
        o.values = t.value_type();
        const LoadedTensor back = load_tensor(path, o);
        std::string why;
        QVERIFY2(same_entries(t, back.tensor, &why), why.c_str());
        QCOMPARE(back.tensor.index_width(), t.index_width());
        QCOMPARE(back.info.format, name.endsWith(".tsb") ? std::string("tsb") : name.endsWith(".gz") ? std::string("tns.gz") : std::string("tns"));
    }

    void trailingEmptySlicesSurviveTns() {
        QTemporaryDir dir;
        CooTensor t({100, 100, 100});
        t.resize(1);
        t.set(0, std::vector<std::uint64_t>{1, 2, 3}, 4.0);
        const std::string path = dir.filePath("sparse.tns").toStdString();
        save_tensor(t, path);
        QCOMPARE(load_tensor(path).tensor.dims(), (std::vector<std::uint64_t>{100, 100, 100}));
    }

    void formatRecognisedByContentNotName() {
        QTemporaryDir dir;
        const CooTensor t = tstest::random_tensor({9, 9, 9}, 40, 2);
        const std::string tsb = dir.filePath("cache.tsb").toStdString();
        const std::string gz = dir.filePath("text.tns.gz").toStdString();
        save_tensor(t, tsb);
        save_tensor(t, gz);
        const std::string renamed_tsb = dir.filePath("misnamed.tns").toStdString();
        const std::string renamed_gz = dir.filePath("misnamed2.tns").toStdString();
        std::filesystem::copy_file(tsb, renamed_tsb);
        std::filesystem::copy_file(gz, renamed_gz);
        QCOMPARE(load_tensor(renamed_tsb).info.format, std::string("tsb"));
        QCOMPARE(load_tensor(renamed_gz).info.format, std::string("tns.gz"));
        QVERIFY(same_entries(load_tensor(renamed_gz).tensor, t));
    }

    // The name's extension picks the format; one that promises another format (CSV, Matrix
    // Market) is refused before anything is written, not filled with FROSTT text.
    void outputNameMustNameAFormatWeWrite() {
        QTemporaryDir dir;
        const CooTensor t = tstest::random_tensor({9, 9, 9}, 40, 2);
        for (const char* name : {"plain", "t.txt", "t.txt.gz", "t.gz", ".hidden"}) {
            const std::string path = dir.filePath(name).toStdString();
            save_tensor(t, path);
            QVERIFY2(same_entries(load_tensor(path).tensor, t), name);
        }
        for (const char* name : {"t.csv", "t.mtx", "t.csv.gz", "t.json"}) {
            const std::string path = dir.filePath(name).toStdString();
            try {
                save_tensor(t, path);
                QFAIL(name);
            } catch (const InputError& e) {
                QVERIFY2(std::string(e.what()).find("is none of them") != std::string::npos, e.what());
            }
            QVERIFY2(!std::filesystem::exists(path), name);
        }
    }

    // Sweep 64: a gzip file of several members (`cat a.gz b.gz`) is read whole, zero padding
    // after the last is passed over, and anything else after a member (a damaged second member,
    // appended bytes) is refused naming its offset: zlib's gzread dropped it without a word, and
    // with it a member's nonzeros.
    void gzipMembersAndWhatFollowsThem() {
        QTemporaryDir dir;
        auto gzip = [](const std::string& text) {
            z_stream zs{};
            deflateInit2(&zs, 6, Z_DEFLATED, 16 + MAX_WBITS, 8, Z_DEFAULT_STRATEGY);
            std::string out(deflateBound(&zs, static_cast<uLong>(text.size())), '\0');
            zs.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(text.data()));
            zs.avail_in = static_cast<uInt>(text.size());
            zs.next_out = reinterpret_cast<Bytef*>(out.data());
            zs.avail_out = static_cast<uInt>(out.size());
            deflate(&zs, Z_FINISH);
            out.resize(zs.total_out);
            deflateEnd(&zs);
            return out;
        };
        const std::string first = gzip("1 1 1 1.0\n2 2 2 2.0\n3 1 "), second = gzip("2 3.5\n4 4 4 4.0\n");
        for (const bool stream : {false, true}) {  // the whole-file and the block-by-block readers alike
            LoadOptions options;
            options.stream_block_bytes = stream ? 8 : options.stream_block_bytes;
            const LoadedTensor two = load_tensor(write_bytes(dir, "two.tns.gz", first + second), options);
            QCOMPARE(two.tensor.nnz(), std::uint64_t{4});  // a line split across the members, too
            QCOMPARE(load_tensor(write_bytes(dir, "pad.tns.gz", first + second + std::string(512, '\0')), options)
                         .tensor.nnz(),
                     std::uint64_t{4});
            std::string damaged = second;
            damaged[0] = '\0';
            const std::size_t members = first.size() + second.size();
            // the offset named is the first byte that is neither a member nor zero padding
            const std::pair<std::string, std::size_t> cases[] = {{damaged, members + 1},
                                                                 {"GARBAGE", members},
                                                                 {std::string(512, '\0') + "GARBAGE", members + 512},
                                                                 {"\x1f\x8bXXXXXXXXXXXXXXXXX", members}};
            for (const auto& [after, offset] : cases) {
                const std::string path = write_bytes(dir, "bad.tns.gz", first + second + after);
                try {
                    load_tensor(path, options);
                    QFAIL("loaded");
                } catch (const InputError& e) {
                    const std::string why = e.what();
                    QVERIFY2(
                        why.find("'" + path + "'") != std::string::npos &&
                            why.find("the bytes from offset " + std::to_string(offset) + " on") != std::string::npos &&
                            why.find("not a gzip member") != std::string::npos &&
                            why.find("after 40 bytes of text") != std::string::npos,
                        e.what());
                }
            }
        }
    }

    // An extension in capitals (a Windows habit, or a name typed with Caps Lock) names the same
    // format as in lower case: each file's content says which format it was written in.
    void outputExtensionsInAnyCase() {
        QTemporaryDir dir;
        const CooTensor t = tstest::random_tensor({9, 9, 9}, 40, 2);
        const std::pair<const char*, const char*> cases[] = {
            {"u.TSB", "tsb"}, {"u2.Tsb", "tsb"}, {"u.TNS", "tns"}, {"u.TNS.GZ", "tns.gz"}, {"u.tns.Gz", "tns.gz"}};
        for (const auto& [name, format] : cases) {
            const std::string path = dir.filePath(name).toStdString();
            save_tensor(t, path);
            const LoadedTensor back = load_tensor(path);
            QCOMPARE(back.info.format, std::string(format));
            QVERIFY2(same_entries(back.tensor, t), name);
        }
        QVERIFY_THROWS_EXCEPTION(InputError, save_tensor(t, dir.filePath("u.CSV").toStdString()));
    }

    // Bytes named .tsb without its magic are read as text (content decides) and, where that
    // fails, the message says the name promised a .tsb; text named .tsb still loads.
    void tsbNameWithoutTheMagicSaysSo() {
        QTemporaryDir dir;
        const std::string garbage = write_bytes(dir, "garbage.tsb", std::string("\x01\x02\x00\x7fxyz", 7));
        try {
            load_tensor(garbage);
            QFAIL("garbage loaded");
        } catch (const InputError& e) {
            QVERIFY2(std::string(e.what()).find("does not start with the .tsb magic") != std::string::npos, e.what());
        }
        QCOMPARE(load_tensor(write_bytes(dir, "text.tsb", "1 1 1 2.5\n")).tensor.nnz(), std::uint64_t{1});
    }

    void cancelledWriteLeavesNoFileAndKeepsTheOldOne() {
        QTemporaryDir dir;
        const std::string path = dir.filePath("keep.tsb").toStdString();
        const CooTensor small = tstest::random_tensor({5, 5, 5}, 10, 1);
        save_tensor(small, path);
        const auto before = std::filesystem::file_size(path);
        AtomicRunControl control;
        control.request_cancel();
        QVERIFY_THROWS_EXCEPTION(Cancelled, save_tensor(tstest::random_tensor({50, 50, 50}, 5000, 1), path, control));
        QCOMPARE(std::filesystem::file_size(path), before);
        QVERIFY(same_entries(load_tensor(path).tensor, small));
        int files = 0;
        for (auto& e : std::filesystem::directory_iterator(dir.path().toStdString())) (void)e, ++files;
        QCOMPARE(files, 1);  // no temporary left behind
        QVERIFY_THROWS_EXCEPTION(InputError, save_tensor(small, "/nonexistent-dir/x.tns"));
    }

    // A gzip write stopped midway (here its progress report throws; a full disk does the same)
    // closes its gzFile: left open, its descriptor kept the nameless temporary's disk space for
    // the rest of the process.
    void stoppedGzipWriteKeepsNoDescriptor() {
        struct Stop : RunControl {  // throws in the write's loop, not in the formatting before it
            std::string now;
            void stage(const std::string& name) override { now = name; }
            void progress(std::uint64_t, std::uint64_t) override {
                if (now == "writing") throw Cancelled();
            }
        } stop;
        QTemporaryDir dir;
        const std::string path = dir.filePath("t.tns.gz").toStdString();
        QVERIFY_THROWS_EXCEPTION(Cancelled, save_tensor(tstest::random_tensor({50, 50, 50}, 5000, 1), path, stop));
        QCOMPARE(tstest::nameless_files_open(::getpid(), dir.path()), 0);
        QVERIFY(!std::filesystem::exists(path));
    }

    void writerOutputIsFrostt() {
        CooTensor t({3, 4});
        t.resize(2);
        t.set(0, std::vector<std::uint64_t>{0, 3}, 0.1);
        t.set(1, std::vector<std::uint64_t>{2, 0}, 2.0);
        const std::string text = format_tns(t);
        QVERIFY(text.find("# dims: 3 4\n") != std::string::npos);
        QVERIFY(text.find("\n1 4 0.1\n3 1 2\n") != std::string::npos);  // 1-based, shortest values
    }
};

QTEST_APPLESS_MAIN(TestTensorFiles)
#include "test_tensor_files.moc"
