#include "tensor/slice_fibers.hpp"

#include <algorithm>
#include <limits>

#include "tscope/parallel_errors.hpp"
#include "tscope/text_words.hpp"

namespace tscope::detail {

SliceFiberCounter::SliceFiberCounter(const std::vector<std::uint64_t>& dims, std::uint64_t cap)
    : exact(dims.size(), false), fiber_nnz(dims.size()), order_(static_cast<int>(dims.size())), cap_(cap), dims_(dims) {
    // mode m's fiber key within a slice: the other modes after the first, as one mixed-radix number
    for (int m = 1; m < order_; ++m) {
        std::uint64_t range = 1;
        bool fits = true;
        for (int k = 1; k < order_ && fits; ++k) {
            if (k == m) continue;
            const std::uint64_t d = std::max<std::uint64_t>(dims[static_cast<std::size_t>(k)], 1);
            if (range > std::numeric_limits<std::uint64_t>::max() / d) fits = false;
            else range *= d;
        }
        exact[static_cast<std::size_t>(m)] = fits;
        if (!fits) why = "their other indices do not fit a 64-bit key";
    }
}

void SliceFiberCounter::give_up(std::string reason) {
    for (int m = 1; m < order_; ++m) exact[static_cast<std::size_t>(m)] = false;
    why = std::move(reason);
    entries_ = {};
    starts_.clear();
}

void SliceFiberCounter::add(const CooTensor& part) {
    if (order_ < 2 || std::none_of(exact.begin(), exact.end(), [](bool e) { return e; })) return;
    const auto width = static_cast<std::size_t>(order_ - 1);
    part.visit([&](auto itag, auto vtag) {
        using I = typename decltype(itag)::type;
        using V = typename decltype(vtag)::type;
        const V* vals = part.values<V>().data();
        std::vector<const I*> cols;
        for (int m = 0; m < order_; ++m) cols.push_back(part.indices<I>(m).data());
        for (std::uint64_t z = 0; z < part.nnz(); ++z) {
            if (vals[z] == V{0}) continue;
            const std::uint64_t s = cols[0][z];
            if (started_ && s < slice_) {
                give_up("the file is not in slice order of mode 1");
                return;
            }
            if (!started_ || s != slice_) {
                if (started_) end_slice();
                slice_ = s, started_ = true;
            }
            for (std::size_t k = 1; k < static_cast<std::size_t>(order_); ++k) entries_.push_back(cols[k][z]);
            if ((entries_.size() - slice_start_) / width > cap_) {
                give_up("a slice of mode 1 holds more than " + grouped(cap_) +
                        " nonzeros, more than the memory bound allows");
                return;
            }
        }
    });
}

void SliceFiberCounter::end_slice() {
    starts_.push_back(slice_start_);
    slice_start_ = entries_.size();
    // a batch of whole slices as large as a bounded slice may be: count it
    if (entries_.size() / static_cast<std::size_t>(order_ - 1) >= std::min<std::uint64_t>(cap_, std::uint64_t{1} << 18)) count_batch();
}

void SliceFiberCounter::count_batch() {
    const auto width = static_cast<std::size_t>(order_ - 1);
    const auto slices = static_cast<std::int64_t>(starts_.size());
    starts_.push_back(slice_start_);  // the batch's end
    std::vector<CountDistribution> total(static_cast<std::size_t>(order_));
    ParallelErrors errors;  // the keys' growth and the histograms' allocate
#pragma omp parallel
    {
        std::vector<CountDistribution> mine;
        std::vector<std::uint64_t> keys;
        errors.run([&] { mine.resize(static_cast<std::size_t>(order_)); });
#pragma omp for schedule(dynamic, 16)
        for (std::int64_t s = 0; s < slices; ++s)
            errors.run([&] {  // a slice at a time; passed over once a thread has failed
                const std::size_t first = starts_[static_cast<std::size_t>(s)] / width,
                                  last = starts_[static_cast<std::size_t>(s) + 1] / width;
                for (int m = 1; m < order_; ++m) {
                    if (!exact[static_cast<std::size_t>(m)]) continue;
                    keys.clear();
                    for (std::size_t e = first; e < last; ++e) {
                        std::uint64_t key = 0;
                        for (int k = 1; k < order_; ++k)
                            if (k != m)
                                key = key * std::max<std::uint64_t>(dims_[static_cast<std::size_t>(k)], 1) +
                                      entries_[e * width + static_cast<std::size_t>(k - 1)];
                        keys.push_back(key);
                    }
                    std::sort(keys.begin(), keys.end());
                    for (std::size_t i = 0; i < keys.size();) {
                        std::size_t j = i + 1;
                        while (j < keys.size() && keys[j] == keys[i]) ++j;
                        mine[static_cast<std::size_t>(m)].add(j - i);
                        i = j;
                    }
                }
            });
#pragma omp critical
        errors.run([&] {
            for (int m = 1; m < order_; ++m)
                total[static_cast<std::size_t>(m)].merge(mine[static_cast<std::size_t>(m)]);
        });
    }
    errors.rethrow();
    for (int m = 1; m < order_; ++m) fiber_nnz[static_cast<std::size_t>(m)].merge(total[static_cast<std::size_t>(m)]);
    entries_.clear();
    starts_.clear();
    slice_start_ = 0;
}

void SliceFiberCounter::finish() {
    if (order_ >= 2 && std::any_of(exact.begin(), exact.end(), [](bool e) { return e; })) {
        if (started_) end_slice();
        if (!starts_.empty()) count_batch();
    }
    for (int m = 1; m < order_; ++m)
        if (exact[static_cast<std::size_t>(m)]) fiber_nnz[static_cast<std::size_t>(m)].finish();
}

}  // namespace tscope::detail
