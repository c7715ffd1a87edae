// How many nonzeros a COO or BLCO team walks on the GPU (engine/cuda/coo_group.hpp), on the
// host: no device needed. test_mttkrp_cuda runs the kernels at forced groups.
#include "cuda/coo_group.hpp"
#include "test_support.hpp"

using namespace tscope::gpu;

namespace {
constexpr std::uint64_t kH200Teams = 132 * 256;  // 132 SMs, 256 teams of 8 lanes each
}

class TestCooGroup : public QObject {
    Q_OBJECT

private Q_SLOTS:
    // Large tensors keep 128; small ones go down to 8, never below.
    void boundsOfTheRule() {
        QCOMPARE(coo_group(20'000'000, kH200Teams, 0), kCooGroup);
        QCOMPARE(coo_group(100'000, kH200Teams, 0), kCooSmallGroup);  // MovieLens: 3 a team
        QCOMPARE(coo_group(1, kH200Teams, 0), kCooSmallGroup);
        QCOMPARE(coo_group(0, kH200Teams, 0), kCooSmallGroup);
    }

    // The smallest power of two whose groups fit the resident teams: at exactly 32 a team, 32;
    // one nonzero more, 64.
    void smallestGroupThatFits() {
        QCOMPARE(coo_group(32 * kH200Teams, kH200Teams, 0), std::uint64_t{32});
        QCOMPARE(coo_group(32 * kH200Teams + 1, kH200Teams, 0), std::uint64_t{64});
        QCOMPARE(coo_group(600'000, kH200Teams, 0), std::uint64_t{32});    // 18 a team
        QCOMPARE(coo_group(2'000'000, kH200Teams, 0), std::uint64_t{64});  // 59 a team
        QCOMPARE(coo_group(5'000'000, kH200Teams, 0), kCooGroup);          // 148 a team
        // a device half the size holds half the teams: groups twice as large
        QCOMPARE(coo_group(600'000, kH200Teams / 2, 0), std::uint64_t{64});
    }

    // TENSORSCOPE_COO_GROUP's value wins, any size up to 128.
    void forcedGroups() {
        QCOMPARE(coo_group(20'000'000, kH200Teams, 3), std::uint64_t{3});
        QCOMPARE(coo_group(100'000, kH200Teams, 1), std::uint64_t{1});
        QCOMPARE(coo_group(100'000, kH200Teams, 1000), kCooGroup);
    }
};

QTEST_APPLESS_MAIN(TestCooGroup)
#include "test_coo_group.moc"
