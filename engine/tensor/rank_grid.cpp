#include "tscope/tensor/rank_grid.hpp"

#include <algorithm>
#include <charconv>

#include "tscope/error.hpp"
#include "tscope/tensor/nnz_split.hpp"

namespace tscope {

std::vector<int> parse_grid(const std::string& text, int order, int ranks) {
    const std::string what = "--grid '" + text + "': expected " + std::to_string(order) +
                             " positive factors joined by 'x' whose product is the " + std::to_string(ranks) + " ranks";
    std::vector<int> grid;
    std::size_t start = 0;
    while (start <= text.size()) {
        const std::size_t end = std::min(text.find('x', start), text.size());
        int v = 0;
        const auto [p, ec] = std::from_chars(text.data() + start, text.data() + end, v);
        if (ec != std::errc{} || p != text.data() + end || v < 1) throw InputError(what);
        grid.push_back(v);
        start = end + 1;
    }
    if (static_cast<int>(grid.size()) != order) throw InputError(what + " (it has " + std::to_string(grid.size()) + ")");
    long long product = 1;
    for (int g : grid) product = std::min<long long>(product * g, 1LL << 40);
    if (product != ranks) throw InputError(what + " (its product is " + std::to_string(product) + ")");
    return grid;
}

std::vector<int> choose_grid(const std::vector<std::uint64_t>& dims, int ranks) {
    if (ranks < 1) throw InputError("a grid needs at least one rank");
    if (dims.empty()) throw InputError("a grid needs a tensor of at least one mode");
    std::vector<int> primes;
    int rest = ranks;
    for (int f = 2; f * f <= rest; ++f)
        while (rest % f == 0) primes.push_back(f), rest /= f;
    if (rest > 1) primes.push_back(rest);
    std::sort(primes.rbegin(), primes.rend());
    std::vector<int> grid(dims.size(), 1);
    for (int f : primes) {
        std::size_t best = 0;  // ties go to the lowest mode: the same grid on every rank
        for (std::size_t m = 1; m < dims.size(); ++m)
            if (static_cast<long double>(dims[m]) / grid[m] > static_cast<long double>(dims[best]) / grid[best]) best = m;
        grid[best] *= f;
    }
    return grid;
}

std::string grid_name(const std::vector<int>& grid) {
    std::string s;
    for (std::size_t m = 0; m < grid.size(); ++m) {
        if (m) s += 'x';
        s += std::to_string(grid[m]);
    }
    return s;
}

std::vector<std::vector<std::uint64_t>> layer_cuts(const CooTensor& t, const std::vector<int>& grid) {
    if (static_cast<int>(grid.size()) != t.order()) throw InputError("the grid has " + std::to_string(grid.size()) +
                                                                     " factors for a tensor of order " + std::to_string(t.order()));
    std::vector<std::vector<std::uint64_t>> cuts;
    for (int m = 0; m < t.order(); ++m) cuts.push_back(balanced_cuts(slice_counts(t, m), grid[static_cast<std::size_t>(m)]));
    return cuts;
}

int layer_of(const std::vector<std::uint64_t>& cuts, std::uint64_t i) {
    // upper_bound: a layer left empty by the cuts (equal boundaries) never owns an index
    return static_cast<int>(std::upper_bound(cuts.begin() + 1, cuts.end() - 1, i) - (cuts.begin() + 1));
}

int block_rank(const std::vector<int>& grid, const std::vector<int>& coords) {
    int r = 0;
    for (std::size_t m = 0; m < grid.size(); ++m) r = r * grid[m] + coords[m];
    return r;
}

std::vector<int> block_coords(const std::vector<int>& grid, int rank) {
    std::vector<int> coords(grid.size());
    for (std::size_t m = grid.size(); m-- > 0;) coords[m] = rank % grid[m], rank /= grid[m];
    return coords;
}

}  // namespace tscope
