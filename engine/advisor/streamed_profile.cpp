// The profile of a .tsb read in parts (streamed_profile.hpp): the statistics, fiber sketch and
// tile map passes that already serve the streamed Overview and Density, and one pass that counts
// the formats' trees and HiCOO's blocks over blocks of whole slices of mode 1.
#include "tscope/advisor/streamed_profile.hpp"
#include "tscope/formats/hls_format.hpp"
#include "tscope/text_words.hpp"

#include <algorithm>
#include <bit>
#include <chrono>
#include <cmath>
#include <iterator>
#include <map>

#include "advisor/profile_counts.hpp"
#include "formats/format_builders.hpp"  // default_mode_order: SPLATT's CSF order
#include "tensor/random.hpp"
#include "tscope/error.hpp"
#include "tscope/io/tsb_part.hpp"
#include "tscope/kernels/sptv.hpp"
#include "tscope/tensor/fiber_sketch.hpp"
#include "tscope/tensor/streamed_density.hpp"
#include "tscope/tensor/streamed_stats.hpp"

namespace tscope {

namespace {

constexpr std::uint64_t kDefaultPart = std::uint64_t{4} << 20;

bool has_mode0(const std::vector<int>& order, std::size_t count) {
    return std::find(order.begin(), order.begin() + static_cast<std::ptrdiff_t>(count), 0) != order.begin() + static_cast<std::ptrdiff_t>(count);
}

std::uint32_t mask_of(const std::vector<int>& order, std::size_t count) {
    std::uint32_t mask = 0;
    for (std::size_t l = 0; l < count; ++l) mask |= 1u << order[l];
    return mask;
}

// HiCOO's blocks over entries in slice order of mode 1, exactly: a block is (i1 >> b, the other
// modes' i >> b); groups of 2^b slices arrive in order, and the group still open when a batch
// ends keeps its blocks' keys (sorted, unique) to count only the new ones of the next batch.
class HicooBlockCount {
public:
    HicooBlockCount(const std::vector<std::uint64_t>& dims, int bits) : bits_(bits) {
        unsigned total = 0;
        for (std::size_t m = 1; m < dims.size(); ++m) {
            widths_.push_back(static_cast<unsigned>(std::bit_width(dims[m] >> bits)));
            total += widths_.back();
        }
        packed_ = total <= 64;
    }
    void add(const std::vector<std::vector<std::uint64_t>>& cols, std::size_t count) {
        std::vector<std::uint64_t> keys;
        for (std::size_t z = 0; z < count;) {
            const std::uint64_t group = cols[0][z] >> bits_;
            keys.clear();
            for (; z < count && (cols[0][z] >> bits_) == group; ++z) keys.push_back(key(cols, z));
            std::sort(keys.begin(), keys.end());
            keys.erase(std::unique(keys.begin(), keys.end()), keys.end());
            if (group != open_group_) {
                blocks_ += keys.size();
                open_group_ = group;
                open_keys_ = keys;
                continue;
            }
            std::vector<std::uint64_t> merged;
            std::set_union(open_keys_.begin(), open_keys_.end(), keys.begin(), keys.end(), std::back_inserter(merged));
            blocks_ += merged.size() - open_keys_.size();
            open_keys_ = std::move(merged);
        }
    }
    std::uint64_t blocks() const { return blocks_; }

private:
    // the other modes' block coordinates, as the loaded tensor's count keys them
    std::uint64_t key(const std::vector<std::vector<std::uint64_t>>& cols, std::size_t z) const {
        std::uint64_t k = 0;
        for (std::size_t m = 1; m < cols.size(); ++m) k = detail::hicoo_key_step(k, cols[m][z] >> bits_, widths_[m - 1], packed_);
        return k;
    }
    int bits_;
    std::vector<unsigned> widths_;
    bool packed_ = true;
    std::uint64_t open_group_ = ~std::uint64_t{0};
    std::vector<std::uint64_t> open_keys_;
    std::uint64_t blocks_ = 0;
};

// One tree's counts summed over the blocks, where a block's count is the whole's share.
struct TreeTally {
    std::vector<int> order;
    TreeCounts sum;
};

// The blocks-of-slices pass: whole slices of mode 1 gathered into blocks of about `block`
// nonzeros, each block's trees counted (tree_counts) and added up, and its HiCOO blocks; every
// prefix without mode 1 fed to a HyperLogLog.
class SliceBlockPass {
public:
    // Blocks of about `block` nonzeros; one slice may hold up to 4 blocks' worth.
    SliceBlockPass(const std::vector<std::uint64_t>& dims, const std::vector<std::vector<int>>& orders, std::uint64_t threshold,
                   int hicoo_bits, std::uint64_t block)
        : dims_(dims), threshold_(threshold), cap_(block), slice_cap_(4 * block), cols_(dims.size()), hicoo_(dims, hicoo_bits) {
        for (const auto& o : orders) {
            if (std::none_of(tallies_.begin(), tallies_.end(), [&](const TreeTally& t) { return t.order == o; }))
                tallies_.push_back({o, TreeCounts{o, std::vector<std::uint64_t>(o.size(), 0)}});
            for (std::size_t l = 2; l < o.size(); ++l)  // a single mode's prefix is its slices: exact from the statistics
                if (!has_mode0(o, l)) sketches_.try_emplace(mask_of(o, l));
        }
    }

