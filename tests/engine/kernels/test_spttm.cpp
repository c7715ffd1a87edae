// SpTTM (Alg. 1) and SspTTM (Alg. 5): the oracle on hocfs Sec. 4.3's example, the omp kernels
// against it, and TTM chains against a brute-force sum.
#include <map>

#include "cpu/semi_sparse_compare.hpp"
#include "test_support.hpp"
#include "tscope/formats/format.hpp"
#include "tscope/io/tensor_io.hpp"
#include "tscope/kernels/spttm.hpp"
#include "tscope/kernels/sptv.hpp"
#include "tscope/tensor/coo_ops.hpp"

using namespace tscope;

namespace {

// Z = X x_{modes[0]} U0 x_{modes[1]} U1 ..., every entry of every chunk (zeros included), as a
// sorted COO: the brute-force truth for TTM chains.
CooTensor chain_truth(const CooTensor& t, const std::vector<int>& modes, const std::vector<DenseMatrix>& us) {
    std::vector<std::uint64_t> dims = t.dims();
    for (std::size_t s = 0; s < modes.size(); ++s) dims[static_cast<std::size_t>(modes[s])] = us[s].cols;
    std::map<std::vector<std::uint64_t>, double> out;
    std::vector<int> sparse;
    for (int m = 0; m < t.order(); ++m)
        if (std::find(modes.begin(), modes.end(), m) == modes.end()) sparse.push_back(m);
    for (std::uint64_t z = 0; z < t.nnz(); ++z) {
        // every combination of the new dense indices
        std::vector<std::uint64_t> r(modes.size(), 0);
        for (;;) {
            std::vector<std::uint64_t> c(static_cast<std::size_t>(t.order()));
            for (int m : sparse) c[static_cast<std::size_t>(m)] = t.index(m, z);
            double w = t.value(z);
            for (std::size_t s = 0; s < modes.size(); ++s) {
                c[static_cast<std::size_t>(modes[s])] = r[s];
                w *= us[s].at(t.index(modes[s], z), r[s]);
            }
            out[c] += w;
            std::size_t s = 0;
            while (s < modes.size() && ++r[s] == us[s].cols) r[s++] = 0;
            if (s == modes.size()) break;
        }
    }
    CooTensor truth(dims);
    truth.resize(out.size());
    std::uint64_t n = 0;
    for (const auto& [c, v] : out) truth.set(n++, c, v);
    return truth;
}

double error_against(const SparseFormat& result, const CooTensor& truth) {
    CooTensor entries;
    if (const auto* s = dynamic_cast<const ScooFormat<std::uint32_t, double>*>(&result)) entries = s->entries(true);
    else if (const auto* s64 = dynamic_cast<const ScooFormat<std::uint64_t, double>*>(&result)) entries = s64->entries(true);
    else return INFINITY;
    sort_lexicographic(entries);
    if (entries.dims() != truth.dims() || entries.nnz() != truth.nnz()) return INFINITY;
    double diff = 0, scale = 0;
    for (std::uint64_t n = 0; n < truth.nnz(); ++n) {
        for (int m = 0; m < truth.order(); ++m)
            if (entries.index(m, n) != truth.index(m, n)) return INFINITY;
        diff = std::max(diff, std::fabs(entries.value(n) - truth.value(n)));
        scale = std::max(scale, std::fabs(truth.value(n)));
    }
    return diff / scale;
}

// y's chunks in the order `order` (positions into y), its sparse modes listed in reverse if asked.
std::unique_ptr<SemiSparse> rearranged(const SemiSparse& y, const std::vector<std::uint64_t>& order,
                                       bool reverse_modes) {
    auto z = std::make_unique<SemiSparse>();
    z->set_dims(y.dims());
    z->dense_modes = y.dense_modes;
    z->sparse_modes = y.sparse_modes;
    z->idx.resize(y.idx.size());
    const std::uint64_t size = y.chunk_size();
    for (std::uint64_t c : order) {
        for (std::size_t k = 0; k < y.idx.size(); ++k) z->idx[k].push_back(y.idx[k][c]);
        for (std::uint64_t p = 0; p < size; ++p) z->vals.push_back(y.vals[c * size + p]);
    }
    if (reverse_modes) {
        std::reverse(z->sparse_modes.begin(), z->sparse_modes.end());
        std::reverse(z->idx.begin(), z->idx.end());
    }
    return z;
}

// The error as the entries give it: every value of both, zeros kept, sorted and matched by index.
double by_entries(const SemiSparse& a, const SemiSparse& reference) {
    CooTensor x = a.entries(true), y = reference.entries(true);
    sort_lexicographic(x);
    sort_lexicographic(y);
    return sparse_max_relative_error(x, y);
}

}  // namespace

