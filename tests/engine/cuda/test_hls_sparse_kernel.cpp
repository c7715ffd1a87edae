// Which kernel takes HLS's sparse part on the GPU (engine/cuda/hls_sparse_kernel.hpp), on the
// host: no device needed. The GPU suite runs the kernels themselves (test_hls_cuda).
#include "cuda/hls_sparse_kernel.hpp"
#include "test_support.hpp"

using namespace tscope::gpu;

class TestHlsSparseKernel : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void mttkrpTakesTheCooKernels() {
        QCOMPARE(hls_sparse_kernel(false, nullptr), HlsSparseKernel::Coo);
        QCOMPARE(hls_sparse_kernel(false, "other"), HlsSparseKernel::Coo);
        QCOMPARE(hls_sparse_kernel(false, "element"), HlsSparseKernel::ElementWise);
    }

    void ttmcTakesThePeersKernel() {
        QCOMPARE(hls_sparse_kernel(true, nullptr), HlsSparseKernel::Peers);
        QCOMPARE(hls_sparse_kernel(true, "coo"), HlsSparseKernel::Peers);
        QCOMPARE(hls_sparse_kernel(true, "element"), HlsSparseKernel::ElementWise);
    }
};

QTEST_APPLESS_MAIN(TestHlsSparseKernel)
#include "test_hls_sparse_kernel.moc"
