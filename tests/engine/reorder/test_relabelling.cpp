// Reordering (issue 25): every method gives a permutation of each mode; the relabelled tensor
// holds the same values at the relabelled coordinates, its slice counts are the original's
// permuted (degree: in descending order); MTTKRP on it, mapped back, equals the original's.
#include <QtTest>

#include <algorithm>
#include <map>

#include "test_support.hpp"
#include "tscope/io/tensor_io.hpp"
#include "tscope/kernels/dense_matrix.hpp"
#include "tscope/kernels/mttkrp.hpp"
#include "tscope/reorder/relabelling.hpp"

using namespace tscope;

namespace {

bool is_permutation_of_dim(const std::vector<std::uint64_t>& p, std::uint64_t dim) {
    if (p.size() != dim) return false;
    std::vector<char> seen(dim, 0);
    for (std::uint64_t x : p) {
        if (x >= dim || seen[x]) return false;
        seen[x] = 1;
    }
    return true;
}

std::vector<std::uint64_t> slice_counts(const CooTensor& t, int mode) {
    std::vector<std::uint64_t> c(t.dim(mode), 0);
    for (std::uint64_t n = 0; n < t.nnz(); ++n) ++c[t.index(mode, n)];
    return c;
}

void check_method(const CooTensor& original, ReorderMethod method) {
    const Relabelling r = compute_relabelling(original, method, 7);
    CooTensor t = original;
    apply_relabelling(t, r);
    QCOMPARE(t.nnz(), original.nnz());
    for (int m = 0; m < t.order(); ++m) {
        QVERIFY(is_permutation_of_dim(r.old_id[std::size_t(m)], t.dim(m)));
        QVERIFY(is_permutation_of_dim(r.new_id[std::size_t(m)], t.dim(m)));
        const std::vector<std::uint64_t> before = slice_counts(original, m), after = slice_counts(t, m);
        for (std::uint64_t k = 0; k < t.dim(m); ++k) QCOMPARE(after[k], before[r.old_id[std::size_t(m)][k]]);
        if (method == ReorderMethod::Degree) QVERIFY(std::is_sorted(after.rbegin(), after.rend()));
    }
    for (std::uint64_t n = 0; n < t.nnz(); ++n) {  // entry n moved, value kept
        QCOMPARE(t.value(n), original.value(n));
        for (int m = 0; m < t.order(); ++m) QCOMPARE(t.index(m, n), r.new_id[std::size_t(m)][original.index(m, n)]);
    }
    // MTTKRP on the relabelled tensor with the factors' rows relabelled, mapped back, is the
    // original's.
    const auto factors = tstest::random_factors(original, std::vector<std::uint64_t>(std::size_t(t.order()), 4), 3);
    std::vector<DenseMatrix> moved;
    for (int m = 0; m < t.order(); ++m) {
        DenseMatrix f(t.dim(m), 4);
        for (std::uint64_t k = 0; k < t.dim(m); ++k)
            for (std::uint64_t c = 0; c < 4; ++c) f.at(k, c) = factors[std::size_t(m)].at(r.old_id[std::size_t(m)][k], c);
        moved.push_back(f);
    }
    for (int mode = 0; mode < t.order(); ++mode) {
        DenseMatrix ref(t.dim(mode), 4), got(t.dim(mode), 4);
        mttkrp_reference(original, mode, factors, ref);
        mttkrp_reference(t, mode, moved, got);
        const DenseMatrix back = rows_to_original(r, mode, got);
        QVERIFY2(max_relative_error(back, ref) <= 1e-12, qPrintable(QString("mode %1").arg(mode + 1)));
    }
}

}  // namespace

class TestRelabelling : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void randomTensors_data() {
        QTest::addColumn<int>("order");
        QTest::addColumn<int>("method");
        for (int order : {3, 4, 5})
            for (ReorderMethod m : {ReorderMethod::Degree, ReorderMethod::Random})
                QTest::addRow("order %d %s", order, reorder_method_name(m)) << order << int(m);
    }
    void randomTensors() {
        QFETCH(int, order);
        QFETCH(int, method);
        std::vector<std::uint64_t> dims(std::size_t(order), 9);
        dims[0] = 40;
        check_method(tstest::random_tensor(dims, 900, std::uint64_t(order), Distribution::PowerLaw), ReorderMethod(method));
    }

    void realTensors() {
        for (const char* name : {"movielens-100k.tns", "jf17k-4d.tns"}) {
            const std::string path = tstest::shared_tensor(name);
            if (path.empty()) QSKIP("../shared/data is absent: skipped");
            const CooTensor t = load_tensor(path).tensor;
            check_method(t, ReorderMethod::Degree);
            check_method(t, ReorderMethod::Random);
        }
    }

    void randomIsSeededAndDegreeDeterministic() {
        const CooTensor t = tstest::random_tensor({30, 20, 10}, 500, 4, Distribution::PowerLaw);
        QCOMPARE(compute_relabelling(t, ReorderMethod::Random, 3).old_id, compute_relabelling(t, ReorderMethod::Random, 3).old_id);
        QVERIFY(compute_relabelling(t, ReorderMethod::Random, 3).old_id != compute_relabelling(t, ReorderMethod::Random, 4).old_id);
        QCOMPARE(compute_relabelling(t, ReorderMethod::Degree, 3).old_id, compute_relabelling(t, ReorderMethod::Degree, 9).old_id);
    }

    void namesAreChecked() {
        QCOMPARE(parse_reorder_method("degree"), ReorderMethod::Degree);
        QCOMPARE(parse_reorder_method("random"), ReorderMethod::Random);
        for (const char* bad : {"lexi", "bfs-mcs", "sorted"}) {
            try {
                parse_reorder_method(bad);
                QFAIL("a bad method name was accepted");
            } catch (const InputError& e) {
                QVERIFY2(QString(e.what()).contains(bad), e.what());
            }
        }
    }
};

QTEST_APPLESS_MAIN(TestRelabelling)
#include "test_relabelling.moc"
