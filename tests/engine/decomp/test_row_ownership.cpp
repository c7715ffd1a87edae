// The distributed CPD's row owners and exchange lists, without MPI: every row of a layer has
// one owner, a row one peer touches is that peer's, shared rows are spread, and each peer's
// send and receive lists mirror the others' exactly (what one sends, the owner expects).
#include "decomp/row_ownership.hpp"
#include "test_support.hpp"

using namespace tscope;
using namespace tscope::detail;

class TestRowOwnership : public QObject {
    Q_OBJECT

private slots:
    void privateRowsStayWithTheirPeer() {
        // rows 10..19; peer 0 touches 10-13, peer 1 touches 14-16, both touch 17, 18; nobody 19
        const std::vector<std::vector<std::uint64_t>> touched{{10, 11, 12, 13, 17, 18}, {14, 15, 16, 17, 18}};
        const auto owners = assign_row_owners(10, 20, touched);
        QCOMPARE(owners.size(), std::size_t(10));
        for (int i = 0; i < 4; ++i) QCOMPARE(owners[std::size_t(i)], 0);
        for (int i = 4; i < 7; ++i) QCOMPARE(owners[std::size_t(i)], 1);
        // shared rows: peer 1 owned fewer (3 vs 4) so it takes 17; then 4 each, 18 to the lowest
        QCOMPARE(owners[7], 1);
        QCOMPARE(owners[8], 0);
        QCOMPARE(owners[9], 1);  // untouched: to the one with fewest (peer 1 has 4, peer 0 has 5)
    }

    void everyRowHasOneOwnerAndTheListsMirror() {
        std::mt19937_64 rng(7);
        for (int trial = 0; trial < 20; ++trial) {
            const int peers = 1 + static_cast<int>(rng() % 5);
            const std::uint64_t begin = rng() % 100, rows = 1 + rng() % 300;
            std::vector<std::vector<std::uint64_t>> touched(static_cast<std::size_t>(peers));
            for (auto& list : touched)
                for (std::uint64_t i = begin; i < begin + rows; ++i)
                    if (rng() % 3 == 0) list.push_back(i);
            const auto owners = assign_row_owners(begin, begin + rows, touched);
            std::vector<std::uint64_t> load(static_cast<std::size_t>(peers), 0);
            for (int o : owners) {
                QVERIFY(o >= 0 && o < peers);
                ++load[std::size_t(o)];
            }
            std::vector<RowExchange> x;
            for (int q = 0; q < peers; ++q) x.push_back(plan_row_exchange(q, begin, owners, touched));
            std::uint64_t owned = 0;
            for (int q = 0; q < peers; ++q) {
                owned += x[std::size_t(q)].owned.size();
                for (std::size_t k = 0; k < x[std::size_t(q)].owned.size(); ++k) {
                    const std::uint64_t row = x[std::size_t(q)].owned[k];
                    QCOMPARE(owners[row - begin], q);
                    const std::int64_t l = x[std::size_t(q)].owned_local[k];
                    if (l >= 0) QCOMPARE(touched[std::size_t(q)][std::size_t(l)], row);
                }
                // a row touched by someone is owned by one of its touchers
                for (int p = 0; p < peers; ++p)
                    for (std::uint64_t row : touched[std::size_t(p)]) {
                        const int o = owners[row - begin];
                        QVERIFY(std::binary_search(touched[std::size_t(o)].begin(), touched[std::size_t(o)].end(), row));
                    }
                // what q sends p is, row for row, what p expects from q
                for (int p = 0; p < peers; ++p) {
                    const auto& out = x[std::size_t(q)].send[std::size_t(p)];
                    const auto& in = x[std::size_t(p)].receive[std::size_t(q)];
                    QCOMPARE(out.size(), in.size());
                    for (std::size_t k = 0; k < out.size(); ++k)
                        QCOMPARE(touched[std::size_t(q)][out[k]], x[std::size_t(p)].owned[in[k]]);
                }
            }
            QCOMPARE(owned, rows);
        }
    }

    void sharedRowsAreSpread() {
        // four peers touching every row: the owners split the rows evenly
        std::vector<std::vector<std::uint64_t>> touched(4);
        for (auto& list : touched)
            for (std::uint64_t i = 0; i < 1000; ++i) list.push_back(i);
        const auto owners = assign_row_owners(0, 1000, touched);
        std::vector<int> load(4, 0);
        for (int o : owners) ++load[std::size_t(o)];
        for (int l : load) QCOMPARE(l, 250);
        const RowExchange x = plan_row_exchange(0, 0, owners, touched);
        QCOMPARE(x.rows_sent(), std::uint64_t(750 + 3 * 250));  // partials out for 750 rows, 250 rows back to 3 peers
    }
};

QTEST_GUILESS_MAIN(TestRowOwnership)
#include "test_row_ownership.moc"
