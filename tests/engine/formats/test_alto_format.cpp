// ALTO (issue 26): the adaptive bit interleaving (each mode the bits its length needs, dealt
// round robin from the least significant bit, shorter modes first, a mode dropping out when its
// bits are dealt), the linearized order and the partitions with their intervals, the round trip
// to COO, and MTTKRP against the oracle under each conflict resolution (direct, buffers,
// atomics), on random order 3-5 tensors and the real ones.
#include <omp.h>

#include <bit>

#include "test_support.hpp"
#include "tscope/advisor/advisor.hpp"
#include "tscope/formats/alto_format.hpp"
#include "tscope/formats/format_visit.hpp"
#include "tscope/io/tensor_io.hpp"
#include "tscope/kernels/mttkrp.hpp"

using namespace tscope;

namespace {

template <class F> void with_alto(const SparseFormat& f, F fn) {
    visit_format(f, overloaded{[&]<class I, class V>(const AltoFormat<I, V>& a) { fn(a); },
                               [&](const SparseFormat&) { QFAIL("not an ALTO format"); }});
}

// MTTKRP on every mode against the oracle; returns the resolutions used.
std::vector<AltoConflict> check_mttkrp(const CooTensor& t, std::uint64_t rank) {
    const auto f = build_format(FormatKind::ALTO, t, {});
    const auto factors = tstest::random_factors(t, {rank}, 11);
    std::vector<AltoConflict> used;
    for (int mode = 0; mode < t.order(); ++mode) {
        DenseMatrix ref(t.dim(mode), rank), out(t.dim(mode), rank);
        mttkrp_reference(t, mode, factors, ref);
        out.fill(-1.0);
        mttkrp(Backend::Omp, *f, mode, factors, out);
        const double err = max_relative_error(out, ref);
        if (!(err <= 1e-12)) qWarning("mode %d rank %llu: error %g", mode + 1, static_cast<unsigned long long>(rank), err);
        [&] { QVERIFY(err <= 1e-12); }();
        with_alto(*f, [&](const auto& a) { used.push_back(alto_conflict_resolution(a, mode, rank)); });
    }
    return used;
}

}  // namespace

