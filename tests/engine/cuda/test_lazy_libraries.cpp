// Issue 24, item 8: work that never touches the GPU's dense algebra does not load cuBLAS,
// cuSOLVER, cuSPARSE or NCCL (hundreds of MB); a CPD on the GPU loads them when it first needs
// them, and a cuda SpTV cuSPARSE.
#include <fstream>
#include <string>

#include "test_support.hpp"
#include "tscope/decomp/cpd_als.hpp"
#include "tscope/formats/format.hpp"
#include "tscope/io/tensor_io.hpp"
#include "tscope/kernels/sptv.hpp"

using namespace tscope;

namespace {

// The libraries this process has mapped whose file name contains `part`.
bool mapped(const std::string& part) {
    std::ifstream maps("/proc/self/maps");
    std::string line;
    while (std::getline(maps, line))
        if (line.find(part) != std::string::npos) return true;
    return false;
}

}  // namespace

class TestLazyLibraries : public QObject {
    Q_OBJECT

private Q_SLOTS:
    // Must run first: the other case loads them.
    void cpuWorkLoadsNoGpuLibrary() {
        if (!QFile::exists("/proc/self/maps")) QSKIP("no /proc/self/maps here");
        const CooTensor t = tstest::random_tensor({40, 30, 20}, 2000, 3, Distribution::PowerLaw);
        query_gpu();  // the device query is the CUDA runtime's alone
        (void)build_format(FormatKind::CSF, t, {});
        CpdOptions o;
        o.rank = 4;
        o.max_iters = 3;
        (void)cpd_als(t, o);
        (void)sptv(Backend::Omp, *build_format(FormatKind::CSF, t, sptv_options(FormatKind::CSF, 3, 1)), 1, std::vector<double>(30, 1.0));
        for (const char* lib : {"libcublas", "libcusolver", "libcusparse", "libnccl"})
            QVERIFY2(!mapped(lib), qPrintable(QString("%1 was loaded by CPU-only work").arg(lib)));
    }

    void gpuCpdLoadsThemWhenNeeded() {
        TS_REQUIRE_GPU();
        const CooTensor t = tstest::random_tensor({40, 30, 20}, 2000, 3, Distribution::PowerLaw);
        CpdOptions o;
        o.rank = 4;
        o.max_iters = 3;
        o.backend = Backend::Cuda;
        o.format = FormatKind::BCSF;
        const CpdResult r = cpd_als(t, o);
        QVERIFY(r.fit > 0);
        QVERIFY(mapped("libcublas"));
    }

    void gpuSptvLoadsCusparse() {
        TS_REQUIRE_GPU();
        const CooTensor t = tstest::random_tensor({40, 30, 20}, 2000, 3, Distribution::PowerLaw);
        const CooTensor out = sptv(Backend::Cuda, *build_format(FormatKind::CSF, t, sptv_options(FormatKind::CSF, 3, 1)), 1,
                                   std::vector<double>(30, 1.0));
        QVERIFY(out.nnz() > 0);
        QVERIFY(mapped("libcusparse"));
    }
};

QTEST_GUILESS_MAIN(TestLazyLibraries)
#include "test_lazy_libraries.moc"
