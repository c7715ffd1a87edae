// MTTKRP: the oracle on a hand-computed case, then every omp format against the oracle.
#include <QTemporaryDir>
#include <fstream>

#include "test_support.hpp"
#include "tscope/bench/kernel_bench.hpp"
#include "tscope/cuda/device.hpp"
#include "tscope/formats/format.hpp"
#include "tscope/io/tensor_io.hpp"
#include "tscope/kernels/mttkrp.hpp"

#ifdef _OPENMP
#include <omp.h>
#endif

using namespace tscope;

namespace {

DenseMatrix matrix(std::uint64_t rows, std::uint64_t cols, std::vector<double> values) {
    DenseMatrix m(rows, cols);
    std::copy(values.begin(), values.end(), m.data.begin());
    return m;
}

std::vector<DenseMatrix> random_factors(const CooTensor& t, std::uint64_t rank, std::uint64_t seed) {
    return tstest::random_factors(t, {rank}, seed);
}

// Every omp format on every mode against the oracle.
void check_against_oracle(const CooTensor& t, std::uint64_t rank, FormatOptions base = {}) {
    const auto factors = random_factors(t, rank, 7);
    for (int mode = 0; mode < t.order(); ++mode) {
        DenseMatrix ref(t.dim(mode), rank);
        mttkrp_reference(t, mode, factors, ref);
        for (FormatKind kind : kernel_formats(KernelKind::MTTKRP, Backend::Omp)) {  // the registry's: new entries are tested
            if (kind == FormatKind::HLS && t.order() != 3) continue;  // HLS is third-order only
            for (int built_for = 0; built_for < t.order(); ++built_for) {  // every tree, target at every level
                if (!format_is_per_mode(kind) && built_for > 0) break;
                FormatOptions o = base;
                o.mode = built_for;
                const auto f = build_format(kind, t, o);
                DenseMatrix out(t.dim(mode), rank);
                out.fill(-1.0);  // poisoned: every element must be written
                mttkrp(Backend::Omp, *f, mode, factors, out);
                const double err = max_relative_error(out, ref);
                QVERIFY2(err <= 1e-12, qPrintable(QString("%1 built for mode %2, MTTKRP mode %3, rank %4: error %5")
                                                      .arg(format_name(kind)).arg(built_for + 1).arg(mode + 1).arg(rank).arg(err)));
            }
        }
    }
}

}  // namespace

class TestMttkrp : public QObject {
    Q_OBJECT

private Q_SLOTS:
    // bench --gpus without a GPU: a row per format and mode saying why, as the single-GPU cuda
    // rows do, rather than one error for the whole request (the GUI shows rows).
    void multiGpuBenchWithoutAGpuGivesRows() {
        if (query_gpu().available) QSKIP("this machine has a GPU: the rows run there (test_multi_gpu_cuda)");
        const CooTensor t = tstest::random_tensor({20, 15, 10}, 300, 3);
        BenchRequest request;
        request.backends = {Backend::Cuda};
        request.formats = {FormatKind::CSF, FormatKind::HiCOO};
        request.rank = 4, request.repeat = 1, request.gpus = 2;
        const std::vector<BenchResult> rows = run_bench(t, request);
        QCOMPARE(rows.size(), std::size_t{2 * 3});
        for (const BenchResult& r : rows) {
            QVERIFY(!r.ran);
            QCOMPARE(r.gpus, 2);
            QVERIFY2(r.error.find("no CUDA device") != std::string::npos, r.error.c_str());
        }
    }