class TestSpttm : public QObject {
    Q_OBJECT

private Q_SLOTS:
    // hocfs Sec. 4.3 (Kolda and Bader's example): X is 3x4x2, U = [1 3 5; 2 4 6] in mode 1.
    // The paper prints X1(1,4) = 0, but its Y1(1,4) = 103 = 1*10 + 3*11 + 5*12 needs 10 there
    // (the original example's value): we use 10. Our U is I_n x R, the transpose of the paper's.
    void hocfsSection4_3ByHand() {
        const double x1[3][4] = {{1, 4, 7, 10}, {2, 5, 8, 11}, {3, 6, 9, 12}};
        const double x2[3][4] = {{13, 16, 19, 22}, {14, 17, 20, 23}, {15, 18, 21, 24}};
        CooTensor t({3, 4, 2});
        t.resize(24);
        std::uint64_t n = 0;
        for (std::uint64_t i = 0; i < 3; ++i)
            for (std::uint64_t j = 0; j < 4; ++j) {
                t.set(n++, std::vector<std::uint64_t>{i, j, 0}, x1[i][j]);
                t.set(n++, std::vector<std::uint64_t>{i, j, 1}, x2[i][j]);
            }
        DenseMatrix u(3, 2);  // u(k, r) = U(r, k)
        const double U[2][3] = {{1, 3, 5}, {2, 4, 6}};
        for (std::uint64_t k = 0; k < 3; ++k)
            for (std::uint64_t r = 0; r < 2; ++r) u.at(k, r) = U[r][k];
        const double y1[2][4] = {{22, 49, 76, 103}, {28, 64, 100, 136}};
        const double y2[2][4] = {{130, 157, 184, 211}, {172, 208, 244, 280}};
        const auto ref = spttm_reference(t, 0, u);
        const auto coo = build_format(FormatKind::COO, t, spttm_options(3, 0));
        const auto omp = spttm(Backend::Omp, *coo, 0, u);
        for (const SparseFormat* y : std::vector<const SparseFormat*>{ref.get(), omp.get()}) {
            const CooTensor e = y->to_coo();
            QCOMPARE(e.dims(), (std::vector<std::uint64_t>{2, 4, 2}));
            QCOMPARE(e.nnz(), std::uint64_t{16});
            const auto m = tstest::as_map(e);
            for (std::uint64_t r = 0; r < 2; ++r)
                for (std::uint64_t j = 0; j < 4; ++j) {
                    QCOMPARE(m.at({r, j, 0}), y1[r][j]);
                    QCOMPARE(m.at({r, j, 1}), y2[r][j]);
                }
        }
    }

    void spttmAgainstTheOracle_data() {
        QTest::addColumn<int>("order");
        QTest::addColumn<int>("rank");
        for (int order : {3, 4, 5})
            for (int rank : {1, 6, 8, 16, 20}) QTest::addRow("order %d rank %d", order, rank) << order << rank;
    }
    void spttmAgainstTheOracle() {
        QFETCH(int, order);
        QFETCH(int, rank);
        std::vector<std::uint64_t> dims(static_cast<std::size_t>(order), 10);
        dims[0] = 30;
        const CooTensor t = tstest::random_tensor(dims, 700, std::uint64_t(order * 3 + rank), Distribution::PowerLaw);
        for (int mode = 0; mode < order; ++mode) {
            const DenseMatrix u = random_matrix(t.dim(mode), std::uint64_t(rank), 5);
            const auto ref = spttm_reference(t, mode, u);
            const auto coo = build_format(FormatKind::COO, t, spttm_options(order, mode));
            const auto y = spttm(Backend::Omp, *coo, mode, u);
            QVERIFY(semi_sparse_max_relative_error(*y, *ref) <= 1e-12);
            QVERIFY(error_against(*y, chain_truth(t, {mode}, {u})) <= 1e-12);
        }
    }

    // a single nonzero and mostly empty slices, ranks 1 and 64, every mode; then SspTTM on them
    void edgeCases() {
        for (const CooTensor& t : {tstest::one_nonzero_tensor(), tstest::empty_slices_tensor()})
            for (std::uint64_t rank : {1, 64})
                for (int mode = 0; mode < 3; ++mode) {
                    const DenseMatrix u = random_matrix(t.dim(mode), rank, 5);
                    const auto coo = build_format(FormatKind::COO, t, spttm_options(3, mode));
                    const auto y = spttm(Backend::Omp, *coo, mode, u);
                    QVERIFY(semi_sparse_max_relative_error(*y, *spttm_reference(t, mode, u)) <= 1e-12);
                    const int next = (mode + 1) % 3;
                    const DenseMatrix w = random_matrix(t.dim(next), 3, 6);
                    const auto z = spttm(Backend::Omp, *y, next, w);
                    QVERIFY(error_against(*z, chain_truth(t, {mode, next}, {u, w})) <= 1e-12);
                }
    }

