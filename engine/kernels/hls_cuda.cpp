#include "kernels/hls_cuda.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "cuda/gpu_hls.hpp"
#include "tscope/error.hpp"
#include "tscope/formats/format_visit.hpp"

namespace tscope::detail {

namespace {

template <class I, class V>
void run(const HlsFormat<I, V>& hls, int mode, bool kron, const std::vector<DenseMatrix>& factors, DenseMatrix& out, DeviceTiming* timing) {
    const SparseFormat& format = hls;
    const auto* f = &hls;
    const std::uint64_t tiles = f->tiles(), nnz = f->nnz_vals.size();
    // the tiles go to the device expanded (16 KiB each): a low threshold on a tensor without
    // dense regions makes every non-empty tile "dense" (measured: threshold 1 on a uniform 10M
    // tensor, 9.9M tiles, 160 GB), which the format's own rule exists to avoid
    constexpr std::uint64_t kMaxExpanded = 4ull << 30;
    if (tiles * kHlsTileCells * sizeof(float) > kMaxExpanded)
        throw InputError("HLS has " + std::to_string(tiles) + " dense tiles, " + std::to_string((tiles * kHlsTileCells * 4) >> 20) +
                         " MiB expanded for the tensor cores (limit 4 GiB): raise the HLS threshold");
    std::vector<float> cells(tiles * kHlsTileCells);
    std::vector<std::uint32_t> origin(tiles * 3);
    std::vector<double> expanded(kHlsTileCells);
    double largest = 0;  // the dense tiles' largest magnitude: they reach the tensor cores as fp16
    for (std::uint64_t q = 0; q < tiles; ++q) {
        std::array<std::uint64_t, 3> lo{};
        std::array<int, 3> span{};
        f->expand_tile(q, expanded.data(), lo, span);
        for (int c = 0; c < kHlsTileCells; ++c) {
            largest = std::max(largest, std::fabs(expanded[static_cast<std::size_t>(c)]));
            cells[q * kHlsTileCells + static_cast<std::uint64_t>(c)] =
                static_cast<float>(expanded[static_cast<std::size_t>(c)]);
        }
        for (int m = 0; m < 3; ++m) origin[q * 3 + static_cast<std::uint64_t>(m)] = static_cast<std::uint32_t>(lo[static_cast<std::size_t>(m)]);
    }
    // fp16 holds magnitudes up to 65,504, and normal ones from 6.1e-5: past them the tiles' products
    // were inf (values of 1e20, sweep 65 on an H200) or 0
    if (largest > 65504.0 || (largest > 0 && largest < 6.1e-5)) {
        char value[32];
        std::snprintf(value, sizeof value, "%.3g", largest);
        throw InputError(
            std::string("HLS's dense tiles go to the tensor cores in fp16, whose normal values run from about "
                        "6.1e-5 to 65,504 in magnitude: this tensor's tiles reach ") +
            value + "; scale the values by a constant, or raise --hls-threshold so the sparse part (fp32) takes them");
    }
    std::array<std::vector<std::uint32_t>, 3> idx;
    std::vector<float> vals(nnz);
    for (auto& v : idx) v.resize(nnz);
    for (std::uint64_t z = 0; z < nnz; ++z) {
        const auto c = hls_unpack(f->nnz_inds[z], f->nnz_linear_bits);
        for (int m = 0; m < 3; ++m) idx[static_cast<std::size_t>(m)][z] = static_cast<std::uint32_t>(c[static_cast<std::size_t>(m)]);
        vals[z] = static_cast<float>(f->nnz_vals[z]);
    }
    gpu::HlsDevInput x;
    x.tiles = tiles, x.cells = cells.data(), x.origin = origin.data();
    x.nnz = nnz, x.vals = vals.data();
    for (int m = 0; m < 3; ++m) x.idx[static_cast<std::size_t>(m)] = idx[static_cast<std::size_t>(m)].data(), x.dims[static_cast<std::size_t>(m)] = format.dims()[static_cast<std::size_t>(m)];
    std::array<std::vector<float>, 3> fs;
    std::array<const float*, 3> fp{};
    std::array<std::uint64_t, 3> ranks{1, 1, 1};
    for (int m = 0; m < 3; ++m) {
        if (m == mode) continue;
        fs[static_cast<std::size_t>(m)].assign(factors[static_cast<std::size_t>(m)].data.begin(), factors[static_cast<std::size_t>(m)].data.end());
        fp[static_cast<std::size_t>(m)] = fs[static_cast<std::size_t>(m)].data();
        ranks[static_cast<std::size_t>(m)] = factors[static_cast<std::size_t>(m)].cols;
    }
    std::vector<double> result(out.rows * out.cols);
    gpu::Timing t;
    gpu::hls_multiply(x, mode, kron, fp, ranks, result.data(), t);
    for (std::size_t i = 0; i < result.size(); ++i) out.data[i] = result[i];
    if (timing) *timing = DeviceTiming{t.upload_s, t.kernel_s, t.download_s};
}

}  // namespace

bool hls_cuda(const SparseFormat& format, int mode, bool kron, const std::vector<DenseMatrix>& factors, DenseMatrix& out,
              DeviceTiming* timing) {
    if (format.kind() != FormatKind::HLS) return false;
    for (auto d : format.dims())
        if (d >= (1ull << 32)) throw InputError("HLS on the GPU needs every mode shorter than 2^32");
    return visit_format(format, overloaded{[&]<class I, class V>(const HlsFormat<I, V>& f) {
                                               run(f, mode, kron, factors, out, timing);
                                               return true;
                                           },
                                           [](const SparseFormat&) { return false; }});
}

}  // namespace tscope::detail