    // X(0,0,0) = 1, X(1,0,1) = 2, X(1,1,1) = 3 with A, B, C below, rank 2:
    // mode 1: row 0 = 1*B0.*C0 = [1 0]; row 1 = 2*B0.*C1 + 3*B1.*C1 = [0 0] + [0 6]
    // mode 3: row 0 = 1*A0.*B0 = [1 0]; row 1 = 2*A1.*B0 + 3*A1.*B1 = [6 0] + [18 12]
    void oracleByHand() {
        CooTensor t({2, 2, 2});
        t.resize(3);
        t.set(0, std::vector<std::uint64_t>{0, 0, 0}, 1);
        t.set(1, std::vector<std::uint64_t>{1, 0, 1}, 2);
        t.set(2, std::vector<std::uint64_t>{1, 1, 1}, 3);
        const std::vector<DenseMatrix> f{matrix(2, 2, {1, 2, 3, 4}), matrix(2, 2, {1, 0, 2, 1}), matrix(2, 2, {1, 1, 0, 2})};
        DenseMatrix out(2, 2);
        mttkrp_reference(t, 0, f, out);
        QCOMPARE(std::vector<double>(out.data.begin(), out.data.end()), (std::vector<double>{1, 0, 0, 6}));
        mttkrp_reference(t, 2, f, out);
        QCOMPARE(std::vector<double>(out.data.begin(), out.data.end()), (std::vector<double>{1, 0, 24, 12}));
        // cpu-ref through any format gives the same
        const auto csf = build_format(FormatKind::CSF, t, {});
        mttkrp(Backend::CpuRef, *csf, 2, f, out);
        QCOMPARE(std::vector<double>(out.data.begin(), out.data.end()), (std::vector<double>{1, 0, 24, 12}));
    }

    void randomTensors_data() {
        QTest::addColumn<int>("order");
        QTest::addColumn<int>("dist");
        QTest::addColumn<int>("rank");
        for (int order : {3, 4, 5})
            for (int dist : {0, 1, 2})
                for (int rank : {1, 16}) QTest::addRow("order %d dist %d rank %d", order, dist, rank) << order << dist << rank;
        // the tree kernels' fixed-size variants (16, 32, 64) and a rank near them that is not
        QTest::addRow("order 3 rank 64") << 3 << 1 << 64;
        QTest::addRow("order 4 rank 32") << 4 << 1 << 32;
        QTest::addRow("order 5 rank 32") << 5 << 2 << 32;
        QTest::addRow("order 3 rank 33") << 3 << 1 << 33;
    }
    void randomTensors() {
        QFETCH(int, order);
        QFETCH(int, dist);
        QFETCH(int, rank);
        std::vector<std::uint64_t> dims(static_cast<std::size_t>(order), 12);
        dims[0] = 50;
        const CooTensor t = tstest::random_tensor(dims, 1000, std::uint64_t(order * 7 + dist), Distribution(dist));
        FormatOptions o;
        o.bcsf_fiber_threshold = 3;  // forces fiber splitting in B-CSF
        check_against_oracle(t, std::uint64_t(rank), o);
    }

    void edgeCases() {
        check_against_oracle(tstest::one_nonzero_tensor(), 3);
        check_against_oracle(tstest::empty_slices_tensor(), 5);
    }

    // HLS with dense tiles (low threshold, 16^3 blocks) and HiCOO with small and large blocks
    // (2^9: one block of 6,000 nonzeros, which the omp kernel cuts into pieces of 1,024 that
    // different threads run)
    void tiledFormats() {
        GeneratorSpec spec;
        spec.dims = {70, 50, 40};
        spec.nnz = 6000;
        parse_distribution("blocks:8:16", spec);
        const CooTensor t = generate_tensor(spec);
        FormatOptions o;
        o.hls_threshold = 20;
        o.hicoo_bits = 2;
        check_against_oracle(t, 16, o);
        o.hicoo_bits = 9;
        check_against_oracle(t, 5, o);
    }

    void oneAndTwoThreadsAgree() {
        const CooTensor t = tstest::random_tensor({400, 300, 200}, 20000, 3, Distribution::PowerLaw);
        const auto factors = random_factors(t, 16, 1);
        const auto f = build_format(FormatKind::CSF, t, {});
        DenseMatrix one(t.dim(1), 16), two(t.dim(1), 16);
#ifdef _OPENMP
        omp_set_num_threads(1);
#endif
        mttkrp(Backend::Omp, *f, 1, factors, one);
#ifdef _OPENMP
        omp_set_num_threads(2);
#endif
        mttkrp(Backend::Omp, *f, 1, factors, two);
        QVERIFY(max_relative_error(two, one) <= 1e-13);
    }

