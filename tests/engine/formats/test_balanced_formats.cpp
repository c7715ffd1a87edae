// B-CSF, MM-CSF and HiCOO: the paper's partitioning example, splitting and binning, blocks.
#include <set>

#ifdef _OPENMP
#include <omp.h>
#endif

#include "test_support.hpp"
#include "tscope/formats/balanced_formats.hpp"
#include "tscope/io/tensor_io.hpp"
#include "tscope/kernels/mttkrp.hpp"
#include "tscope/tensor/coo_ops.hpp"

using namespace tscope;

namespace {

CooTensor from_coords(std::vector<std::uint64_t> dims, const std::vector<std::vector<std::uint64_t>>& coords) {
    CooTensor t(std::move(dims));
    t.resize(coords.size());
    for (std::size_t n = 0; n < coords.size(); ++n) t.set(n, coords[n], double(n + 1));
    return t;
}

template <class F>
const F& as(const std::unique_ptr<SparseFormat>& f) {
    return dynamic_cast<const F&>(*f);
}

}  // namespace

class TestBalancedFormats : public QObject {
    Q_OBJECT

private Q_SLOTS:
    // The tree levels and B-CSF's fiber split are built in parallel chunks (above 65,536
    // nonzeros): any thread count gives the arrays a single thread gives.
    void treesAreTheSameOnAnyThreadCount() {
        const CooTensor t = tstest::random_tensor({3000, 500, 40, 30}, 150000, 21, Distribution::PowerLaw);
        auto build = [&](int threads) {
#ifdef _OPENMP
            omp_set_num_threads(threads);
#endif
            FormatOptions o;
            o.mode = 1;
            o.bcsf_fiber_threshold = 2;
            return build_format(FormatKind::BCSF, t, o);
        };
        const auto one = build(1), three = build(3);
#ifdef _OPENMP
        omp_set_num_threads(2);
#endif
        const auto& a = static_cast<const BcsfFormat<std::uint32_t, double>&>(*one);
        const auto& b = static_cast<const BcsfFormat<std::uint32_t, double>&>(*three);
        QVERIFY(a.fibers_before_split < a.csf.nodes(2));  // fibers (level 2 of 4) were split
        QCOMPARE(a.csf.fids.size(), b.csf.fids.size());
        for (std::size_t l = 0; l < a.csf.fids.size(); ++l) QVERIFY2(a.csf.fids[l] == b.csf.fids[l], qPrintable(QString("fids[%1]").arg(l)));
        for (std::size_t l = 0; l < a.csf.fptr.size(); ++l) QVERIFY2(a.csf.fptr[l] == b.csf.fptr[l], qPrintable(QString("fptr[%1]").arg(l)));
        QVERIFY(a.bin_slices == b.bin_slices);
        CooTensor back = three->to_coo(), want = t;
        sort_lexicographic(back);
        sort_lexicographic(want);
        QCOMPARE(back.nnz(), want.nnz());
        for (std::uint64_t z = 0; z < want.nnz(); z += 97)
            for (int m = 0; m < 4; ++m) QCOMPARE(back.index(m, z), want.index(m, z));
    }

    // mm-csf Fig. 4: the eight nonzeros (i,j,k), in the figure's order. The static strategy puts
    // X(0,1,2) with fiber <1,2> (pre-computed length 3 beats <0,1>'s 2) and ends with 4 fibers;
    // the dynamic one sees <1,2> shrink to 1 as its other nonzeros go to mode-3 fibers, keeps
    // X(0,1,2) in <0,1>, and ends with 3.
    void figure4DynamicBeatsStatic() {
        const CooTensor t = from_coords({6, 2, 6}, {{5, 1, 1}, {5, 1, 2}, {5, 1, 3}, {4, 1, 2},
                                                    {4, 1, 1}, {4, 1, 5}, {0, 1, 2}, {0, 1, 4}});
        const auto stat = mmcsf_partition(t, false);
        const auto dyn = mmcsf_partition(t, true);
        QCOMPARE(mmcsf_fiber_count(t, stat), std::uint64_t{4});
        QCOMPARE(mmcsf_fiber_count(t, dyn), std::uint64_t{3});
        QCOMPARE(int(stat[6]), 0);  // X(0,1,2): the mode-1 fiber <1,2> under the static strategy
        QCOMPARE(int(dyn[6]), 2);   // ... and the mode-3 fiber <0,1> under the dynamic one
        for (auto p : dyn) QCOMPARE(int(p), 2);
        const auto f = build_format(FormatKind::MMCSF, t, {});
        QVERIFY(same_entries(t, f->to_coo()));
        QCOMPARE(f->mode(), -1);
    }

