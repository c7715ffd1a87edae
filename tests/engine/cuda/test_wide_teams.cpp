// The rule that picks the GPU's wide fiber kernel (engine/cuda/wide_teams.hpp), on the shapes
// it was measured on: no device needed.
#include "cuda/wide_teams.hpp"
#include "test_support.hpp"

using namespace tscope::gpu;

namespace {

constexpr std::uint64_t kH200Threads = 132 * 2048;  // resident threads of an H200 (132 SMs)

// One tree of nnz nonzeros over fibers fibers, in groups of 8 fibers.
LaunchShape tree(std::uint64_t nnz, std::uint64_t fibers, int levels = 2) {
    return {levels, false, false, nnz, fibers, (fibers + 7) / 8};
}

}  // namespace

class TestWideTeams : public QObject {
    Q_OBJECT

private Q_SLOTS:
    // The measured shapes (session 28): the uniform shape's trees (1.15-1.39 nonzeros a fiber)
    // and delicious-4d's (1.2, order 4) ran faster wide; the nell-2 shape's (3.7-4.7) slower.
    void shortFibersRunWide() {
        QCOMPARE(wide_blocks(tree(76'900'000, 66'737'000), 8, kH200Threads, nullptr), 4);
        QCOMPARE(wide_blocks(tree(140'000'000, 114'397'517, 3), 8, kH200Threads, nullptr), 4);
        QCOMPARE(wide_blocks(tree(76'900'000, 20'743'128), 8, kH200Threads, nullptr), 0);
        QCOMPARE(wide_blocks(tree(76'900'000, 16'408'322), 8, kH200Threads, "auto"), 0);
    }

    // MovieLens's mode-2 tree (64,912 fibers, 1.5 a fiber) is short-fibered but fills a quarter
    // of the device's lanes: its real tensors' trees ran 3-6 us a mode slower wide.
    void smallTreesKeepTheTeamKernel() {
        QCOMPARE(wide_blocks(tree(100'000, 64'912), 8, kH200Threads, nullptr), 0);
        QCOMPARE(wide_blocks(tree(100'000, 64'912), 8, 4'096, nullptr), 4);  // a small device it fills
    }

    // Only rank 32, orders 3 and 4, whole fibers.
    void onlyWhereTheKernelApplies() {
        const LaunchShape uni = tree(76'900'000, 66'737'000);
        QCOMPARE(wide_blocks(uni, 4, kH200Threads, nullptr), 0);   // rank 16
        QCOMPARE(wide_blocks(uni, 16, kH200Threads, nullptr), 0);  // rank 64
        LaunchShape order5 = uni;
        order5.levels = 4;
        QCOMPARE(wide_blocks(order5, 8, kH200Threads, "4"), 0);
        LaunchShape clipped = uni;
        clipped.clipped = true;
        QCOMPARE(wide_blocks(clipped, 8, kH200Threads, "4"), 0);
    }

    // TENSORSCOPE_FIBER_WIDE: 4-6 forces the bound, another number the team kernel, "trees" lets
    // MM-CSF's several trees take the rule, which they otherwise do not.
    void theSwitch() {
        const LaunchShape small = tree(5'000, 4'000);
        QCOMPARE(wide_blocks(small, 8, kH200Threads, "5"), 5);
        QCOMPARE(wide_blocks(small, 8, kH200Threads, "6"), 6);
        QCOMPARE(wide_blocks(tree(76'900'000, 66'737'000), 8, kH200Threads, "0"), 0);
        QCOMPARE(wide_blocks(tree(76'900'000, 66'737'000), 8, kH200Threads, "7"), 0);
        LaunchShape several = tree(140'000'000, 114'000'000, 3);
        several.several = true;
        QCOMPARE(wide_blocks(several, 8, kH200Threads, nullptr), 0);
        QCOMPARE(wide_blocks(several, 8, kH200Threads, "trees"), 4);
        QCOMPARE(wide_blocks(several, 8, kH200Threads, "4"), 4);
    }

    // MM-CSF's several trees (session 29): the uniform shape's three partitions (8.4M, 5.1M and
    // 63.4M nonzeros with modes 1, 2 and 3 as their leaves; 1.5-1.7 a fiber) ran modes 1 and 2
    // faster wide, mode 3 (most nonzeros added one by one at the leaves) slower; delicious-4d's
    // (order 4) slower on every mode.
    void severalTreesRunWideWhereTheyMeasuredFaster() {
        LaunchShape uni = tree(76'900'000, 51'470'920);
        uni.several = true;
        uni.leaf_nnz = 8'403'344;  // mode 1
        QCOMPARE(wide_blocks(uni, 8, kH200Threads, nullptr), 4);
        uni.leaf_nnz = 5'131'256;  // mode 2
        QCOMPARE(wide_blocks(uni, 8, kH200Threads, nullptr), 4);
        uni.leaf_nnz = 63'365'400;  // mode 3
        QCOMPARE(wide_blocks(uni, 8, kH200Threads, nullptr), 0);
        QCOMPARE(wide_blocks(uni, 8, kH200Threads, "trees"), 4);
        QCOMPARE(wide_blocks(uni, 8, kH200Threads, "0"), 0);
        LaunchShape del4d = tree(140'000'000, 114'000'000, 3);
        del4d.several = true;
        del4d.leaf_nnz = 2'000'000;  // mode 4's partition
        QCOMPARE(wide_blocks(del4d, 8, kH200Threads, nullptr), 0);
        LaunchShape nell2 = tree(76'900'000, 18'000'000);  // 4.3 a fiber
        nell2.several = true;
        QCOMPARE(wide_blocks(nell2, 8, kH200Threads, nullptr), 0);
    }
};

QTEST_APPLESS_MAIN(TestWideTeams)
#include "test_wide_teams.moc"
