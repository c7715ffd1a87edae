// SpTV on the CPU: the serial oracle and OpenMP kernels per format (hocfs Alg. 3-6). The
// result's fibers and coordinates depend on the format only: each format lays them out once
// (SptvPlan::prepare), then its values kernel writes fiber f's value to entry f of the result,
// so threads never share an output element.
#include <algorithm>
#include <cmath>
#include <functional>
#include <memory>
#include <optional>

#include "cpu_kernels.hpp"
#include "fiber_runs.hpp"
#include "output_rows.hpp"
#include "tscope/checks.hpp"
#include "tscope/error.hpp"
#include "tscope/formats/format_visit.hpp"
#include "tscope/kernels/relative_error.hpp"
#include "tscope/kernels/sptv.hpp"
#include "tscope/parallel_errors.hpp"
#include "tscope/tensor/coo_ops.hpp"

namespace tscope {

namespace {

std::vector<std::uint64_t> other_dims(const std::vector<std::uint64_t>& dims, int mode) {
    std::vector<std::uint64_t> out;
    for (std::size_t m = 0; m < dims.size(); ++m)
        if (static_cast<int>(m) != mode) out.push_back(dims[m]);
    return out;
}

// The result under construction: order N-1, `fibers` entries, filled in place by entry.
class Result {
public:
    Result(const std::vector<std::uint64_t>& dims, int mode, std::uint64_t fibers)
        : t_(other_dims(dims, mode), CooTensor::width_for(other_dims(dims, mode)), ValueType::F64) {
        t_.resize(fibers);
        wide_ = t_.index_width() == IndexWidth::U64;
        for (int m = 0; m < t_.order(); ++m) {
            if (wide_)
                c64_.push_back(t_.indices<std::uint64_t>(m).data());
            else
                c32_.push_back(t_.indices<std::uint32_t>(m).data());
        }
        vals_ = t_.values<double>().data();
    }
    // Coordinate k (0..N-2, over the other modes ascending) of entry f.
    void set(std::uint64_t f, int k, std::uint64_t i) {
        if (wide_)
            c64_[static_cast<std::size_t>(k)][f] = i;
        else
            c32_[static_cast<std::size_t>(k)][f] = static_cast<std::uint32_t>(i);
    }
    void value(std::uint64_t f, double v) { vals_[f] = v; }
    // Raw columns for tight loops: 32-bit coordinates (nullptr when they are 64-bit).
    std::uint32_t* narrow(int k) { return wide_ ? nullptr : c32_[static_cast<std::size_t>(k)]; }
    double* values() { return vals_; }
    CooTensor take() { return std::move(t_); }

private:
    CooTensor t_;
    bool wide_ = false;
    std::vector<std::uint32_t*> c32_;
    std::vector<std::uint64_t*> c64_;
    double* vals_ = nullptr;
};

// Position of mode m among the other modes (ascending), i.e. its coordinate in the result.
int slot(int m, int mode) { return m < mode ? m : m - 1; }

void check_sptv_mode(const SparseFormat& format, int mode) {
    const auto& dims = format.dims();
    check_mode(mode, static_cast<int>(dims.size()));
    if (dims.size() < 2) throw InputError("SpTV needs a tensor of order 2 or more");
}

void require(bool ok, const SparseFormat& f, int mode) {
    if (!ok)
        throw InputError(f.name() + " was built to contract another mode; build it with sptv_options() for mode " +
                         std::to_string(mode + 1));
}

// The segmented reduction's segments: fibers are the runs of equal coordinates outside
// `mode`. Each thread finds the run starts in its own stretch; the stretches are concatenated.
template <class I, class V>
std::vector<std::uint64_t> fiber_starts(const CooFormat<I, V>& f, int mode) {
    const int n = static_cast<int>(f.idx.size());
    const std::uint64_t nnz = f.vals.size();
    auto differs = [&](std::uint64_t z) {
        if (z == 0) return true;
        for (int m = 0; m < n; ++m)
            if (m != mode && f.idx[static_cast<std::size_t>(m)][z] != f.idx[static_cast<std::size_t>(m)][z - 1]) return true;
        return false;
    };
    std::vector<std::vector<std::uint64_t>> found(static_cast<std::size_t>(detail::max_threads()));
    ParallelErrors errors;  // a list's growth; caught per start found, not per nonzero
#pragma omp parallel
    {
        auto& mine = found[static_cast<std::size_t>(detail::thread_id())];
#pragma omp for schedule(static)
        for (std::int64_t z = 0; z < static_cast<std::int64_t>(nnz); ++z)
            if (differs(static_cast<std::uint64_t>(z)))
                errors.run([&] { mine.push_back(static_cast<std::uint64_t>(z)); });
    }
    errors.rethrow();
    std::vector<std::uint64_t> starts;  // schedule(static) hands out ascending stretches by thread
    for (const auto& part : found) starts.insert(starts.end(), part.begin(), part.end());
    starts.push_back(nnz);
    return starts;
}

// What SpTV needs beyond the layout: the values, written into the result's value column, and
// the bytes one run reads and writes apart from v (for the benchmark's GB/s).
struct ValuesKernel {
    std::function<void(const double* v, double* out)> run;
    std::uint64_t bytes = 0;
};
struct Prepared {
    CooTensor layout;  // fibers and coordinates, values zero
    ValuesKernel values;
};

// Fibers per parallel chunk are chosen so every chunk holds about this many nonzeros: the
// power-law fibers range from one nonzero to tens of thousands.
constexpr std::uint64_t kChunkNonzeros = 32768;

// One accumulator and one loop a fiber. Tried in session 23, one thread, alternating with this
// loop (CSF sweeps): four accumulators for fibers of 16 nonzeros and more, no faster on
// powerlaw-3d's long fibers (3.33 against 3.30 ms) and slower where no fiber is that long
// (uniform-3d 2.79-2.81 against 2.06-2.29, Last.fm 1.11 against 0.99); fibers of up to four
// nonzeros summed without a loop (four products, those past the end taken as 0), slower
// everywhere (blocks-4d, fibers of 2.0 nonzeros on average, 5.62 against 5.28; uniform-3d 2.87
// against 1.97-2.00). Session 22's four accumulators everywhere were no faster either.
// Fiber q of the result sums val[z] * v[col[z]] over z in [ptr[q], ptr[q+1]): COO, CFB,
// HOCFS-CSR and CSF are this shape once their fibers are numbered in the result's order (the
// CSR kernel of hocfs Alg. 6, the fiber loop of Alg. 5, and Alg. 3's segmented reduction over
// the segments the plan found); HOCSR walks every row instead (all_row_sums, Alg. 4), and
// HOCFS-ELL its padded blocks. `keep` holds what ptr points into when the plan made it (COO's
// and CFB's fiber starts). The offsets have the format's index type, as CSF's and HOCFS-CSR's
// own arrays do (it holds nnz: format_uses_32bit): one instantiation per tensor, so the four
// formats run the same machine code. With COO's, HOCSR's and CFB's offsets 64-bit and the other two's 32, the two
// groups measured 2-9% apart, either way round, steadily over 25 repeats (a code-layout
// effect, not the format's: docs/bench/cpu-sptv-offset-widths.json).
template <class I, class V>
ValuesKernel fiber_sums(const I* ptr, const I* col, const V* val, std::uint64_t fibers,
                        std::shared_ptr<const void> keep = nullptr) {
    auto chunks = std::make_shared<std::vector<std::uint64_t>>(1, 0);
    for (std::uint64_t q = 0; q < fibers;) {  // chunk ends: the first fiber past another kChunkNonzeros
        const std::uint64_t target = static_cast<std::uint64_t>(ptr[q]) + kChunkNonzeros;
        q = static_cast<std::uint64_t>(std::upper_bound(ptr + q + 1, ptr + fibers + 1, target,
                                                        [](std::uint64_t t, I x) { return t < x; }) - ptr) - 1;
        q = std::max(q, chunks->back() + 1);
        q = std::min(q, fibers);
        chunks->push_back(q);
    }
    const std::uint64_t nnz = fibers ? static_cast<std::uint64_t>(ptr[fibers] - ptr[0]) : 0;
    const std::uint64_t bytes = (fibers + 1) * sizeof(I) + nnz * (sizeof(I) + sizeof(V)) + fibers * sizeof(double);
    auto run = [ptr, col, val, chunks, keep](const double* v, double* out) {
        const auto n = static_cast<std::int64_t>(chunks->size()) - 1;
#pragma omp parallel for schedule(dynamic, 1)
        for (std::int64_t c = 0; c < n; ++c) {
            const std::uint64_t hi = (*chunks)[static_cast<std::size_t>(c) + 1];
            for (std::uint64_t q = (*chunks)[static_cast<std::size_t>(c)]; q < hi; ++q) {
                // 64-bit bounds whatever I: a 32-bit loop counter cost a subtraction and two
                // address computations per fiber, and 9% on blocks-4d
                const std::uint64_t begin = ptr[q], end = ptr[q + 1];
                double sum = 0;
                for (std::uint64_t z = begin; z < end; ++z) sum += static_cast<double>(val[z]) * v[col[z]];
                out[q] = sum;
            }
        }
    };
    return {run, bytes};
}

// hocfs Alg. 4: every row of the unfolding is visited in each product, empty or not, its two
// offsets read; a non-empty row's sum goes to its place among the non-empty rows (the result's
// entries). Until session 74 the plan kept only the non-empty rows and ran the loop above over
// them, so HOCSR timed as CFB did and what the paper measures for it (Table 7: J·K offsets a
// product, most of them of empty rows) was never in a run. The GPU reads every offset too
// (sptv_kept_rows.cuh). Chunks end at about kChunkNonzeros nonzeros or kChunkRows rows, each
// starting from its first non-empty row's place: found from the plan's list of non-empty rows
// (the result's layout), so the plan walks the rows once.
constexpr std::uint64_t kChunkRows = 65536;

template <class I, class V>
ValuesKernel all_row_sums(const HocsrFormat<I, V>& f, const std::vector<std::uint64_t>& nonempty) {
    const std::uint64_t rows = f.rows();
    const I* ptr = f.row_ptr.data();
    auto chunk_rows = std::make_shared<std::vector<std::uint64_t>>(1, 0);    // each chunk's first row
    auto chunk_places = std::make_shared<std::vector<std::uint64_t>>(1, 0);  // its first result entry
    const auto close = [&](std::uint64_t row, std::uint64_t place) {
        chunk_rows->push_back(row), chunk_places->push_back(place);
    };
    std::uint64_t in_chunk = 0;
    for (std::uint64_t q = 0; q < nonempty.size(); ++q) {
        const std::uint64_t r = nonempty[q];
        while (r - chunk_rows->back() >= kChunkRows)
            close(chunk_rows->back() + kChunkRows, q), in_chunk = 0;  // empty stretches
        in_chunk += static_cast<std::uint64_t>(ptr[r + 1] - ptr[r]);
        if (in_chunk >= kChunkNonzeros) close(r + 1, q + 1), in_chunk = 0;
    }
    while (chunk_rows->back() < rows) close(std::min(rows, chunk_rows->back() + kChunkRows), nonempty.size());
    const I* col = f.col.data();
    const V* val = f.vals.data();
    const std::uint64_t bytes =
        (rows + 1) * sizeof(I) + f.vals.size() * (sizeof(I) + sizeof(V)) + nonempty.size() * sizeof(double);
    auto run = [ptr, col, val, chunk_rows, chunk_places](const double* v, double* out) {
        const auto n = static_cast<std::int64_t>(chunk_rows->size()) - 1;
#pragma omp parallel for schedule(dynamic, 1)
        for (std::int64_t c = 0; c < n; ++c) {
            std::uint64_t q = (*chunk_places)[static_cast<std::size_t>(c)];
            const std::uint64_t hi = (*chunk_rows)[static_cast<std::size_t>(c) + 1];
            for (std::uint64_t r = (*chunk_rows)[static_cast<std::size_t>(c)]; r < hi; ++r) {
                const std::uint64_t begin = ptr[r], end = ptr[r + 1];
                if (begin == end) continue;
                double sum = 0;
                for (std::uint64_t z = begin; z < end; ++z) sum += static_cast<double>(val[z]) * v[col[z]];
                out[q++] = sum;
            }
        }
    };
    return {run, bytes};
}

template <class I, class V>
Prepared coo_sptv(const CooFormat<I, V>& f, int mode, bool values) {
    require(f.order.back() == mode, f, mode);
    const int n = static_cast<int>(f.idx.size());
    auto starts = std::make_shared<const std::vector<std::uint64_t>>(fiber_starts(f, mode));
    const std::uint64_t fibers = starts->size() - 1;
    Result out(f.dims(), mode, fibers);
    const auto& s = *starts;
#pragma omp parallel for schedule(static)
    for (std::int64_t q = 0; q < static_cast<std::int64_t>(fibers); ++q) {
        const auto fq = static_cast<std::uint64_t>(q);
        for (int m = 0; m < n; ++m)
            if (m != mode) out.set(fq, slot(m, mode), f.idx[static_cast<std::size_t>(m)][s[fq]]);
        out.value(fq, 0);
    }
    if (!values) return {out.take(), {}};
    auto ptr = std::make_shared<const std::vector<I>>(s.begin(), s.end());
    return {out.take(), fiber_sums(ptr->data(), f.idx[static_cast<std::size_t>(mode)].data(), f.vals.data(), fibers, ptr)};
}

template <class I, class V>
Prepared hocsr_sptv(const HocsrFormat<I, V>& f, int mode, bool values) {
    require(f.order.back() == mode, f, mode);
    const std::uint64_t rows = f.rows();
    // the non-empty rows are the result's entries, in row order
    std::vector<std::uint64_t> nonempty;
    for (std::uint64_t r = 0; r < rows; ++r)
        if (f.row_ptr[r] != f.row_ptr[r + 1]) nonempty.push_back(r);
    Result out(f.dims(), mode, nonempty.size());
    const int n = static_cast<int>(f.order.size());
#pragma omp parallel for schedule(static)
    for (std::int64_t q = 0; q < static_cast<std::int64_t>(nonempty.size()); ++q) {
        std::uint64_t rest = nonempty[static_cast<std::size_t>(q)];  // unlinearise the row over order[0..n-2]
        for (int l = n - 2; l >= 0; --l) {
            const int m = f.order[static_cast<std::size_t>(l)];
            out.set(static_cast<std::uint64_t>(q), slot(m, mode), rest % f.dims()[static_cast<std::size_t>(m)]);
            rest /= f.dims()[static_cast<std::size_t>(m)];
        }
        out.value(static_cast<std::uint64_t>(q), 0);
    }
    if (!values) return {out.take(), {}};
    return {out.take(), all_row_sums(f, nonempty)};
}

template <class I, class V>
Prepared cfb_sptv(const CfbFormat<I, V>& f, int mode, bool values) {
    require(f.fiber_mode == mode, f, mode);
    const std::uint64_t fibers = f.fiber_id.size();
    Result out(f.dims(), mode, fibers);
#pragma omp parallel for schedule(static)
    for (std::int64_t q = 0; q < static_cast<std::int64_t>(fibers); ++q) {
        const auto fq = static_cast<std::uint64_t>(q);
        std::uint64_t rest = f.fiber_id[fq];  // j*K + k
        for (std::size_t l = f.others.size(); l-- > 0;) {
            const int m = f.others[l];
            out.set(fq, slot(m, mode), rest % f.dims()[static_cast<std::size_t>(m)]);
            rest /= f.dims()[static_cast<std::size_t>(m)];
        }
        out.value(fq, 0);
    }
    if (!values) return {out.take(), {}};
    auto start = std::make_shared<std::vector<I>>(fibers + 1, 0);  // Tn -> offsets
    for (std::uint64_t q = 0; q < fibers; ++q) (*start)[q + 1] = static_cast<I>((*start)[q] + f.fiber_nnz[q]);
    return {out.take(), fiber_sums(start->data(), f.idx.data(), f.vals.data(), fibers, start)};
}

// Tree formats (HOCFS, CSF): the fibers are the nodes of the last level above the nonzeros.
// Each root is walked by one thread; fiber q's coordinates come from its ancestors.
template <class I>
struct Tree {
    const std::vector<int>* order;
    std::vector<const Column<I>*> idx;  // per level above the nonzeros
    std::vector<const Column<I>*> ptr;  // per level above the fibers (children ranges)
};

template <class I>
CooTensor tree_layout(const Tree<I>& tree, const std::vector<std::uint64_t>& dims, int mode) {
    const int levels = static_cast<int>(tree.idx.size());  // fiber level = levels - 1
    const std::uint64_t fibers = tree.idx.back()->size();
    Result out(dims, mode, fibers);
    const auto& order = *tree.order;
    std::vector<int> slots;
    for (int k = 0; k < levels; ++k) slots.push_back(slot(order[static_cast<std::size_t>(k)], mode));
    const Column<I>& fiber_ids = *tree.idx.back();
    // The fibers q in [lo, hi) share coord[0..levels-2]: a tight loop writes each one.
    std::vector<std::uint32_t*> narrow;
    for (int k = 0; k < levels; ++k) narrow.push_back(out.narrow(slots[static_cast<std::size_t>(k)]));
    double* values = out.values();
    auto fiber_run = [&](const std::vector<std::uint64_t>& coord, std::uint64_t lo, std::uint64_t hi) {
        std::fill(values + lo, values + hi, 0.0);
        if (narrow.back()) {  // the common case, 32-bit coordinates: plain stores
            for (int k = 0; k + 1 < levels; ++k)
                std::fill(narrow[static_cast<std::size_t>(k)] + lo, narrow[static_cast<std::size_t>(k)] + hi,
                          static_cast<std::uint32_t>(coord[static_cast<std::size_t>(k)]));
            std::uint32_t* ids = narrow.back();
            for (std::uint64_t q = lo; q < hi; ++q) ids[q] = static_cast<std::uint32_t>(fiber_ids[q]);
            return;
        }
        for (std::uint64_t q = lo; q < hi; ++q) {
            for (int k = 0; k + 1 < levels; ++k) out.set(q, slots[static_cast<std::size_t>(k)], coord[static_cast<std::size_t>(k)]);
            out.set(q, slots.back(), fiber_ids[q]);
        }
    };
    if (levels == 1) {
        const std::vector<std::uint64_t> none;
        const auto n = static_cast<std::int64_t>(fibers);
#pragma omp parallel for schedule(static)
        for (std::int64_t b = 0; b < n; b += 4096)
            fiber_run(none, static_cast<std::uint64_t>(b), std::min<std::uint64_t>(fibers, static_cast<std::uint64_t>(b) + 4096));
        return out.take();
    }
    const auto roots = static_cast<std::int64_t>(tree.idx.front()->size());
    ParallelErrors errors;  // a thread's coordinates not allocated
#pragma omp parallel
    {
        std::vector<std::uint64_t> coord;
        errors.run([&] { coord.resize(static_cast<std::size_t>(levels)); });
        // walk(l, node) for l < levels - 1: coord[0..l] set, then the children
        auto walk = [&](auto& self, int l, std::uint64_t node) -> void {
            coord[static_cast<std::size_t>(l)] = (*tree.idx[static_cast<std::size_t>(l)])[node];
            const Column<I>& p = *tree.ptr[static_cast<std::size_t>(l)];
            if (l == levels - 2) return fiber_run(coord, p[node], p[node + 1]);
            for (I c = p[node]; c < p[node + 1]; ++c) self(self, l + 1, c);
        };
#pragma omp for schedule(dynamic, 64)
        for (std::int64_t s = 0; s < roots; ++s)
            if (!errors.failed()) walk(walk, 0, static_cast<std::uint64_t>(s));  // a root at a time
    }
    errors.rethrow();
    return out.take();
}

// HOCFS-ELL (hocfs Alg. 6, ELL slices): fiber q is row (q - first) of its block, whose
// columns are (ap[b+1]-ap[b]) / rows apart; padding entries are skipped.
template <class I, class V>
ValuesKernel ell_sums(const HocfsFormat<I, V>& f) {
    struct Rows {
        std::vector<std::uint64_t> block_of, first, rows;
    };
    const int levels = static_cast<int>(f.level_idx.size());
    auto r = std::make_shared<Rows>();
    r->block_of.resize(f.fibers()), r->first.resize(f.fibers()), r->rows.resize(f.fibers());
    const std::uint64_t blocks = f.ap.size() - 1;
    for (std::uint64_t b = 0; b < blocks; ++b) {
        const std::uint64_t lo = levels >= 2 ? f.level_ptr[static_cast<std::size_t>(levels - 2)][b] : 0;
        const std::uint64_t hi = levels >= 2 ? f.level_ptr[static_cast<std::size_t>(levels - 2)][b + 1] : f.fibers();
        for (std::uint64_t q = lo; q < hi; ++q) r->block_of[q] = b, r->first[q] = lo, r->rows[q] = hi - lo;
    }
    const std::uint64_t bytes = f.fibers() * (3 * sizeof(std::uint64_t) + sizeof(double)) +
                                f.aj.size() * (sizeof(I) + sizeof(V)) + f.ap.size() * sizeof(I);
    auto run = [&f, r](const double* v, double* out) {
#pragma omp parallel for schedule(dynamic, 1024)
        for (std::int64_t s = 0; s < static_cast<std::int64_t>(r->block_of.size()); ++s) {
            const auto q = static_cast<std::uint64_t>(s);
            const std::uint64_t b = r->block_of[q], rows = r->rows[q];
            const std::uint64_t width = (f.ap[b + 1] - f.ap[b]) / rows;
            double sum = 0;
            for (std::uint64_t c = 0; c < width; ++c) {
                const std::uint64_t e = f.ap[b] + c * rows + (q - r->first[q]);
                if (f.aj[e] != HocfsFormat<I, V>::kEllPad) sum += static_cast<double>(f.av[e]) * v[f.aj[e]];
            }
            out[q] = sum;
        }
    };
    return {run, bytes};
}

template <class I, class V>
Prepared hocfs_sptv(const HocfsFormat<I, V>& f, int mode, bool values) {
    require(f.order.back() == mode, f, mode);
    Tree<I> tree{&f.order, {}, {}};
    for (const auto& c : f.level_idx) tree.idx.push_back(&c);
    for (const auto& c : f.level_ptr) tree.ptr.push_back(&c);
    CooTensor layout = tree_layout(tree, f.dims(), mode);
    if (!values) return {std::move(layout), {}};
    if (f.ell) return {std::move(layout), ell_sums(f)};
    return {std::move(layout), fiber_sums(f.ap.data(), f.aj.data(), f.av.data(), f.fibers())};
}

template <class I, class V>
Prepared csf_sptv(const CsfFormat<I, V>& f, int mode, bool values) {
    require(f.order.back() == mode, f, mode);
    Tree<I> tree{&f.order, {}, {}};
    const int levels = static_cast<int>(f.fptr.size());
    for (int l = 0; l < levels; ++l) tree.idx.push_back(&f.fids[static_cast<std::size_t>(l)]);
    for (int l = 0; l + 1 < levels; ++l) tree.ptr.push_back(&f.fptr[static_cast<std::size_t>(l)]);
    const std::uint64_t fibers = f.fids[static_cast<std::size_t>(levels) - 1].size();
    if (!values) return {tree_layout(tree, f.dims(), mode), {}};
    return {tree_layout(tree, f.dims(), mode), fiber_sums(f.fptr.back().data(), f.fids[static_cast<std::size_t>(levels)].data(),
                                                         f.vals.data(), fibers)};
}

// values false: the layout alone (sptv_layout), without the values kernel's tables.
Prepared prepare_any(const SparseFormat& format, int mode, bool values = true) {
    return visit_format(format, overloaded{
        [&]<class I, class V>(const CooFormat<I, V>& f) { return coo_sptv(f, mode, values); },
        [&]<class I, class V>(const HocsrFormat<I, V>& f) { return hocsr_sptv(f, mode, values); },
        [&]<class I, class V>(const CfbFormat<I, V>& f) { return cfb_sptv(f, mode, values); },
        [&]<class I, class V>(const HocfsFormat<I, V>& f) { return hocfs_sptv(f, mode, values); },
        [&]<class I, class V>(const CsfFormat<I, V>& f) { return csf_sptv(f, mode, values); },
        [&](const SparseFormat& f) -> Prepared { throw InputError("SpTV has no omp kernel for " + f.name()); }});
}

}  // namespace

CooTensor sptv_reference(const CooTensor& t, int mode, const std::vector<double>& v) {
    if (t.order() < 2) throw InputError("SpTV needs a tensor of order 2 or more");  // its result has order N - 1
    const detail::FiberRuns runs = detail::fiber_runs(t, mode);
    CooTensor out(other_dims(t.dims(), mode));
    out.resize(runs.fibers());
    for (std::uint64_t f = 0; f < runs.fibers(); ++f) {
        double sum = 0.0;
        for (std::uint64_t k = runs.starts[f]; k < runs.starts[f + 1]; ++k) {
            const std::uint64_t z = runs.order[k];
            sum += t.value(z) * v[t.index(mode, z)];
        }
        out.set(f, detail::fiber_coord(t, mode, runs.order[runs.starts[f]]), sum);
    }
    return out;
}

SptvPrepared sptv_prepare_omp(const SparseFormat& format, int mode) {
    check_sptv_mode(format, mode);
    Prepared p = prepare_any(format, mode);
    return {std::move(p.layout), std::move(p.values.run), p.values.bytes};
}

std::vector<std::uint64_t> coo_fiber_starts(const SparseFormat& coo, int mode) {
    return visit_format(coo, overloaded{
        [&]<class I, class V>(const CooFormat<I, V>& f) { return fiber_starts(f, mode); },
        [&](const SparseFormat& f) -> std::vector<std::uint64_t> { throw InputError("not a COO tensor: " + f.name()); }});
}

CooTensor sptv_layout(const SparseFormat& format, int mode) { return prepare_any(format, mode, false).layout; }

double sparse_max_relative_error(const CooTensor& a, const CooTensor& ref) {
    if (a.dims() != ref.dims() || a.nnz() != ref.nnz()) return INFINITY;
    RelativeError e;
    for (std::uint64_t n = 0; n < a.nnz(); ++n) {
        for (int m = 0; m < a.order(); ++m)
            if (a.index(m, n) != ref.index(m, n)) return INFINITY;
        e.add(a.value(n), ref.value(n));
    }
    return e.value();
}

}  // namespace tscope
