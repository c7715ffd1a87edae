// SpTV: the oracle on the hocfs example, every omp format against the oracle.
#include "test_support.hpp"
#include "tscope/formats/format.hpp"
#include "tscope/io/tensor_io.hpp"
#include "tscope/kernels/dense_matrix.hpp"
#include "tscope/kernels/sptv.hpp"

using namespace tscope;

namespace {

std::vector<double> random_vector(std::uint64_t n, std::uint64_t seed) {
    const DenseMatrix m = random_matrix(n, 1, seed);
    return std::vector<double>(m.data.begin(), m.data.end());
}

void check_against_oracle(const CooTensor& t) {
    for (int mode = 0; mode < t.order(); ++mode) {
        const auto v = random_vector(t.dim(mode), 11 + std::uint64_t(mode));
        const CooTensor ref = sptv_reference(t, mode, v);
        for (FormatKind kind : kernel_formats(KernelKind::SpTV, Backend::Omp)) {  // the registry's: new entries are tested
            std::unique_ptr<SparseFormat> f;
            try {
                f = build_format(kind, t, sptv_options(kind, t.order(), mode));
            } catch (const InputError& e) {  // HOCSR / ELL refuse some shapes, and say so
                QVERIFY2(std::string(e.what()).find("limit") != std::string::npos, e.what());
                continue;
            }
            const CooTensor out = sptv(Backend::Omp, *f, mode, v);
            const double err = sparse_max_relative_error(out, ref);
            QVERIFY2(err <= 1e-12, qPrintable(QString("%1 mode %2: error %3").arg(format_name(kind)).arg(mode + 1).arg(err)));
        }
    }
}

}  // namespace

class TestSptv : public QObject {
    Q_OBJECT

private Q_SLOTS:
    // hocfs Sec. 5's X with v = (1, 2, 3, 4) in mode 3: M(i, j) = X(i, j, :) . v.
    // Slice 1, row 1 is (3 1 0 0): M(1,1) = 3 + 2 = 5; row 4 is (0 0 5 8): 15 + 32 = 47.
    void hocfsExampleByHand() {
        const int slices[4][5][4] = {
            {{3, 1, 0, 0}, {0, 9, 0, 0}, {0, 7, 3, 0}, {0, 0, 5, 8}, {2, 0, 0, 0}},
            {{0, 0, 0, 0}, {0, 0, 0, 0}, {0, 0, 0, 0}, {0, 0, 0, 0}, {0, 0, 0, 0}},
            {{0, 0, 4, 0}, {0, 0, 0, 7}, {5, 0, 0, 2}, {0, 1, 6, 0}, {0, 0, 0, 0}},
            {{0, 7, 0, 8}, {3, 0, 0, 0}, {0, 0, 2, 1}, {0, 0, 0, 0}, {0, 0, 6, 5}}};
        CooTensor t({4, 5, 4});
        std::uint64_t n = 0;
        t.resize(21);
        for (std::uint64_t i = 0; i < 4; ++i)
            for (std::uint64_t j = 0; j < 5; ++j)
                for (std::uint64_t k = 0; k < 4; ++k)
                    if (slices[i][j][k]) t.set(n++, std::vector<std::uint64_t>{i, j, k}, slices[i][j][k]);
        const std::vector<double> v{1, 2, 3, 4};
        const CooTensor m = sptv_reference(t, 2, v);
        QCOMPARE(m.nnz(), std::uint64_t{13});  // the 13 non-empty rows of Table 1
        QCOMPARE(m.index(0, 0), std::uint64_t{0});
        QCOMPARE(m.index(1, 0), std::uint64_t{0});
        QCOMPARE(m.value(0), 5.0);
        QCOMPARE(m.value(3), 47.0);
        check_against_oracle(t);
    }

    void randomTensors_data() {
        QTest::addColumn<int>("order");
        QTest::addColumn<int>("dist");
        for (int order : {3, 4, 5})
            for (int dist : {0, 1, 2}) QTest::addRow("order %d dist %d", order, dist) << order << dist;
    }
    void randomTensors() {
        QFETCH(int, order);
        QFETCH(int, dist);
        std::vector<std::uint64_t> dims(static_cast<std::size_t>(order), 12);
        dims[0] = 40;
        check_against_oracle(tstest::random_tensor(dims, 900, std::uint64_t(order * 5 + dist), Distribution(dist)));
    }

