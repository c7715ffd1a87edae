// The formats built on the GPU against the host builds they replace: the device's
// CSF, B-CSF and MM-CSF (partition by partition) fiber layouts must equal the host formats
// flattened for the kernels, array for array, on random tensors of orders 3-5 and the real
// ones; the device COO holds the same nonzeros. A white-box suite: it includes the engine's private headers (see tests/CMakeLists).
#include "test_support.hpp"

#include "cuda/gpu_mttkrp.hpp"
#include "kernels/csf_flatten.hpp"
#include "tscope/cuda/device.hpp"
#include "tscope/formats/balanced_formats.hpp"
#include "tscope/io/tensor_io.hpp"
#include "tscope/kernels/mttkrp.hpp"

using namespace tscope;

namespace {

template <class I, class V>
void same_tree(const CsfFormat<I, V>& host, const gpu::ResidentTensor& device, const QString& what) {
    const csf_flat::FlatTree want = csf_flat::flatten(host);
    const auto got = device.download();
    QCOMPARE(got.size(), std::size_t{1});
    QVERIFY2(got[0].fiber_ptr == want.fiber_ptr, qPrintable(what + ": fiber_ptr differs"));
    QVERIFY2(got[0].anc == want.anc, qPrintable(what + ": ancestor indices differ"));
    QVERIFY2(got[0].leaf == want.leaf, qPrintable(what + ": leaf indices differ"));
    QVERIFY2(got[0].vals == want.vals, qPrintable(what + ": values differ"));
}

// Every mode's CSF and B-CSF (threshold 3: many splits) from one uploaded COO.
void check(const CooTensor& t, const QString& name) {
    const gpu::DeviceCoo coo(csf_flat::host_view(t));
    QCOMPARE(coo.nnz(), t.nnz());
    for (int mode = 0; mode < t.order(); ++mode) {
        FormatOptions o;
        o.mode = mode;
        o.bcsf_fiber_threshold = 3;
        const auto csf = build_format(FormatKind::CSF, t, o);
        const auto bcsf = build_format(FormatKind::BCSF, t, o);
        t.visit([&](auto, auto value) {
            using V = typename decltype(value)::type;
            // the host formats use 32-bit indices for these tensors
            const auto& c = static_cast<const CsfFormat<std::uint32_t, V>&>(*csf);
            const auto& b = static_cast<const BcsfFormat<std::uint32_t, V>&>(*bcsf);
            same_tree(c, gpu::ResidentTensor::build(coo, c.order, 0), QString("%1 CSF mode %2").arg(name).arg(mode + 1));
            same_tree(b.csf, gpu::ResidentTensor::build(coo, c.order, 3), QString("%1 B-CSF mode %2").arg(name).arg(mode + 1));
        });
        if (QTest::currentTestFailed()) return;
    }
    // MM-CSF: the host's partitions, in their order, each flattened, against the device's
    const auto mm = build_format(FormatKind::MMCSF, t, {});
    const std::vector<std::uint8_t> labels = mmcsf_partition(t, true);
    std::vector<std::vector<int>> orders;
    for (int p = 0; p < t.order(); ++p) orders.push_back(mmcsf_partition_order(t, p));
    // whole fibers, and fibers split every 3 nonzeros (the host's split of its flattened trees)
    for (std::uint64_t split : {0, 3}) {
        const auto got = gpu::ResidentTensor::build_partitioned(coo, labels.data(), orders, {}, split).download();
        t.visit([&](auto, auto value) {
            using V = typename decltype(value)::type;
            const auto& host = static_cast<const MmcsfFormat<std::uint32_t, V>&>(*mm);
            QCOMPARE(got.size(), host.partitions.size());
            for (std::size_t k = 0; k < got.size(); ++k) {
                const csf_flat::FlatTree whole = csf_flat::flatten(host.partitions[k]);
                const csf_flat::FlatTree want = split ? csf_flat::split_fibers(whole, split) : whole;
                if (split) QVERIFY(want.fiber_ptr.size() >= whole.fiber_ptr.size());
                const QString what = QString("%1 MM-CSF partition %2, split %3").arg(name).arg(k + 1).arg(split);
                QVERIFY2(got[k].fiber_ptr == want.fiber_ptr && got[k].anc == want.anc, qPrintable(what + ": the fibers differ"));
                QVERIFY2(got[k].leaf == want.leaf && got[k].vals == want.vals, qPrintable(what + ": the nonzeros differ"));
            }
        });
        if (QTest::currentTestFailed()) return;
    }
    if (QTest::currentTestFailed()) return;
    const gpu::ResidentTensor dcoo(coo);
    QCOMPARE(dcoo.device_bytes(), t.nnz() * 4 * (static_cast<std::uint64_t>(t.order()) + 1));
}

}  // namespace

