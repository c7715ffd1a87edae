// The CUDA MTTKRP against the CPU oracle (fp32 on the device: relative error <= 1e-4).
// Skips, saying why, where there is no GPU.
#include <algorithm>
#include <initializer_list>
#include <map>
#include <optional>
#include <utility>
#include <vector>

#include "cuda/hot_rows_rule.hpp"
#include "kernels/mttkrp_cuda.hpp"  // white-box: the upload's device bytes
#include "test_support.hpp"
#include "tscope/bench/kernel_bench.hpp"
#include "tscope/bench/roofline.hpp"
#include "tscope/cuda/device.hpp"
#include "tscope/formats/format.hpp"
#include "tscope/formats/format_visit.hpp"
#include "tscope/io/tensor_io.hpp"
#include "tscope/kernels/mttkrp.hpp"
#include "tscope/tensor/coo_ops.hpp"

using namespace tscope;

namespace {

using tstest::ScopedEnv;

// B-CSF built with fibers split at bcsf_threshold (4 by default: every split case on small
// tensors; 128, B-CSF's own default, leaves the GPU's upload to cut them again).
void check_against_oracle(const CooTensor& t, std::uint64_t rank, std::uint64_t bcsf_threshold = 4) {
    std::vector<DenseMatrix> factors;
    for (int m = 0; m < t.order(); ++m) factors.push_back(random_matrix(t.dim(m), rank, 40 + std::uint64_t(m)));
    for (int mode = 0; mode < t.order(); ++mode) {
        DenseMatrix ref(t.dim(mode), rank);
        mttkrp_reference(t, mode, factors, ref);
        for (FormatKind kind : kernel_formats(KernelKind::MTTKRP, Backend::Cuda)) {  // the registry's
            if (kind == FormatKind::HLS && t.order() != 3) continue;  // HLS is third-order only
            // fp16 tensor cores for HLS's dense tiles (hls Sec. VI), fp32 elsewhere
            const double tolerance = kind == FormatKind::HLS ? 1e-2 : 1e-4;
            for (int built_for = 0; built_for < t.order(); ++built_for) {  // the mode at every tree level
                if ((kind == FormatKind::COO || !format_is_per_mode(kind)) && built_for > 0) break;
                FormatOptions o;
                o.mode = built_for;
                o.bcsf_fiber_threshold = bcsf_threshold;
                const auto f = build_format(kind, t, o);
                DenseMatrix out(t.dim(mode), rank);
                out.fill(-7.0);
                DeviceTiming timing;
                mttkrp(Backend::Cuda, *f, mode, factors, out, no_control(), &timing);
                const double err = max_relative_error(out, ref);
                QVERIFY2(err <= tolerance, qPrintable(QString("%1 built for mode %2, mode %3, rank %4: %5")
                                                     .arg(format_name(kind)).arg(built_for + 1).arg(mode + 1).arg(rank).arg(err)));
                QVERIFY(timing.kernel_s > 0);
            }
        }
    }
}

// check_against_oracle at rank 32 on power-law tensors of orders 3 and 4 (30 indices a mode,
// 5,000 nonzeros; seeds seed + order): the levels the fiber kernels compile in.
void check_orders_3_and_4(std::uint64_t seed) {
    for (int order : {3, 4})
        check_against_oracle(tstest::random_tensor(std::vector<std::uint64_t>(static_cast<std::size_t>(order), 30), 5000,
                                                   seed + std::uint64_t(order), Distribution::PowerLaw),
                             32);
}

// Orders 3 and 4 on trees cut to the device and not (TENSORSCOPE_FIBER_FILL=0), and Last.fm's
// where ../shared/data has it, under whatever switches the caller set.
void check_small_trees_and_lastfm(std::uint64_t seed) {
    check_orders_3_and_4(seed);
    {
        const ScopedEnv fill("TENSORSCOPE_FIBER_FILL", "0");
        check_orders_3_and_4(seed + 10);
    }
    const std::string lastfm = tstest::shared_tensor("lastfm-tags.tns");
    if (!lastfm.empty()) check_against_oracle(load_tensor(lastfm).tensor, 32);
}

// The CUDA MTTKRP on f (built from t) against the oracle on every mode of t at each rank, the
// output filled with a stale value first: within 1e-5, the kernels' time reported. Factors are
// seeded from `seed`.
void check_every_mode_within_1e5(const CooTensor& t, const SparseFormat& f, std::initializer_list<std::uint64_t> ranks,
                                 std::uint64_t seed) {
    for (std::uint64_t rank : ranks) {
        std::vector<DenseMatrix> factors;
        for (int m = 0; m < t.order(); ++m) factors.push_back(random_matrix(t.dim(m), rank, seed + std::uint64_t(m)));
        for (int mode = 0; mode < t.order(); ++mode) {
            DenseMatrix ref(t.dim(mode), rank), out(t.dim(mode), rank);
            mttkrp_reference(t, mode, factors, ref);
            out.fill(-3.0);
            DeviceTiming timing;
            mttkrp(Backend::Cuda, f, mode, factors, out, no_control(), &timing);
            const double err = max_relative_error(out, ref);
            QVERIFY2(err <= 1e-5, qPrintable(QString("mode %1 rank %2: %3").arg(mode + 1).arg(rank).arg(err)));
            QVERIFY(timing.kernel_s > 0);
        }
    }
}

// BLCO of a 5-mode tensor whose keys need blocks, at ranks 16 (team kernel) and 7 (warp
// kernel), against the oracle within 1e-4 on every mode.
void check_blco_blocks() {
    const CooTensor t = tstest::random_tensor({30000, 20000, 25000, 22000, 31000}, 20000, 8, Distribution::PowerLaw);
    const auto f = build_format(FormatKind::BLCO, t, {});
    QVERIFY(f->parameters().back().second != "1");  // several blocks
    for (std::uint64_t rank : {16, 7}) {
        std::vector<DenseMatrix> factors;
        for (int m = 0; m < t.order(); ++m) factors.push_back(random_matrix(t.dim(m), rank, 90 + std::uint64_t(m)));
        for (int mode = 0; mode < t.order(); ++mode) {
            DenseMatrix ref(t.dim(mode), rank), out(t.dim(mode), rank);
            mttkrp_reference(t, mode, factors, ref);
            mttkrp(Backend::Cuda, *f, mode, factors, out);
            QVERIFY2(max_relative_error(out, ref) <= 1e-4,
                     qPrintable(QString("mode %1 rank %2").arg(mode + 1).arg(rank)));
        }
    }
}

// The rows of a test run once with each of COO's team kernels (TENSORSCOPE_COO_KERNEL).
void add_coo_kernel_rows() {
    QTest::addColumn<QByteArray>("kernel");
    for (const char* kernel : {"team", "tile"}) QTest::addRow("%s", kernel) << QByteArray(kernel);
}

// A bench of MTTKRP at rank 32, checked against the oracle.
BenchRequest checked_bench(std::vector<FormatKind> formats, std::vector<Backend> backends, int repeat) {
    BenchRequest req;
    req.kernel = KernelKind::MTTKRP;
    req.formats = std::move(formats);
    req.backends = std::move(backends);
    req.rank = 32;
    req.repeat = repeat;
    req.check = true;
    return req;
}

}  // namespace

