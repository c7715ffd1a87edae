// Tucker-HOOI (spttm Alg. 6): the SpTTM + SspTTM chain equals TTMc, exactly low-multilinear-rank
// tensors fit exactly (HOSVD and random starts), the fit equals a brute-force reconstruction,
// factors are orthonormal, the core is written as .tns.
#include <QTemporaryDir>

#include <cmath>

#include "test_support.hpp"
#include "tscope/decomp/tucker_hooi.hpp"
#include "tscope/io/tensor_io.hpp"
#include "tscope/kernels/ttmc.hpp"

using namespace tscope;

namespace {


// ||X - G x_1 U_1 ... x_N U_N|| over every cell of a small tensor.
double dense_fit(const CooTensor& t, const TuckerResult& r) {
    const int order = t.order();
    std::uint64_t cells = 1;
    for (int m = 0; m < order; ++m) cells *= t.dim(m);
    std::vector<double> x(cells, 0.0);
    for (std::uint64_t z = 0; z < t.nnz(); ++z) {
        std::uint64_t lin = 0;
        for (int m = 0; m < order; ++m) lin = lin * t.dim(m) + t.index(m, z);
        x[lin] += t.value(z);
    }
    double diff = 0, norm = 0;
    std::vector<std::uint64_t> c(static_cast<std::size_t>(order)), g(static_cast<std::size_t>(order));
    for (std::uint64_t lin = 0; lin < cells; ++lin) {
        std::uint64_t rest = lin;
        for (int m = order - 1; m >= 0; --m) c[static_cast<std::size_t>(m)] = rest % t.dim(m), rest /= t.dim(m);
        double model = 0;
        for (std::uint64_t k = 0; k < r.core.size(); ++k) {
            std::uint64_t kr = k;
            double p = r.core[k];
            for (int m = order - 1; m >= 0; --m) {
                const std::uint64_t rm = r.core_dims[static_cast<std::size_t>(m)];
                p *= r.factors[static_cast<std::size_t>(m)].at(c[static_cast<std::size_t>(m)], kr % rm);
                kr /= rm;
            }
            model += p;
        }
        diff += (x[lin] - model) * (x[lin] - model);
        norm += x[lin] * x[lin];
    }
    return 1 - std::sqrt(diff / norm);
}

}  // namespace

