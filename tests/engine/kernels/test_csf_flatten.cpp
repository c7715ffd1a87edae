// The GPU's flattened CSF trees on the host (white-box: engine/kernels/csf_flatten.hpp): splitting
// a tree's long fibers, as MM-CSF's GPU upload does (mm-csf Sec. 6), keeps every nonzero in its
// place and every fiber's ancestors, and cuts no fiber shorter than it must; ordering fibers by
// length keeps each under its parent.
#include "test_support.hpp"

#include <numeric>

#include "kernels/csf_flatten.hpp"
#include "tscope/formats/format.hpp"
#include "tscope/formats/paper_formats.hpp"

using namespace tscope;

namespace {

void check_split(const csf_flat::FlatTree& whole, std::uint64_t T, const QString& what) {
    const csf_flat::FlatTree cut = csf_flat::split_fibers(whole, T);
    QVERIFY2(cut.leaf == whole.leaf && cut.vals == whole.vals, qPrintable(what + ": the nonzeros moved"));
    QCOMPARE(cut.anc.size(), whole.anc.size());
    // walk both: each whole fiber of length L is ceil(L / T) pieces of T (the last the rest),
    // each with the whole fiber's ancestors
    std::size_t k = 0;
    for (std::size_t f = 0; f + 1 < whole.fiber_ptr.size(); ++f) {
        for (std::uint64_t at = whole.fiber_ptr[f]; at < whole.fiber_ptr[f + 1]; at += T, ++k) {
            QVERIFY2(k + 1 < cut.fiber_ptr.size(), qPrintable(what + ": too few fibers"));
            QCOMPARE(cut.fiber_ptr[k], at);
            QCOMPARE(cut.fiber_ptr[k + 1], std::min(at + T, whole.fiber_ptr[f + 1]));
            for (std::size_t l = 0; l < whole.anc.size(); ++l) QCOMPARE(cut.anc[l][k], whole.anc[l][f]);
        }
    }
    QCOMPARE(k + 1, cut.fiber_ptr.size());
}

// order_by_length(t) against t: the same parents' runs in place, each run's fibers a permutation
// of t's, longest first (from kLongestOrdered nonzeros up as one length) and ties in t's order,
// each with its ancestors and its nonzeros.
void check_by_length(const csf_flat::FlatTree& t, const QString& what) {
    const csf_flat::FlatTree o = csf_flat::order_by_length(t);
    const std::size_t F = t.fiber_ptr.size() - 1, levels = t.anc.size();
    QCOMPARE(o.fiber_ptr.size(), t.fiber_ptr.size());
    QCOMPARE(o.fiber_ptr.front(), t.fiber_ptr.front());
    QCOMPARE(o.fiber_ptr.back(), t.fiber_ptr.back());
    auto parent_of = [&](const csf_flat::FlatTree& x, std::size_t f) {
        std::vector<std::uint32_t> p;
        for (std::size_t l = 0; l + 1 < levels; ++l) p.push_back(x.anc[l][f]);
        return p;
    };
    std::size_t moved = 0;
    for (std::size_t first = 0; first < F;) {
        std::size_t last = first + 1;
        while (last < F && parent_of(t, last) == parent_of(t, first)) ++last;
        std::vector<std::size_t> expect(last - first);  // t's fibers of this parent, longest first
        std::iota(expect.begin(), expect.end(), first);
        auto len = [&](const csf_flat::FlatTree& x, std::size_t f) { return x.fiber_ptr[f + 1] - x.fiber_ptr[f]; };
        auto capped = [&](std::size_t f) { return std::min(len(t, f), csf_flat::kLongestOrdered); };
        std::stable_sort(expect.begin(), expect.end(),
                         [&](std::size_t a, std::size_t b) { return capped(a) > capped(b); });
        for (std::size_t k = first; k < last; ++k) {
            const std::size_t f = expect[k - first];
            moved += f != k;
            QVERIFY2(parent_of(o, k) == parent_of(t, first), qPrintable(what + ": a fiber left its parent"));
            QCOMPARE(o.anc[levels - 1][k], t.anc[levels - 1][f]);
            QCOMPARE(len(o, k), len(t, f));
            for (std::uint64_t z = 0; z < len(t, f); ++z) {
                QCOMPARE(o.leaf[o.fiber_ptr[k] + z], t.leaf[t.fiber_ptr[f] + z]);
                QCOMPARE(o.vals[o.fiber_ptr[k] + z], t.vals[t.fiber_ptr[f] + z]);
            }
        }
        first = last;
    }
    QVERIFY2(moved > 0, qPrintable(what + ": the test's tree had nothing to reorder"));
}

}  // namespace

