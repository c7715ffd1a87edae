// Decompositions on the GPU against the CPU: CPD-ALS (fp32 MTTKRP on the device, tensor kept
// there) and Tucker-HOOI (SpTTM/SspTTM chains on the device) agree with the omp backend on
// the first iterations within fp32 rounding; FasterTucker's kernels learn MovieLens as the CPU
// does (Hogwild SGD visits in another order, so agreement is close, not bitwise).
// Skips, saying why, where there is no GPU.
#include "test_support.hpp"
#include "tscope/decomp/cpd_als.hpp"
#include "tscope/decomp/faster_tucker.hpp"
#include "tscope/decomp/tucker_hooi.hpp"
#include "tscope/io/tensor_io.hpp"

using namespace tscope;

namespace {

// The device CPD's fits against the host's for the first `iterations`, within fp32 rounding.
void check_fits(const CpdResult& cpu, const CpdResult& gpu, int iterations, const QString& what = QString()) {
    for (int i = 0; i < iterations; ++i) {
        const double a = cpu.iterations[std::size_t(i)].fit, b = gpu.iterations[std::size_t(i)].fit;
        QVERIFY2(std::fabs(a - b) <= 1e-4,
                 qPrintable(QString("%1iteration %2: cpu %3 gpu %4").arg(what).arg(i + 1).arg(a).arg(b)));
    }
}

}  // namespace