class TestAltoFormat : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void masksDealTheBitsAdaptively() {
        // 100000 x 80000 x 60000 need 17, 17 and 16 bits: 50 in all, each mode its own
        const AltoLayout l = alto_layout({100000, 80000, 60000});
        const std::vector<std::uint64_t>& masks = l.lo;
        QCOMPARE(l.bits, 50u);
        QVERIFY(!l.wide());
        QCOMPARE(std::popcount(masks[0]), 17);
        QCOMPARE(std::popcount(masks[1]), 17);
        QCOMPARE(std::popcount(masks[2]), 16);
        QCOMPARE(masks[0] & masks[1], std::uint64_t(0));
        QCOMPARE((masks[0] | masks[1] | masks[2]), (std::uint64_t(1) << 50) - 1);
        // the shortest mode first in each round: bit 0 is mode 3's, bits 1 and 2 modes 1 and 2's
        QCOMPARE(masks[2] & 7, std::uint64_t(1));
        QCOMPARE(masks[0] & 7, std::uint64_t(2));
        QCOMPARE(masks[1] & 7, std::uint64_t(4));
        // once the short mode's bits are dealt the others alternate: the top two bits are modes 1 and 2's
        QVERIFY(masks[0] & (std::uint64_t(1) << 48));
        QVERIFY(masks[1] & (std::uint64_t(1) << 49));
        // a mode of length 1 needs no bit at all; a 2 x 1000 tensor spends 1 + 10
        const auto thin = alto_layout({2, 1, 1000});
        QCOMPARE(thin.lo[1], std::uint64_t(0));
        QCOMPARE(std::popcount(thin.lo[0]) + std::popcount(thin.lo[2]), 11);
        // 70 bits: the index takes a second word, each mode's bits split over the two
        const AltoLayout w = alto_layout({1ull << 30, 1ull << 30, 1ull << 10});
        QVERIFY(w.wide());
        QCOMPARE(w.bits, 70u);
        int in_lo = 0, in_hi = 0;
        for (std::size_t m = 0; m < 3; ++m) in_lo += std::popcount(w.lo[m]), in_hi += std::popcount(w.hi[m]);
        QCOMPARE(in_lo, 64);
        QCOMPARE(in_hi, 6);
        QCOMPARE(std::popcount(w.lo[0]) + std::popcount(w.hi[0]), 30);
        try {
            alto_layout({1ull << 60, 1ull << 60, 1ull << 10});
            QFAIL("130 bits were accepted");
        } catch (const InputError& e) {
            QVERIFY2(QString(e.what()).contains("130 bits"), e.what());
        }
    }

    void depositAndExtractRoundTrip() {
        std::mt19937_64 rng(1);
        for (const std::vector<std::uint64_t>& dims : {std::vector<std::uint64_t>{37, 1000, 5, 129, 3},  // none a power of two
                                                      std::vector<std::uint64_t>{1000003, 70001, 900001, 20011, 3001}}) {  // 80 bits
            const AltoLayout l = alto_layout(dims);
            for (int k = 0; k < 2000; ++k) {
                std::uint64_t lo = 0, hi = 0;
                std::vector<std::uint64_t> c;
                for (std::size_t m = 0; m < dims.size(); ++m) {
                    c.push_back(rng() % dims[m]);
                    alto_deposit_wide(c.back(), l.lo[m], l.hi[m], lo, hi);
                }
                QCOMPARE(hi == 0 || l.wide(), true);
                for (std::size_t m = 0; m < dims.size(); ++m) QCOMPARE(alto_extract_wide(lo, hi, l.lo[m], l.hi[m]), c[m]);
            }
        }
    }

    // Modes that need 75 bits together: the 128-bit index sorts, round-trips and runs MTTKRP
    // under each resolution as the 64-bit one does.
    void wideIndexWorksToo() {
        const CooTensor t = tstest::random_tensor({30000, 20000, 25000, 22000, 31000}, 6000, 8, Distribution::PowerLaw);
        const auto f = build_format(FormatKind::ALTO, t, {});
        QVERIFY(tstest::as_map(f->to_coo()) == tstest::as_map(t));
        with_alto(*f, [&](const auto& a) {
            QVERIFY(a.layout.wide());
            QCOMPARE(a.lidx_hi.size(), std::size_t(t.nnz()));
            for (std::uint64_t z = 1; z < t.nnz(); ++z)  // ascending as 128-bit numbers
                QVERIFY(a.lidx_hi[z - 1] < a.lidx_hi[z] || (a.lidx_hi[z - 1] == a.lidx_hi[z] && a.lidx[z - 1] < a.lidx[z]));
        });
        omp_set_num_threads(1);
        check_mttkrp(t, 16);
        omp_set_num_threads(2);
        check_mttkrp(t, 32);
        // the advisor's storage model counts the second word
        const auto built = build_format(FormatKind::ALTO, t, {});
        bool exact = false;
        QCOMPARE(predicted_storage(profile_tensor(t), KernelKind::MTTKRP, FormatKind::ALTO, 0, &exact), built->storage().bytes());
        QVERIFY(exact);
    }

    void orderPartitionsAndIntervals() {
        omp_set_num_threads(3);
        const CooTensor t = tstest::random_tensor({300, 200, 100}, 20000, 4, Distribution::PowerLaw);
        const auto f = build_format(FormatKind::ALTO, t, {});
        QVERIFY(tstest::as_map(f->to_coo()) == tstest::as_map(t));  // every entry, exactly
        with_alto(*f, [&](const auto& a) {
            QCOMPARE(a.partitions(), std::uint64_t(3));
            QVERIFY(std::is_sorted(a.lidx.begin(), a.lidx.end()));
            for (std::uint64_t p = 0; p < 3; ++p) {
                const std::uint64_t count = a.part_ptr[p + 1] - a.part_ptr[p];
                QVERIFY(count == t.nnz() / 3 || count == t.nnz() / 3 + 1);
                for (int m = 0; m < 3; ++m) {  // the interval is the tightest one holding the partition's indices
                    std::uint64_t lo = ~0ull, hi = 0;
                    for (std::uint64_t z = a.part_ptr[p]; z < a.part_ptr[p + 1]; ++z)
                        lo = std::min(lo, a.index(m, z)), hi = std::max(hi, a.index(m, z) + 1);
                    QCOMPARE(a.lo[std::size_t(m)][p], lo);
                    QCOMPARE(a.hi[std::size_t(m)][p], hi);
                }
            }
        });
        omp_set_num_threads(2);
    }

    void mttkrpUnderEachResolution() {
        // one partition: nothing overlaps, rows are written directly
        omp_set_num_threads(1);
        for (AltoConflict c : check_mttkrp(tstest::random_tensor({50, 40, 30}, 3000, 1), 16)) QCOMPARE(c, AltoConflict::Direct);
        // two partitions over a small dense-ish tensor: every row updated many times, buffers
        omp_set_num_threads(2);
        bool buffers = false, atomics = false;
        for (AltoConflict c : check_mttkrp(tstest::random_tensor({30, 20, 10}, 5000, 2), 32)) buffers = buffers || c == AltoConflict::Buffers;
        QVERIFY(buffers);
        // three partitions with overlapping intervals: the first adds into the output itself, the
        // others into buffers summed after; at the unrolled ranks 16 and 32 and a generic one
        omp_set_num_threads(3);
        for (std::uint64_t rank : {16u, 32u, 12u}) {
            bool buffered = false;
            for (AltoConflict c : check_mttkrp(tstest::random_tensor({30, 20, 10}, 4000, 4, Distribution::PowerLaw), rank))
                buffered = buffered || c == AltoConflict::Buffers;
            QVERIFY(buffered);
        }
        omp_set_num_threads(2);
        // long sparse modes: few updates per row, atomics
        for (AltoConflict c : check_mttkrp(tstest::random_tensor({50000, 40000, 30000}, 3000, 3), 7)) atomics = atomics || c == AltoConflict::Atomics;
        QVERIFY(atomics);
        // orders 4 and 5, ranks without a compiled-in width
        check_mttkrp(tstest::random_tensor({20, 15, 10, 8}, 4000, 5, Distribution::PowerLaw), 5);
        check_mttkrp(tstest::random_tensor({12, 10, 8, 6, 5}, 4000, 6), 64);
    }

    void realTensors() {
        for (const char* name : {"movielens-100k.tns", "lastfm-tags.tns", "jf17k-4d.tns"}) {
            const std::string path = tstest::shared_tensor(name);
            if (path.empty()) QSKIP("../shared/data is absent (a fresh clone): skipped");
            const CooTensor t = load_tensor(path).tensor;
            const auto f = build_format(FormatKind::ALTO, t, {});
            QVERIFY(tstest::as_map(f->to_coo()) == tstest::as_map(t));
            check_mttkrp(t, 16);
        }
    }
};

QTEST_APPLESS_MAIN(TestAltoFormat)
#include "test_alto_format.moc"