    void add(const CooTensor& part) {
        part.visit([&](auto itag, auto vtag) {
            using I = typename decltype(itag)::type;
            using V = typename decltype(vtag)::type;
            const V* vals = part.values<V>().data();
            std::vector<const I*> col;
            for (std::size_t m = 0; m < cols_.size(); ++m) col.push_back(part.indices<I>(static_cast<int>(m)).data());
            const I* slice = col[0];
            for (std::uint64_t z = 0; z < part.nnz(); ++z) {
                if (vals[z] == V{0}) continue;
                const std::uint64_t s = slice[z];
                if (started_ && s < slice_) throw InputError("the file is not in slice order of mode 1 (convert it again with tensorscope-cli convert)");
                if (!started_ || s != slice_) end_slice(s);
                for (std::size_t m = 0; m < cols_.size(); ++m) cols_[m].push_back(col[m][z]);
                if (cols_[0].size() - slice_start_ > slice_cap_)
                    throw SliceExceedsParts("slice " + std::to_string(s + 1) + " of mode 1 holds more than " +
                                            grouped(slice_cap_) + " nonzeros, 4 parts of " + grouped(cap_) +
                                            ", which a slice may hold at most: read in larger parts");
            }
        });
    }

    // The totals, once every part is in.
    void finish() {
        if (started_) count_block(cols_[0].size());
    }
    const std::vector<TreeTally>& tallies() const { return tallies_; }
    double sketched(std::uint32_t mask) const { return sketches_.at(mask).estimate(); }
    std::uint64_t hicoo_blocks() const { return hicoo_.blocks(); }

private:
    // slice s begins: the entries held so far are whole slices; count them once a block is full
    void end_slice(std::uint64_t s) {
        if (started_ && cols_[0].size() >= cap_) count_block(cols_[0].size());
        slice_start_ = cols_[0].size();
        slice_ = s, started_ = true;
    }

    void count_block(std::size_t count) {
        CooTensor block(dims_, ValueType::F32);
        block.resize(count);
        block.visit([&](auto itag, auto) {
            using I = typename decltype(itag)::type;
            for (std::size_t m = 0; m < cols_.size(); ++m) {
                I* c = block.indices<I>(static_cast<int>(m)).data();
                for (std::size_t z = 0; z < count; ++z) c[z] = static_cast<I>(cols_[m][z]);
            }
        });
        std::fill(block.values<float>().begin(), block.values<float>().end(), 1.0f);
        for (TreeTally& t : tallies_) add_tree(t, tree_counts(block, t.order, threshold_));
        hicoo_.add(cols_, count);
        sketch(count);
        for (auto& c : cols_) c.erase(c.begin(), c.begin() + static_cast<std::ptrdiff_t>(count));
        slice_start_ -= std::min(slice_start_, count);
    }

