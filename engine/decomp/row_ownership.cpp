#include "decomp/row_ownership.hpp"

#include <algorithm>

namespace tscope::detail {

namespace {

// The peer among `candidates` owning fewest rows (ties: the lowest peer, the same on every rank).
int least_loaded(const std::vector<int>& candidates, const std::vector<std::uint64_t>& load) {
    int best = candidates.front();
    for (int q : candidates)
        if (load[static_cast<std::size_t>(q)] < load[static_cast<std::size_t>(best)]) best = q;
    return best;
}

}  // namespace

std::vector<int> assign_row_owners(std::uint64_t begin, std::uint64_t end,
                                   const std::vector<std::vector<std::uint64_t>>& touched) {
    const std::size_t rows = end - begin, peers = touched.size();
    // who touches each row, as offsets into one array (CSR): a row's touchers are few
    std::vector<std::uint64_t> start(rows + 1, 0);
    for (const auto& list : touched)
        for (std::uint64_t i : list) ++start[i - begin + 1];
    for (std::size_t i = 0; i < rows; ++i) start[i + 1] += start[i];
    std::vector<int> by_row(start.back());
    std::vector<std::uint64_t> fill(start.begin(), start.end() - 1);
    for (std::size_t q = 0; q < peers; ++q)
        for (std::uint64_t i : touched[q]) by_row[fill[i - begin]++] = static_cast<int>(q);

    std::vector<int> owners(rows, -1);
    std::vector<std::uint64_t> load(peers, 0);
    // private rows first: they cost nothing and fix each peer's load before the shared ones
    for (std::size_t i = 0; i < rows; ++i)
        if (start[i + 1] - start[i] == 1) owners[i] = by_row[start[i]], ++load[static_cast<std::size_t>(owners[i])];
    for (std::size_t i = 0; i < rows; ++i) {
        if (start[i + 1] - start[i] < 2) continue;
        const std::vector<int> candidates(by_row.begin() + static_cast<std::ptrdiff_t>(start[i]),
                                          by_row.begin() + static_cast<std::ptrdiff_t>(start[i + 1]));
        owners[i] = least_loaded(candidates, load);
        ++load[static_cast<std::size_t>(owners[i])];
    }
    std::vector<int> everyone(peers);
    for (std::size_t q = 0; q < peers; ++q) everyone[q] = static_cast<int>(q);
    for (std::size_t i = 0; i < rows; ++i)
        if (owners[i] < 0) owners[i] = least_loaded(everyone, load), ++load[static_cast<std::size_t>(owners[i])];
    return owners;
}

RowExchange plan_row_exchange(int me, std::uint64_t begin, const std::vector<int>& owners,
                              const std::vector<std::vector<std::uint64_t>>& touched) {
    const std::size_t peers = touched.size();
    RowExchange x;
    x.send.resize(peers);
    x.receive.resize(peers);
    const auto& mine = touched[static_cast<std::size_t>(me)];
    // my owned rows, each with its place in my touched list (both ascending: one merge)
    std::size_t k = 0;
    for (std::size_t i = 0; i < owners.size(); ++i) {
        if (owners[i] != me) continue;
        const std::uint64_t row = begin + i;
        while (k < mine.size() && mine[k] < row) ++k;
        x.owned.push_back(row);
        x.owned_local.push_back(k < mine.size() && mine[k] == row ? static_cast<std::int64_t>(k) : -1);
    }
    for (std::size_t pos = 0; pos < mine.size(); ++pos) {
        const int q = owners[mine[pos] - begin];
        if (q != me) x.send[static_cast<std::size_t>(q)].push_back(pos);
    }
    for (std::size_t q = 0; q < peers; ++q) {
        if (static_cast<int>(q) == me) continue;
        std::size_t o = 0;
        for (std::uint64_t row : touched[q]) {
            if (owners[row - begin] != me) continue;
            while (x.owned[o] < row) ++o;
            x.receive[q].push_back(o);
        }
    }
    return x;
}

std::uint64_t RowExchange::rows_sent() const {
    std::uint64_t n = 0;
    for (const auto& s : send) n += s.size();
    for (const auto& r : receive) n += r.size();
    return n;
}

std::uint64_t RowExchange::rows_received() const { return rows_sent(); }  // each row out comes back, each row in goes back

}  // namespace tscope::detail
