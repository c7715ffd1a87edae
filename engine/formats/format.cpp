#include "tscope/formats/format.hpp"

#include <algorithm>
#include <chrono>
#include <limits>

#include "format_builders.hpp"
#include "tscope/checks.hpp"
#include "tscope/error.hpp"
#include "tscope/formats/format_registry.hpp"

namespace tscope {

std::uint64_t StorageReport::units() const {
    std::uint64_t u = 0;
    for (const auto& a : arrays) u += a.units;
    return u;
}

std::uint64_t StorageReport::bytes() const {
    std::uint64_t b = 0;
    for (const auto& a : arrays) b += a.bytes();
    return b;
}

std::uint64_t StorageReport::bytes_with_values_of(std::uint32_t value_bytes) const {
    std::uint64_t b = 0;
    for (const auto& a : arrays) b += a.values ? a.elements * value_bytes : a.bytes();
    return b;
}

bool format_uses_32bit(const CooTensor& t) {
    constexpr std::uint64_t limit = std::numeric_limits<std::uint32_t>::max();
    if (t.nnz() >= limit) return false;
    for (auto d : t.dims())
        if (d > limit) return false;
    return true;
}

namespace {

bool is_permutation_of_modes(const std::vector<int>& order, int modes) {
    std::vector<int> sorted = order;
    std::sort(sorted.begin(), sorted.end());
    bool permutation = static_cast<int>(sorted.size()) == modes;
    for (int m = 0; permutation && m < modes; ++m) permutation = sorted[static_cast<std::size_t>(m)] == m;
    return permutation;
}

void validate_mmcsf_orders(const CooTensor& t, const FormatOptions& options) {
    if (options.mmcsf_orders.empty()) return;
    if (static_cast<int>(options.mmcsf_orders.size()) != t.order())
        throw InputError("MM-CSF's partition orders: " + std::to_string(options.mmcsf_orders.size()) + " given for " +
                         std::to_string(t.order()) + " partitions");
    for (int p = 0; p < t.order(); ++p) {
        const std::vector<int>& order = options.mmcsf_orders[static_cast<std::size_t>(p)];
        if (!is_permutation_of_modes(order, t.order()) || order.back() != p)
            throw InputError("MM-CSF's partition " + std::to_string(p + 1) + " order " + modes_text(order) +
                             " must list every mode once with mode " + std::to_string(p + 1) + " last");
    }
}

}  // namespace

void validate_options(const CooTensor& t, const FormatOptions& options) {
    check_mode(options.mode, t.order());
    if (!options.mode_order.empty() && !is_permutation_of_modes(options.mode_order, t.order()))
        // the order as given, counted from 1 (sweep 70b B10: it was not echoed)
        throw InputError("the mode order " + modes_text(options.mode_order) + " must list every mode once (1.." +
                         std::to_string(t.order()) + "; --mode-order)");
    validate_mmcsf_orders(t, options);
    if (options.bcsf_fiber_threshold == 0) throw InputError("the B-CSF fiber threshold must be at least 1");
    if (options.hls_threshold == 0 || options.hls_ttmc_threshold == 0)
        throw InputError("the HLS tile threshold must be at least 1");
    if (options.hicoo_bits < 1 || options.hicoo_bits > 16) throw InputError("HiCOO block bits must be between 1 and 16");
}

std::unique_ptr<SparseFormat> build_format(FormatKind kind, const CooTensor& t, const FormatOptions& options,
                                           RunControl& control) {
    validate_options(t, options);
    if (t.nnz() == 0) throw InputError(std::string(format_name(kind)) + ": the tensor has no nonzeros");
    const FormatEntry& entry = format_entry(kind);
    if (t.order() < entry.min_order)
        throw InputError(std::string(entry.name) + " needs a tensor of order " + std::to_string(entry.min_order) +
                         " or more; this one has order " + std::to_string(t.order()));
    const auto start = std::chrono::steady_clock::now();
    std::unique_ptr<SparseFormat> f = format_entry(kind).build(t, options, control);
    f->set_dims(t.dims());
    f->set_build_seconds(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
    return f;
}

}  // namespace tscope
