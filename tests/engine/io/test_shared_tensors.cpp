// The real tensors of ../shared/data load with their documented shapes (skipped where the
// folder is absent), and the bundled JF17K sample is the same tensor.
#include "test_support.hpp"
#include "tscope/io/tensor_io.hpp"
#include "tscope/tensor/coo_ops.hpp"
#include "tscope/tensor/tensor_stats.hpp"

using namespace tscope;

class TestSharedTensors : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void movieLens() {
        TS_REQUIRE_SHARED(path, "movielens-100k.tns");
        const LoadedTensor r = load_tensor(path);
        QCOMPARE(r.tensor.order(), 3);
        QCOMPARE(r.tensor.dims(), (std::vector<std::uint64_t>{943, 1682, 215}));
        QCOMPARE(r.tensor.nnz(), std::uint64_t{100000});
        QCOMPARE(r.info.duplicates_summed, std::uint64_t{0});
        double lo = 10, hi = 0;
        for (std::uint64_t n = 0; n < r.tensor.nnz(); ++n) lo = std::min(lo, r.tensor.value(n)), hi = std::max(hi, r.tensor.value(n));
        QCOMPARE(lo, 1.0);
        QCOMPARE(hi, 5.0);
        const TensorStats s = compute_stats(r.tensor);
        QCOMPARE(s.modes[0].slices, std::uint64_t{943});  // every user rated
        QCOMPARE(s.modes[2].fibers, std::uint64_t{100000});  // one rating per (user, movie)
    }

    void lastFm() {
        TS_REQUIRE_SHARED(path, "lastfm-tags.tns");
        const LoadedTensor r = load_tensor(path);
        QCOMPARE(r.tensor.dims(), (std::vector<std::uint64_t>{2100, 18744, 12647}));
        QCOMPARE(r.tensor.nnz(), std::uint64_t{186479});
        const TensorStats s = compute_stats(r.tensor);
        QVERIFY(s.modes[0].slices < 2100);  // original IDs leave empty slices
    }

    void jf17k() {
        TS_REQUIRE_SHARED(path, "jf17k-4d.tns");
        const LoadedTensor r = load_tensor(path);
        QCOMPARE(r.tensor.dims(), (std::vector<std::uint64_t>{104, 11540, 11541, 11539}));
        QCOMPARE(r.tensor.nnz(), std::uint64_t{34544});
        const LoadedTensor bundled = load_tensor(TS_SAMPLES_DIR "/jf17k-4d.tns.gz");
        std::string why;
        QVERIFY2(same_entries(r.tensor, bundled.tensor, &why), why.c_str());
    }

    void bundledSampleAlwaysLoads() {  // runs on a fresh clone too
        const LoadedTensor r = load_tensor(TS_SAMPLES_DIR "/jf17k-4d.tns.gz");
        QCOMPARE(r.tensor.order(), 4);
        QCOMPARE(r.tensor.nnz(), std::uint64_t{34544});
        QCOMPARE(r.info.format, std::string("tns.gz"));
    }
};

QTEST_APPLESS_MAIN(TestSharedTensors)
#include "test_shared_tensors.moc"