    void realTensors() {
        for (const char* name : {"movielens-100k.tns", "jf17k-4d.tns"}) {
            const std::string path = tstest::shared_tensor(name);
            if (path.empty()) QSKIP("../shared/data is absent (a fresh clone): skipped");
            check_against_oracle(load_tensor(path).tensor, 8);
        }
    }

    void badShapesAndBackends() {
        const CooTensor t = tstest::random_tensor({10, 10, 10}, 50, 1);
        const auto f = build_format(FormatKind::COO, t, {});
        auto factors = random_factors(t, 4, 1);
        DenseMatrix out(10, 4);
        QVERIFY_THROWS_EXCEPTION(InputError, mttkrp(Backend::Omp, *f, 3, factors, out));
        factors[1] = random_matrix(9, 4, 1);
        QVERIFY_THROWS_EXCEPTION(InputError, mttkrp(Backend::Omp, *f, 0, factors, out));
        factors = random_factors(t, 4, 1);
        const auto cfb = build_format(FormatKind::CFB, t, {});
        QVERIFY_THROWS_EXCEPTION(InputError, mttkrp(Backend::Omp, *cfb, 0, factors, out));  // no MTTKRP on CFB
        QVERIFY(!kernel_supports(KernelKind::MTTKRP, Backend::Omp, FormatKind::CFB));
        // cuda: the product where there is a device (test_mttkrp_cuda checks it in depth), else an
        // error that names CUDA
        if (query_gpu().available) {
            mttkrp(Backend::Cuda, *f, 0, factors, out);
            DenseMatrix ref(10, 4);
            mttkrp_reference(t, 0, factors, ref);
            QVERIFY(max_relative_error(out, ref) <= 1e-4);
            return;
        }
        try {
            mttkrp(Backend::Cuda, *f, 0, factors, out);
            QFAIL("no error without a GPU");
        } catch (const Error& e) {
            QVERIFY(std::string(e.what()).find("CUDA") != std::string::npos);
        }
    }

    void matrixFiles() {
        QTemporaryDir dir;
        const std::string path = dir.filePath("mode1.mat").toStdString();
        const DenseMatrix m = random_matrix(7, 3, 5);
        write_matrix(m, path);
        const DenseMatrix back = read_matrix(path, 7, 3);
        QCOMPARE(max_relative_error(back, m), 0.0);  // 17 digits: exact
        QVERIFY_THROWS_EXCEPTION(InputError, read_matrix(path, 8, 3));
        QVERIFY_THROWS_EXCEPTION(ParseError, read_matrix(path, 7, 4));
        std::ofstream(path) << "1 2 x\n";
        try {
            read_matrix(path, 1, 3);
            QFAIL("no error");
        } catch (const ParseError& e) {
            QCOMPARE(e.line(), std::uint64_t{1});
        }
    }

    // The serial oracle looks at Cancel every 64Ki nonzeros (the Kernels tab's "compare with
    // cpu-ref" runs it on millions): cancelled at its third check, it stops there.
    void oracleStopsOnCancel() {
        const CooTensor t = tstest::random_tensor({500, 400, 300}, 300000, 9);
        std::vector<DenseMatrix> f;
        for (int m = 0; m < 3; ++m) f.push_back(random_matrix(t.dim(m), 4, 1 + std::uint64_t(m)));
        DenseMatrix out(t.dim(0), 4);
        tstest::CountingControl counting;
        mttkrp_reference(t, 0, f, out, counting);
        QCOMPARE(counting.checks(), std::uint64_t{(300000 + 65535) / 65536});
        tstest::CountingControl cancel(3);
        QVERIFY_THROWS_EXCEPTION(Cancelled, mttkrp_reference(t, 0, f, out, cancel));
        QCOMPARE(cancel.checks(), std::uint64_t{3});
    }
};

QTEST_APPLESS_MAIN(TestMttkrp)
#include "test_mttkrp.moc"
