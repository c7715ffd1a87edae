// TTMc: by hand, its relation to MTTKRP (hls Eq. 7 and 10), and every omp format against the oracle.
#include <cmath>

#include "test_support.hpp"
#include "tscope/error.hpp"
#include "tscope/formats/format.hpp"
#include "tscope/io/tensor_io.hpp"
#include "tscope/kernels/mttkrp.hpp"
#include "tscope/kernels/ttmc.hpp"

using namespace tscope;

namespace {

std::vector<DenseMatrix> factors_for(const CooTensor& t, const std::vector<std::uint64_t>& ranks, std::uint64_t seed) {
    return tstest::random_factors(t, ranks, seed);
}

void check_against_oracle(const CooTensor& t, const std::vector<std::uint64_t>& ranks, FormatOptions extra = {}) {
    const auto factors = factors_for(t, ranks, 3);
    for (int mode = 0; mode < t.order(); ++mode) {
        DenseMatrix ref(t.dim(mode), ttmc_columns(factors, mode));
        ttmc_reference(t, mode, factors, ref);
        for (FormatKind kind : kernel_formats(KernelKind::TTMc, Backend::Omp)) {  // the registry's
            if (kind == FormatKind::HLS && t.order() != 3) continue;
            FormatOptions o = kind == FormatKind::CSF ? ttmc_options(t.order(), mode) : extra;
            const auto f = build_format(kind, t, o);
            DenseMatrix out(t.dim(mode), ttmc_columns(factors, mode));
            out.fill(-1.0);
            ttmc(Backend::Omp, *f, mode, factors, out);
            const double err = max_relative_error(out, ref);
            QVERIFY2(err <= 1e-12, qPrintable(QString("%1 mode %2: %3").arg(format_name(kind)).arg(mode + 1).arg(err)));
        }
    }
}

}  // namespace

class TestTtmc : public QObject {
    Q_OBJECT

private Q_SLOTS:
    // R^(N-1) columns past 2^64 (order 8 at rank 4096): refused, not wrapped (the bench then
    // allocated a wrapped size and aborted on bad_alloc inside its parallel loop).
    void columnsPast64BitsAreRefused() {
        const std::vector<DenseMatrix> factors(8, DenseMatrix(1, 4096));
        QVERIFY_THROWS_EXCEPTION(InputError, ttmc_columns(factors, 0));
        QCOMPARE(ttmc_columns(std::vector<DenseMatrix>(3, DenseMatrix(1, 4096)), 0), std::uint64_t{4096} * 4096);
    }

    // X(0,0,0) = 1, X(1,0,1) = 2, X(1,1,1) = 3; B = [1 0; 2 1], C = [1 1; 0 2]; mode 1:
    // row 0 = 1 * B0 kron C0 = [1 1 0 0]; row 1 = 2 * B0 kron C1 + 3 * B1 kron C1 = [0 4 0 0] + [0 12 0 6]
    void byHand() {
        CooTensor t({2, 2, 2});
        t.resize(3);
        t.set(0, std::vector<std::uint64_t>{0, 0, 0}, 1);
        t.set(1, std::vector<std::uint64_t>{1, 0, 1}, 2);
        t.set(2, std::vector<std::uint64_t>{1, 1, 1}, 3);
        std::vector<DenseMatrix> f{DenseMatrix(2, 2), DenseMatrix(2, 2), DenseMatrix(2, 2)};
        const double b[] = {1, 0, 2, 1}, c[] = {1, 1, 0, 2};
        std::copy(b, b + 4, f[1].data.begin());
        std::copy(c, c + 4, f[2].data.begin());
        DenseMatrix out(2, 4);
        ttmc_reference(t, 0, f, out);
        QCOMPARE(std::vector<double>(out.data.begin(), out.data.end()), (std::vector<double>{1, 1, 0, 0, 0, 16, 0, 6}));
    }

    // hls Eq. 7 and 10: with equal ranks, MTTKRP's row i is the diagonal of TTMc's Y(i, :, :).
    void mttkrpIsTheDiagonal() {
        const CooTensor t = tstest::random_tensor({30, 20, 25}, 800, 4, Distribution::PowerLaw);
        const std::uint64_t R = 6;
        const auto f = factors_for(t, {R, R, R}, 1);
        for (int mode = 0; mode < 3; ++mode) {
            DenseMatrix y(t.dim(mode), R * R), a(t.dim(mode), R);
            ttmc_reference(t, mode, f, y);
            mttkrp_reference(t, mode, f, a);
            for (std::uint64_t i = 0; i < t.dim(mode); ++i)
                for (std::uint64_t r = 0; r < R; ++r) QVERIFY(std::fabs(y.at(i, r * R + r) - a.at(i, r)) <= 1e-12 * (1 + std::fabs(a.at(i, r))));
        }
    }

    void randomTensors_data() {
        QTest::addColumn<int>("order");
        QTest::addColumn<int>("dist");
        for (int order : {2, 3, 4, 5})
            for (int dist : {0, 1, 2}) QTest::addRow("order %d dist %d", order, dist) << order << dist;
    }
    void randomTensors() {
        QFETCH(int, order);
        QFETCH(int, dist);
        std::vector<std::uint64_t> dims(static_cast<std::size_t>(order), 12);
        dims[0] = 35;
        const CooTensor t = tstest::random_tensor(dims, order == 2 ? 200 : 700, std::uint64_t(order * 9 + dist), Distribution(dist));
        std::vector<std::uint64_t> ranks{3, 2, 4, 2, 2};
        ranks.resize(static_cast<std::size_t>(order));
        check_against_oracle(t, ranks);
    }

    // a single nonzero and mostly empty slices, every mode; rank 1 everywhere and a wide one
    void edgeCases() {
        for (const CooTensor& t : {tstest::one_nonzero_tensor(), tstest::empty_slices_tensor()}) {
            check_against_oracle(t, {1, 1, 1});
            check_against_oracle(t, {8, 8, 8});
        }
    }

    void hlsWithDenseTiles() {
        GeneratorSpec spec;
        spec.dims = {60, 40, 50};
        spec.nnz = 5000;
        parse_distribution("blocks:6:16", spec);
        FormatOptions o;
        o.hls_threshold = 30;
        check_against_oracle(generate_tensor(spec), {4, 3, 5}, o);
    }

    void realTensor() {
        const std::string path = tstest::shared_tensor("movielens-100k.tns");
        if (path.empty()) QSKIP("../shared/data is absent (a fresh clone): skipped");
        check_against_oracle(load_tensor(path).tensor, {4, 4, 4});
    }

    void misuse() {
        const CooTensor t = tstest::random_tensor({10, 11, 12}, 60, 2);
        const auto f = factors_for(t, {2, 2, 2}, 1);
        const auto csf = build_format(FormatKind::CSF, t, {});  // others by length, not ascending: fine here, 11 < 12
        DenseMatrix out(10, 3);
        QVERIFY_THROWS_EXCEPTION(InputError, ttmc(Backend::Omp, *csf, 0, f, out));  // wrong width (4 expected)
        const auto csf2 = build_format(FormatKind::CSF, t, ttmc_options(3, 2));
        DenseMatrix out2(10, 4);
        QVERIFY_THROWS_EXCEPTION(InputError, ttmc(Backend::Omp, *csf2, 0, f, out2));  // rooted at mode 3
        const auto cfb = build_format(FormatKind::CFB, t, {});
        QVERIFY_THROWS_EXCEPTION(InputError, ttmc(Backend::Omp, *cfb, 0, f, out2));
    }
};

QTEST_APPLESS_MAIN(TestTtmc)
#include "test_ttmc.moc"