class TestDecompCuda : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { TS_REQUIRE_GPU(); }

    void cpdAgreesWithTheCpu_data() {
        QTest::addColumn<int>("order");
        QTest::addColumn<QString>("format");
        for (int order : {3, 4})
            for (const char* f : {"COO", "CSF", "B-CSF", "MM-CSF"}) QTest::addRow("order %d %s", order, f) << order << QString(f);
    }
    void cpdAgreesWithTheCpu() {
        QFETCH(int, order);
        QFETCH(QString, format);
        std::vector<std::uint64_t> dims(static_cast<std::size_t>(order), 30);
        dims[0] = 200;
        const CooTensor t = tstest::random_tensor(dims, 20000, std::uint64_t(order), Distribution::PowerLaw);
        CpdOptions o;
        o.rank = 8, o.max_iters = 3, o.tolerance = 0, o.format = parse_format(format.toStdString());
        const CpdResult cpu = cpd_als(t, o);
        o.backend = Backend::Cuda;
        const CpdResult gpu = cpd_als(t, o);
        check_fits(cpu, gpu, 3);
        for (int m = 0; m < order; ++m)
            QVERIFY(max_relative_error(gpu.factors[std::size_t(m)], cpu.factors[std::size_t(m)]) <= 1e-3);
    }

    // The device CPD's CSF and B-CSF trees at rank 32 on a shape whose 1,000-row mode (128 KB of
    // factor) goes to the leaves of the other modes' trees (kernels/gpu_level_order.hpp; the
    // long modes' factors, 256 and 192 MB, pass any GPU's L2 so far), and MM-CSF's partitions
    // with it just above the leaves of modes 1 and 3: the fits agree with the host's within 1e-4,
    // as on the trees in SPLATT's order above, on one part and on two.
    void cpdTreesInTheGpuLevelOrder_data() {
        QTest::addColumn<QString>("format");
        for (const char* f : {"CSF", "B-CSF", "MM-CSF"}) QTest::addRow("%s", f) << QString(f);
    }
    void cpdTreesInTheGpuLevelOrder() {
        QFETCH(QString, format);
        const CooTensor t = tstest::random_tensor({2'000'000, 1'000, 1'500'000}, 60000, 31, Distribution::PowerLaw);
        CpdOptions o;
        o.rank = 32, o.max_iters = 3, o.tolerance = 0, o.format = parse_format(format.toStdString());
        const CpdResult cpu = cpd_als(t, o);
        o.backend = Backend::Cuda;
        check_fits(cpu, cpd_als(t, o), 3);
        // two parts on this GPU: MM-CSF's cuts at its partitions' new roots
        o.gpu_slots = {0, 0};
        check_fits(cpu, cpd_als(t, o), 3, "2 parts, ");
    }

    // A COO mode whose rows leave room for one fp32 output copy (250,000 rows at rank 32 are
    // 32 MB): the device CPD adds into that copy and widens it, on one GPU part and over two
    // parts on this GPU (an fp32 sum between them, as for the fiber formats), where the other
    // modes keep their fp64 sums of several copies. The fits agree with the host's within 1e-4.
    void cpdCooOneCopyAgreesWithTheCpu() {
        const CooTensor t = tstest::random_tensor({40, 250000, 30}, 120000, 22, Distribution::Uniform);
        CpdOptions o;
        o.rank = 32, o.max_iters = 2, o.tolerance = 0, o.format = FormatKind::COO;
        const CpdResult cpu = cpd_als(t, o);
        o.backend = Backend::Cuda;
        for (const std::vector<int>& parts : {std::vector<int>{}, std::vector<int>{0, 0}}) {
            o.gpu_slots = parts;
            check_fits(cpu, cpd_als(t, o), 2, QString("%1 parts, ").arg(parts.size()));
        }
    }

    // Issue 27: the device-resident CPD (formats built on the GPU, factors kept there) against
    // the host backend after ten iterations, on the real tensors.
    void cpdTenIterationsOnTheSharedTensors_data() {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QString>("format");
        for (const char* file : {"movielens-100k.tns", "lastfm-tags.tns", "jf17k-4d.tns"})
            for (const char* f : {"CSF", "B-CSF", "COO", "MM-CSF"}) QTest::addRow("%s %s", file, f) << QString(file) << QString(f);
    }
    void cpdTenIterationsOnTheSharedTensors() {
        QFETCH(QString, file);
        QFETCH(QString, format);
        const std::string path = tstest::shared_tensor(file.toStdString().c_str());
        if (path.empty()) QSKIP("../shared/data is absent (a fresh clone): skipped");
        const CooTensor t = load_tensor(path).tensor;
        CpdOptions o;
        o.rank = 16, o.max_iters = 10, o.tolerance = 0, o.format = parse_format(format.toStdString());
        const CpdResult cpu = cpd_als(t, o);
        o.backend = Backend::Cuda;
        const CpdResult gpu = cpd_als(t, o);
        QCOMPARE(gpu.iterations.size(), std::size_t{10});
        QVERIFY2(std::fabs(cpu.fit - gpu.fit) <= 1e-4, qPrintable(QString("fit after 10: cpu %1 gpu %2").arg(cpu.fit, 0, 'g', 10).arg(gpu.fit, 0, 'g', 10)));
        QVERIFY(gpu.built_on_device);
        QVERIFY(gpu.peak_device_bytes > 0);
        for (const IterationReport& r : gpu.iterations)
            QVERIFY(r.mttkrp_seconds > 0 && r.dense_seconds > 0 && r.fit_seconds >= 0 && r.mttkrp_seconds + r.dense_seconds <= r.iter_seconds);
        // the factors come back once, at the end, and describe the fit reported
        QCOMPARE(gpu.factors.size(), std::size_t(t.order()));
        for (int m = 0; m < t.order(); ++m) QCOMPARE(gpu.factors[std::size_t(m)].rows, t.dim(m));
    }

    // Issue 20: the nvecs start and restarts on the device take the host's starting factors and
    // keep the best start, as the host does.
    void nvecsAndRestartsOnTheGpu() {
        const CooTensor t = tstest::low_rank_tensor({300, 250, 200}, 70000, 5, 5);  // test_cpd_als's: one start fails there
        CpdOptions o;
        o.rank = 5, o.max_iters = 60, o.seed = 2, o.init = CpdInit::Nvecs, o.format = FormatKind::BCSF;
        const CpdResult cpu = cpd_als(t, o);
        o.backend = Backend::Cuda;
        const CpdResult gpu = cpd_als(t, o);
        QVERIFY2(std::fabs(cpu.iterations[0].fit - gpu.iterations[0].fit) <= 1e-4,
                 qPrintable(QString("first iteration from nvecs: cpu %1 gpu %2").arg(cpu.iterations[0].fit).arg(gpu.iterations[0].fit)));
        QVERIFY2(gpu.fit >= 0.99, qPrintable(QString("gpu nvecs fit %1").arg(gpu.fit)));
        o.init = CpdInit::Random, o.restarts = 3;
        const CpdResult many = cpd_als(t, o);
        QCOMPARE(many.starts.size(), std::size_t{3});
        QVERIFY2(many.fit >= 0.99, qPrintable(QString("gpu, 3 starts: fit %1").arg(many.fit)));
    }

    // The Cholesky of the R x R system refuses the singular one, and the pseudo-inverse takes
    // over, as on the CPU; the factors on the device then give the fit the run reports. Within
    // 1e-3, not 1e-4: this tensor is fitted almost exactly, and the reported fit is
    // 1 - sqrt(|X|^2 + |M|^2 - 2 <X, M>) / |X| with <X, M> from the fp32 MTTKRP; a relative
    // error e of that inner product moves the fit by up to sqrt(2 e) near a fit of 1, about
    // 4.5e-4 for e = 1e-7 (an H100 run reported 0.99987 for factors whose fit is 0.9999998).
    void singularSystemOnTheGpu() {
        const CooTensor t = tstest::random_tensor({2, 2, 30}, 100, 6);
        CpdOptions o;
        o.rank = 5, o.max_iters = 5, o.tolerance = 0, o.backend = Backend::Cuda;
        const CpdResult r = cpd_als(t, o);
        QVERIFY(r.pseudo_inverse_solves > 0);
        const double dense = cpd_dense_fit(t, r.factors, r.lambda);
        QVERIFY2(std::fabs(r.fit - dense) < 1e-3, qPrintable(QString("reported fit %1, the factors' fit %2, %3 pseudo-inverse solves")
                                                                 .arg(r.fit, 0, 'g', 10).arg(dense, 0, 'g', 10).arg(r.pseudo_inverse_solves)));
    }

    void tuckerAgreesWithTheCpu() {
        const CooTensor t = tstest::random_tensor({120, 40, 30}, 15000, 7, Distribution::PowerLaw);
        const auto factors = tstest::random_factors(t, {4, 3, 5}, 3);
        for (int mode = 0; mode < 3; ++mode) {
            const DenseMatrix cpu = tucker_ttm_chain(t, mode, factors, Backend::Omp);
            const DenseMatrix gpu = tucker_ttm_chain(t, mode, factors, Backend::Cuda);
            const double err = max_relative_error(gpu, cpu);
            QVERIFY2(err <= 1e-4, qPrintable(QString("mode %1: %2").arg(mode + 1).arg(err)));
        }
        TuckerOptions o;
        o.ranks = {4}, o.max_iters = 3, o.tolerance = 0;
        const TuckerResult cpu = tucker_hooi(t, o);
        o.backend = Backend::Cuda;
        const TuckerResult gpu = tucker_hooi(t, o);
        for (int i = 0; i < 3; ++i)
            QVERIFY(std::fabs(cpu.iterations[std::size_t(i)].fit - gpu.iterations[std::size_t(i)].fit) <= 1e-4);
    }

    void fasterTuckerLearnsMovieLens() {
        TS_REQUIRE_SHARED(path, "movielens-100k.tns");
        const CooTensor t = load_tensor(path).tensor;
        FasterTuckerOptions o;
        o.epochs = 50;
        const FasterTuckerResult cpu = faster_tucker(t, o);
        o.backend = Backend::Cuda;
        const FasterTuckerResult gpu = faster_tucker(t, o);
        QCOMPARE(gpu.iterations.size(), std::size_t{50});
        QCOMPARE(gpu.test_nnz, cpu.test_nnz);  // the same split
        QString curve;
        for (std::size_t i = 0; i < 50; i += 7)
            curve += QString(" %1:%2/%3").arg(i + 1).arg(cpu.iterations[i].test_rmse, 0, 'f', 4).arg(gpu.iterations[i].test_rmse, 0, 'f', 4);
        qInfo("MovieLens test RMSE per epoch, cpu/gpu:%s; mean predictor %.4f", qPrintable(curve), gpu.mean_predictor_test_rmse);
        // Hogwild SGD: thousands of warps update shared rows at once, so the GPU's path differs
        // from the CPU's; where they end is what must agree
        const double a = cpu.iterations.back().test_rmse, b = gpu.iterations.back().test_rmse;
        QVERIFY2(std::fabs(a - b) <= 0.05 * a, qPrintable(QString("final: cpu %1 gpu %2").arg(a).arg(b)));
        QVERIFY2(b < 1.0, qPrintable(QString::number(b)));
        QVERIFY(b < gpu.mean_predictor_test_rmse);
    }

    // In the ordered schedule both backends run the serial sweep's arithmetic, the GPU in fp32:
    // the first epochs agree within fp32 rounding.
    void fasterTuckerOrderedAgreesWithTheCpu() {
        TS_REQUIRE_SHARED(path, "movielens-100k.tns");
        const CooTensor t = load_tensor(path).tensor;
        FasterTuckerOptions o;
        o.epochs = 3, o.schedule = FtSchedule::Ordered;
        const FasterTuckerResult cpu = faster_tucker(t, o);
        o.backend = Backend::Cuda;
        const FasterTuckerResult gpu = faster_tucker(t, o);
        QString report;
        double worst = 0;
        for (std::size_t e = 0; e < 3; ++e) {
            const double d[3] = {std::fabs(cpu.iterations[e].train_rmse - gpu.iterations[e].train_rmse) / cpu.iterations[e].train_rmse,
                                 std::fabs(cpu.iterations[e].test_rmse - gpu.iterations[e].test_rmse) / cpu.iterations[e].test_rmse,
                                 std::fabs(cpu.iterations[e].train_mae - gpu.iterations[e].train_mae) / cpu.iterations[e].train_mae};
            for (double x : d) worst = std::max(worst, x);
            report += QString(" %1:%2/%3").arg(e + 1).arg(cpu.iterations[e].test_rmse, 0, 'f', 7).arg(gpu.iterations[e].test_rmse, 0, 'f', 7);
        }
        qInfo("ordered schedule, MovieLens test RMSE cpu/gpu:%s; worst relative difference %.3g", qPrintable(report), worst);
        QVERIFY2(worst <= 1e-4, qPrintable(QString::number(worst)));
        double factors = 0, scale = 0;
        for (std::size_t n = 0; n < cpu.a.size(); ++n)
            for (std::size_t i = 0; i < cpu.a[n].data.size(); ++i) {
                factors = std::max(factors, std::fabs(cpu.a[n].data[i] - gpu.a[n].data[i]));
                scale = std::max(scale, std::fabs(cpu.a[n].data[i]));
            }
        qInfo("factor matrices: max difference %.3g of max entry %.3g", factors, scale);
        QVERIFY(factors <= 1e-3 * scale);
    }

    void fasterTuckerOnHigherOrders() {
        const CooTensor t = tstest::random_tensor({40, 30, 20, 10}, 8000, 4, Distribution::PowerLaw);
        FasterTuckerOptions o;
        o.j_ranks = {8}, o.r_rank = 8, o.epochs = 15, o.lr_a = 0.002, o.backend = Backend::Cuda;
        const FasterTuckerResult r = faster_tucker(t, o);
        QVERIFY(r.iterations.back().train_rmse < 0.9 * r.iterations.front().train_rmse);
    }
};

QTEST_APPLESS_MAIN(TestDecompCuda)
#include "test_decomp_cuda.moc"
