// The GPU's level order for the CSF family's trees (white-box: engine/kernels/gpu_level_order.hpp):
// SPLATT's order, but the shortest mode below the root at the leaves where its factor fits an SM's
// L1 and every other factor below the root is larger than the L2, as on delicious-4d's shape.
#include "test_support.hpp"

#include "formats/format_builders.hpp"
#include "kernels/gpu_level_order.hpp"
#include "tscope/formats/balanced_formats.hpp"

using namespace tscope;

namespace {

const std::vector<std::uint64_t> kDel4d = {532'924, 17'262'471, 2'480'308, 1'443};
const std::vector<std::uint64_t> kNell2 = {12'092, 9'184, 28'818};
constexpr std::uint64_t kH100L2 = 50ull << 20, kH200L2 = 60ull << 20;

std::vector<int> splatt(const std::vector<std::uint64_t>& dims, int mode) { return default_mode_order(dims, mode); }

}  // namespace

class TestGpuLevelOrder : public QObject {
    Q_OBJECT
private slots:
    // Delicious-4d's modes 1-3 at rank 32 (0-based here): the 1,443-row mode (185 KB) at the
    // leaves, the others by increasing length; mode 4's tree keeps SPLATT's order (that mode is
    // its root, and the shortest mode below it takes 68 MB).
    void delicious4dMovesTheTinyModeToTheLeaves() {
        for (std::uint64_t l2 : {kH100L2, kH200L2}) {
            QCOMPARE(gpu_level_order(kDel4d, 0, 32, l2), (std::vector<int>{0, 2, 1, 3}));
            QCOMPARE(gpu_level_order(kDel4d, 1, 32, l2), (std::vector<int>{1, 0, 2, 3}));
            QCOMPARE(gpu_level_order(kDel4d, 2, 32, l2), (std::vector<int>{2, 0, 1, 3}));
            QCOMPARE(gpu_level_order(kDel4d, 3, 32, l2), splatt(kDel4d, 3));
        }
        QCOMPARE(splatt(kDel4d, 0), (std::vector<int>{0, 3, 2, 1}));  // where it came from
    }

    // Each condition alone keeps SPLATT's order.
    void keepsSplattsOrderOtherwise() {
        for (int m = 0; m < 3; ++m) {
            QCOMPARE(gpu_level_order(kNell2, m, 32, kH100L2), splatt(kNell2, m));  // factors of 1.2-3.7 MB
            QCOMPARE(gpu_level_order(kDel4d, m, 0, kH100L2), splatt(kDel4d, m));   // rank not known
            QCOMPARE(gpu_level_order(kDel4d, m, 32, 0), splatt(kDel4d, m));        // no device
            // rank 512: the 1,443-row factor takes 2.9 MB, past an SM's L1
            QCOMPARE(gpu_level_order(kDel4d, m, 512, kH100L2), splatt(kDel4d, m));
        }
        // an L2 of 128 MiB holds mode 1's 68 MB factor: mode 2's tree keeps SPLATT's order, mode
        // 1's (whose other factors are 317 MB and 2.2 GB) still moves
        QCOMPARE(gpu_level_order(kDel4d, 1, 32, 128ull << 20), splatt(kDel4d, 1));
        QCOMPARE(gpu_level_order(kDel4d, 0, 32, 128ull << 20), (std::vector<int>{0, 2, 1, 3}));
        // the tiny factor just over the L1's 256 KiB (2,049 rows at rank 32) stays
        std::vector<std::uint64_t> dims = kDel4d;
        dims[3] = 2'049;
        QCOMPARE(gpu_level_order(dims, 0, 32, kH100L2), splatt(dims, 0));
        dims[3] = 2'048;
        QCOMPARE(gpu_level_order(dims, 0, 32, kH100L2), (std::vector<int>{0, 2, 1, 3}));
    }

    // MM-CSF's partitions on delicious-4d's shape at rank 32: the 1,443-row mode, the root of the
    // paper's trees for modes 1-3's leaves, goes just above those leaves; the partition whose
    // leaves are that mode keeps the paper's order (its shortest upper mode takes 68 MB).
    void mmcsfPartitionsOnDelicious4d() {
        for (std::uint64_t l2 : {kH100L2, kH200L2}) {
            QCOMPARE(gpu_mmcsf_partition_order(kDel4d, 0, 32, l2), (std::vector<int>{2, 1, 3, 0}));
            QCOMPARE(gpu_mmcsf_partition_order(kDel4d, 1, 32, l2), (std::vector<int>{0, 2, 3, 1}));
            QCOMPARE(gpu_mmcsf_partition_order(kDel4d, 2, 32, l2), (std::vector<int>{0, 1, 3, 2}));
            QCOMPARE(gpu_mmcsf_partition_order(kDel4d, 3, 32, l2), mmcsf_partition_order(kDel4d, 3));
            const auto orders = gpu_mmcsf_orders(kDel4d, 32, l2);
            QCOMPARE(orders.size(), std::size_t{4});
            for (int p = 0; p < 4; ++p) QCOMPARE(orders[std::size_t(p)], gpu_mmcsf_partition_order(kDel4d, p, 32, l2));
        }
        QCOMPARE(mmcsf_partition_order(kDel4d, 0), (std::vector<int>{3, 2, 1, 0}));  // where it came from
        QCOMPARE(partition_levels_text(gpu_mmcsf_orders(kDel4d, 32, kH100L2)),
                 std::string("partitions' levels 3,2,4,1; 1,3,4,2; 1,2,4,3; 1,3,2,4"));
        // TENSORSCOPE_MMCSF_LEVELS=paper keeps the paper's, to measure one against the other
        const tstest::ScopedEnv env("TENSORSCOPE_MMCSF_LEVELS", "paper");
        QVERIFY(gpu_mmcsf_orders(kDel4d, 32, kH100L2).empty());
    }

    // Where the conditions fail, every partition keeps the paper's order and there is no list.
    void mmcsfKeepsThePapersOrderOtherwise() {
        QVERIFY(gpu_mmcsf_orders(kNell2, 32, kH100L2).empty());   // factors of 1.2-3.7 MB
        QVERIFY(gpu_mmcsf_orders(kDel4d, 0, kH100L2).empty());    // rank not known
        QVERIFY(gpu_mmcsf_orders(kDel4d, 32, 0).empty());         // no device
        QVERIFY(gpu_mmcsf_orders(kDel4d, 512, kH100L2).empty());  // 2.9 MB: past an SM's L1
        for (int p = 0; p < 3; ++p)
            QCOMPARE(gpu_mmcsf_partition_order(kNell2, p, 32, kH100L2), mmcsf_partition_order(kNell2, p));
        // one mode above the leaves: nothing to move
        QCOMPARE(gpu_mmcsf_partition_order({10, 100'000'000}, 1, 32, kH100L2), (std::vector<int>{0, 1}));
    }

    // Orders 1 and 2 have at most one mode below the root: nothing to move.
    void lowOrders() {
        QCOMPARE(gpu_level_order({5}, 0, 32, kH100L2), (std::vector<int>{0}));
        QCOMPARE(gpu_level_order({10, 100'000'000}, 0, 32, kH100L2), (std::vector<int>{0, 1}));
        QCOMPARE(gpu_level_order({100'000'000, 10}, 0, 32, kH100L2), (std::vector<int>{0, 1}));
    }
};

QTEST_APPLESS_MAIN(TestGpuLevelOrder)
#include "test_gpu_level_order.moc"
