#include "tscope/tensor/generator.hpp"

#include <algorithm>
#include <bit>
#include <charconv>
#include <cmath>
#include <numeric>
#include <optional>
#include <set>
#include <sstream>

#include "distinct_keys.hpp"
#include "tscope/text_words.hpp"
#include "radix_sort.hpp"
#include "random.hpp"
#include "tscope/ceil_div.hpp"
#include "tscope/checks.hpp"
#include "tscope/tensor/coo_ops.hpp"
#include "tscope/text_parse.hpp"

namespace tscope {
namespace {

constexpr std::uint64_t kChunk = 1u << 16;
constexpr int kMaxRounds = 64;
constexpr std::uint64_t kWindow =
    std::uint64_t{1} << 22;  // positions filtered at once (4M: 36 MB of scratch; a cancel is seen between windows)

std::uint64_t mix(std::uint64_t a, std::uint64_t b, std::uint64_t c) {
    std::uint64_t s = a ^ (b * 0x9e3779b97f4a7c15ULL) ^ (c * 0xc2b2ae3d27d4eb4fULL);
    return detail::splitmix64(s);
}

// One mode's index distribution. Power-law indices are scattered by a fixed bijection
// i -> (a*i + b) mod dim, so heavy slices sit anywhere, as in real data, not all at the front.
class ModeSampler {
public:
    ModeSampler(std::uint64_t dim, double zipf, detail::Rng& setup) : dim_(dim) {
        if (zipf > 0 && dim > 1) {
            zipf_.emplace(dim, zipf);
            do {
                mul_ = 1 + setup.below(dim - 1);
            } while (std::gcd(mul_, dim) != 1);
            add_ = setup.below(dim);
        }
    }
    std::uint64_t operator()(detail::Rng& rng) const {
        if (!zipf_) return rng.below(dim_);
        const std::uint64_t rank = (*zipf_)(rng) - 1;
        return static_cast<std::uint64_t>((static_cast<unsigned __int128>(mul_) * rank + add_) % dim_);
    }

private:
    std::uint64_t dim_;
    std::optional<detail::ZipfSampler> zipf_;
    std::uint64_t mul_ = 1, add_ = 0;
};

struct Sampler {
    std::vector<ModeSampler> modes;                   // uniform / power-law
    std::vector<std::vector<std::uint64_t>> origins;  // blocks: origin of each block, per mode
    std::uint64_t edge = 0;
};

long double cells_of(const std::vector<std::uint64_t>& dims) {
    long double cells = 1;
    for (auto d : dims) cells *= static_cast<long double>(d);
    return cells;
}

Sampler make_sampler(const GeneratorSpec& spec) {
    detail::Rng setup(mix(spec.seed, 0xB10C5, 0));
    Sampler s;
    const std::size_t order = spec.dims.size();
    if (spec.distribution == Distribution::Blocks) {
        s.edge = spec.block_edge;
        s.origins.resize(order);
        std::set<std::vector<std::uint64_t>> distinct;  // blocks may land on the same grid cell
        for (std::uint64_t b = 0; b < spec.blocks; ++b) {
            std::vector<std::uint64_t> origin(order);
            for (std::size_t m = 0; m < order; ++m) {
                const std::uint64_t slots = ceil_div(spec.dims[m], s.edge);
                origin[m] = setup.below(slots) * s.edge;
                s.origins[m].push_back(origin[m]);
            }
            distinct.insert(origin);
        }
        long double capacity = 0;
        for (const auto& origin : distinct) {
            long double cells = 1;
            for (std::size_t m = 0; m < order; ++m)
                cells *= static_cast<long double>(std::min(s.edge, spec.dims[m] - origin[m]));
            capacity += cells;
        }
        if (static_cast<long double>(spec.nnz) > capacity)
            throw InputError("generate: " + grouped(spec.nnz) + " distinct nonzeros don't fit in the " +
                             grouped(static_cast<std::uint64_t>(capacity)) + " cells of " +
                             std::to_string(distinct.size()) + " distinct blocks");
        return s;
    }
    for (std::size_t m = 0; m < order; ++m) {
        double a = 0;
        if (spec.distribution == Distribution::PowerLaw) a = spec.zipf.size() == 1 ? spec.zipf[0] : spec.zipf[m];
        s.modes.emplace_back(spec.dims[m], a, setup);
    }
    return s;
}

// Values in {0.001, 0.002, ..., 1}: short in text (as real data is), never zero.
double draw_value(detail::Rng& rng) { return static_cast<double>(1 + rng.below(1000)) / 1000.0; }

// Draws `count` samples for round `round` into t starting at entry `at`.
template <class I, class V>
void draw(const GeneratorSpec& spec, const Sampler& s, std::uint64_t round, std::uint64_t count, CooTensor& t,
          std::uint64_t at, RunControl& control) {
    const int order = t.order();
    const std::uint64_t chunks = (count + kChunk - 1) / kChunk;
    std::vector<I*> cols;
    for (int m = 0; m < order; ++m) cols.push_back(t.indices<I>(m).data());
    V* vals = t.values<V>().data();
#pragma omp parallel for schedule(dynamic, 4)
    for (std::int64_t c = 0; c < static_cast<std::int64_t>(chunks); ++c) {
        if (control.cancelled()) continue;
        detail::Rng rng(mix(spec.seed, round + 1, static_cast<std::uint64_t>(c)));
        const std::uint64_t lo = static_cast<std::uint64_t>(c) * kChunk;
        const std::uint64_t hi = std::min(count, lo + kChunk);
        for (std::uint64_t n = at + lo; n < at + hi; ++n) {
            if (s.edge) {
                const std::uint64_t b = rng.below(s.origins[0].size());
                for (int m = 0; m < order; ++m) {
                    const std::uint64_t origin = s.origins[static_cast<std::size_t>(m)][b];
                    const std::uint64_t span = std::min(s.edge, t.dim(m) - origin);
                    cols[static_cast<std::size_t>(m)][n] = static_cast<I>(origin + rng.below(span));
                }
            } else {
                for (int m = 0; m < order; ++m)
                    cols[static_cast<std::size_t>(m)][n] = static_cast<I>(s.modes[static_cast<std::size_t>(m)](rng));
            }
            vals[n] = static_cast<V>(draw_value(rng));
        }
    }
    control.check();
}

}  // namespace

void parse_distribution(const std::string& text, GeneratorSpec& spec) {
    auto numbers = [&](const std::string& list) {
        std::vector<double> out;
        std::stringstream ss(list);
        std::string item;
        while (std::getline(ss, item, ',')) {
            double v = 0;
            if (parse_double(item, v) != std::errc()) throw InputError("--dist: '" + item + "' is not a number");
            out.push_back(v);
        }
        return out;
    };
    auto integer = [&](const std::string& s) -> std::uint64_t {
        if (s.empty() || s.find_first_not_of("0123456789") != std::string::npos)
            throw InputError("--dist: '" + s + "' is not a positive integer");
        // from_chars, not stoull: found by fuzz_cli_options, lowrank:233...3 threw
        // std::out_of_range ("stoull", exit 1) instead of saying what was wrong (exit 2)
        std::uint64_t v = 0;
        if (std::from_chars(s.data(), s.data() + s.size(), v).ec != std::errc{})
            throw InputError("--dist: '" + s + "' is too large");
        return v;
    };
    if (text == "uniform") {
        spec.distribution = Distribution::Uniform;
    } else if (text.rfind("powerlaw:", 0) == 0) {
        spec.distribution = Distribution::PowerLaw;
        spec.zipf = numbers(text.substr(9));
    } else if (text.rfind("blocks:", 0) == 0) {
        spec.distribution = Distribution::Blocks;
        const std::string rest = text.substr(7);
        const auto colon = rest.find(':');
        spec.blocks = integer(rest.substr(0, colon));
        if (colon != std::string::npos) spec.block_edge = integer(rest.substr(colon + 1));
    } else if (text.rfind("lowrank:", 0) == 0) {
        spec.distribution = Distribution::LowRank;
        spec.rank = integer(text.substr(8));
    } else {
        throw InputError("--dist: expected uniform, powerlaw:A[,A...], blocks:B[:EDGE] or lowrank:R, got '" + text + "'");
    }
}

std::string describe(const GeneratorSpec& spec) {
    std::string out;
    switch (spec.distribution) {
    case Distribution::Uniform: out = "uniform"; break;
    case Distribution::PowerLaw: {
        out = "powerlaw:";
        for (std::size_t i = 0; i < spec.zipf.size(); ++i) {
            std::ostringstream ss;
            ss << spec.zipf[i];
            if (i) out += ',';
            out += ss.str();
        }
        break;
    }
    case Distribution::Blocks:
        out = "blocks:" + std::to_string(spec.blocks) + ":" + std::to_string(spec.block_edge);
        break;
    case Distribution::LowRank: out = "lowrank:" + std::to_string(spec.rank); break;
    }
    return out + ", seed " + std::to_string(spec.seed);
}

namespace {

// Whether coordinates linearize into 64-bit keys with room for the +1 of KeySet.
bool keys_fit(const std::vector<std::uint64_t>& dims) {
    unsigned __int128 cells = 1;
    for (auto d : dims) {
        cells *= d;
        if (cells >= static_cast<unsigned __int128>(UINT64_MAX)) return false;
    }
    return true;
}

// Copies the kept entries of in[from, from + n) to out from position `have` on, in order, up
// to `limit` entries in all; returns the new count. Each thread takes one contiguous range.
template <class I, class V>
std::uint64_t compact_kept(const std::vector<const I*>& in, const V* in_vals, std::uint64_t from, std::uint64_t n,
                           const std::uint8_t* keep, const std::vector<I*>& out, V* out_vals, std::uint64_t have, std::uint64_t limit) {
    const int threads = detail::threads_for(n);
    std::vector<std::uint64_t> before(static_cast<std::size_t>(threads) + 1, 0);
    const std::size_t order = in.size();
#pragma omp parallel num_threads(threads)
    {
        const int t = detail::thread_index();
        const auto [lo, hi] = detail::thread_chunk(n, threads);
        std::uint64_t kept = 0;
        for (std::uint64_t i = lo; i < hi; ++i) kept += keep[i];
        before[static_cast<std::size_t>(t) + 1] = kept;
#pragma omp barrier
#pragma omp single
        for (int u = 0; u < threads; ++u) before[static_cast<std::size_t>(u) + 1] += before[static_cast<std::size_t>(u)];
        std::uint64_t at = have + before[static_cast<std::size_t>(t)];
        for (std::uint64_t i = lo; i < hi && at < limit; ++i)
            if (keep[i]) {
                for (std::size_t m = 0; m < order; ++m) out[m][at] = in[m][from + i];
                out_vals[at++] = in_vals[from + i];
            }
    }
    return std::min(limit, have + before.back());
}

// How many samples a round draws for the `need` nonzeros still missing: 1/8 more, and 1,024,
// against repeats. A uniform tensor finds a new cell once in cells / (cells - have) draws (the
// coupon collector), so as it fills its rounds draw that many times more: 128 x 128 filled
// whole now takes about 9 rounds, where 64 stopped at 16,362 of 16,384. Other distributions,
// and every first round, draw as before, so their tensors stay what a seed gave them.
std::uint64_t round_draws(const GeneratorSpec& spec, std::uint64_t have, std::uint64_t need) {
    if (spec.distribution != Distribution::Uniform || have == 0) return need + need / 8 + 1024;
    const long double cells = cells_of(spec.dims);
    const auto scaled = static_cast<std::uint64_t>(std::ceil(static_cast<long double>(need) * cells / (cells - have)));
    return scaled + scaled / 8 + 1024;
}

// The error when 64 rounds still fall short: what to lower depends on the distribution.
[[noreturn]] void too_few_distinct(const GeneratorSpec& spec, std::uint64_t have) {
    const std::string what = spec.distribution == Distribution::PowerLaw ? "lower nnz or the exponent"
                             : spec.distribution == Distribution::Blocks ? "lower nnz, or give more or larger blocks"
                                                                         : "lower nnz";
    throw InputError("generate: only " + std::to_string(have) + " distinct nonzeros after " + std::to_string(kMaxRounds) +
                     " rounds of sampling; the distribution is too concentrated for " + grouped(spec.nnz) + " (" +
                     what + ")");
}

// Draws batches in parallel (each batch a function of seed and batch number only) and keeps,
// in draw order, the first occurrence of each coordinate until nnz are kept: the result is the
// same whatever the thread count. Batches are filtered window by window, each window on every
// thread (keys, the sharded duplicate filter, an ordered compaction).
template <class I, class V>
void fill_distinct(const GeneratorSpec& spec, const Sampler& sampler, CooTensor& t, RunControl& control) {
    const int order = t.order();
    detail::DistinctKeys seen(spec.nnz + spec.nnz / 8 + 1024);
    t.resize(spec.nnz);
    std::vector<I*> out;
    for (int m = 0; m < order; ++m) out.push_back(t.indices<I>(m).data());
    V* out_vals = t.values<V>().data();
    std::uint64_t have = 0;
    const std::uint64_t window = std::min<std::uint64_t>(kWindow, spec.nnz + spec.nnz / 8 + 1024);
    std::vector<std::uint64_t> keys(window);
    std::vector<std::uint8_t> keep(window);
    for (int batch_no = 0; have < spec.nnz; ++batch_no) {
        if (batch_no == kMaxRounds) too_few_distinct(spec, have);
        const std::uint64_t need = spec.nnz - have;
        CooTensor batch(spec.dims, t.index_width(), t.value_type());
        batch.resize(round_draws(spec, have, need));
        draw<I, V>(spec, sampler, static_cast<std::uint64_t>(batch_no), batch.nnz(), batch, 0, control);
        std::vector<const I*> in;
        for (int m = 0; m < order; ++m) in.push_back(batch.indices<I>(m).data());
        const V* in_vals = batch.values<V>().data();
        for (std::uint64_t from = 0; from < batch.nnz() && have < spec.nnz; from += window) {
            const auto n = static_cast<std::int64_t>(std::min(window, batch.nnz() - from));
#pragma omp parallel for schedule(static)
            for (std::int64_t i = 0; i < n; ++i) {
                std::uint64_t key = 0;
                for (int m = 0; m < order; ++m) key = key * spec.dims[static_cast<std::size_t>(m)] + in[static_cast<std::size_t>(m)][from + i];
                keys[static_cast<std::size_t>(i)] = key;
            }
            seen.mark_new(keys.data(), static_cast<std::uint64_t>(n), keep.data());
            have = compact_kept<I, V>(in, in_vals, from, static_cast<std::uint64_t>(n), keep.data(), out, out_vals, have, spec.nnz);
            control.check();  // a window at a time: the first batch is the whole tensor (seconds at 40M)
        }
        control.progress(have, spec.nnz);
        control.check();
    }
}

// For shapes whose keys overflow 64 bits: draw, sum duplicates, draw the shortfall again.
template <class I, class V>
void fill_by_rounds(const GeneratorSpec& spec, const Sampler& sampler, CooTensor& t, RunControl& control) {
    for (int round = 0; t.nnz() < spec.nnz; ++round) {
        if (round == kMaxRounds) too_few_distinct(spec, t.nnz());
        const std::uint64_t have = t.nnz();
        const std::uint64_t need = spec.nnz - have;
        t.resize(spec.nnz);
        draw<I, V>(spec, sampler, static_cast<std::uint64_t>(round), need, t, have, control);
        sum_duplicates(t, control);
        control.progress(t.nnz(), spec.nnz);
    }
}

// Each mode's support in one component: whole numbers near (nnz / rank)^(1/N) whose product is
// the largest that stays within nnz / rank. All rounded up, as before, 8 modes of 1000 / 1 made
// 3^8 = 6,561 nonzeros and 16 modes 262x what was asked; rounded down, then raised a mode at a
// time while the product fits, 8 modes make 864 (3^3 2^5).
std::vector<std::uint64_t> low_rank_supports(const GeneratorSpec& spec) {
    const std::size_t order = spec.dims.size();
    const long double per_component = static_cast<long double>(spec.nnz) / static_cast<long double>(spec.rank);
    const auto base = static_cast<std::uint64_t>(std::floor(std::pow(per_component, 1.0L / order) + 1e-9L));
    std::vector<std::uint64_t> support(order);
    long double cells = 1;
    for (std::size_t m = 0; m < order; ++m) {
        support[m] = std::clamp<std::uint64_t>(base, 1, spec.dims[m]);
        cells *= static_cast<long double>(support[m]);
    }
    for (std::size_t m = 0; m < order; ++m) {
        const long double raised = cells / static_cast<long double>(support[m]) * static_cast<long double>(support[m] + 1);
        if (support[m] < spec.dims[m] && raised <= per_component + 1e-9L) {
            cells = raised;
            ++support[m];
        }
    }
    return support;
}

// LowRank: every combination of each component's supports, value prod_m a_m(i_m, r).
CooTensor generate_low_rank(const GeneratorSpec& spec, RunControl& control) {
    const int order = static_cast<int>(spec.dims.size());
    const std::vector<std::uint64_t> support = low_rank_supports(spec);
    std::uint64_t cells = 1;
    for (std::uint64_t s : support) cells *= s;
    detail::Rng rng(mix(spec.seed, 0x10e4a, spec.rank));
    CooTensor t(spec.dims, spec.values);
    t.resize(cells * spec.rank);
    std::vector<std::vector<std::uint64_t>> where(spec.dims.size());
    std::vector<std::vector<double>> value(spec.dims.size());
    std::vector<std::uint64_t> coord(spec.dims.size());
    std::uint64_t z = 0;
    control.stage("generating");
    for (std::uint64_t r = 0; r < spec.rank; ++r) {
        control.check();
        for (int m = 0; m < order; ++m) {  // s distinct places (Floyd's sampling), values in [0.5, 1.5)
            const std::uint64_t d = spec.dims[static_cast<std::size_t>(m)], s = support[static_cast<std::size_t>(m)];
            std::set<std::uint64_t> chosen;
            for (std::uint64_t j = d - s; j < d; ++j) {
                const std::uint64_t pick = rng.below(j + 1);
                chosen.insert(chosen.count(pick) ? j : pick);
            }
            where[static_cast<std::size_t>(m)].assign(chosen.begin(), chosen.end());
            value[static_cast<std::size_t>(m)].clear();
            for (std::uint64_t j = 0; j < s; ++j) value[static_cast<std::size_t>(m)].push_back(0.5 + rng.uniform());
        }
        for (std::uint64_t c = 0; c < cells; ++c, ++z) {
            std::uint64_t rest = c;
            double v = 1;
            for (int m = order - 1; m >= 0; --m) {
                const std::uint64_t k = rest % support[static_cast<std::size_t>(m)];
                rest /= support[static_cast<std::size_t>(m)];
                coord[static_cast<std::size_t>(m)] = where[static_cast<std::size_t>(m)][k];
                v *= value[static_cast<std::size_t>(m)][k];
            }
            t.set(z, coord, v);
        }
        control.progress(r + 1, spec.rank);
    }
    control.stage("sorting");
    sort_lexicographic(t, {}, control);
    sum_duplicates(t, control);
    return t;
}

}  // namespace

void check_generator_spec(const GeneratorSpec& spec) {
    if (spec.dims.empty() || spec.dims.size() > static_cast<std::size_t>(kMaxOrder))
        throw InputError("generate: give between 1 and " + std::to_string(kMaxOrder) + " dims");
    for (auto d : spec.dims)
        if (d == 0) throw InputError("generate: every dim must be at least 1");
    if (spec.nnz == 0) throw InputError("generate: nnz must be at least 1");
    long double capacity = cells_of(spec.dims);
    if (spec.distribution == Distribution::PowerLaw) {
        if (spec.zipf.size() != 1 && spec.zipf.size() != spec.dims.size())
            throw InputError("generate: powerlaw needs one exponent or one per mode (" +
                             std::to_string(spec.dims.size()) + ")");
        for (double a : spec.zipf)
            if (!std::isfinite(a) || a < 0) throw InputError("generate: Zipf exponents must be finite and >= 0");
    }
    if (spec.distribution == Distribution::Blocks) {
        if (spec.blocks == 0) throw InputError("generate: blocks needs at least 1 block");
        if (spec.blocks > spec.nnz)  // each block's origin is held: a count past the nonzeros only costs memory
            throw InputError("generate: blocks:" + std::to_string(spec.blocks) + " places more blocks than the " +
                             grouped(spec.nnz) + " nonzeros; give at most that many");
        if (spec.block_edge == 0) throw InputError("generate: the block edge must be at least 1");
    }
    if (spec.distribution == Distribution::LowRank && spec.rank == 0)
        throw InputError("generate: lowrank needs a rank of at least 1");
    if (spec.distribution == Distribution::LowRank && spec.rank > spec.nnz)
        throw InputError("generate: lowrank:" + std::to_string(spec.rank) + " has more components than the " +
                         grouped(spec.nnz) + " nonzeros; give at most that many");
    // the tensor, a first batch of draws about as large and the duplicate filter's keys, at once
    const long double per_nnz =
        static_cast<long double>(spec.dims.size()) * static_cast<long double>(CooTensor::width_for(spec.dims)) +
        (spec.values == ValueType::F32 ? 4.0L : 8.0L);
    check_fits_memory(static_cast<long double>(spec.nnz) * (2.2L * per_nnz + 24.0L),
                      "generate: " + grouped(spec.nnz) + " nonzeros of " + std::to_string(spec.dims.size()) +
                          " modes (the tensor and the draws that make it)");
    if (static_cast<long double>(spec.nnz) > capacity)
        throw InputError(
            "generate: " + grouped(spec.nnz) + " distinct nonzeros don't fit in " +
            (capacity < 1e19L ? grouped(static_cast<std::uint64_t>(capacity)) : std::string("more than 10^19")) +
            " cells");
}

CooTensor generate_tensor(const GeneratorSpec& spec, RunControl& control) {
    check_generator_spec(spec);
    if (spec.distribution == Distribution::LowRank) return generate_low_rank(spec, control);
    const Sampler sampler = make_sampler(spec);
    CooTensor t(spec.dims, spec.values);
    control.stage("generating");
    t.visit([&](auto itag, auto vtag) {
        using I = typename decltype(itag)::type;
        using V = typename decltype(vtag)::type;
        if (keys_fit(spec.dims))
            fill_distinct<I, V>(spec, sampler, t, control);
        else
            fill_by_rounds<I, V>(spec, sampler, t, control);
    });
    control.stage("sorting");
    if (!is_sorted_lexicographic(t)) sort_lexicographic(t, {}, control);
    return t;
}

}  // namespace tscope
