// The teaching view's model: for every format and mode, on the 4x5x4 example of hocfs Sec. 5,
// each nonzero appears once with its coordinates and value, every cell it names exists, its
// value cell holds its value, and no two nonzeros share a value cell.
#include <set>

#include "test_support.hpp"
#include "tscope/formats/alto_format.hpp"
#include "tscope/formats/format_anatomy.hpp"
#include "tscope/io/tensor_io.hpp"

using namespace tscope;

class TestFormatAnatomy : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void everyFormatLocatesEveryNonzero() {
        const CooTensor t = load_tensor(TS_SAMPLES_DIR "/hocfs-example-4x5x4.tns").tensor;
        QCOMPARE(t.nnz(), std::uint64_t{21});
        std::set<std::pair<std::vector<std::uint64_t>, double>> truth;
        for (std::uint64_t z = 0; z < t.nnz(); ++z) truth.insert({{t.index(0, z), t.index(1, z), t.index(2, z)}, t.value(z)});
        for (FormatKind kind : {FormatKind::COO, FormatKind::HOCSR, FormatKind::CFB, FormatKind::HOCFS_CSR, FormatKind::HOCFS_ELL,
                                FormatKind::CSF, FormatKind::BCSF, FormatKind::MMCSF, FormatKind::HiCOO, FormatKind::ALTO})
            for (int mode = 0; mode < 3; ++mode) {
                FormatOptions o;
                o.mode = mode;
                o.bcsf_fiber_threshold = 2;  // B-CSF splits fibers even here
                const auto f = build_format(kind, t, o);
                const FormatAnatomy a = format_anatomy(*f);
                const QString what = QString("%1 mode %2").arg(format_name(kind)).arg(mode + 1);
                QCOMPARE(a.entries.size(), std::size_t{21});
                std::set<std::pair<std::vector<std::uint64_t>, double>> seen;
                std::set<std::pair<std::uint32_t, std::uint64_t>> valueCells;
                for (const AnatomyEntry& e : a.entries) {
                    seen.insert({e.coord, e.value});
                    QVERIFY2(!e.cells.empty(), qPrintable(what));
                    for (const auto& [arr, pos] : e.cells) QVERIFY2(arr < a.arrays.size() && pos < a.arrays[arr].cells.size(), qPrintable(what));
                    const auto& last = e.cells.back();  // every layout lists the value cell last
                    QCOMPARE(a.arrays[last.first].cells[last.second], QString::number(e.value).toStdString());
                    QVERIFY2(valueCells.insert(last).second, qPrintable(what + ": two nonzeros share a value cell"));
                }
                QVERIFY2(seen == truth, qPrintable(what));
            }
    }

    // ALTO on the 4x5x4 example: 2 + 3 + 2 bits, each named once, the shorter modes first in
    // each round; every nonzero's index is its coordinates' bits deposited, shown in binary.
    void altoShowsTheLinearizedIndexBitByBit() {
        const CooTensor t = load_tensor(TS_SAMPLES_DIR "/hocfs-example-4x5x4.tns").tensor;
        const FormatAnatomy a = format_anatomy(*build_format(FormatKind::ALTO, t, FormatOptions{}));
        QCOMPARE(a.arrays[0].name, std::string("bits"));
        QCOMPARE(a.arrays[0].cells, (std::vector<std::string>{"b0: i0", "b1: k0", "b2: j0", "b3: i1", "b4: k1", "b5: j1", "b6: j2"}));
        const AltoLayout l = alto_layout(t.dims());
        for (const AnatomyEntry& e : a.entries) {
            std::uint64_t lin = 0;
            for (std::size_t m = 0; m < 3; ++m) lin |= alto_deposit(e.coord[m], l.lo[m]);
            const std::string& cell = a.arrays[e.cells.front().first].cells[e.cells.front().second];
            std::string binary;
            for (int b = 6; b >= 0; --b) binary += (lin >> b & 1) ? '1' : '0';
            QCOMPARE(cell, std::to_string(lin) + " = " + binary);
        }
    }

    void refusesWhatItCannotTeach() {
        const CooTensor big = tstest::random_tensor({50, 50, 50}, 2000, 1);
        const auto f = build_format(FormatKind::COO, big, FormatOptions{});
        QVERIFY_THROWS_EXCEPTION(InputError, format_anatomy(*f, 500));
        const CooTensor t = load_tensor(TS_SAMPLES_DIR "/hocfs-example-4x5x4.tns").tensor;
        QVERIFY_THROWS_EXCEPTION(InputError, format_anatomy(*build_format(FormatKind::HLS, t, FormatOptions{})));
    }
};

QTEST_APPLESS_MAIN(TestFormatAnatomy)
#include "test_format_anatomy.moc"