class TestFormatBuildCuda : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { TS_REQUIRE_GPU(); }

    void randomTensors_data() {
        QTest::addColumn<int>("order");
        for (int order : {3, 4, 5}) QTest::addRow("order %d", order) << order;
    }
    void randomTensors() {
        QFETCH(int, order);
        std::vector<std::uint64_t> dims(static_cast<std::size_t>(order), 12);
        dims[0] = 300;
        check(tstest::random_tensor(dims, 9000, 40 + std::uint64_t(order), Distribution::PowerLaw), QString("order %1").arg(order));
    }

    void realTensors() {
        for (const char* name : {"movielens-100k.tns", "lastfm-tags.tns", "jf17k-4d.tns"}) {
            const std::string path = tstest::shared_tensor(name);
            if (path.empty()) QSKIP("../shared/data is absent (a fresh clone): skipped");
            check(load_tensor(path).tensor, name);
            if (QTest::currentTestFailed()) return;
        }
    }

    // A tree that fills the device (8 fibers or more for each resident team of 8 lanes), built on
    // the device: each parent's fibers longest first, array for array as the host orders them
    // (csf_flat::order_by_length of the flattened B-CSF, split at 16, so that no length reaches the
    // device key's cap of 31), and not the tree's own order; the same tree uploaded from the host
    // and ordered on the device (Fibers::order_on_device). Kept in the tree's order: with
    // TENSORSCOPE_FIBER_ORDER=tree, and where the device has too little memory free to order it
    // (all but 72 MiB held: the ordering asks for 64 MiB beside its arrays).
    void deviceOrderByLength() {
        const GpuInfo gpu = query_gpu();
        const auto fibers_needed = static_cast<std::uint64_t>(gpu.multiprocessors) * 2048;
        // the tree for mode 1 takes its levels in the order 1, 2, 3 (the others by increasing
        // length): 1.28M (i, j) pairs for 0.42 nonzeros each, so about 440K fibers of 1-4 nonzeros
        // on a GPU of 132 SMs (270K needed), some 20 fibers a parent
        const CooTensor t = tstest::random_tensor({20000, 64, 20000}, 2 * fibers_needed, 77, Distribution::Uniform);
        const gpu::DeviceCoo coo(csf_flat::host_view(t));
        FormatOptions o;
        o.bcsf_fiber_threshold = 16;
        const auto bcsf = build_format(FormatKind::BCSF, t, o);
        t.visit([&](auto, auto value) {
            using V = typename decltype(value)::type;
            const auto& b = static_cast<const BcsfFormat<std::uint32_t, V>&>(*bcsf);
            const csf_flat::FlatTree own = csf_flat::flatten(b.csf);
            QVERIFY2(own.fiber_ptr.size() - 1 >= fibers_needed, "the test's tree is too small to be ordered");
            const csf_flat::FlatTree ordered = csf_flat::order_by_length(own);
            QVERIFY(ordered.fiber_ptr != own.fiber_ptr);
            gpu::Fibers view = own.view(b.csf.order);
            view.split_fibers = true, view.order_on_device = true;
            // the device-built tree and, with `upload`, the uploaded one
            auto same = [&](const csf_flat::FlatTree& want, const char* what, bool upload) {
                auto built = gpu::ResidentTensor::build(coo, b.csf.order, 16).download();
                QCOMPARE(built.size(), std::size_t{1});
                if (upload) {
                    const auto uploaded = gpu::ResidentTensor(std::vector<gpu::Fibers>{view}).download();
                    QCOMPARE(uploaded.size(), std::size_t{1});
                    built.push_back(uploaded[0]);
                }
                for (const auto& got : built) {
                    const QString how = QString(what) + (&got == &built[0] ? ", built: " : ", uploaded: ");
                    QVERIFY2(got.fiber_ptr == want.fiber_ptr && got.anc == want.anc,
                             qPrintable(how + "the fibers differ"));
                    QVERIFY2(got.leaf == want.leaf && got.vals == want.vals, qPrintable(how + "the nonzeros differ"));
                }
            };
            same(ordered, "ordered", true);
            if (QTest::currentTestFailed()) return;
            {  // (the upload asks by order_on_device, which mttkrp_cuda.cpp sets from the switch)
                const tstest::ScopedEnv keep("TENSORSCOPE_FIBER_ORDER", "tree");
                same(own, "TENSORSCOPE_FIBER_ORDER=tree", false);
            }
            if (QTest::currentTestFailed()) return;
            const std::uint64_t left = 72ull << 20, free = gpu_free_memory();
            QVERIFY2(free > left, "the device has less than 72 MiB free");
            const GpuReservation held(free - left);
            same(own, "72 MiB free", true);
        });
    }

    // One nonzero, and 64-bit indices narrowed on the way up.
    void edgeCases() {
        check(tstest::one_nonzero_tensor(), "one nonzero");
        CooTensor wide({5, 7, 3}, IndexWidth::U64, ValueType::F64);
        wide.resize(3);
        wide.set(0, std::vector<std::uint64_t>{4, 6, 2}, 1.5);
        wide.set(1, std::vector<std::uint64_t>{0, 0, 0}, -2.0);
        wide.set(2, std::vector<std::uint64_t>{4, 0, 2}, 3.0);
        check(wide, "64-bit indices");
    }

    // A tree built on the device (the CPD's, one rooted at each mode) takes the shared-memory
    // tiles as an uploaded one does: forced, its root mode at ranks 32 and 16 runs over them,
    // within 1e-5 of the oracle; other modes and ranks keep the fiber kernels.
    void deviceBuiltTreesTakeTheTiles() {
        const CooTensor t = tstest::random_tensor({3000, 1500, 5000}, 200000, 79, Distribution::PowerLaw);
        const gpu::DeviceCoo coo(csf_flat::host_view(t));
        const tstest::ScopedEnv on("TENSORSCOPE_FIBER_TILES", "1");
        const bool tiles = query_gpu().cc_major == 9 || query_gpu().cc_major == 10;  // 192 KiB a block
        for (std::uint64_t rank : {32, 16}) {
            const std::vector<DenseMatrix> factors = tstest::random_factors(t, {rank}, 90);
            std::vector<std::vector<float>> narrow;
            for (const DenseMatrix& f : factors) narrow.emplace_back(f.data.begin(), f.data.end());
            for (int mode = 0; mode < 3; ++mode) {
                std::vector<int> order{mode};
                for (int m = 0; m < 3; ++m)
                    if (m != mode) order.push_back(m);
                const gpu::ResidentTensor tree = gpu::ResidentTensor::build(coo, order, 0);
                QCOMPARE(tree.shared_tiles(mode, rank).blocks > 0, tiles);
                QCOMPARE(tree.shared_tiles(mode, 8).blocks, std::uint64_t{0});
                QCOMPARE(tree.shared_tiles(order[1], rank).blocks, std::uint64_t{0});
                DenseMatrix ref(t.dim(mode), rank), out(t.dim(mode), rank);
                mttkrp_reference(t, mode, factors, ref);
                gpu::Dense d;
                d.rank = rank, d.mode = mode, d.out = out.data.data();
                for (int m = 0; m < 3; ++m) {
                    d.factors.push_back(narrow[static_cast<std::size_t>(m)].data());
                    d.rows.push_back(t.dim(m));
                }
                gpu::Timing timing;
                tree.mttkrp(d, timing);
                const double err = max_relative_error(out, ref);
                QVERIFY2(err <= 1e-5, qPrintable(QString("rank %1, mode %2: %3").arg(rank).arg(mode + 1).arg(err)));
            }
        }
    }
};

QTEST_GUILESS_MAIN(TestFormatBuildCuda)
#include "test_format_build_cuda.moc"
