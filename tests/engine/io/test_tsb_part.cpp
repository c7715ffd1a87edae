// Reading a .tsb file in parts (each rank of a distributed CPD reads its own): the parts put
// together are the whole tensor, their CRCs combine into the file's, a corrupt byte is caught by
// the combination, and a bad entry is named by its number in the file.
#include <QTemporaryDir>

#include <fstream>

#include "test_support.hpp"
#include "tscope/io/tensor_io.hpp"
#include "tscope/io/tsb_part.hpp"
#include "tscope/tensor/nnz_split.hpp"

using namespace tscope;

namespace {

void flip_byte(const std::string& path, std::uint64_t offset) {
    std::fstream f(path, std::ios::in | std::ios::out | std::ios::binary);
    f.seekg(static_cast<std::streamoff>(offset));
    char c = 0;
    f.read(&c, 1);
    c = static_cast<char>(c ^ 0x5a);
    f.seekp(static_cast<std::streamoff>(offset));
    f.write(&c, 1);
}

std::uint32_t combined(const std::string& path, int parts) {
    const TsbHeader h = read_tsb_header(path);
    const auto cuts = even_cuts(h.nnz, parts);
    std::vector<std::vector<std::uint32_t>> crcs;
    std::vector<std::uint64_t> counts;
    for (int p = 0; p < parts; ++p) {
        const TsbPart part = read_tsb_part(path, cuts[std::size_t(p)], cuts[std::size_t(p) + 1] - cuts[std::size_t(p)]);
        crcs.push_back(part.crcs);
        counts.push_back(part.tensor.nnz());
    }
    return combine_tsb_part_crcs(h, crcs, counts);
}

}  // namespace

class TestTsbPart : public QObject {
    Q_OBJECT

private slots:
    void partsMakeTheWhole() {
        QTemporaryDir dir;
        const std::string path = dir.filePath("t.tsb").toStdString();
        const CooTensor t = tstest::random_tensor({40, 30, 20, 10}, 5000, 3);
        save_tensor(t, path);
        const TsbHeader h = read_tsb_header(path);
        QCOMPARE(h.nnz, t.nnz());
        QCOMPARE(h.dims, t.dims());
        for (int parts : {1, 2, 3, 7}) {
            const auto cuts = even_cuts(t.nnz(), parts);
            std::uint64_t z = 0;
            for (int p = 0; p < parts; ++p) {
                const TsbPart part = read_tsb_part(path, cuts[std::size_t(p)], cuts[std::size_t(p) + 1] - cuts[std::size_t(p)]);
                QCOMPARE(part.first, cuts[std::size_t(p)]);
                QCOMPARE(part.tensor.dims(), t.dims());
                for (std::uint64_t k = 0; k < part.tensor.nnz(); ++k, ++z) {
                    for (int m = 0; m < t.order(); ++m) QCOMPARE(part.tensor.index(m, k), t.index(m, z));
                    QCOMPARE(part.tensor.value(k), t.value(z));
                }
            }
            QCOMPARE(z, t.nnz());
            QCOMPARE(combined(path, parts), read_tsb_part(path, 0, 0).stored_crc);
        }
        QCOMPARE(read_tsb_part(path, t.nnz() + 5, 10).tensor.nnz(), std::uint64_t(0));  // past the end: empty
    }

    void aCorruptByteBreaksTheCombinedChecksum() {
        QTemporaryDir dir;
        const std::string path = dir.filePath("t.tsb").toStdString();
        save_tensor(tstest::random_tensor({50, 50, 50}, 3000, 9), path);
        const TsbHeader h = read_tsb_header(path);
        // a value's low mantissa byte: the entry stays valid, only the checksum can tell
        flip_byte(path, h.header_bytes + 3 * 3000 * 4 + 8 * 1234);
        QVERIFY(combined(path, 3) != read_tsb_part(path, 0, 0).stored_crc);
    }

    void badEntriesAreNamedByTheirNumberInTheFile() {
        QTemporaryDir dir;
        const std::string path = dir.filePath("t.tsb").toStdString();
        save_tensor(tstest::random_tensor({50, 50, 50}, 3000, 9), path);
        const TsbHeader h = read_tsb_header(path);
        // entry 2100's mode-2 index (32-bit) set beyond 50
        std::fstream f(path, std::ios::in | std::ios::out | std::ios::binary);
        f.seekp(static_cast<std::streamoff>(h.header_bytes + 3000 * 4 + 2100 * 4));
        const std::uint32_t big = 77;
        f.write(reinterpret_cast<const char*>(&big), 4);
        f.close();
        QVERIFY(read_tsb_part(path, 0, 2000).tensor.nnz() == 2000);  // this part does not hold it
        try {
            read_tsb_part(path, 2000, 1000);
            QFAIL("accepted an index beyond its dimension");
        } catch (const InputError& e) {
            QVERIFY2(std::string(e.what()).find("entry 2100 has index 78 in mode 2") != std::string::npos, e.what());
        }
        // the largest 32-bit index is named as its 1-based number, 2^32, not wrapped to 0 (sweep 66a F7)
        {
            std::fstream g(path, std::ios::in | std::ios::out | std::ios::binary);
            g.seekp(static_cast<std::streamoff>(h.header_bytes + 3000 * 4 + 2100 * 4));
            const std::uint32_t top = 0xffffffffu;
            g.write(reinterpret_cast<const char*>(&top), 4);
        }
        try {
            (void)read_tsb_part(path, 2000, 1000);
            QFAIL("accepted an index beyond its dimension");
        } catch (const InputError& e) {
            QVERIFY2(std::string(e.what()).find("entry 2100 has index 4294967296 in mode 2") != std::string::npos,
                     e.what());
        }
        QVERIFY_THROWS_EXCEPTION(InputError, read_tsb_header(dir.filePath("missing.tsb").toStdString()));
    }
};

QTEST_GUILESS_MAIN(TestTsbPart)
#include "test_tsb_part.moc"
