// BLCO (issue 26): the key's fields (every mode's bits while they fit 64, the longest modes
// giving their top bits to the blocks past that), the blocks (nonzeros sharing their high bits,
// each in ALTO order), and the exact round trip, on 64-bit and wider shapes and the real tensors.
#include "test_support.hpp"
#include "tscope/formats/blco_format.hpp"
#include "tscope/formats/format_visit.hpp"
#include "tscope/io/tensor_io.hpp"

using namespace tscope;

namespace {

template <class F> void with_blco(const SparseFormat& f, F fn) {
    visit_format(f, overloaded{[&]<class I, class V>(const BlcoFormat<I, V>& b) { fn(b); },
                               [&](const SparseFormat&) { QFAIL("not a BLCO format"); }});
}

}  // namespace

class TestBlcoFormat : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void fieldsFitSixtyFourBits() {
        auto [w, s] = blco_fields({100000, 80000, 60000});  // 17 + 17 + 16: all in the key
        QCOMPARE(w, (std::vector<unsigned>{17, 17, 16}));
        QCOMPARE(s, (std::vector<unsigned>{0, 17, 34}));
        std::tie(w, s) = blco_fields({1ull << 30, 1ull << 25, 1ull << 20});  // 75 bits: 11 go to the blocks, longest first
        QCOMPARE(w[0] + w[1] + w[2], 64u);
        QCOMPARE(w, (std::vector<unsigned>{22, 22, 20}));
        QCOMPARE(s, (std::vector<unsigned>{0, 22, 44}));
    }

    void oneBlockWhereTheKeyHoldsEverything() {
        const CooTensor t = tstest::random_tensor({300, 200, 100}, 5000, 4, Distribution::PowerLaw);
        const auto f = build_format(FormatKind::BLCO, t, {});
        QVERIFY(tstest::as_map(f->to_coo()) == tstest::as_map(t));
        with_blco(*f, [&](const auto& b) { QCOMPARE(b.blocks(), std::uint64_t(1)); });
    }

    void blocksWhereTheModesNeedMore() {
        // 5 modes of 15 bits: 75 in all, 11 high bits per nonzero shared by its block
        const CooTensor t = tstest::random_tensor({30000, 20000, 25000, 22000, 31000}, 6000, 8, Distribution::PowerLaw);
        const auto f = build_format(FormatKind::BLCO, t, {});
        QVERIFY(tstest::as_map(f->to_coo()) == tstest::as_map(t));
        with_blco(*f, [&](const auto& b) {
            QVERIFY(b.blocks() > 1);
            QCOMPARE(b.block_ptr.front(), std::uint64_t(0));
            QCOMPARE(b.block_ptr.back(), t.nnz());
            for (std::uint64_t k = 0; k < b.blocks(); ++k) {
                QVERIFY(b.block_ptr[k] < b.block_ptr[k + 1]);  // no empty block
                for (int m = 0; m < 5; ++m)                   // the block's high bits are every member's
                    for (std::uint64_t z = b.block_ptr[k]; z < b.block_ptr[k + 1]; ++z)
                        QCOMPARE(b.index(m, k, z) >> b.width[std::size_t(m)], b.block_high[std::size_t(m)][k]);
            }
            QCOMPARE(b.storage().bytes(), t.nnz() * 16 + (b.blocks() + 1) * 8 + 5 * b.blocks() * 8);
        });
    }

    void realTensors() {
        for (const char* name : {"movielens-100k.tns", "lastfm-tags.tns", "jf17k-4d.tns"}) {
            const std::string path = tstest::shared_tensor(name);
            if (path.empty()) QSKIP("../shared/data is absent (a fresh clone): skipped");
            const CooTensor t = load_tensor(path).tensor;
            QVERIFY(tstest::as_map(build_format(FormatKind::BLCO, t, {})->to_coo()) == tstest::as_map(t));
        }
    }
};

QTEST_APPLESS_MAIN(TestBlcoFormat)
#include "test_blco_format.moc"
