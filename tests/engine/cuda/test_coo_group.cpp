// How many nonzeros a COO or BLCO team walks on the GPU (engine/cuda/coo_group.hpp), on the
// host: no device needed. test_mttkrp_cuda runs the kernels at forced groups.
#include "cuda/coo_group.hpp"
#include "test_support.hpp"

#include <utility>

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

    // A team's lanes: R/4 float4 columns rounded up to a power of two, at most a warp.
    void teamLanesFollowTheRank() {
        const std::pair<std::uint64_t, std::uint64_t> cases[] = {{4, 1},   {8, 2},   {12, 4},   {16, 4},  {32, 8},
                                                                 {40, 16}, {64, 16}, {128, 32}, {256, 32}};
        for (const auto& [rank, lanes] : cases) QCOMPARE(coo_team_lanes(rank), lanes);
        QCOMPARE(coo_resident_teams(132, 8), kH200Teams);
        QCOMPARE(coo_resident_teams(132, 4), 2 * kH200Teams);
    }

    // BLCO's groups: COO's rule for twice the teams, and at most 16 where teams have 4 lanes or
    // fewer (session 78 call 5).
    void blcoGroups() {
        const auto at = [](std::uint64_t nnz, std::uint64_t rank, unsigned long forced = 0) {
            const std::uint64_t lanes = coo_team_lanes(rank);
            return blco_group(nnz, coo_resident_teams(132, lanes), lanes, forced);
        };
        QCOMPARE(at(2'000'000, 32), std::uint64_t{32});  // COO's rule: 64
        QCOMPARE(at(2'000'000, 64), std::uint64_t{64});  // COO's rule: 128
        QCOMPARE(at(2'000'000, 16), std::uint64_t{16});
        QCOMPARE(at(20'000'000, 16), kBlcoNarrowGroup);  // capped where COO's rule gives 128
        QCOMPARE(at(20'000'000, 8), kBlcoNarrowGroup);
        QCOMPARE(at(20'000'000, 32), kCooGroup);
        QCOMPARE(at(5'000'000, 32), kCooGroup);
        QCOMPARE(at(100'000, 32), kCooSmallGroup);
        QCOMPARE(at(20'000'000, 16, 64), std::uint64_t{64});  // forced wins over the cap
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