    // The oracle's fibers come in lexicographic order of their coordinates, each the sum of its
    // nonzeros, whether the other modes' indices linearise into 64 bits (a sort of keys) or not
    // (a sort by coordinates: here dims of 2^40 whose product overflows): the same tensor in
    // both gives the same result, and each fiber matches a sum taken by hand.
    void oracleFibersInOrder() {
        const CooTensor small = tstest::random_tensor({9, 7, 8}, 300, 17, Distribution::PowerLaw);
        CooTensor huge({std::uint64_t{1} << 40, std::uint64_t{1} << 40, 8});
        huge.resize(small.nnz());
        for (std::uint64_t z = 0; z < small.nnz(); ++z)
            huge.set(z, std::vector<std::uint64_t>{small.index(0, z), small.index(1, z), small.index(2, z)}, small.value(z));
        const auto v = random_vector(8, 3);
        const CooTensor a = sptv_reference(small, 2, v), b = sptv_reference(huge, 2, v);
        QVERIFY(a.nnz() > 20 && a.nnz() < small.nnz());  // power-law: some fibers hold several nonzeros
        QCOMPARE(b.nnz(), a.nnz());
        for (std::uint64_t f = 0; f < a.nnz(); ++f) {
            QCOMPARE(b.index(0, f), a.index(0, f));
            QCOMPARE(b.index(1, f), a.index(1, f));
            QCOMPARE(b.value(f), a.value(f));
            if (f) QVERIFY(std::pair(a.index(0, f - 1), a.index(1, f - 1)) < std::pair(a.index(0, f), a.index(1, f)));
            double sum = 0.0;
            for (std::uint64_t z = 0; z < small.nnz(); ++z)
                if (small.index(0, z) == a.index(0, f) && small.index(1, z) == a.index(1, f)) sum += small.value(z) * v[small.index(2, z)];
            QCOMPARE(a.value(f), sum);
        }
    }

    void edgeCases() {
        check_against_oracle(tstest::one_nonzero_tensor());
        check_against_oracle(tstest::empty_slices_tensor());
        // HOCSR's row walk in chunks (cpu/sptv_cpu.cpp, all_row_sums): two slabs of 36,000
        // nonzeros each (past a chunk's 32,768) with 5.4M empty rows between them (past a chunk's
        // 65,536 rows) in mode 3's 5.4M-row unfolding
        CooTensor slabs({600, 9000, 4});
        slabs.resize(72000);
        std::uint64_t z = 0;
        for (std::uint64_t i : {0, 599})
            for (std::uint64_t j = 0; j < 9000; ++j)
                for (std::uint64_t k = 0; k < 4; ++k, ++z) {
                    const std::uint64_t at[3] = {i, j, k};
                    slabs.set(z, std::span<const std::uint64_t>(at, 3), 1.0 + static_cast<double>(z % 7));
                }
        check_against_oracle(slabs);
    }

    void realTensors() {
        for (const char* name : {"movielens-100k.tns", "jf17k-4d.tns"}) {
            const std::string path = tstest::shared_tensor(name);
            if (path.empty()) QSKIP("../shared/data is absent (a fresh clone): skipped");
            check_against_oracle(load_tensor(path).tensor);
        }
    }

    // A plan lays the result out once and computes it again for each new vector: every run
    // must match the oracle for its own vector, not keep anything of the run before.
    void planRecomputes() {
        const CooTensor t = tstest::random_tensor({30, 20, 25}, 700, 5, Distribution::PowerLaw);
        for (FormatKind kind : kernel_formats(KernelKind::SpTV, Backend::Omp)) {
            const auto f = build_format(kind, t, sptv_options(kind, 3, 1));
            SptvPlan plan = SptvPlan::prepare(*f, 1);
            for (std::uint64_t seed : {3, 4, 3}) {
                const auto v = random_vector(20, seed);
                plan.compute(v);
                const double err = sparse_max_relative_error(plan.result(), sptv_reference(t, 1, v));
                QVERIFY2(err <= 1e-12, qPrintable(QString("%1 seed %2: error %3").arg(format_name(kind)).arg(seed).arg(err)));
            }
            // the values kernel walks at least the nonzeros' indices and values and writes one value per fiber
            QVERIFY(plan.bytes_per_compute() >= t.nnz() * 12 + plan.result().nnz() * 8);
            QVERIFY_THROWS_EXCEPTION(InputError, plan.compute(random_vector(21, 1)));
            const CooTensor taken = plan.take_result();
            QVERIFY(taken.nnz() > 0);
            QVERIFY_THROWS_EXCEPTION(Error, plan.compute(random_vector(20, 1)));
        }
    }

    void misuse() {
        const CooTensor t = tstest::random_tensor({10, 11, 12}, 60, 2);
        const auto csf = build_format(FormatKind::CSF, t, sptv_options(FormatKind::CSF, 3, 2));
        QVERIFY_THROWS_EXCEPTION(InputError, sptv(Backend::Omp, *csf, 0, random_vector(10, 1)));  // built for mode 3
        QVERIFY_THROWS_EXCEPTION(InputError, sptv(Backend::Omp, *csf, 2, random_vector(11, 1)));  // wrong length
        const auto hicoo = build_format(FormatKind::HiCOO, t, {});
        QVERIFY_THROWS_EXCEPTION(InputError, sptv(Backend::Omp, *hicoo, 2, random_vector(12, 1)));
        QVERIFY(kernel_supports(KernelKind::SpTV, Backend::CpuRef, FormatKind::HiCOO));
        QVERIFY_THROWS_EXCEPTION(InputError, SptvPlan::prepare(*csf, 2, Backend::CpuRef));  // the oracle has no plan
    }
};

QTEST_APPLESS_MAIN(TestSptv)
#include "test_sptv.moc"