    void mmcsfPartitionsCoverEveryNonzero() {
        const CooTensor t = tstest::random_tensor({60, 50, 40, 30}, 4000, 7, Distribution::PowerLaw);
        const auto f = build_format(FormatKind::MMCSF, t, {});
        const auto& m = as<MmcsfFormat<std::uint32_t, double>>(f);
        std::uint64_t total = 0;
        for (std::size_t p = 0; p < m.partitions.size(); ++p) {
            total += m.partitions[p].vals.size();
            QCOMPARE(m.partitions[p].order.back(), m.leaf_mode[p]);  // partition p keeps mode p at its leaves
        }
        QCOMPARE(total, t.nnz());
        // mixed modes compress at least as well as the static choice
        QVERIFY(mmcsf_fiber_count(t, mmcsf_partition(t, true)) <= mmcsf_fiber_count(t, mmcsf_partition(t, false)));
    }

    // FormatOptions::mmcsf_orders (cuda's builds pass the GPU's): each partition built in the
    // order given, the leaves, the partitions and every entry kept, MTTKRP on every mode still
    // the oracle's; the paper's order puts the shortest upper mode at the root.
    void mmcsfPartitionsInTheOrdersGiven() {
        const CooTensor t = tstest::random_tensor({60, 50, 40, 30}, 4000, 7, Distribution::PowerLaw);
        QCOMPARE(mmcsf_partition_order(t, 0), (std::vector<int>{3, 2, 1, 0}));
        QCOMPARE(mmcsf_partition_order(t, 3), (std::vector<int>{2, 1, 0, 3}));
        FormatOptions o;
        o.mmcsf_orders = {{2, 1, 3, 0}, {3, 2, 0, 1}, {0, 3, 1, 2}, {1, 0, 2, 3}};
        const auto f = build_format(FormatKind::MMCSF, t, o);
        const auto& m = as<MmcsfFormat<std::uint32_t, double>>(f);
        const auto paper_format = build_format(FormatKind::MMCSF, t, {});
        const auto& paper = as<MmcsfFormat<std::uint32_t, double>>(paper_format);
        QCOMPARE(m.leaf_mode, paper.leaf_mode);
        for (std::size_t p = 0; p < m.partitions.size(); ++p) {
            QCOMPARE(m.partitions[p].order, o.mmcsf_orders[static_cast<std::size_t>(m.leaf_mode[p])]);
            QCOMPARE(paper.partitions[p].order, mmcsf_partition_order(t, paper.leaf_mode[p]));
            QCOMPARE(m.partitions[p].vals.size(), paper.partitions[p].vals.size());
        }
        QVERIFY(tstest::as_map(f->to_coo()) == tstest::as_map(t));
        // the teaching view's parameters name each partition's levels, 1-based, root first
        std::string levels;
        for (const auto& [name, value] : f->parameters())
            if (name == "levels per partition (root first)") levels = value;
        for (std::size_t p = 0; p < m.partitions.size(); ++p) {
            std::string expected = "mode " + std::to_string(m.leaf_mode[p] + 1) + ": ";
            for (std::size_t k = 0; k < 4; ++k)
                expected += (k ? "," : "") + std::to_string(m.partitions[p].order[k] + 1);
            QVERIFY2(levels.find(expected) != std::string::npos, levels.c_str());
        }
        const auto factors = tstest::random_factors(t, {8, 8, 8, 8}, 5);
        for (int mode = 0; mode < t.order(); ++mode) {
            DenseMatrix ref(t.dim(mode), 8), out(t.dim(mode), 8);
            mttkrp_reference(t, mode, factors, ref);
            mttkrp(Backend::Omp, *f, mode, factors, out);
            QVERIFY2(max_relative_error(out, ref) <= 1e-12, qPrintable(QString::number(max_relative_error(out, ref))));
        }
    }