class TestCsfFlatten : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void splitFibers_data() {
        QTest::addColumn<int>("order");
        for (int order : {3, 4, 5}) QTest::addRow("order %d", order) << order;
    }
    void splitFibers() {
        QFETCH(int, order);
        // about 64 fibers of up to 400 nonzeros: long ones
        std::vector<std::uint64_t> dims(static_cast<std::size_t>(order), order == 3 ? 8 : order == 4 ? 4 : 3);
        dims.back() = 400;
        const CooTensor t = tstest::random_tensor(dims, 6000, std::uint64_t(order), Distribution::PowerLaw);
        const auto f = build_format(FormatKind::CSF, t, {});
        t.visit([&](auto, auto value) {
            using V = typename decltype(value)::type;
            const auto& csf = static_cast<const CsfFormat<std::uint32_t, V>&>(*f);
            const csf_flat::FlatTree whole = csf_flat::flatten(csf);
            std::uint64_t longest = 0;
            for (std::size_t q = 0; q + 1 < whole.fiber_ptr.size(); ++q)
                longest = std::max(longest, whole.fiber_ptr[q + 1] - whole.fiber_ptr[q]);
            QVERIFY(longest > 128);  // so that B-CSF's length 128 splits some
            for (std::uint64_t T : {1, 3, 128}) check_split(whole, T, QString("order %1, T %2").arg(order).arg(T));
            // a length no fiber reaches: the same tree
            const csf_flat::FlatTree same = csf_flat::split_fibers(whole, longest);
            QVERIFY(same.fiber_ptr == whole.fiber_ptr && same.anc == whole.anc);
            const csf_flat::FlatTree never = csf_flat::split_fibers(whole, ~std::uint64_t{0});  // no wrap near 2^64
            QVERIFY(never.fiber_ptr == whole.fiber_ptr && never.anc == whole.anc);
        });
    }

    // Ordering each parent's fibers by length (the GPU upload's, for large trees)
    // moves fibers only within their parents, each with its ancestors and nonzeros, longest first;
    // on split trees too, whose pieces of one fiber share every ancestor.
    void orderByLength_data() { splitFibers_data(); }
    void orderByLength() {
        QFETCH(int, order);
        std::vector<std::uint64_t> dims(static_cast<std::size_t>(order), order == 3 ? 12 : order == 4 ? 6 : 4);
        dims.back() = 200;
        const CooTensor t = tstest::random_tensor(dims, 5000, std::uint64_t(order + 20), Distribution::PowerLaw);
        const auto f = build_format(FormatKind::CSF, t, {});
        t.visit([&](auto, auto value) {
            using V = typename decltype(value)::type;
            const auto& csf = static_cast<const CsfFormat<std::uint32_t, V>&>(*f);
            const csf_flat::FlatTree whole = csf_flat::flatten(csf);
            check_by_length(whole, QString("order %1").arg(order));
            check_by_length(csf_flat::split_fibers(whole, 16), QString("order %1, split at 16").arg(order));
        });
    }

    // The cut for trees too small for the device: a tree with 8 fibers or more per resident team
    // is left alone; a smaller one has its fibers split at max(32, nnz / teams), at most B-CSF's
    // split length, where that is under its longest fiber, and its pieces grouped 1 to 8 to a team.
    void fillCut() {
        using csf_flat::fill_cut;
        const std::uint64_t teams = 33792;  // an H200: 132 SMs x 2048 threads / 8 lanes
        auto same = [](csf_flat::FillCut c, std::uint64_t split_at, std::uint64_t group) { return c.split_at == split_at && c.group == group; };
        QVERIFY(same(fill_cut(8 * teams, 76'900'000, teams, 128), 0, 0));  // large: groups of 8 as before
        QVERIFY(same(fill_cut(100, 1000, 0, 128), 0, 0));                   // no device figure
        QVERIFY(same(fill_cut(0, 0, teams, 128), 0, 0));
        // MovieLens's B-CSF tree for mode 1: 2,782 fibers, 100K nonzeros: split at 32, one a team
        QVERIFY(same(fill_cut(2782, 100'000, teams, 128), 32, 1));
        // short fibers (the longest 4), 100K of them: none split, two to a team
        QVERIFY(same(fill_cut(100'000, 150'000, teams, 4), 0, 2));
        // few long fibers on a small device: nnz / teams = 128, no shorter than B-CSF's split
        QVERIFY(same(fill_cut(1000, 128'000, 1000, 128), 0, 1));
        // the split length grows with nnz / teams: 64 here
        QVERIFY(same(fill_cut(500, 64'000, 1000, 128), 64, 1));
        // a CSF tree of few, long fibers (MovieLens's mode 1 as CSF: 943 users, the longest 737):
        // split no longer than B-CSF's 128 even where nnz / teams is more
        QVERIFY(same(fill_cut(943, 100'000, teams, 737), 32, 1));
        QVERIFY(same(fill_cut(500, 640'000, 1000, 5000), 128, 5));
        QVERIFY(same(fill_cut(500, 640'000, 1000, 5000, 1000), 640, 1));
    }
};

QTEST_APPLESS_MAIN(TestCsfFlatten)
#include "test_csf_flatten.moc"
