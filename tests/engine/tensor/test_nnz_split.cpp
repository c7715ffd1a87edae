// The multi-GPU partitioner alone, on the CPU: every nonzero in exactly one part, parts
// balanced within a slice of the even share, cuts on slice edges, for random and real tensors;
// and the slice counts' out of memory inside their parallel region, caught.
#include <sys/resource.h>
#include <unistd.h>

#include <fstream>
#include <new>

#include "test_support.hpp"
#include "tscope/io/tensor_io.hpp"
#include "tscope/tensor/nnz_split.hpp"

using namespace tscope;

namespace {

// Each part's nonzeros counted by walking the tensor (not the counts the cuts came from).
std::vector<std::uint64_t> count_by_walking(const CooTensor& t, int mode, const std::vector<std::uint64_t>& cuts) {
    std::vector<std::uint64_t> per(cuts.size() - 1, 0);
    for (std::uint64_t z = 0; z < t.nnz(); ++z) {
        const std::uint64_t i = t.index(mode, z);
        int owners = 0;
        for (std::size_t p = 0; p + 1 < cuts.size(); ++p)
            if (i >= cuts[p] && i < cuts[p + 1]) ++per[p], ++owners;
        if (owners != 1) return {};  // a nonzero in no part or in two
    }
    return per;
}

// The address space mapped now, in bytes (/proc/self/statm's first field, in pages).
std::uint64_t mapped_bytes() {
    std::ifstream statm("/proc/self/statm");
    std::uint64_t pages = 0;
    statm >> pages;
    return pages * static_cast<std::uint64_t>(::sysconf(_SC_PAGESIZE));
}

// A lower soft limit on the address space for the scope: the hard limit is left as it is, so the
// old soft limit can be put back.
class AddressSpaceCap {
public:
    explicit AddressSpaceCap(std::uint64_t bytes) {
        ok_ = ::getrlimit(RLIMIT_AS, &saved_) == 0 && (saved_.rlim_max == RLIM_INFINITY || saved_.rlim_max >= bytes);
        if (!ok_) return;
        rlimit lower = saved_;
        lower.rlim_cur = bytes;
        ok_ = ::setrlimit(RLIMIT_AS, &lower) == 0;
    }
    ~AddressSpaceCap() {
        if (ok_) ::setrlimit(RLIMIT_AS, &saved_);
    }
    AddressSpaceCap(const AddressSpaceCap&) = delete;
    AddressSpaceCap& operator=(const AddressSpaceCap&) = delete;
    bool ok() const { return ok_; }

private:
    rlimit saved_{};
    bool ok_ = false;
};

void check_split(const CooTensor& t, int mode, int parts) {
    const std::vector<std::uint64_t> counts = slice_counts(t, mode);
    const std::vector<std::uint64_t> cuts = balanced_cuts(counts, parts);
    QCOMPARE(cuts.size(), std::size_t(parts + 1));
    QCOMPARE(cuts.front(), std::uint64_t{0});
    QCOMPARE(cuts.back(), t.dim(mode));
    for (std::size_t p = 0; p + 1 < cuts.size(); ++p) QVERIFY(cuts[p] <= cuts[p + 1]);
    const std::vector<std::uint64_t> per = count_by_walking(t, mode, cuts);
    QVERIFY2(!per.empty(), "a nonzero fell in no part or in two");
    std::uint64_t sum = 0, largest_slice = 0;
    for (std::uint64_t c : counts) largest_slice = std::max(largest_slice, c);
    for (std::uint64_t n : per) sum += n;
    QCOMPARE(sum, t.nnz());
    QCOMPARE(per, part_sizes(counts, cuts));
    const double share = static_cast<double>(t.nnz()) / parts;
    for (std::uint64_t n : per)
        QVERIFY2(static_cast<double>(n) <= share + static_cast<double>(largest_slice),
                 qPrintable(QString("a part of %1 nonzeros; even share %2, largest slice %3").arg(n).arg(share).arg(largest_slice)));
}

}  // namespace

