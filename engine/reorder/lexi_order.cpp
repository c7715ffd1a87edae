// Lexi-Order (Li et al., ICS 2019, Sec. 4): doubly lexical ordering (Lubiw 1987) carried to
// tensors by ordering one mode at a time against the others' current orders.
#include <algorithm>
#include <numeric>
#include <span>

#include "reorder/reorder_methods.hpp"

namespace tscope::detail {

namespace {

// A column of X_(n) is the other modes' new ids packed, the lowest mode most significant: in 64
// bits where they fit (faster sorts), else in 128 (any 4 modes of up to 2^32 indices; beyond
// that the lowest mode's top bits would be lost, and with them some of the order's quality,
// never the permutation).

unsigned bits_for(std::uint64_t dim) {
    unsigned b = 1;
    while (b < 64 && (std::uint64_t{1} << b) < dim) ++b;
    return b;
}

// new_id[m][old] from old_id[m][new]
std::vector<std::uint64_t> inverse(const std::vector<std::uint64_t>& old_id) {
    std::vector<std::uint64_t> inv(old_id.size());
    for (std::uint64_t k = 0; k < old_id.size(); ++k) inv[old_id[k]] = k;
    return inv;
}

// The rows of X_(n) (mode n's indices) each with its columns, ascending: a CSR by counting sort.
template <class Key> struct Rows {
    std::vector<std::uint64_t> start;
    std::vector<Key> cols;
};

template <class Key> Rows<Key> unfold(const CooTensor& t, int n, const std::vector<std::vector<std::uint64_t>>& new_id) {
    const std::uint64_t nnz = t.nnz(), rows = t.dim(n);
    const auto order = static_cast<std::size_t>(t.order());
    Rows<Key> u;
    u.start.assign(rows + 1, 0);
    std::vector<unsigned> shift(order, 0);
    unsigned used = 0;
    for (int m = t.order() - 1; m >= 0; --m)
        if (m != n) shift[static_cast<std::size_t>(m)] = used, used += bits_for(t.dim(m));
    u.cols.resize(nnz);
    t.visit([&](auto itag, auto) {
        using I = typename decltype(itag)::type;
        // the columns' arrays taken once: indices<I>() checks the mode and width at every call
        std::vector<const I*> idx(order);
        for (std::size_t m = 0; m < order; ++m) idx[m] = t.indices<I>(static_cast<int>(m)).data();
        const I* row_of = idx[static_cast<std::size_t>(n)];
        for (std::uint64_t z = 0; z < nnz; ++z) ++u.start[row_of[z] + 1];
        std::partial_sum(u.start.begin(), u.start.end(), u.start.begin());
        std::vector<std::uint64_t> fill(u.start.begin(), u.start.end() - 1);
        for (std::uint64_t z = 0; z < nnz; ++z) {
            Key k = 0;
            for (std::size_t m = 0; m < order; ++m)
                if (m != static_cast<std::size_t>(n)) k |= static_cast<Key>(new_id[m][idx[m][z]]) << shift[m];
            u.cols[fill[row_of[z]]++] = k;
        }
    });
    const auto r = static_cast<std::int64_t>(rows);
#pragma omp parallel for schedule(dynamic, 256)
    for (std::int64_t i = 0; i < r; ++i) std::sort(u.cols.begin() + static_cast<std::ptrdiff_t>(u.start[std::size_t(i)]),
                                                   u.cols.begin() + static_cast<std::ptrdiff_t>(u.start[std::size_t(i) + 1]));
    return u;
}

// Row a before row b in lexically decreasing order of their 0/1 vectors.
template <class Key> bool lex_before(std::span<const Key> a, std::span<const Key> b) {
    const std::size_t n = std::min(a.size(), b.size());
    for (std::size_t k = 0; k < n; ++k)
        if (a[k] != b[k]) return a[k] < b[k];  // the earlier first column is the larger vector
    return a.size() > b.size();               // a extends b: a has a one where b has none
}

template <class Key>
std::vector<std::uint64_t> order_mode(const CooTensor& t, int n, const std::vector<std::vector<std::uint64_t>>& new_id) {
    const Rows<Key> u = unfold<Key>(t, n, new_id);
    auto row = [&](std::uint64_t i) {
        return std::span<const Key>(u.cols.data() + u.start[i], u.start[i + 1] - u.start[i]);
    };
    // stable: equal rows keep their current relative order, so a round that changes nothing is seen
    std::vector<std::uint64_t> current = inverse(new_id[static_cast<std::size_t>(n)]);
    std::stable_sort(current.begin(), current.end(), [&](std::uint64_t a, std::uint64_t b) { return lex_before(row(a), row(b)); });
    return current;
}

}  // namespace

ModeOrders lexi_order(const CooTensor& t, ModeOrders old_id, int max_iters, int* iterations,
                      const std::function<void()>& after_step) {
    std::vector<std::vector<std::uint64_t>> new_id;
    for (const std::vector<std::uint64_t>& o : old_id) new_id.push_back(inverse(o));
    int rounds = 0;
    for (bool changed = true; changed && rounds < max_iters; ++rounds) {
        changed = false;
        for (int n = 0; n < t.order(); ++n) {
            unsigned bits = 0;
            for (int m = 0; m < t.order(); ++m)
                if (m != n) bits += bits_for(t.dim(m));
            std::vector<std::uint64_t> next = bits <= 64 ? order_mode<std::uint64_t>(t, n, new_id) : order_mode<unsigned __int128>(t, n, new_id);
            if (next != old_id[static_cast<std::size_t>(n)]) changed = true;
            new_id[static_cast<std::size_t>(n)] = inverse(next);
            old_id[static_cast<std::size_t>(n)] = std::move(next);
            after_step();
        }
    }
    if (iterations) *iterations = rounds;
    return old_id;
}

}  // namespace tscope::detail
