// Writing and reading back: .tns, .tns.gz and .tsb round-trip exactly; formats are recognised
// by content; writes are atomic.
#include <QTemporaryDir>
#include <filesystem>
#include <fstream>
#include <cstring>
#include <zlib.h>

#include "test_support.hpp"
#include "tscope/error.hpp"
#include "tscope/io/tensor_io.hpp"
#include "tscope/io/tns_format.hpp"
#include "tscope/io/tsb_format.hpp"
#include "tscope/tensor/coo_ops.hpp"

using namespace tscope;

class TestTensorFiles : public QObject {
    Q_OBJECT

private Q_SLOTS:
    // A .tsb header that contradicts itself (32-bit indices for a mode of 2^33) is bad input,
    // even with a right checksum (issue 24).
    void tsbHeaderThatContradictsItself() {
        QTemporaryDir dir;
        const std::string path = dir.filePath("c.tsb").toStdString();
        write_tsb(tstest::random_tensor({5, 5, 5}, 10, 1), path);
        std::string bytes;
        {
            std::ifstream in(path, std::ios::binary);
            bytes.assign(std::istreambuf_iterator<char>(in), {});
        }
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