class TestNnzSplit : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void randomTensors_data() {
        QTest::addColumn<int>("order");
        QTest::addColumn<int>("parts");
        for (int order : {3, 4, 5})
            for (int parts : {1, 2, 3, 4, 8}) QTest::addRow("order %d, %d parts", order, parts) << order << parts;
    }
    void randomTensors() {
        QFETCH(int, order);
        QFETCH(int, parts);
        std::vector<std::uint64_t> dims(static_cast<std::size_t>(order), 40);
        dims[0] = 500;
        const CooTensor t = tstest::random_tensor(dims, 30000, std::uint64_t(order * 7 + parts), Distribution::PowerLaw);
        for (int m = 0; m < order; ++m) check_split(t, m, parts);
    }

    void realTensors_data() {
        QTest::addColumn<QString>("file");
        for (const char* f : {"movielens-100k.tns", "lastfm-tags.tns", "jf17k-4d.tns"}) QTest::addRow("%s", f) << QString(f);
    }
    void realTensors() {
        QFETCH(QString, file);
        const std::string path = tstest::shared_tensor(file.toStdString().c_str());
        if (path.empty()) QSKIP("../shared/data is absent (a fresh clone): skipped");
        const CooTensor t = load_tensor(path).tensor;
        for (int m = 0; m < t.order(); ++m)
            for (int parts : {2, 3, 8}) check_split(t, m, parts);
    }

    // More parts than slices with nonzeros: the extra parts are empty, nothing is lost.
    void morePartsThanSlices() {
        const std::vector<std::uint64_t> counts{0, 5, 0, 0, 7, 0};
        const auto cuts = balanced_cuts(counts, 4);
        const auto sizes = part_sizes(counts, cuts);
        std::uint64_t sum = 0;
        for (auto s : sizes) sum += s;
        QCOMPARE(sum, std::uint64_t{12});
        QVERIFY(*std::max_element(sizes.begin(), sizes.end()) <= 7);
    }

    // One slice holding most nonzeros cannot be split: it becomes a part of its own.
    void aHeavySliceStaysWhole() {
        const std::vector<std::uint64_t> counts{1, 1, 100, 1, 1};
        const auto sizes = part_sizes(counts, balanced_cuts(counts, 2));
        QVERIFY(sizes == std::vector<std::uint64_t>({102, 2}) || sizes == std::vector<std::uint64_t>({2, 102}) ||
                sizes == std::vector<std::uint64_t>({101, 3}) || sizes == std::vector<std::uint64_t>({3, 101}));
    }

    // Out of memory for a thread's histogram, inside the parallel region, reaches the caller as
    // std::bad_alloc: it escaped the region and ended the program (std::terminate, SIGABRT). The
    // address space is capped so that the result's counts (64 MB, allocated before the region)
    // fit and no thread's histogram of the same size does; 64 MB is above glibc's largest mmap
    // threshold, so each is a mapping of its own, never memory freed earlier.
    void outOfMemoryInsideTheRegionReachesTheCaller() {
        TS_SKIP_UNDER_ASAN(
            "AddressSanitizer's allocator does not map each block of its own under a capped address space");
        constexpr std::uint64_t kDim = std::uint64_t{8} << 20, kBytes = kDim * sizeof(std::uint64_t);
        // as many nonzeros as indices (one per slice): a longer mode is counted without
        // per-thread histograms
        CooTensor t({kDim, 4}, IndexWidth::U32, ValueType::F64);
        t.resize(kDim);
        for (std::uint64_t z = 0; z < kDim; ++z)
            t.indices<std::uint32_t>(0)[z] = static_cast<std::uint32_t>(z),
            t.indices<std::uint32_t>(1)[z] = static_cast<std::uint32_t>(z % 4), t.values<double>()[z] = 1.0;
        QCOMPARE(slice_counts(t, 1).size(), std::size_t{4});  // the threads and their heaps made, uncapped
        bool threw = false;
        {
            const AddressSpaceCap cap(mapped_bytes() + kBytes + kBytes / 2);
            if (!cap.ok()) QSKIP("the address space cannot be capped here");
            try {
                (void)slice_counts(t, 0);
            } catch (const std::bad_alloc&) {
                threw = true;
            }
        }
        QVERIFY(threw);
        QCOMPARE(slice_counts(t, 0).size(), std::size_t{kDim});  // and uncapped again, it runs
    }

    // A mode longer than the nonzeros are many is counted into the one array (per-thread
    // histograms of a 2e9-long mode were 16 GB each, sweep 72), and its non-empty slices alone
    // come from a sort: both agree with a serial count.
    void longModesAreCountedWithoutHistogramsPerThread() {
        for (std::uint64_t dim : {std::uint64_t{50}, std::uint64_t{1} << 22}) {
            const CooTensor t = tstest::random_tensor({dim, 70, 50}, 3000, 11);
            std::map<std::uint64_t, std::uint64_t> serial;
            for (std::uint64_t z = 0; z < t.nnz(); ++z) ++serial[t.index(0, z)];
            const std::vector<std::uint64_t> dense = slice_counts(t, 0);
            QCOMPARE(dense.size(), std::size_t{dim});
            std::uint64_t total = 0;
            for (const auto& [i, n] : serial) {
                QCOMPARE(dense[i], n);
                total += n;
            }
            QCOMPARE(std::accumulate(dense.begin(), dense.end(), std::uint64_t{0}), total);
            const auto sparse = nonempty_slice_counts(t, 0);
            QCOMPARE(sparse.size(), serial.size());
            std::size_t k = 0;
            for (const auto& [i, n] : serial) {
                QCOMPARE(sparse[k].first, i);
                QCOMPARE(sparse[k].second, n);
                ++k;
            }
        }
        // a mode of 2^40 indices: nothing per index is allocated
        const CooTensor wide = tstest::random_tensor({std::uint64_t{1} << 40, 3}, 500, 5);
        const auto sparse = nonempty_slice_counts(wide, 0);
        std::uint64_t total = 0;
        for (std::size_t k = 0; k < sparse.size(); ++k) {
            total += sparse[k].second;
            if (k) QVERIFY(sparse[k - 1].first < sparse[k].first);
        }
        QCOMPARE(total, wide.nnz());
    }

    void evenCutsByPosition() {
        for (std::uint64_t n : {0ull, 1ull, 7ull, 1000003ull})
            for (int parts : {1, 2, 3, 8}) {
                const auto cuts = even_cuts(n, parts);
                QCOMPARE(cuts.size(), std::size_t(parts + 1));
                QCOMPARE(cuts.back(), n);
                for (int p = 0; p < parts; ++p) {
                    const std::uint64_t len = cuts[std::size_t(p) + 1] - cuts[std::size_t(p)];
                    QVERIFY(len == n / std::uint64_t(parts) || len == n / std::uint64_t(parts) + 1);
                }
            }
        QVERIFY_THROWS_EXCEPTION(InputError, even_cuts(10, 0));
        QVERIFY_THROWS_EXCEPTION(InputError, balanced_cuts({1, 2}, 0));
    }
};

QTEST_APPLESS_MAIN(TestNnzSplit)
#include "test_nnz_split.moc"