    // Orders that are not one per partition, each a permutation ending in its own mode, are refused
    // with what was given.
    void mmcsfOrdersChecked() {
        const CooTensor t = tstest::random_tensor({20, 30, 40}, 500, 3);
        const auto refused = [&](std::vector<std::vector<int>> orders, const char* expected) {
            FormatOptions o;
            o.mmcsf_orders = std::move(orders);
            try {
                build_format(FormatKind::MMCSF, t, o);
            } catch (const InputError& e) {
                return std::string(e.what()).find(expected) != std::string::npos;
            }
            return false;
        };
        QVERIFY(refused({{1, 2, 0}, {0, 2, 1}}, "2 given for 3 partitions"));
        QVERIFY(refused({{1, 2, 0}, {0, 1, 2}, {0, 1, 2}},
                        "partition 2 order 1,2,3 must list every mode once with mode 2 last"));
        QVERIFY(refused({{1, 2, 0}, {0, 2, 1}, {0, 0, 2}}, "partition 3 order 1,1,3"));
        QVERIFY(refused({{1, 2, 0}, {0, 2, 1}, {0, 1, 2, 3}}, "partition 3 order 1,2,3,4"));
    }

    // The parallel dynamic pass gives the paper's serial labels exactly: shapes and orders,
    // input sorted (long runs in one fiber) and shuffled, blocks from tiny to one, and sweep
    // caps low enough that blocks do not settle and their rest moves on.
    void parallelPartitionIsTheSerialOne_data() {
        QTest::addColumn<int>("dist");
        QTest::addColumn<int>("order");
        QTest::addColumn<bool>("shuffled");
        for (int d : {int(Distribution::Uniform), int(Distribution::PowerLaw), int(Distribution::Blocks)})
            for (int order : {3, 4, 5})
                for (bool shuffled : {false, true})
                    QTest::addRow("dist%d-order%d-%s", d, order, shuffled ? "shuffled" : "sorted") << d << order << shuffled;
    }
    void parallelPartitionIsTheSerialOne() {
        QFETCH(int, dist);
        QFETCH(int, order);
        QFETCH(bool, shuffled);
        const std::vector<std::uint64_t> dims(static_cast<std::size_t>(order), order == 3 ? 60 : 14);
        const std::uint64_t nnz = dist == int(Distribution::Blocks) ? 1500 : 12000;
        CooTensor t = tstest::random_tensor(dims, nnz, 40 + static_cast<std::uint64_t>(order), Distribution(dist));
        if (shuffled) t = tstest::shuffled(t, 5);
        const auto want = mmcsf_partition_serial(t, true);
        for (std::uint64_t block : {std::uint64_t{37}, std::uint64_t{4096}, std::uint64_t{1} << 22})
            for (int sweeps : {1, 3, 12}) {
                MmcsfPartitionStats stats;
                const auto got = mmcsf_partition(t, true, {block, sweeps}, &stats);
                if (got != want) QFAIL(qPrintable(QString("block %1, %2 sweeps: labels differ").arg(block).arg(sweeps)));
                QVERIFY(stats.sweeps >= stats.blocks);
            }
        QVERIFY(mmcsf_partition(t, false) == mmcsf_partition_serial(t, false));
    }

    void parallelPartitionOnTheRealTensors_data() {
        QTest::addColumn<QString>("name");
        for (const char* n : {"movielens-100k.tns", "lastfm-tags.tns", "jf17k-4d.tns"}) QTest::addRow("%s", n) << QString(n);
    }
    void parallelPartitionOnTheRealTensors() {
        QFETCH(QString, name);
        const std::string path = tstest::shared_tensor(qPrintable(name));
        if (path.empty()) QSKIP("../shared/data is absent (a fresh clone): skipped");
        const CooTensor t = load_tensor(path).tensor;
        const auto want = mmcsf_partition_serial(t, true);
        for (std::uint64_t block : {std::uint64_t{1000}, std::uint64_t{1} << 22}) {
            MmcsfPartitionStats stats;
            QVERIFY(mmcsf_partition(t, true, {block, 12}, &stats) == want);
            QCOMPARE(stats.serial_nonzeros, std::uint64_t{0});  // every block settled in parallel
            qInfo("%s, blocks of %llu: %llu blocks, %llu sweeps, %llu nonzeros left to the serial loop", qPrintable(name),
                  (unsigned long long)block, (unsigned long long)stats.blocks, (unsigned long long)stats.sweeps,
                  (unsigned long long)stats.serial_nonzeros);
        }
    }

