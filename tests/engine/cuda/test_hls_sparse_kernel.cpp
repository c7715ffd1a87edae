// Which kernel takes HLS's sparse part on the GPU (engine/cuda/hls_sparse_kernel.hpp), on the
// host: no device needed. The GPU suites run every kernel forced (test_hls_cuda); this is the
// default's rule at its edges.
#include "cuda/hls_sparse_kernel.hpp"
#include "test_support.hpp"

using namespace tscope::gpu;

namespace {

// n nonzeros: `heavy` in row 0, the others one a row
std::vector<std::uint32_t> rows_with(std::uint64_t n, std::uint64_t heavy) {
    std::vector<std::uint32_t> rows(n);
    for (std::uint64_t z = 0; z < n; ++z) rows[z] = z < heavy ? 0 : static_cast<std::uint32_t>(z);
    return rows;
}

}  // namespace

class TestHlsSparseKernel : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void heaviestRowAtTheLimit() {
        const auto at = rows_with(20000, kElementRowAdds), past = rows_with(20000, kElementRowAdds + 1);
        QVERIFY(fits_element_wise(at.size(), at.data()));
        QVERIFY(!fits_element_wise(past.size(), past.data()));
        // the heavy row last in the order counts the same
        auto last = past;
        std::reverse(last.begin(), last.end());
        QVERIFY(!fits_element_wise(last.size(), last.data()));
    }

    void nonzerosAtTheLimit() {
        const auto under = rows_with(kElementNonzeros - 1, 1), at = rows_with(kElementNonzeros, 1);
        QVERIFY(fits_element_wise(under.size(), under.data()));
        QVERIFY(!fits_element_wise(at.size(), at.data()));
        QVERIFY(fits_element_wise(0, nullptr));
    }

    void mttkrpAndTtmcDefaultsAndForcing() {
        const auto small = rows_with(1000, 10), large = rows_with(kElementNonzeros, 1);
        QCOMPARE(hls_sparse_kernel(false, small.size(), small.data(), nullptr), HlsSparseKernel::ElementWise);
        QCOMPARE(hls_sparse_kernel(false, large.size(), large.data(), nullptr), HlsSparseKernel::Coo);
        QCOMPARE(hls_sparse_kernel(false, small.size(), small.data(), "coo"), HlsSparseKernel::Coo);
        QCOMPARE(hls_sparse_kernel(false, large.size(), large.data(), "element"), HlsSparseKernel::ElementWise);
        QCOMPARE(hls_sparse_kernel(false, small.size(), small.data(), "other"), HlsSparseKernel::ElementWise);
        // TTMc: the peers kernel whatever the size, the element-wise one forced
        QCOMPARE(hls_sparse_kernel(true, small.size(), small.data(), nullptr), HlsSparseKernel::Peers);
        QCOMPARE(hls_sparse_kernel(true, large.size(), large.data(), "coo"), HlsSparseKernel::Peers);
        QCOMPARE(hls_sparse_kernel(true, small.size(), small.data(), "element"), HlsSparseKernel::ElementWise);
    }
};

QTEST_APPLESS_MAIN(TestHlsSparseKernel)
#include "test_hls_sparse_kernel.moc"