class TestTuckerHooi : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void ttmChainEqualsTtmc_data() {
        QTest::addColumn<int>("order");
        for (int order : {3, 4, 5}) QTest::addRow("order %d", order) << order;
    }
    void ttmChainEqualsTtmc() {
        QFETCH(int, order);
        std::vector<std::uint64_t> dims(static_cast<std::size_t>(order), 9);
        dims[0] = 20;
        const CooTensor t = tstest::random_tensor(dims, 700, std::uint64_t(order), Distribution::PowerLaw);
        const auto factors = tstest::random_factors(t, {3, 2, 4}, 5);
        for (int mode = 0; mode < order; ++mode) {
            DenseMatrix ref(t.dim(mode), ttmc_columns(factors, mode));
            ttmc_reference(t, mode, factors, ref);
            const DenseMatrix y = tucker_ttm_chain(t, mode, factors);
            QVERIFY2(max_relative_error(y, ref) < 1e-12, qPrintable(QString("mode %1").arg(mode + 1)));
        }
    }

    void lowRankTensorsFitExactly_data() {
        QTest::addColumn<int>("order");
        QTest::addColumn<bool>("hosvd");
        for (int order : {3, 4})
            for (bool h : {true, false}) QTest::addRow("order %d %s", order, h ? "hosvd" : "random") << order << h;
    }
    void lowRankTensorsFitExactly() {
        QFETCH(int, order);
        QFETCH(bool, hosvd);
        std::vector<std::uint64_t> dims = {70, 50, 40, 20};
        dims.resize(static_cast<std::size_t>(order));
        const CooTensor t = tstest::low_rank_tensor(dims, order == 3 ? 6000 : 15000, 3, 21);
        TuckerOptions o;
        o.ranks = {3}, o.max_iters = 30, o.hosvd_init = hosvd;
        const TuckerResult r = tucker_hooi(t, o);
        QVERIFY2(r.fit >= 0.99, qPrintable(QString("fit %1").arg(r.fit)));
        for (const DenseMatrix& u : r.factors) {  // U^T U = I
            for (std::uint64_t i = 0; i < u.cols; ++i)
                for (std::uint64_t j = 0; j < u.cols; ++j) {
                    double s = 0;
                    for (std::uint64_t k = 0; k < u.rows; ++k) s += u.at(k, i) * u.at(k, j);
                    QVERIFY(std::fabs(s - (i == j ? 1.0 : 0.0)) < 1e-10);
                }
        }
    }

    void fitEqualsBruteForce() {
        const CooTensor t = tstest::random_tensor({8, 7, 6}, 120, 3);
        TuckerOptions o;
        o.ranks = {3, 2, 2}, o.max_iters = 3, o.tolerance = 0;
        const TuckerResult r = tucker_hooi(t, o);
        QCOMPARE(r.core.size(), std::size_t{12});
        QVERIFY2(std::fabs(r.fit - dense_fit(t, r)) < 1e-9, qPrintable(QString("%1 vs %2").arg(r.fit).arg(dense_fit(t, r))));
    }

    void callbackCancelAndFiles() {
        const CooTensor t = tstest::random_tensor({15, 14, 13}, 400, 9);
        AtomicRunControl control;
        int calls = 0;
        TuckerOptions o;
        o.ranks = {2}, o.max_iters = 20, o.tolerance = 0;
        QVERIFY_THROWS_EXCEPTION(Cancelled, tucker_hooi(t, o, [&](const IterationReport& r) {
            QCOMPARE(r.iter, ++calls);
            if (calls == 2) control.request_cancel();
        }, control));
        QCOMPARE(calls, 2);
        o.max_iters = 2;
        const TuckerResult r = tucker_hooi(t, o);
        QTemporaryDir dir;
        write_tucker(r, dir.path().toStdString());
        const CooTensor core = load_tensor(dir.filePath("core.tns").toStdString()).tensor;
        QCOMPARE(core.dims(), (std::vector<std::uint64_t>{2, 2, 2}));
        QVERIFY(QFileInfo::exists(dir.filePath("mode3.mat")));
    }

    void badRanksAreInputErrors() {
        const CooTensor t = tstest::random_tensor({5, 4, 3}, 20, 1);
        TuckerOptions o;
        o.ranks = {4};  // mode 3 has length 3
        QVERIFY_THROWS_EXCEPTION(InputError, tucker_hooi(t, o));
        o.ranks = {2, 2};
        QVERIFY_THROWS_EXCEPTION(InputError, tucker_hooi(t, o));
    }

    // Values near 1e308: refused in words ("the eigendecomposition did not converge" before);
    // at 1e150 the fit is finite.
    void valuesTooLargeForDoublesAreRefused() {
        CooTensor t = tstest::random_tensor({6, 6, 6}, 60, 4);
        auto& v = t.values<double>();
        for (std::size_t z = 0; z < v.size(); ++z) v[z] = (z % 2 ? -1e308 : 1e308);
        TuckerOptions o;
        o.ranks = {2};
        try {
            tucker_hooi(t, o);
            QFAIL("a tensor of values near 1e308 was decomposed");
        } catch (const InputError& e) {
            QVERIFY2(std::string(e.what()).find("too large for double precision") != std::string::npos, e.what());
        }
        for (std::size_t z = 0; z < v.size(); ++z) v[z] = (z % 2 ? -1e150 : 1e150);
        QVERIFY(std::isfinite(tucker_hooi(t, o).fit));
    }
};

QTEST_APPLESS_MAIN(TestTuckerHooi)
#include "test_tucker_hooi.moc"