    // TTM chains: SpTTM then SspTTM, as in Tucker's TTM chain (spttm Alg. 6), every mode pair.
    void sspttmChains() {
        for (int order : {3, 4}) {
            std::vector<std::uint64_t> dims(static_cast<std::size_t>(order), 9);
            const CooTensor t = tstest::random_tensor(dims, 400, std::uint64_t(order), Distribution::Uniform);
            for (int a = 0; a < order; ++a)
                for (int b = 0; b < order; ++b) {
                    if (a == b) continue;
                    const DenseMatrix ua = random_matrix(t.dim(a), 3, 1), ub = random_matrix(t.dim(b), 4, 2);
                    const auto coo = build_format(FormatKind::COO, t, spttm_options(order, a));
                    const auto y = spttm(Backend::Omp, *coo, a, ua);
                    const auto z = spttm(Backend::Omp, *y, b, ub);
                    const double err = error_against(*z, chain_truth(t, {a, b}, {ua, ub}));
                    QVERIFY2(err <= 1e-12, qPrintable(QString("order %1 modes %2,%3: %4").arg(order).arg(a + 1).arg(b + 1).arg(err)));
                    if (order == 4) {  // and a third product, in the lowest remaining mode
                        int c = 0;
                        while (c == a || c == b) ++c;
                        const DenseMatrix uc = random_matrix(t.dim(c), 2, 3);
                        const auto w = spttm(Backend::Omp, *z, c, uc);
                        QVERIFY(error_against(*w, chain_truth(t, {a, b, c}, {ua, ub, uc})) <= 1e-12);
                    }
                }
        }
    }

    // SspTTM's chunk tiles: chunk sizes (the first rank) of 4, 16 and 20 take the tiled path with
    // one and four registers across, 6 the plain one; second ranks odd and even.
    void sspttmChunkShapes() {
        const CooTensor t = tstest::random_tensor({40, 30, 20}, 900, 4, Distribution::PowerLaw);
        for (auto [r1, r2] : {std::pair{4, 1}, std::pair{16, 5}, std::pair{20, 2}, std::pair{6, 3}}) {
            const DenseMatrix u2 = random_matrix(t.dim(2), std::uint64_t(r1), 6), u1 = random_matrix(t.dim(1), std::uint64_t(r2), 7);
            const auto coo = build_format(FormatKind::COO, t, spttm_options(3, 2));
            const auto y = spttm(Backend::Omp, *coo, 2, u2);
            const auto z = spttm(Backend::Omp, *y, 1, u1);
            const double err = error_against(*z, chain_truth(t, {2, 1}, {u2, u1}));
            QVERIFY2(err <= 1e-12, qPrintable(QString("ranks %1, %2: %3").arg(r1).arg(r2).arg(err)));
        }
    }

    // SpTTM and SspTTM look at Cancel between fibers and chunks, not only before they start (a
    // Tucker iteration at rank 128 on 2M nonzeros went a second without looking, sweep 65b):
    // cancelled at their second look they throw, where a product that ran on would be partial.
    void productsLookAtCancelWithin() {
        const CooTensor t = tstest::random_tensor({60, 500, 400}, 40000, 5);
        const DenseMatrix u2 = random_matrix(t.dim(2), 8, 1), u1 = random_matrix(t.dim(1), 8, 2);
        const auto coo = build_format(FormatKind::COO, t, spttm_options(3, 2));
        SpttmPlan first = SpttmPlan::prepare(*coo, 2, 8, Backend::Omp);
        tstest::CountingControl looks;
        first.compute(u2, looks);
        QVERIFY2(looks.checks() >= 4, qPrintable(QString::number(looks.checks())));
        SpttmPlan second = SpttmPlan::prepare(first.result(), 1, 8, Backend::Omp);
        tstest::CountingControl looks2;
        second.compute(u1, looks2);
        QVERIFY2(looks2.checks() >= 3, qPrintable(QString::number(looks2.checks())));
        tstest::CountingControl stop(2), stop2(2);
        QVERIFY_THROWS_EXCEPTION(Cancelled, first.compute(u2, stop));
        QVERIFY_THROWS_EXCEPTION(Cancelled, second.compute(u1, stop2));
    }

    void realTensor() {
        const std::string path = tstest::shared_tensor("movielens-100k.tns");
        if (path.empty()) QSKIP("../shared/data is absent (a fresh clone): skipped");
        const CooTensor t = load_tensor(path).tensor;
        for (int mode = 0; mode < 3; ++mode) {
            const DenseMatrix u = random_matrix(t.dim(mode), 16, 9);
            const auto coo = build_format(FormatKind::COO, t, spttm_options(3, mode));
            QVERIFY(semi_sparse_max_relative_error(*spttm(Backend::Omp, *coo, mode, u), *spttm_reference(t, mode, u)) <= 1e-12);
        }
    }