    void bcsfSplitsLongFibersAndBinsSlices() {
        // one fiber of 300 nonzeros (slice 0, j = 0), and 5 short ones
        std::vector<std::vector<std::uint64_t>> coords;
        for (std::uint64_t k = 0; k < 300; ++k) coords.push_back({0, 0, k});
        for (std::uint64_t i = 1; i < 6; ++i) coords.push_back({i, 1, i});
        const CooTensor t = from_coords({6, 2, 300}, coords);
        FormatOptions o;
        o.mode_order = {0, 1, 2};
        o.bcsf_fiber_threshold = 128;
        const auto f = build_format(FormatKind::BCSF, t, o);
        const auto& b = as<BcsfFormat<std::uint32_t, double>>(f);
        QCOMPARE(b.fibers_before_split, std::uint64_t{6});
        QCOMPARE(b.csf.nodes(1), std::uint64_t{3 + 5});  // ceil(300/128) = 3 pieces
        QCOMPARE(std::uint64_t(b.csf.fptr[1][1] - b.csf.fptr[1][0]), std::uint64_t{128});
        QCOMPARE(b.csf.fids[1][0], b.csf.fids[1][2]);  // pieces keep their fiber index
        // bins: slice 0 (300 nnz) in bin 8, the others (1 nnz) in bin 0
        QCOMPARE(b.bin_ptr.size(), std::size_t{10});
        QCOMPARE(b.bin_ptr[1] - b.bin_ptr[0], 5u);
        QCOMPARE(b.bin_slices[b.bin_ptr[8]], 0u);
        std::string why;
        QVERIFY2(same_entries(t, f->to_coo(), &why), why.c_str());
        o.bcsf_fiber_threshold = 0;
        QVERIFY_THROWS_EXCEPTION(InputError, build_format(FormatKind::BCSF, t, o));
        // thresholds near 2^64 mean "never split" (len + T - 1 wrapped and corrupted the heap)
        for (std::uint64_t huge : {~std::uint64_t{0}, ~std::uint64_t{0} - 4160, std::uint64_t{1} << 63}) {
            o.bcsf_fiber_threshold = huge;
            const auto whole = build_format(FormatKind::BCSF, t, o);
            const auto& unsplit = as<BcsfFormat<std::uint32_t, double>>(whole);
            QCOMPARE(unsplit.csf.nodes(1), std::uint64_t{6});
            QVERIFY2(same_entries(t, whole->to_coo(), &why), why.c_str());
        }
    }

    void hicooBlocks_data() {
        QTest::addColumn<int>("bits");
        for (int b : {1, 2, 7, 10}) QTest::addRow("b=%d", b) << b;
    }
    void hicooBlocks() {
        QFETCH(int, bits);
        const CooTensor t = tstest::random_tensor({3000, 200, 90}, 1200, 4, Distribution::Blocks);
        FormatOptions o;
        o.hicoo_bits = bits;
        const auto f = build_format(FormatKind::HiCOO, t, o);
        const auto& h = as<HicooFormat<std::uint32_t, double>>(f);
        std::set<std::vector<std::uint64_t>> blocks;
        for (std::uint64_t n = 0; n < t.nnz(); ++n)
            blocks.insert({t.index(0, n) >> bits, t.index(1, n) >> bits, t.index(2, n) >> bits});
        QCOMPARE(h.blocks(), std::uint64_t(blocks.size()));
        const std::uint32_t offset_bytes = bits <= 8 ? 1 : 2;
        for (const auto& a : f->storage().arrays)
            if (a.name.rfind("einds", 0) == 0) QCOMPARE(a.element_bytes, offset_bytes);
        std::string why;
        QVERIFY2(same_entries(t, f->to_coo(), &why), why.c_str());
        o.hicoo_bits = 17;
        QVERIFY_THROWS_EXCEPTION(InputError, build_format(FormatKind::HiCOO, t, o));
    }
};

QTEST_APPLESS_MAIN(TestBalancedFormats)
#include "test_balanced_formats.moc"