class TestMttkrpCuda : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { TS_REQUIRE_GPU(); }

    // BLCO with blocks: five modes of 15 bits need 75, so 11 high bits go to the blocks; the
    // kernels find each nonzero's block (the team kernel once per group, the warp kernel per
    // nonzero) and agree with the oracle.
    void blcoBlocksOnTheGpu() { check_blco_blocks(); }

    // Rows of about 250,000 nonzeros (mode 1 has 4 indices): the resident BLCO kernel spreads
    // each row's updates over output copies summed in fp64, so its fp32 chains stay short. A
    // single fp32 output chains 250,000 atomics a row (errors above 1e-5); the oracle agrees
    // within 1e-5 here, on every mode, at ranks 32 and 16. Rank 10 takes the warp kernel, whose
    // one output has no copies: its hot rows (hot_out.cuh) now add into copies of their own.
    void blcoLongRowsStayAccurate() {
        const CooTensor t = tstest::random_tensor({4, 3000, 2500}, 1000000, 12, Distribution::Uniform);
        const auto f = build_format(FormatKind::BLCO, t, {});
        check_every_mode_within_1e5(t, *f, {32, 16, 10}, 70);
        QVERIFY(MttkrpPlan(Backend::Cuda, *f, 10).hot_rows(0, 10).rows > 0);
    }

    // MM-CSF's partitions add a nonzero at a time where the mode is their leaves and a fiber at a
    // time where it is a level between (mm-csf Alg. 7-8), so a heavy row chained its fp32 atomics
    // (delicious-4d's shape: 3.0e-3 and 4.0e-3 from cpu-ref, session 86). Rows past a chain limit
    // now add into copies summed after (engine/cuda/hot_rows.cuh). With the limit at 16 adds
    // nearly every row below a root takes copies: every format (MM-CSF's partitions with them)
    // agrees with the oracle on orders 3 and 4, trees cut and not, and Last.fm; at the default
    // limit a dense-ish tensor of 2M nonzeros (rows of 10,000 adds and more) within 1e-5.
    void mmcsfHeavyRowsStayAccurate() {
        {
            const ScopedEnv low("TENSORSCOPE_HOT_CHAIN", "16");
            check_small_trees_and_lastfm(600);
        }
        const CooTensor t = tstest::random_tensor({64, 200, 200}, 2000000, 14, Distribution::Uniform);
        check_every_mode_within_1e5(t, *build_format(FormatKind::MMCSF, t, {}), {32, 16}, 80);
    }

    // CSF's and B-CSF's trees rooted at the mode add once a group of fibers into its row, and a
    // mode of two rows (a vast-2015-mc1-5d-shaped tensor's third, one H100, session 92) gave each
    // row some 10^5 fp32 adds in one place: 3.3e-4 from cpu-ref. A root's rows past the chain
    // limit now add into copies too (engine/cuda/hot_rows.cuh). Here two root rows of 150,000 to
    // 200,000 fibers each (19,000 to 25,000 adds by the rule's count: three or four copies each at
    // the default limit): the plan names both rows on mode 1 alone, and every mode agrees within
    // 1e-5, at rank 10 too (the warp kernel, which takes the copies as the team kernels do). The
    // shared-memory tiles, which add into the output itself, do not run such a root even forced
    // (TENSORSCOPE_FIBER_TILES=1): the fiber kernels run it over the copies, within 1e-5.
    void treeRootHotRowsStayAccurate() {
        const CooTensor t = tstest::random_tensor({2, 200000, 150000}, 2000000, 31, Distribution::Uniform);
        for (const char* tiles : {"", "1"}) {
            const ScopedEnv forced("TENSORSCOPE_FIBER_TILES", tiles);
            for (FormatKind kind : {FormatKind::CSF, FormatKind::BCSF}) {
                const auto f = build_format(kind, t, {});  // rooted at mode 1
                const MttkrpPlan plan(Backend::Cuda, *f, 32);
                for (std::uint64_t rank : {32, 10}) {
                    QCOMPARE(plan.hot_rows(0, rank).rows, std::uint64_t{2});
                    QCOMPARE(plan.hot_rows(1, rank).rows, std::uint64_t{0});
                }
                QVERIFY(!plan.shared_tiles(0, 32));
                check_every_mode_within_1e5(t, *f, {32, 16, 10}, 110);
            }
        }
    }

    // COO and BLCO where one output copy is all that fits (TENSORSCOPE_BLCO_COPIES=1 here; on
    // delicious-4d's shape every mode's output is past 24 MB, and session 86's standing had COO
    // 2.5e-5 to 5.2e-5 and BLCO 5.4e-4 from cpu-ref): rows past the chain limit add into copies
    // of their own (engine/cuda/hot_out.cuh). BLCO's mode 1 here has rows of 250,000 nonzeros
    // (one fp32 output: above 1e-5, blcoLongRowsStayAccurate) and stays within 1e-5 at the
    // default limit, its upload holding the hot rows' bitmaps (more device bytes than with no
    // row hot; COO's too at a limit of 16), its plan and bench rows naming them on mode 1 alone. At a limit of 16 nearly every row is hot, and every
    // format agrees with the oracle on orders 3 and 4 and Last.fm, BLCO with blocks too, and
    // COO's team kernel (its default where hot rows apply) and tile kernel within 1e-5.
    void cooAndBlcoHotRowsStayAccurate() {
        const ScopedEnv one("TENSORSCOPE_BLCO_COPIES", "1");
        const CooTensor t = tstest::random_tensor({4, 3000, 2500}, 1000000, 12, Distribution::Uniform);
        check_every_mode_within_1e5(t, *build_format(FormatKind::BLCO, t, {}), {32, 16}, 70);
        check_every_mode_within_1e5(t, *build_format(FormatKind::COO, t, {}), {32}, 71);
        const CooTensor p = tstest::random_tensor({50, 3000, 1024}, 200003, 21, Distribution::PowerLaw);
        const auto coo = build_format(FormatKind::COO, p, {});
        const auto blco = build_format(FormatKind::BLCO, t, {});
        std::uint64_t coo_bytes = 0, blco_bytes = 0;  // the uploads without hot rows
        {
            const ScopedEnv none("TENSORSCOPE_HOT_CHAIN", "1000000000");
            coo_bytes = mttkrp_cuda_upload(*coo)->device_bytes();
            blco_bytes = mttkrp_cuda_upload(*blco)->device_bytes();
        }
        QVERIFY(mttkrp_cuda_upload(*blco)->device_bytes() > blco_bytes);  // rows of 250,000 hot by default
        // the plan and the bench say where they apply: BLCO's mode 1 (4 rows of ~250,000
        // nonzeros, ceil(nonzeros / 8,192) copies each) at the team kernels' rank and at rank 7
        // (the warp kernel's one output: its hot rows since session 93), not where the
        // whole-output copies fit
        {
            const MttkrpPlan plan(Backend::Cuda, *blco, 32);
            const HotRowUse m1 = plan.hot_rows(0, 32);
            QCOMPARE(m1.rows, std::uint64_t{4});
            QVERIFY(m1.copies >= 4 * (1000000 / 4 / gpu::kHotChain) &&
                    m1.copies <= 4 * (1000000 / 4 / gpu::kHotChain + 2));
            QCOMPARE(plan.hot_rows(1, 32).rows, std::uint64_t{0});
            QCOMPARE(plan.hot_rows(0, 7).rows, std::uint64_t{4});
            BenchRequest req;
            req.kernel = KernelKind::MTTKRP, req.formats = {FormatKind::BLCO}, req.backends = {Backend::Cuda};
            req.modes = {0, 1}, req.rank = 32, req.repeat = 1;
            const auto rows = run_bench(t, req);
            QCOMPARE(rows.size(), std::size_t{2});
            QCOMPARE(rows[0].hot_rows, std::uint64_t{4});
            QCOMPARE(rows[0].hot_copies, m1.copies);
            QCOMPARE(rows[1].hot_rows, std::uint64_t{0});
        }
        {
            const ScopedEnv fit("TENSORSCOPE_BLCO_COPIES", "64");
            QCOMPARE(MttkrpPlan(Backend::Cuda, *blco, 32).hot_rows(0, 32).rows, std::uint64_t{0});
        }
        const ScopedEnv low("TENSORSCOPE_HOT_CHAIN", "16");
        QVERIFY(mttkrp_cuda_upload(*coo)->device_bytes() > coo_bytes);  // the bitmaps and rows, each mode
        check_small_trees_and_lastfm(700);
        check_blco_blocks();  // the generic team kernel's flushes (several blocks)
        for (const char* kernel : {"team", "tile"}) {
            const ScopedEnv env("TENSORSCOPE_COO_KERNEL", kernel);
            check_every_mode_within_1e5(p, *coo, {32, 12}, 72);
        }
    }

    // The device's renumbering of a tree level's hot rows (its warp-aggregated counts, the
    // renumbering kernel) leaves exactly the ids the host rule gives, at the leaves and at a
    // level between, on a skewed array in tree order (runs) and shuffled, at three limits.
    void hotRowIdsMatchTheHostRule() {
        std::vector<std::uint32_t> sorted;
        for (std::uint32_t r = 0; r < 2000; ++r)  // row r: about 400,000 / (r + 1) positions
            sorted.insert(sorted.end(), 400000 / (r + 1) + 1, r);
        std::vector<std::uint32_t> shuffled = sorted;
        std::uint64_t x = 12345;
        for (std::size_t i = shuffled.size() - 1; i > 0; --i) {
            x = x * 6364136223846793005ULL + 1442695040888963407ULL;
            std::swap(shuffled[i], shuffled[(x >> 33) % (i + 1)]);
        }
        for (const auto* a : {&sorted, &shuffled})
            for (bool runs : {false, true})
                for (std::uint64_t limit : {std::uint64_t{64}, std::uint64_t{4096}, std::uint64_t{gpu::kHotChain}}) {
                    const std::vector<std::uint32_t> device = gpu::hot_row_ids(a->data(), a->size(), runs, limit);
                    QVERIFY2(device == gpu::hot_ids(*a, runs, limit),
                             qPrintable(QString("runs %1, limit %2, %3")
                                            .arg(runs)
                                            .arg(limit)
                                            .arg(a == &sorted ? "sorted" : "shuffled")));
                }
        QVERIFY(gpu::hot_ids(shuffled, false, 4096) != shuffled);  // the rows past 4,096 were renumbered
    }

    // The resident COO adds in fp32 into output copies, a copy per ~1,024 adds of its heaviest
    // row, summed in fp64: here 200,003 nonzeros and a last mode of 1,024 power-law rows whose
    // updates the nonzeros' order scatters (its heaviest row takes some 26,000 adds, so about 26
    // copies; the first mode's rows one run each, so one copy). The team kernel and the one that
    // sorts tiles of 1,024 nonzeros by row first (forced on every mode here: the last tile is
    // partial, and the last mode's 2^10 rows put the sort's key bits at their edge) agree with
    // the oracle within 1e-5 on every mode, at ranks 32 and 12; the warp kernel (rank 7) adds in fp64.
    void cooOutputCopies_data() { add_coo_kernel_rows(); }
    void cooOutputCopies() {
        QFETCH(QByteArray, kernel);
        const ScopedEnv env("TENSORSCOPE_COO_KERNEL", kernel);
        const CooTensor t = tstest::random_tensor({50, 3000, 1024}, 200003, 21, Distribution::PowerLaw);
        check_every_mode_within_1e5(t, *build_format(FormatKind::COO, t, {}), {32, 12, 7}, 50);
    }

    // The fiber kernels run order 5's four tree levels compiled in, or at run time with
    // TENSORSCOPE_FIBER_LEVELS=3 (gpu_mttkrp.cu's with_levels): each way every tree format,
    // built for every mode, agrees with the oracle on every mode of a 5-order power-law tensor at
    // ranks 32 and 16 (B-CSF's fibers cut at 4, so that its groups hold split fibers), and on
    // trees cut to the device and not (TENSORSCOPE_FIBER_FILL=0).
    void fiveOrderTreeLevels_data() {
        QTest::addColumn<QByteArray>("levels");
        QTest::addRow("compiled in") << QByteArray("");
        QTest::addRow("at run time") << QByteArray("3");
    }
    void fiveOrderTreeLevels() {
        QFETCH(QByteArray, levels);
        const ScopedEnv compiled("TENSORSCOPE_FIBER_LEVELS", levels);
        const CooTensor t = tstest::random_tensor({20, 30, 40, 25, 12}, 8000, 27, Distribution::PowerLaw);
        for (std::uint64_t rank : {32, 16}) check_against_oracle(t, rank);
        const ScopedEnv fill("TENSORSCOPE_FIBER_FILL", "0");
        check_against_oracle(t, 32);
    }

    // COO's kernels compile the order in where it is 3, 4 or 5 (mttkrp_coo_teams.cuh's coo_term);
    // TENSORSCOPE_COO_ORDER=0 keeps it at run time, =4 compiles only orders 3 and 4 in. Each way,
    // COO's team and tile kernels at orders 3, 4 and 5 agree with the oracle within 1e-5 on every
    // mode, at ranks 32 and 12 with the output's copies and at rank 32 with one copy and the
    // chain limit at 16 (nearly every row hot, so the kernels that look rows up run).
    void cooOrderCompiledOrNot_data() {
        QTest::addColumn<QByteArray>("kernel");
        QTest::addColumn<QByteArray>("order");
        for (const char* k : {"team", "tile"})
            for (const char* o : {"", "0", "4"})
                QTest::addRow("%s, order %s", k,
                              *o == '\0'  ? "compiled"
                              : *o == '4' ? "compiled up to 4"
                                          : "at run time")
                    << QByteArray(k) << QByteArray(o);
    }
    void cooOrderCompiledOrNot() {
        QFETCH(QByteArray, kernel);
        QFETCH(QByteArray, order);
        const ScopedEnv env("TENSORSCOPE_COO_KERNEL", kernel);
        const ScopedEnv compiled("TENSORSCOPE_COO_ORDER", order);
        const std::vector<std::vector<std::uint64_t>> shapes{
            {50, 3000, 1024}, {40, 300, 200, 30}, {20, 30, 40, 25, 12}};
        for (const auto& dims : shapes) {
            const CooTensor t = tstest::random_tensor(dims, 60000, 23, Distribution::PowerLaw);
            check_every_mode_within_1e5(t, *build_format(FormatKind::COO, t, {}), {32, 12}, 90);
            const ScopedEnv one("TENSORSCOPE_BLCO_COPIES", "1");
            const ScopedEnv low("TENSORSCOPE_HOT_CHAIN", "16");
            check_every_mode_within_1e5(t, *build_format(FormatKind::COO, t, {}), {32}, 91);
        }
    }

    // The teams' group of nonzeros forced to 1, 3 (not a power of two), 8 and 128
    // (TENSORSCOPE_COO_GROUP; by default this tensor takes 8 on an H200): COO counts its rows'
    // chains of adds at that group to choose its output copies (at group 1 its heaviest rows'
    // 44K nonzeros are each a flush), and COO and BLCO agree with the oracle within 1e-5 on every
    // mode at each.
    void cooAndBlcoAtForcedGroups_data() {
        QTest::addColumn<QByteArray>("group");
        for (const char* g : {"1", "3", "8", "128"}) QTest::addRow("group %s", g) << QByteArray(g);
    }
    void cooAndBlcoAtForcedGroups() {
        QFETCH(QByteArray, group);
        const ScopedEnv env("TENSORSCOPE_COO_GROUP", group);
        const CooTensor t = tstest::random_tensor({50, 3000, 1024}, 200003, 21, Distribution::PowerLaw);
        check_every_mode_within_1e5(t, *build_format(FormatKind::COO, t, {}), {32}, 51);
        check_every_mode_within_1e5(t, *build_format(FormatKind::BLCO, t, {}), {32}, 52);
    }

    // BLCO sizes its team groups by the rank's own lanes (coo_group.hpp's blco_group): on this
    // tensor of 200K nonzeros an H200 gives it groups of 8 at ranks 16 and 64 and 16 at rank 128
    // (teams of 4, 16 and 32 lanes); COO's groups of 8 at every rank (rank 32's teams counted).
    void cooAndBlcoAtEachRanksGroup() {
        const CooTensor t = tstest::random_tensor({50, 3000, 1024}, 200003, 21, Distribution::PowerLaw);
        check_every_mode_within_1e5(t, *build_format(FormatKind::COO, t, {}), {16, 64, 128}, 53);
        check_every_mode_within_1e5(t, *build_format(FormatKind::BLCO, t, {}), {16, 64, 128}, 54);
    }

    // One fp32 output copy where two do not fit the copies' budget (a second mode of 250,000 rows
    // at rank 32 is 32 MB): mttkrp() adds into that copy and widens it on the host, rather than
    // summing it into fp64 on the device. The first and third modes take one copy (short chains)
    // or several; every mode agrees with the oracle within 1e-5, with the team and tile kernels.
    void cooOneCopyWidenedOnTheHost_data() { add_coo_kernel_rows(); }
    void cooOneCopyWidenedOnTheHost() {
        QFETCH(QByteArray, kernel);
        const ScopedEnv env("TENSORSCOPE_COO_KERNEL", kernel);
        const CooTensor t = tstest::random_tensor({40, 250000, 30}, 120000, 22, Distribution::Uniform);
        check_every_mode_within_1e5(t, *build_format(FormatKind::COO, t, {}), {32, 12}, 60);
    }

    void randomTensors_data() {
        QTest::addColumn<int>("order");
        QTest::addColumn<int>("rank");
        // ranks 1 and 7 take the warp kernel (rows not whole float4s); 16, 40, 64 and 128 the
        // team kernel with teams of 4, 16 (6 lanes idle), 16 and 32 lanes
        for (int order : {3, 4, 5})
            for (int rank : {1, 7, 16, 40, 64, 128}) QTest::addRow("order %d rank %d", order, rank) << order << rank;
    }
    void randomTensors() {
        QFETCH(int, order);
        QFETCH(int, rank);
        std::vector<std::uint64_t> dims(static_cast<std::size_t>(order), 15);
        dims[0] = 60;
        check_against_oracle(tstest::random_tensor(dims, 3000, std::uint64_t(order + rank), Distribution::PowerLaw),
                             std::uint64_t(rank));
    }

    // A CSF tree with long fibers, every way it can run: cut to the device (the default for a
    // tree this small), its fibers split at B-CSF's length (TENSORSCOPE_FIBER_FILL=0: the default
    // for a large tree), and cut into groups of nonzeros that the flat loop walks (and
    // TENSORSCOPE_CSF_LONG=flat): one fiber of 6,000 nonzeros spans many groups and starts and
    // ends inside one, next to fibers of one nonzero that make a group switch fibers at almost
    // every step, in every mode and at every tree level.
    void longFiberAmongShortOnes() {
        CooTensor t({50, 40, 6000}, ValueType::F64);
        t.resize(6000 + 1500);
        std::uint64_t n = 0;
        for (std::uint64_t k = 0; k < 6000; ++k) {
            const std::uint64_t c[3] = {7, 3, k};
            t.set(n++, c, 1.0 + double(k % 13) / 7.0);
        }
        for (std::uint64_t i = 0; i < 50; ++i)
            for (std::uint64_t j = 0; j < 30; ++j) {
                const std::uint64_t c[3] = {i, j + 10, (i * 131 + j * 17) % 6000};
                t.set(n++, c, 0.5 + double((i + j) % 5));
            }
        sum_duplicates(t);
        {
            const ScopedEnv env("TENSORSCOPE_FIBER_FILL", "0");
            check_against_oracle(t, 32);
            const ScopedEnv csf_long("TENSORSCOPE_CSF_LONG", "flat");
            check_against_oracle(t, 32);
        }
        check_against_oracle(t, 32);
    }

    // The CSF family's long fibers split on upload at other lengths than the default 16
    // (TENSORSCOPE_FIBER_SPLIT): down to one nonzero a fiber, as a large tree (FILL=0) and cut
    // to the device; B-CSF's trees split at its default 128 and again on upload; and the real
    // tensors, whose trees are cut to the device at most that length a piece.
    void fiberSplitLengthsKeepTheResult() {
        const CooTensor t = tstest::random_tensor({20, 25, 3000}, 9000, 23, Distribution::PowerLaw);
        for (const char* at : {"1", "16", "32"}) {
            const ScopedEnv split("TENSORSCOPE_FIBER_SPLIT", at);
            check_against_oracle(t, 32);
            {
                const ScopedEnv fill("TENSORSCOPE_FIBER_FILL", "0");
                check_against_oracle(t, 32);
            }
        }
        std::map<std::pair<std::uint64_t, std::uint64_t>, std::uint64_t> fiber;  // mode-3 fibers' lengths
        std::uint64_t longest = 0;
        for (std::uint64_t n = 0; n < t.nnz(); ++n)
            longest = std::max(longest, ++fiber[{t.index(0, n), t.index(1, n)}]);
        QVERIFY2(longest > 128, "the tensor should hold fibers longer than B-CSF's threshold");
        const std::uint64_t bcsf_default = FormatOptions{}.bcsf_fiber_threshold;  // 128
        check_against_oracle(t, 32, bcsf_default);
        {
            const ScopedEnv fill("TENSORSCOPE_FIBER_FILL", "0");
            check_against_oracle(t, 32, bcsf_default);
        }
        const ScopedEnv split("TENSORSCOPE_FIBER_SPLIT", "32");
        for (const char* name : {"movielens-100k.tns", "lastfm-tags.tns", "jf17k-4d.tns"}) {
            const std::string path = tstest::shared_tensor(name);
            if (!path.empty()) check_against_oracle(load_tensor(path).tensor, 32);
        }
    }

    // The bench's second ceiling on the GPU: a row of R floats per nonzero at the gather rate
    // measured in this process (bench/roofline.hpp); none for HLS.
    void benchRowsCarryTheGatherCeiling() {
        const CooTensor t = tstest::random_tensor({300, 200, 400}, 20000, 17);
        BenchRequest req;
        req.kernel = KernelKind::MTTKRP;
        req.formats = {FormatKind::BCSF, FormatKind::HLS, FormatKind::MMCSF};
        req.backends = {Backend::Cuda};
        req.modes = {0};
        req.rank = 32;
        req.repeat = 2;
        const auto rows = run_bench(t, req);
        QCOMPARE(rows.size(), std::size_t{3});
        const BenchResult& b = rows[0];
        QVERIFY2(b.ran, b.error.c_str());
        QCOMPARE(b.gather_bytes, t.nnz() * 32 * 4);
        QVERIFY(b.gather_gbps > 0);
        QVERIFY(std::fabs(b.gather_bound_s - double(b.gather_bytes) / (b.gather_gbps * 1e9)) <= 1e-12 * b.gather_bound_s);
        QVERIFY(std::fabs(b.share_of_gather_bound - b.gather_bound_s / b.median_s) <= 1e-12 * b.share_of_gather_bound);
        QCOMPARE(b.add_bytes, std::uint64_t{0});
        QVERIFY(b.path.empty());  // 20,000 nonzeros: under the tiles' rule
        QCOMPARE(rows[1].gather_bytes, std::uint64_t{0});
        QCOMPARE(rows[1].gather_bound_s, 0.0);
        // MM-CSF: its atomic adds at their own measured rate, the two times summed
        const BenchResult& m = rows[2];
        QVERIFY2(m.ran, m.error.c_str());
        const RowTraffic traffic = row_traffic(t, *build_format(FormatKind::MMCSF, t, FormatOptions{}), 0,
                                               KernelKind::MTTKRP, Backend::Cuda, 32);
        QCOMPARE(m.gather_bytes, traffic.gathered);
        QCOMPARE(m.add_bytes, traffic.added);
        QVERIFY(m.add_bytes > 0 && m.add_gbps > 0);
        const double bound = double(m.gather_bytes) / (m.gather_gbps * 1e9) + double(m.add_bytes) / (m.add_gbps * 1e9);
        QVERIFY(std::fabs(m.gather_bound_s - bound) <= 1e-12 * bound);
    }

    // bench uploads a CUDA row's format once and runs it from there (the warm-up and every
    // repeat), counting that upload among each run's transfers: every format's every mode still
    // matches the oracle, one mode's rows after another's on the same MM-CSF and COO copy and on
    // B-CSF's per-mode builds, and each row's transfers include the format's bytes.
    void benchRowsRunFromOneUpload() {
        const CooTensor t = tstest::random_tensor({300, 200, 400}, 20000, 23, Distribution::PowerLaw);
        const BenchRequest req =
            checked_bench({FormatKind::COO, FormatKind::BCSF, FormatKind::MMCSF, FormatKind::HLS}, {Backend::Cuda}, 3);
        const auto rows = run_bench(t, req);
        QCOMPARE(rows.size(), std::size_t{12});
        for (const BenchResult& r : rows) {
            QVERIFY2(r.ran, r.error.c_str());
            QVERIFY2(r.max_rel_error && *r.max_rel_error <= 1e-5,
                     (format_name(r.format) + std::string(" mode ") + std::to_string(r.mode)).c_str());
            QCOMPARE(r.seconds.size(), std::size_t{3});
            QVERIFY(r.transfer_s > 0);
        }
    }

    // A mode whose factor fits an SM's L1 while every other factor below the root is past L2
    // goes to the leaves of the cuda rows' CSF and B-CSF trees (kernels/gpu_level_order.hpp), and
    // the row's path names the order; the omp rows of the same modes keep SPLATT's trees, and every
    // row matches the oracle. The two long modes' factors (256 and 192 MB at rank 32) pass any
    // GPU's L2 so far; 1,000 rows take 128 KB.
    void benchRowsTakeTheGpuLevelOrder() {
        const CooTensor t = tstest::random_tensor({2'000'000, 1'000, 1'500'000}, 50000, 29);
        const BenchRequest req = checked_bench({FormatKind::BCSF, FormatKind::CSF}, {Backend::Omp, Backend::Cuda}, 2);
        const auto rows = run_bench(t, req);
        QCOMPARE(rows.size(), std::size_t{12});
        const std::map<int, std::string> moved = {{0, "levels 1,3,2"}, {2, "levels 3,1,2"}};
        for (const BenchResult& r : rows) {
            const std::string what =
                std::string(format_name(r.format)) + " mode " + std::to_string(r.mode) + " " + r.path;
            QVERIFY2(r.ran, r.error.c_str());
            QVERIFY2(r.max_rel_error && *r.max_rel_error <= 1e-5, what.c_str());
            const bool levels = r.path.find("levels") != std::string::npos;
            if (r.backend == Backend::Cuda && moved.count(r.mode))
                QVERIFY2(r.path.find(moved.at(r.mode)) != std::string::npos, what.c_str());
            else
                QVERIFY2(!levels, what.c_str());  // omp rows, and mode 2's root over 1,000 rows
        }
    }

    // Cuda's MM-CSF takes the GPU's partition orders (kernels/gpu_level_order.hpp): on a shape
    // whose 1,000-row mode is the root of the paper's trees for modes 1 and 3 while the other
    // factors are past L2, that mode goes just above those leaves and the rows say so; the omp
    // rows keep the paper's trees, as do cuda's on a shape whose factors fit L2 and cuda's with
    // TENSORSCOPE_MMCSF_LEVELS=paper. Every row matches the oracle.
    void mmcsfPartitionsInTheGpuLevelOrder() {
        const std::string gpu_levels = "partitions' levels 3,2,1; 3,1,2; 1,2,3";
        const CooTensor wide = tstest::random_tensor({2'000'000, 1'000, 1'500'000}, 50000, 31, Distribution::PowerLaw);
        const CooTensor small = tstest::random_tensor({300, 200, 100}, 40000, 31, Distribution::PowerLaw);
        for (const bool paper : {false, true})
            for (const CooTensor* t : {&wide, &small}) {
                std::optional<ScopedEnv> env;
                if (paper) env.emplace("TENSORSCOPE_MMCSF_LEVELS", "paper");
                const auto rows = run_bench(*t, checked_bench({FormatKind::MMCSF}, {Backend::Omp, Backend::Cuda}, 1));
                QCOMPARE(rows.size(), std::size_t{6});
                for (const BenchResult& r : rows) {
                    const std::string what =
                        std::string(backend_name(r.backend)) + " mode " + std::to_string(r.mode) + " " + r.path;
                    QVERIFY2(r.ran, r.error.c_str());
                    QVERIFY2(r.max_rel_error && *r.max_rel_error <= 1e-5, what.c_str());
                    const bool moved = r.backend == Backend::Cuda && t == &wide && !paper;
                    QVERIFY2((r.path.find(gpu_levels) != std::string::npos) == moved, what.c_str());
                    QVERIFY2(moved || r.path.find("partitions' levels") == std::string::npos, what.c_str());
                }
            }
    }

    // By default fiber-group trees too small for the device are cut finer (fibers split at 32 or
    // more nonzeros, a few to a team), and the other tests run that way; TENSORSCOPE_FIBER_FILL=0
    // leaves them in groups of 8 whole fibers (CSF's long fibers split at B-CSF's length): the
    // same results that way too, on random tensors of orders 3 and 4, at ranks the team kernel
    // takes and one it does not, and on MovieLens.
    void uncutTreesKeepTheResult() {
        const ScopedEnv env("TENSORSCOPE_FIBER_FILL", "0");
        for (int order : {3, 4})
            for (int rank : {7, 32}) {
                std::vector<std::uint64_t> dims(static_cast<std::size_t>(order), 24);
                dims[0] = 40;
                check_against_oracle(tstest::random_tensor(dims, 6000, std::uint64_t(50 + order + rank), Distribution::PowerLaw),
                                     std::uint64_t(rank));
            }
        const std::string path = tstest::shared_tensor("movielens-100k.tns");
        if (!path.empty()) check_against_oracle(load_tensor(path).tensor, 32);
    }

    // Wide teams (4 lanes of two float4s, rank 32) run large trees of short fibers by default
    // and the 8-lane team kernels run the others; TENSORSCOPE_FIBER_WIDE forces either (0: the
    // team kernels; 4, 5, 6: the wide ones at that bound), on one tree (CSF, B-CSF) and on MM-CSF's
    // several in one launch: the same results every way; so do the wide kernel's warps' sums of
    // one output row (TENSORSCOPE_FIBER_WARP_SUM: by default where a warp's teams all end on it,
    // =0 none), also on a tensor of 3 x 200 x 200 whose three slices of mode 1 span many warps'
    // groups each, and one of 2,000 x 200 x 200 whose slices of about 15 nonzeros leave two or
    // three rows to a warp: with the trees cut to the device
    // (groups of one fiber) and not (TENSORSCOPE_FIBER_FILL=0: groups of 8, rows changing inside a
    // group), and with the grid cut to 3 blocks (TENSORSCOPE_FIBER_WIDE_GRID) so that every team
    // walks several groups.
    void wideAndNarrowTeamsKeepTheResult() {
        for (const char* blocks : {"0", "4", "5", "6"}) {
            const ScopedEnv env("TENSORSCOPE_FIBER_WIDE", blocks);
            check_orders_3_and_4(110);
        }
        const CooTensor few_rows = tstest::random_tensor({3, 200, 200}, 30000, 125, Distribution::Uniform);
        const CooTensor short_rows = tstest::random_tensor({2000, 200, 200}, 30000, 126, Distribution::Uniform);
        struct Case {
            const char *fill, *grid, *sum;
        };
        const ScopedEnv wide("TENSORSCOPE_FIBER_WIDE", "4");
        for (const Case& c : {Case{"", "", ""}, Case{"", "", "0"}, Case{"0", "", ""}, Case{"0", "3", ""},
                              Case{"0", "3", "0"}, Case{"", "3", ""}}) {
            const ScopedEnv cut("TENSORSCOPE_FIBER_FILL", c.fill);
            const ScopedEnv blocks("TENSORSCOPE_FIBER_WIDE_GRID", c.grid);
            const ScopedEnv warps("TENSORSCOPE_FIBER_WARP_SUM", c.sum);
            check_orders_3_and_4(120);
            check_against_oracle(few_rows, 32);
            check_against_oracle(short_rows, 32);
        }
        const std::string path = tstest::shared_tensor("jf17k-4d.tns");
        if (path.empty()) return;
        for (const char* blocks : {"0", "4"}) {
            const ScopedEnv env("TENSORSCOPE_FIBER_WIDE", blocks);
            check_against_oracle(load_tensor(path).tensor, 32);
        }
    }

    // The 8-lane rank-32 loops' warp sums (by default on MM-CSF's trees, whose warps may straddle
    // two trees, one of them adding a nonzero at a time; TENSORSCOPE_FIBER_TEAM_WARP_SUM=1 also on
    // one tree's 32-bit loop, =0 on neither): the same results every way, on trees cut to the
    // device and not, on few and on many rows, and with the 64-bit loop's kernel left as it is
    // (TENSORSCOPE_FIBER_INDEX=64).
    void teamWarpSumsKeepTheResult() {
        for (const char* sums : {"1", "0"}) {
            const ScopedEnv on("TENSORSCOPE_FIBER_TEAM_WARP_SUM", sums);
            const ScopedEnv narrow("TENSORSCOPE_FIBER_WIDE", "0");
            check_small_trees_and_lastfm(130);
            const ScopedEnv fill("TENSORSCOPE_FIBER_FILL", "0");
            check_against_oracle(tstest::random_tensor({3, 200, 200}, 30000, 127, Distribution::Uniform), 32);
            check_against_oracle(tstest::random_tensor({2000, 200, 200}, 30000, 128, Distribution::Uniform), 32);
            check_against_oracle(tstest::random_tensor({4, 60, 60, 60}, 30000, 129, Distribution::PowerLaw), 32);
            const ScopedEnv wide64("TENSORSCOPE_FIBER_INDEX", "64");
            check_orders_3_and_4(140);
        }
    }

    // At rank 32 over whole fibers a single tree runs the loop with 32-bit numbers by default
    // (every other test here takes it); TENSORSCOPE_FIBER_INDEX=64 forces the 64-bit loop, which
    // trees of 2^31 nonzeros or fibers take: the same results both ways.
    void sixtyFourBitFiberLoopKeepsTheResult() {
        const ScopedEnv on("TENSORSCOPE_FIBER_INDEX", "64");
        check_small_trees_and_lastfm(300);
    }

    // The switches kept for comparisons, read at each plan or launch: nonzero groups of a fixed
    // size whatever the tree (TENSORSCOPE_CSF_GROUPS=fixed), the run-time level count where orders
    // 3 and 4 compile theirs in (TENSORSCOPE_FIBER_GENERIC=1), the clipped fiber loop over CSF's
    // nonzero groups (TENSORSCOPE_FIBER_LOOP=fibers), BLCO's generic team kernel on one-block
    // tensors (TENSORSCOPE_BLCO_GENERIC=1), every tree's fibers in the tree's order where large
    // ones are ordered by length on upload (TENSORSCOPE_FIBER_ORDER=tree; with FIBER_FILL=0 below
    // the test's trees count as large): the same results every way.
    void comparisonSwitchesKeepTheResult_data() {
        QTest::addColumn<QByteArray>("name");
        QTest::addColumn<QByteArray>("value");
        QTest::newRow("CSF groups fixed") << QByteArray("TENSORSCOPE_CSF_GROUPS") << QByteArray("fixed");
        QTest::newRow("levels at run time") << QByteArray("TENSORSCOPE_FIBER_GENERIC") << QByteArray("1");
        QTest::newRow("clipped fiber loop") << QByteArray("TENSORSCOPE_FIBER_LOOP") << QByteArray("fibers");
        QTest::newRow("BLCO generic") << QByteArray("TENSORSCOPE_BLCO_GENERIC") << QByteArray("1");
        QTest::newRow("fibers in tree order") << QByteArray("TENSORSCOPE_FIBER_ORDER") << QByteArray("tree");
    }
    void comparisonSwitchesKeepTheResult() {
        QFETCH(QByteArray, name);
        QFETCH(QByteArray, value);
        const ScopedEnv on(name.constData(), value);
        check_small_trees_and_lastfm(400);
    }

    // The real tensors' trees counted as large (TENSORSCOPE_FIBER_FILL=0), so that each parent's
    // fibers are ordered by length on the device once uploaded, and in their own order: the same
    // results both ways.
    void realTreesOrderedByLength() {
        const ScopedEnv fill("TENSORSCOPE_FIBER_FILL", "0");
        for (const QByteArray order : {"length", "tree"}) {
            const ScopedEnv on("TENSORSCOPE_FIBER_ORDER", order == "tree" ? "tree" : "");
            for (const char* name : {"movielens-100k.tns", "jf17k-4d.tns"}) {
                const std::string path = tstest::shared_tensor(name);
                if (path.empty()) QSKIP("../shared/data is absent: skipped");
                check_against_oracle(load_tensor(path).tensor, 32);
            }
        }
    }

    // TENSORSCOPE_FIBER_TILES=1 (mttkrp_shared_tiles.cu; by default shared_tiles_rule.hpp
    // decides): a single order-3 tree's root mode at rank 32 runs over tiles of its factors' rows
    // in shared memory. On a power-law tensor spanning several tiles each way (3,000 x 1,500 x
    // 5,000: tiles of 512 x 1,024 rows), the upload holds the tiles (12 bytes a nonzero more on
    // the device, where its blocks may have 192 KiB of shared memory: compute capability 9-10)
    // for any rank, 32 and 16 (forced), and none for rank 8, which they do not run; CSF and B-CSF
    // built for each mode agree with the oracle within 1e-5 at ranks 32 and 16, both over the
    // tiles (forced), with either load pattern; so do the small cases and the real tensors.
    void sharedTilesKeepTheResult() {
        const CooTensor t = tstest::random_tensor({3000, 1500, 5000}, 200000, 77, Distribution::PowerLaw);
        const int cc = query_gpu().cc_major;
        if (cc == 9 || cc == 10) {
            const auto f = build_format(FormatKind::BCSF, t, {});
            std::uint64_t without = 0;
            {
                const ScopedEnv off("TENSORSCOPE_FIBER_TILES", "0");
                without = mttkrp_cuda_upload(*f)->device_bytes();
            }
            const ScopedEnv on("TENSORSCOPE_FIBER_TILES", "1");
            QVERIFY(mttkrp_cuda_upload(*f)->device_bytes() >= without + 12 * t.nnz());
            QVERIFY(mttkrp_cuda_upload(*f, 16)->device_bytes() >= without + 12 * t.nnz());
            // an upload for a rank the tiles do not run keeps none
            QCOMPARE(mttkrp_cuda_upload(*f, 8)->device_bytes(), without);
            QVERIFY(!MttkrpPlan(Backend::Cuda, *f, 8).shared_tiles(0, 32));
            QVERIFY(MttkrpPlan(Backend::Cuda, *f, 32).shared_tiles(0, 32));
        }
        const ScopedEnv on("TENSORSCOPE_FIBER_TILES", "1");
        for (const char* loads : {"each", ""}) {  // each lane loading every nonzero, and lanes apart (the default)
            const ScopedEnv how("TENSORSCOPE_FIBER_TILE_LOADS", loads);
            for (FormatKind kind : {FormatKind::CSF, FormatKind::BCSF})
                for (int built_for = 0; built_for < 3; ++built_for) {
                    FormatOptions o;
                    o.mode = built_for;
                    check_every_mode_within_1e5(t, *build_format(kind, t, o), {32, 16}, 80 + std::uint64_t(built_for));
                }
            // MM-CSF: each partition rooted at the mode over its tiles, the others through the fiber kernels
            check_every_mode_within_1e5(t, *build_format(FormatKind::MMCSF, t, {}), {32, 16}, 90);
        }
        check_small_trees_and_lastfm(500);
        const std::string path = tstest::shared_tensor("movielens-100k.tns");
        if (!path.empty()) check_against_oracle(load_tensor(path).tensor, 32);
    }

    // A bench row over the tiles says so and counts their traffic: the blocks' copies of 192 KiB
    // of rows, and an output row added per run of one row in a team's nonzeros, at least one per
    // (tile, output row) the nonzeros hold and at most one more per team start (128 a block).
    void sharedTilesTellTheBenchTheirTraffic() {
        const CooTensor t = tstest::random_tensor({3000, 1500, 5000}, 200000, 78, Distribution::PowerLaw);
        const ScopedEnv on("TENSORSCOPE_FIBER_TILES", "1");
        FormatOptions o;
        o.mode = 0;
        const auto f = build_format(FormatKind::CSF, t, o);
        const MttkrpPlan plan(Backend::Cuda, *f);
        const int cc = query_gpu().cc_major;
        if (cc != 9 && cc != 10) {  // no 192 KiB of shared memory a block: the fiber kernels
            QVERIFY(!plan.shared_tiles(0, 32));
            QSKIP("the tiles need compute capability 9 or 10");
        }
        QVERIFY(plan.shared_tiles(0, 32));
        QVERIFY(plan.shared_tiles(0, 16));   // forced: rank 16 too, in half the shared memory
        QVERIFY(!plan.shared_tiles(0, 8));   // ranks 32 and 16 only
        QVERIFY(!plan.shared_tiles(1, 32));  // the root's mode only
        QCOMPARE(plan.shared_tiles(0, 16)->copied_bytes * 2, plan.shared_tiles(0, 32)->copied_bytes);
        std::vector<int> order;
        visit_format(*f, overloaded{[&]<class I, class V>(const CsfFormat<I, V>& x) { order = x.order; },
                                    [](const SparseFormat&) {}});
        QCOMPARE(order.size(), std::size_t{3});
        std::uint64_t k_largest = 0;
        for (std::uint64_t z = 0; z < t.nnz(); ++z) k_largest = std::max(k_largest, t.index(order[2], z));
        const std::uint64_t k_tiles = (k_largest + 1 + 1023) / 1024;
        std::vector<std::uint64_t> pairs;  // (tile, output row)
        for (std::uint64_t z = 0; z < t.nnz(); ++z)
            pairs.push_back((t.index(order[1], z) / 512 * k_tiles + t.index(order[2], z) / 1024) << 32 |
                            t.index(order[0], z));
        std::sort(pairs.begin(), pairs.end());
        const auto runs_least = static_cast<std::uint64_t>(std::unique(pairs.begin(), pairs.end()) - pairs.begin());

        BenchRequest req;
        req.kernel = KernelKind::MTTKRP;
        req.formats = {FormatKind::CSF};
        req.backends = {Backend::Cuda};
        req.modes = {0};
        req.rank = 32;
        req.repeat = 2;
        req.check = true;
        const auto rows = run_bench(t, req);
        QCOMPARE(rows.size(), std::size_t{1});
        const BenchResult& r = rows[0];
        QVERIFY2(r.ran, r.error.c_str());
        QCOMPARE(r.path, std::string("shared tiles"));
        QCOMPARE(format_label(r), std::string("CSF (shared tiles)"));
        QVERIFY(r.max_rel_error && *r.max_rel_error <= 1e-5);
        const std::uint64_t block = 1536 * 128;
        QVERIFY(r.gather_bytes > 0 && r.gather_bytes % block == 0);
        const std::uint64_t blocks = r.gather_bytes / block;
        QVERIFY(r.add_bytes % 128 == 0);
        const std::uint64_t runs = r.add_bytes / 128;
        QVERIFY2(runs >= runs_least && runs <= runs_least + 128 * blocks,
                 qPrintable(QString("%1 runs, %2 (tile, row) pairs, %3 blocks").arg(runs).arg(runs_least).arg(blocks)));
        QVERIFY(r.gather_gbps > 0 && r.add_gbps > 0 && r.gather_bound_s > 0);
        const auto traffic = plan.shared_tiles(0, 32);
        QCOMPARE(traffic->copied_bytes, r.gather_bytes);  // the same tree, built the same way
        QCOMPARE(traffic->added_rows, runs);
        QCOMPARE(traffic->nonzeros, t.nnz());

        // MM-CSF: the partitions rooted at the mode over their tiles (the mode: the largest
        // partition's root), the rest counted as before
        const auto mm = build_format(FormatKind::MMCSF, t, {});
        std::vector<std::pair<int, std::uint64_t>> roots;  // (root mode, nonzeros) per partition
        visit_format(*mm, overloaded{[&]<class I, class V>(const MmcsfFormat<I, V>& x) {
                                         for (const auto& tree : x.partitions)
                                             roots.emplace_back(tree.order.front(), tree.vals.size());
                                     },
                                     [](const SparseFormat&) {}});
        QVERIFY(!roots.empty());
        const int root =
            std::max_element(roots.begin(), roots.end(), [](auto a, auto b) { return a.second < b.second; })->first;
        std::uint64_t rooted = 0;
        for (const auto& [r_mode, n] : roots)
            if (r_mode == root) rooted += n;
        const MttkrpPlan mm_plan(Backend::Cuda, *mm);
        const auto mm_tiles = mm_plan.shared_tiles(root, 32);
        QVERIFY(mm_tiles);
        QCOMPARE(mm_tiles->nonzeros, rooted);
        req.formats = {FormatKind::MMCSF};
        req.modes = {root};
        const auto mm_rows = run_bench(t, req);
        QCOMPARE(mm_rows.size(), std::size_t{1});
        const BenchResult& m = mm_rows[0];
        QVERIFY2(m.ran && m.max_rel_error && *m.max_rel_error <= 1e-5, m.error.c_str());
        QVERIFY2(rooted == t.nnz() ? m.path == "shared tiles" : m.path.rfind("shared tiles on ", 0) == 0,
                 m.path.c_str());
        const RowTraffic want =
            tile_row_traffic(row_traffic(t, *mm, root, KernelKind::MTTKRP, Backend::Cuda, 32), *mm_tiles, t.nnz(), 32);
        QCOMPARE(m.gather_bytes, want.gathered);
        QCOMPARE(m.add_bytes, want.added);
    }

    void realTensors() {
        for (const char* name : {"movielens-100k.tns", "lastfm-tags.tns", "jf17k-4d.tns"}) {
            const std::string path = tstest::shared_tensor(name);
            if (path.empty()) QSKIP("../shared/data is absent: skipped");
            check_against_oracle(load_tensor(path).tensor, 32);
        }
    }
};

QTEST_APPLESS_MAIN(TestMttkrpCuda)
#include "test_mttkrp_cuda.moc"