    // --variant's names: each of the seven reads back as itself; an unknown one lists them all
    // semi_sparse_max_relative_error matches sCOO results chunk by chunk (their sparse indices as
    // keys) where they share a layout: it must give what matching every entry gives, whatever the
    // chunks' order or the order the sparse modes are listed in, and infinity where a chunk is
    // missing or lies elsewhere; an omp result (32-bit indices) against the oracle's (64-bit).
    void errorMatchesTheEntriesComparison() {
        const CooTensor t = tstest::random_tensor({30, 20, 25}, 800, 12, Distribution::PowerLaw);
        const DenseMatrix u = random_matrix(20, 5, 3);
        const auto ref = spttm_reference(t, 1, u);
        const std::uint64_t chunks = ref->chunks();
        QVERIFY(chunks > 10);
        std::vector<std::uint64_t> backwards(chunks);
        for (std::uint64_t c = 0; c < chunks; ++c) backwards[c] = chunks - 1 - c;
        for (bool reverse_modes : {false, true}) {
            auto y = rearranged(*ref, backwards, reverse_modes);
            QCOMPARE(semi_sparse_max_relative_error(*y, *ref), 0.0);
            y->vals[7] += 0.25;
            y->vals[3 * 5 + 2] -= 0.125;
            const double e = semi_sparse_max_relative_error(*y, *ref);
            QVERIFY(e > 0 && std::isfinite(e));
            QCOMPARE(e, by_entries(*y, *ref));
        }
        std::vector<std::uint64_t> fewer(chunks - 1);
        for (std::uint64_t c = 0; c + 1 < chunks; ++c) fewer[c] = c;
        QVERIFY(std::isinf(semi_sparse_max_relative_error(*rearranged(*ref, fewer, false), *ref)));
        std::vector<std::uint64_t> all(chunks);
        for (std::uint64_t c = 0; c < chunks; ++c) all[c] = c;
        auto moved = rearranged(*ref, all, false);
        moved->idx[0][4] = 29, moved->idx[1][4] = 24;  // (30, ., 25): a fiber the tensor lacks unless drawn
        const bool drawn = [&] {
            for (std::uint64_t c = 0; c < chunks; ++c)
                if (c != 4 && ref->idx[0][c] == 29 && ref->idx[1][c] == 24) return true;
            return false;
        }();
        if (!drawn) QVERIFY(std::isinf(semi_sparse_max_relative_error(*moved, *ref)));
        const auto coo = build_format(FormatKind::COO, t, spttm_options(3, 1));
        const auto omp = spttm(Backend::Omp, *coo, 1, u);
        CooTensor truth = ref->entries(true);
        sort_lexicographic(truth);
        const double e_omp = error_against(*omp, truth);
        QVERIFY(std::isfinite(e_omp));
        QCOMPARE(semi_sparse_max_relative_error(*omp, *ref), e_omp);
        // the chunk comparison itself answered (not the entries' fallback), and declines where
        // the layouts differ: a COO is no sCOO
        QVERIFY(detail::semi_sparse_chunk_error(*omp, *ref).has_value());
        QVERIFY(!detail::semi_sparse_chunk_error(*coo, *ref).has_value());
    }

    void variantNames() {
        for (SpttmVariant v : kSpttmVariants) QCOMPARE(parse_spttm_variant(spttm_variant_name(v)), v);
        QCOMPARE(std::size(kSpttmVariants), std::size_t{7});
        try {
            parse_spttm_variant("csr");
            QFAIL("an unknown variant was accepted");
        } catch (const InputError& e) {
            QVERIFY2(std::string(e.what()).find("wb, cusparse") != std::string::npos, e.what());
        }
    }

    void misuse() {
        const CooTensor t = tstest::random_tensor({8, 9, 10}, 50, 1);
        const auto coo = build_format(FormatKind::COO, t, {});  // sorted with mode 1 first
        QVERIFY_THROWS_EXCEPTION(InputError, spttm(Backend::Omp, *coo, 0, random_matrix(8, 2, 1)));
        const auto good = build_format(FormatKind::COO, t, spttm_options(3, 0));
        QVERIFY_THROWS_EXCEPTION(InputError, spttm(Backend::Omp, *good, 0, random_matrix(7, 2, 1)));
        const auto y = spttm(Backend::Omp, *good, 0, random_matrix(8, 2, 1));
        QVERIFY_THROWS_EXCEPTION(InputError, spttm(Backend::Omp, *y, 0, random_matrix(2, 2, 1)));  // mode 1 is dense now
        const auto csf = build_format(FormatKind::CSF, t, {});
        QVERIFY_THROWS_EXCEPTION(InputError, spttm(Backend::Omp, *csf, 0, random_matrix(8, 2, 1)));
    }
};

QTEST_APPLESS_MAIN(TestSpttm)
#include "test_spttm.moc"