    static void add_tree(TreeTally& t, const TreeCounts& c) {
        for (std::size_t l = 0; l < c.nodes.size(); ++l) t.sum.nodes[l] += c.nodes[l];
        t.sum.nnz += c.nnz;
        t.sum.split_fibers += c.split_fibers;
        t.sum.ell_blocks += c.ell_blocks;
        t.sum.ell_cells += c.ell_cells;
        t.sum.max_slice_nnz = std::max(t.sum.max_slice_nnz, c.max_slice_nnz);
    }

    // every held entry's prefixes without mode 1 into their sketches
    void sketch(std::size_t count) {
        if (sketches_.empty()) return;
        const std::size_t order = cols_.size();
        std::vector<std::uint64_t> h(order);
        for (std::size_t z = 0; z < count; ++z) {
            for (std::size_t m = 0; m < order; ++m) h[m] = detail::mix64(cols_[m][z] * 0x9e3779b97f4a7c15ull + m + 1);
            for (auto& [mask, hll] : sketches_) {
                std::uint64_t key = 0;
                for (std::size_t m = 0; m < order; ++m)
                    if (mask >> m & 1u) key += h[m];
                hll.add(detail::mix64(key));
            }
        }
    }

    std::vector<std::uint64_t> dims_;
    std::uint64_t threshold_;
    std::uint64_t cap_, slice_cap_;
    std::vector<std::vector<std::uint64_t>> cols_;  // the held entries' indices, per mode
    std::size_t slice_start_ = 0;                    // where the current slice's entries begin
    std::uint64_t slice_ = 0;
    bool started_ = false;
    std::vector<TreeTally> tallies_;
    std::map<std::uint32_t, HyperLogLog> sketches_;  // by the prefix's modes (bit m: mode m)
    HicooBlockCount hicoo_;
};

// The tree over `order` from the blocks' sums, the statistics and the sketches; sketched says
// whether any of its counts is an estimate.
TreeCounts whole_tree(const std::vector<int>& order, const SliceBlockPass& pass, const TensorProfile& p, const FiberSketch& fibers,
                      bool& sketched) {
    const auto& tallies = pass.tallies();
    const TreeCounts& sum = std::find_if(tallies.begin(), tallies.end(), [&](const TreeTally& t) { return t.order == order; })->sum;
    TreeCounts c = sum;
    const std::size_t n = order.size();
    sketched = false;
    for (std::size_t l = 0; l + 1 < n; ++l) {
        if (has_mode0(order, l + 1)) continue;  // summed over the blocks: exact
        if (l == 0) {
            c.nodes[0] = p.stats.modes[static_cast<std::size_t>(order[0])].slices;
        } else {
            c.nodes[l] = static_cast<std::uint64_t>(std::llround(pass.sketched(mask_of(order, l + 1))));
            sketched = true;
        }
    }
    c.nodes[n - 1] = p.nnz;
    c.nnz = p.nnz;
    c.max_slice_nnz = p.stats.modes[static_cast<std::size_t>(order[0])].slice_nnz.max;
    if (n >= 2 && order[n - 1] == 0) {  // mode 1's fibers: their pieces from the sample
        c.split_fibers = static_cast<std::uint64_t>(std::llround(fibers.split_fibers[0]));
        sketched = true;
    }
    return c;
}

// Whether HOCFS-ELL's blocks (the fibers' parents) of this tree lie within slices of mode 1.
bool ell_counted(const std::vector<int>& order) { return order.size() >= 3 && has_mode0(order, order.size() - 2); }

// "(2, 1, 3)": a mode order as the user counts modes.
std::string order_text(const std::vector<int>& order) {
    std::string s = "(";
    for (std::size_t l = 0; l < order.size(); ++l) s += (l ? ", " : "") + std::to_string(order[l] + 1);
    return s + ")";
}

// The refusal the build would give for the format's size (format_builders.hpp), from the counts.
std::string size_refusal(const TensorProfile& p, FormatKind kind, int mode) {
    const auto m = static_cast<std::size_t>(mode);
    if (kind == FormatKind::HOCFS_ELL) {
        const bool root = !p.root_trees.empty();
        const TreeCounts& tree = root ? p.root_trees[m] : p.sptv_trees[m];
        return hocfs_ell_refusal(tree.order, p.nnz, tree.ell_cells, p.index_max());
    }
    if (kind == FormatKind::sCOO) return scoo_refusal(mode, p.stats.modes[m].fibers, p.dims[m]);
    // HOCSR's rows are the index tuples of the modes before the last, in the order the survey
    // builds (the mode first, or --mode-order: the root trees' order): past 2^29 the build
    // refuses, and the survey predicted bytes
    if (kind == FormatKind::HOCSR) return hocsr_refusal(p.dims, p.root_trees[m].order);
    return {};
}

}  // namespace

TensorProfile profile_tsb(const std::string& path, const FormatOptions& options, std::uint64_t part_nnz, RunControl& control) {
    const auto start = std::chrono::steady_clock::now();
    if (part_nnz == 0) part_nnz = kDefaultPart;
    const TsbHeader header = read_tsb_header(path);
    const int order = static_cast<int>(header.dims.size());
    TensorProfile p;
    p.dims = header.dims;
    p.options = options;
    p.value_bytes = header.values == ValueType::F32 ? 4 : 8;

    control.stage("statistics, streamed");
    const StreamedStats s = stream_tsb_stats(path, part_nnz, control);
    p.nnz = s.nnz;
    p.stats = s.stats;
    constexpr std::uint64_t u32 = 0xffffffffull;
    p.index_bytes = p.nnz < u32 && std::all_of(p.dims.begin(), p.dims.end(), [](std::uint64_t d) { return d <= u32; }) ? 4 : 8;

    const FiberSketch fibers = sketch_tsb_fibers(path, part_nnz, control, options.bcsf_fiber_threshold);
    p.sketched.any = true;
    p.sketched.fibers.assign(static_cast<std::size_t>(order), false);
    for (int m = 0; m < order; ++m) {
        const auto k = static_cast<std::size_t>(m);
        p.sketched.fibers[k] = !fibers.exact[k];
        p.stats.modes[k].fibers = fibers.exact[k] ? fibers.fiber_nnz[k].count : static_cast<std::uint64_t>(std::llround(fibers.fibers[k]));
        p.stats.modes[k].fiber_nnz = fibers.exact[k] ? fibers.fiber_nnz[k] : fibers.sampled_nnz[k];
    }

    const CooTensor shape(p.dims, ValueType::F32);  // the mode orders depend on the dims only
    std::vector<std::vector<int>> csf_orders, sptv_orders, root_orders;
    for (int m = 0; m < order; ++m) {  // a --mode-order given is every tree's order, as the builders take it
        const std::vector<int>& given = options.mode_order;
        csf_orders.push_back(given.empty() ? default_mode_order(shape, m) : given);
        sptv_orders.push_back(given.empty() ? sptv_options(FormatKind::CSF, order, m).mode_order : given);
        root_orders.push_back(given.empty() ? mode_first_order(order, m) : given);
    }
    std::vector<std::vector<int>> all = csf_orders;
    all.insert(all.end(), sptv_orders.begin(), sptv_orders.end());
    all.insert(all.end(), root_orders.begin(), root_orders.end());
    SliceBlockPass pass(p.dims, all, options.bcsf_fiber_threshold, options.hicoo_bits, part_nnz);
    control.stage("format counts, a block of slices at a time");
    for (std::uint64_t first = 0; first < header.nnz; first += part_nnz) {
        control.check();
        const CooTensor part = read_tsb_part(path, first, part_nnz, LoadOptions{ValueType::F64, true}).tensor;
        try {
            pass.add(part);
        } catch (const SliceExceedsParts& e) {  // the pass's refusals name the file, as the reads' do
            throw SliceExceedsParts(path + ": " + e.what());
        } catch (const InputError& e) {
            throw InputError(path + ": " + e.what());
        }
        control.progress(std::min(first + part_nnz, header.nnz), header.nnz);
    }
    pass.finish();
    auto ell_missing = [&](const std::vector<int>& o) {
        return ell_counted(o) ? std::string()
                              : "HOCFS-ELL pads each block of fibers to its longest; in the order " + order_text(o) +
                                    " the blocks cross the slices of mode 1, and a bounded pass cannot find their longest fibers";
    };
    for (int m = 0; m < order; ++m) {
        const auto k = static_cast<std::size_t>(m);
        bool sketched = false;
        p.csf_trees.push_back(whole_tree(csf_orders[k], pass, p, fibers, sketched));
        p.sketched.csf_trees.push_back(sketched);
        p.sptv_trees.push_back(whole_tree(sptv_orders[k], pass, p, fibers, sketched));
        p.sketched.sptv_trees.push_back(sketched);
        p.sketched.sptv_ell_missing.push_back(ell_missing(sptv_orders[k]));
        p.root_trees.push_back(whole_tree(root_orders[k], pass, p, fibers, sketched));
        p.sketched.root_trees.push_back(sketched);
        p.sketched.root_ell_missing.push_back(ell_missing(root_orders[k]));
    }
    p.hicoo_blocks = pass.hicoo_blocks();
    p.sketched.mmcsf_missing = "MM-CSF places each nonzero by the lengths of all its fibers at once (mm-csf Alg. 5), "
                               "which a bounded pass over the file cannot hold";

    p.hls_defined = hls_refusal(p.dims).empty();
    if (p.hls_defined) {
        const StreamedDensity d = stream_tsb_density(path, 0, 0, 1, 256, part_nnz, control, options.hls_threshold);
        if (d.tiles) {
            p.hls_tiles = d.tiles->tiles, p.hls_dense_tiles = d.tiles->dense_tiles, p.hls_dense_nnz = d.tiles->dense_nnz;
            p.hls_dense_minority = d.tiles->dense_minority;
            const DenseTiles ttmc = dense_tiles_at(*d.tiles, options.hls_ttmc_threshold);
            p.hls_ttmc_dense_tiles = ttmc.tiles, p.hls_ttmc_dense_nnz = ttmc.nnz;
        } else {
            p.sketched.hls_missing = d.tiles_unavailable;
        }
        int bits = 0;  // HLS's linear index: each mode's ceil(log2 dim) bits (hls_format.cpp)
        for (std::uint64_t dim : p.dims) bits += static_cast<int>(std::bit_width(dim - 1));
        p.hls_index_bytes = bits <= 32 ? 4 : 8;
    }
    control.progress(1, 1);
    p.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return p;
}

std::vector<FormatRow> predicted_survey(const TensorProfile& profile, const SurveyRequest& request) {
    std::vector<FormatRow> rows;
    const std::vector<FormatKind> kinds = request.formats.empty() ? available_formats() : request.formats;
    std::vector<int> modes = request.modes;
    if (modes.empty())
        for (int m = 0; m < profile.order(); ++m) modes.push_back(m);
    for (FormatKind kind : kinds) {
        const bool per_mode = format_is_per_mode(kind);
        for (int mode : per_mode ? modes : std::vector<int>{-1}) {
            FormatRow row;
            row.kind = kind;
            row.mode = mode;
            row.predicted = true;
            try {
                bool exact = true;
                const std::uint64_t bytes = predicted_storage(profile, KernelKind::MTTKRP, kind, std::max(mode, 0), &exact);
                if (const std::string why = size_refusal(profile, kind, std::max(mode, 0)); !why.empty()) throw InputError(why);
                row.estimate = !exact;
                row.storage.arrays.push_back(ArrayInfo{"total", "the storage model's prediction (advisor/storage_model.cpp)", bytes, 1, 0});
            } catch (const InputError& e) {
                row.predicted = false;
                row.error = e.what();
            }
            rows.push_back(std::move(row));
        }
    }
    return rows;
}

}  // namespace tscope
