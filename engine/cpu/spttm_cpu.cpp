// SpTTM (spttm Alg. 1) and SspTTM (Alg. 5) on the CPU: the oracle and the OpenMP kernels.
// Both parallelise over output fibers / chunks, so no two threads write the same value.
#include <algorithm>
#include <atomic>
#include <cmath>
#include <limits>
#include <numeric>
#include <optional>

#include "cpu_kernels.hpp"
#include "fiber_runs.hpp"
#include "kernels/spttm_cuda.hpp"
#include "semi_sparse_compare.hpp"
#include "spttm_rows.hpp"
#include "sspttm_tiles.hpp"
#include "streaming_stores.hpp"
#include "tscope/checks.hpp"
#include "tscope/formats/format_visit.hpp"
#include "tscope/kernels/spttm.hpp"
#include "tscope/kernels/sptv.hpp"
#include "tscope/tensor/coo_ops.hpp"

namespace tscope {

namespace {

std::vector<std::uint64_t> with_rank(std::vector<std::uint64_t> dims, int mode, std::uint64_t rank) {
    dims[static_cast<std::size_t>(mode)] = rank;
    return dims;
}

using Prepared = SpttmPrepared;
using Where = SpttmWhere;

// The GPU's compute looks for a cancel before it starts (SpttmPlan::compute does), not within.
std::function<void(const DenseMatrix&, DeviceTiming*, RunControl&)> on_device(detail::SpttmCompute gpu) {
    return [gpu = std::move(gpu)](const DenseMatrix& u, DeviceTiming* timing, RunControl&) { gpu(u, timing); };
}

template <class T, class C>
std::vector<T> convert(const C& c) {
    return std::vector<T>(c.begin(), c.end());
}

// Alg. 1: fibers of mode n are runs in a COO sorted with n last.
template <class I, class V>
Prepared coo_spttm(const CooFormat<I, V>& x, int mode, std::uint64_t R, Where where) {
    if (x.order.back() != mode)
        throw InputError("SpTTM needs the COO sorted with mode " + std::to_string(mode + 1) + " last (spttm_options)");
    const std::uint64_t nnz = x.vals.size();
    auto fptr = std::make_shared<std::vector<std::uint64_t>>(coo_fiber_starts(x, mode));  // f_ptr, shared with SpTV
    const std::uint64_t fibers = fptr->size() - 1;
    auto y = std::make_unique<ScooFormat<I, double>>();
    y->set_dims(with_rank(x.dims(), mode, R));
    y->dense_modes = {mode};
    y->sparse_modes.assign(x.order.begin(), x.order.end() - 1);
    y->idx.resize(y->sparse_modes.size());
    for (std::size_t k = 0; k < y->sparse_modes.size(); ++k) {
        const auto& col = x.idx[static_cast<std::size_t>(y->sparse_modes[k])];
        y->idx[k].resize(fibers);
        for (std::uint64_t f = 0; f < fibers; ++f) y->idx[k][f] = col[(*fptr)[f]];
    }
    y->vals.resize(fibers * R);
    ScooFormat<I, double>* out_tensor = y.get();
    if (where.backend == Backend::Cuda) {
        auto gpu = detail::spttm_cuda(*fptr, convert<std::uint32_t>(x.idx[static_cast<std::size_t>(mode)]), convert<float>(x.vals),
                                      x.dims()[static_cast<std::size_t>(mode)], R, out_tensor->vals.data(), where.variant);
        return {std::move(y), on_device(std::move(gpu)), 0};
    }
    auto compute = [&x, mode, nnz, fptr, fibers, out_tensor](const DenseMatrix& u, DeviceTiming*, RunControl& control) {
        const I* ind = x.idx[static_cast<std::size_t>(mode)].data();
        const V* vals = x.vals.data();
        const std::uint64_t* fp = fptr->data();
        double* result = out_tensor->vals.data();
        const bool stream = streaming::usable(result, u.cols);
        std::atomic<bool> stop{false};
#pragma omp parallel
        {
#pragma omp for schedule(dynamic, 256)
            for (std::int64_t f = 0; f < static_cast<std::int64_t>(fibers); ++f) {
                if (stop) continue;
                if ((f & 4095) == 0 && control.cancelled()) stop = true;
                const auto q = static_cast<std::uint64_t>(f);
                spttm_rows::fiber_row(ind, vals, fp[q], fp[q + 1], nnz, u, stream, result + q * u.cols);
            }
            if (stream) streaming::fence();
        }
        control.check();  // a stopped product is partial: never handed on
    };
    // reads: the mode's indices, the values, f_ptr; writes: the fibers x R result
    const std::uint64_t bytes = nnz * (sizeof(I) + sizeof(V)) + (fibers + 1) * sizeof(std::uint64_t) + fibers * R * sizeof(double);
    return {std::move(y), compute, bytes};
}

// Alg. 5. (Its line 10 writes val^z(i*s_z + r*s_y + k) with r the input's mode-n index; the
// output position must use the new dense index c: z(i, c, k) += y(j, k) * u(r, c).)
template <class I, class V>
Prepared scoo_sspttm(const ScooFormat<I, V>& y, int mode, std::uint64_t R, Where where) {
    const auto pos = std::find(y.sparse_modes.begin(), y.sparse_modes.end(), mode);
    if (pos == y.sparse_modes.end())
        throw InputError("SspTTM needs mode " + std::to_string(mode + 1) + " to be a sparse mode of the semi-sparse tensor");
    const std::size_t at = static_cast<std::size_t>(pos - y.sparse_modes.begin());
    const std::uint64_t sy = y.chunk_size(), chunks = y.chunks();
    // Sort the chunks with mode n last among the sparse modes (a no-op when it is already last),
    // so that the chunks that merge are neighbours.
    auto order_ptr = std::make_shared<std::vector<std::uint64_t>>(chunks);
    auto& order = *order_ptr;
    std::iota(order.begin(), order.end(), std::uint64_t{0});
    std::vector<std::size_t> keys;
    for (std::size_t k = 0; k < y.sparse_modes.size(); ++k)
        if (k != at) keys.push_back(k);
    keys.push_back(at);
    if (at + 1 != y.sparse_modes.size())
        std::stable_sort(order.begin(), order.end(), [&](std::uint64_t a, std::uint64_t b) {
            for (std::size_t k : keys)
                if (y.idx[k][a] != y.idx[k][b]) return y.idx[k][a] < y.idx[k][b];
            return false;
        });
    auto cptr_ptr = std::make_shared<std::vector<std::uint64_t>>();
    auto& cptr = *cptr_ptr;
    for (std::uint64_t q = 0; q < chunks; ++q) {
        bool same = q > 0;
        for (std::size_t ki = 0; ki + 1 < keys.size() && same; ++ki)
            same = y.idx[keys[ki]][order[q]] == y.idx[keys[ki]][order[q - 1]];
        if (!same) cptr.push_back(q);
    }
    cptr.push_back(chunks);
    const std::uint64_t zchunks = cptr.size() - 1, sz = R * sy;
    auto z = std::make_unique<ScooFormat<I, double>>();
    z->set_dims(with_rank(y.dims(), mode, R));
    z->dense_modes = {mode};
    z->dense_modes.insert(z->dense_modes.end(), y.dense_modes.begin(), y.dense_modes.end());
    for (std::size_t ki = 0; ki + 1 < keys.size(); ++ki) z->sparse_modes.push_back(y.sparse_modes[keys[ki]]);
    z->idx.resize(z->sparse_modes.size());
    for (std::size_t ki = 0; ki + 1 < keys.size(); ++ki) {
        z->idx[ki].resize(zchunks);
        for (std::uint64_t i = 0; i < zchunks; ++i) z->idx[ki][i] = y.idx[keys[ki]][order[cptr[i]]];
    }
    z->vals.resize(zchunks * sz);
    ScooFormat<I, double>* out_tensor = z.get();
    if (where.backend == Backend::Cuda) {
        auto gpu = detail::sspttm_cuda(cptr, order, convert<std::uint32_t>(y.idx[at]), [&y] { return convert<float>(y.vals); }, sy,
                                       y.dims()[static_cast<std::size_t>(mode)], R, out_tensor->vals.data());
        return {std::move(z), on_device(std::move(gpu)), 0};
    }
    auto compute = [&y, at, sy, sz, zchunks, order_ptr, cptr_ptr, out_tensor](const DenseMatrix& u, DeviceTiming*,
                                                                              RunControl& control) {
        const auto& cptr = *cptr_ptr;
        double* result = out_tensor->vals.data();
        const bool tiled = streaming::usable(result, sy);
        std::atomic<bool> stop{false};
#pragma omp parallel
        {
#pragma omp for schedule(dynamic, 64)
            for (std::int64_t i = 0; i < static_cast<std::int64_t>(zchunks); ++i) {
                if (stop) continue;
                if ((i & 15) == 0 && control.cancelled()) stop = true;  // a chunk merges up to a slice's chunks
                const auto z = static_cast<std::size_t>(i);
                const sspttm_tiles::Group<I, V> group{order_ptr->data(), cptr[z], cptr[z + 1], y.idx[at].data(), y.vals.data(), sy};
                sspttm_tiles::chunk(group, u, tiled, result + z * sz);
            }
            if (tiled) streaming::fence();
        }
        control.check();
    };
    // reads: the chunk order, the merge ranges, the mode's indices, the input chunks; writes: the result
    const std::uint64_t bytes = chunks * (sizeof(std::uint64_t) + sizeof(I) + sy * sizeof(V)) + (zchunks + 1) * sizeof(std::uint64_t) +
                                zchunks * sz * sizeof(double);
    return {std::move(z), compute, bytes};
}

}  // namespace

std::unique_ptr<SemiSparse> spttm_reference(const CooTensor& t, int mode, const DenseMatrix& u) {
    const std::uint64_t R = u.cols;
    const detail::FiberRuns runs = detail::fiber_runs(t, mode);
    auto y = std::make_unique<SemiSparse>();
    y->set_dims(with_rank(t.dims(), mode, R));
    y->dense_modes = {mode};
    for (int m = 0; m < t.order(); ++m)
        if (m != mode) y->sparse_modes.push_back(m);
    y->idx.resize(y->sparse_modes.size());
    y->vals.assign(runs.fibers() * R, 0.0);
    for (std::uint64_t f = 0; f < runs.fibers(); ++f) {
        const std::vector<std::uint64_t> coord = detail::fiber_coord(t, mode, runs.order[runs.starts[f]]);
        for (std::size_t k = 0; k < coord.size(); ++k) y->idx[k].push_back(coord[k]);
        double* out = y->vals.data() + f * R;
        for (std::uint64_t q = runs.starts[f]; q < runs.starts[f + 1]; ++q) {
            const std::uint64_t z = runs.order[q], k = t.index(mode, z);
            const double x = t.value(z);  // read once: the untyped access costs more than the product
            for (std::uint64_t r = 0; r < R; ++r) out[r] += x * u.at(k, r);
        }
    }
    return y;
}

SpttmPrepared spttm_prepare(const SparseFormat& x, int mode, std::uint64_t rank, SpttmWhere where) {
    return visit_format(x, overloaded{
        [&]<class I, class V>(const CooFormat<I, V>& f) { return coo_spttm(f, mode, rank, where); },
        [&]<class I, class V>(const ScooFormat<I, V>& f) { return scoo_sspttm(f, mode, rank, where); },
        [&](const SparseFormat& f) -> Prepared {
            throw InputError("SpTTM has no kernel for " + f.name() + " (COO for SpTTM, sCOO for SspTTM)");
        }});
}

double semi_sparse_max_relative_error(const SparseFormat& a, const SparseFormat& reference) {
    if (const std::optional<double> e = detail::semi_sparse_chunk_error(a, reference)) return *e;
    auto entries = [](const SparseFormat& f) {
        // entries(true): a semi-sparse result's zeros are values too
        CooTensor t = visit_format(f, overloaded{[]<class I, class V>(const ScooFormat<I, V>& s) { return s.entries(true); },
                                                 [](const SparseFormat& other) { return other.to_coo(); }});
        sort_lexicographic(t);
        return t;
    };
    return sparse_max_relative_error(entries(a), entries(reference));
}

}  // namespace tscope
