// Issue 24, item 8: work that never touches the GPU's dense algebra does not load cuBLAS,
// cuSOLVER or NCCL (hundreds of MB); a CPD on the GPU loads them when it first needs them.
#include <fstream>
#include <string>

#include "test_support.hpp"
#include "tscope/decomp/cpd_als.hpp"
#include "tscope/formats/format.hpp"
#include "tscope/io/tensor_io.hpp"

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
        for (const char* lib : {"libcublas", "libcusolver", "libnccl"})
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
};

QTEST_GUILESS_MAIN(TestLazyLibraries)
#include "test_lazy_libraries.moc"
