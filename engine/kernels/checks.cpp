#include "tscope/checks.hpp"

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <limits>

#include "tscope/bench/machine.hpp"
#include "tscope/cuda/device.hpp"
#include "tscope/error.hpp"
#include "tscope/tensor/coo_tensor.hpp"
#include "tscope/text_words.hpp"

namespace tscope {

void check_mode(int mode, int order, const std::string& label) {
    if (mode < 0 || mode >= order)
        throw InputError(label + " " + std::to_string(mode + 1) + " is out of range: the tensor has " + std::to_string(order) +
                         " modes");
}

void require_gpu() {
    const GpuInfo gpu = query_gpu();
    if (!gpu.available) throw Error(gpu.reason);
}

void check_fits_memory(long double bytes, const std::string& what) {
    const auto memory = static_cast<long double>(physical_memory_bytes());
    if (bytes > memory || bytes > static_cast<long double>(PTRDIFF_MAX))
        throw InputError(what + " would need " + human_bytes(bytes) + " of memory; this machine has " +
                         human_bytes(memory));
}

void check_dense_fits(std::uint64_t rows, std::uint64_t cols, const std::string& what) {
    check_fits_memory(static_cast<long double>(rows) * static_cast<long double>(cols) * 8.0L, what);
}

void check_per_index_fits(const std::vector<std::uint64_t>& dims, std::uint64_t words, const std::string& what) {
    for (std::size_t m = 0; m < dims.size(); ++m) {
        // "1,000,000,000,000 indices", not "1e+12" (sweep 72b)
        check_dense_fits(dims[m], words,
                         "mode " + std::to_string(m + 1) + " has " + grouped(dims[m]) + " indices; " + what);
    }
}

void check_factors_fit(const std::vector<std::uint64_t>& dims, std::uint64_t rank, long double beside_bytes) {
    check_per_index_fits(dims, rank, "its rank-" + std::to_string(rank) + " factor");
    // all of them together too, with the longest mode's output and what is already held: three
    // factors of 9.6 GB each passed on a 25 GB machine (sweep 65), and 24 GB of factors without
    // their output were killed for memory (sweep 65c)
    long double total = beside_bytes, longest = 0;
    for (const std::uint64_t d : dims) {
        const long double bytes = static_cast<long double>(d) * static_cast<long double>(rank) * 8.0L;
        total += bytes, longest = std::max(longest, bytes);
    }
    check_fits_memory(total + longest, "the rank-" + std::to_string(rank) + " factors of the " +
                                           std::to_string(dims.size()) + " modes and an output, beside the tensor,");
}

void check_values_decomposable(double squared_norm, std::uint64_t nnz, const std::string& method) {
    char norm[32];
    std::snprintf(norm, sizeof norm, "%.3g", squared_norm);
    // Values under about 1e-162 square to 0: the norm 0 read as a perfect model, a fit of 1
    // with all-zero factors (sweep 65). Subnormal sums still keep enough digits: the fits of
    // MovieLens times 1e-160 matched its own (sweep 65c), so only a sum of 0 is refused.
    if (nnz > 0 && squared_norm == 0)
        throw InputError(method +
                         ": the values are too small for double precision: their squares (below about 1e-324 " +
                         "each) sum to 0, and no fit can be measured; multiply the values by a constant (the " +
                         "decomposition scales by the same constant)");
    const double bound = squared_norm * static_cast<double>(std::max<std::uint64_t>(1, nnz));
    if (bound <= std::numeric_limits<double>::max()) return;
    throw InputError(
        method + ": the values are too large for double precision: the sum of their squares is " + norm +
        ", and times the " + grouped(nnz) + " nonzeros it must stay below 1.8e308, or the factors' " +
        "products overflow; divide the values by a constant (the decomposition scales by the same constant)");
}

std::string gpu_value_refusal(const CooTensor& t) {
    return t.visit([&]<class I, class V>(TypeTag<I>, TypeTag<V>) -> std::string {
        const auto& vals = t.values<V>();
        const auto bad = std::find_if(vals.begin(), vals.end(), [](V v) {
            const float f = static_cast<float>(v);  // judged by the float it rounds to
            return !std::isfinite(f) || (v != 0 && std::fabs(f) < std::numeric_limits<float>::min());
        });
        if (bad == vals.end()) return {};
        char value[32];
        std::snprintf(value, sizeof value, "%.3g", static_cast<double>(*bad));
        const bool large = !std::isfinite(static_cast<float>(*bad));
        return std::string(
                   "cuda computes in fp32, whose normal values run from about 1.2e-38 to 3.4e38 in magnitude: "
                   "this tensor holds ") +
               value + (large ? ", which would be inf there" : ", which the GPU's kernels would make 0") +
               "; scale the values by a constant, or run on omp";
    });
}

void check_values_fit_gpu(const CooTensor& t) {
    if (const std::string why = gpu_value_refusal(t); !why.empty()) throw InputError(why);
}

}  // namespace tscope
