// CPD-ALS on the device: mm-csf Alg. 1 with the factors, their Grams' inputs and the MTTKRP
// output resident on the GPU for the whole run. Per mode the host gets the R x R Gram and R
// norms, forms V (the Hadamard product of the other Grams) and its inverse (R x R, LAPACK),
// and sends that back; the fit needs R inner products more.
//
// The tensor side is one of two:
// - resident (gpu_slots.hpp): the formats built on the GPU from an uploaded COO (COO, CSF,
//   B-CSF, and MM-CSF's partitions), over N parts, one per GPU. Each part owns a range of every
//   factor's rows: the rows its trees are rooted at (CSF, B-CSF), or an even split where parts
//   are summed (COO, MM-CSF: a reduce-scatter brings each part the sum of its rows). The dense
//   steps run on the owned rows only, their R-sized and R x R partial sums (column norms, Gram,
//   the fit's inner product) added on the host, and the fp32 factor rows are then gathered so
//   every GPU's next MTTKRP reads the whole factor; the R x R solve is done once, on the host;
// - streamed (cpd_streamed.hpp): a tensor larger than the GPU memory the run may use, built on
//   the host and copied through the GPU in chunks for every MTTKRP.
#include "decomp/cpd_device.hpp"

#include <chrono>
#include <functional>
#include <cmath>
#include <memory>
#include <optional>

#include "cuda/device_scope.hpp"
#include "cuda/gpu_cpd.hpp"
#include "decomp/cpd_fit.hpp"
#include "decomp/cpd_init.hpp"
#include "decomp/cpd_streamed.hpp"
#include "decomp/dense_linalg.hpp"
#include "decomp/fit_loop.hpp"
#include "kernels/mttkrp_slots.hpp"
#include "tscope/checks.hpp"
#include "tscope/cuda/device.hpp"
#include "tscope/error.hpp"
#include "tscope/kernels/mttkrp_multi_gpu.hpp"
#include "tscope/pipeline/pipeline_sptv.hpp"

namespace tscope::detail {

namespace {

using Clock = std::chrono::steady_clock;
double since(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }

// The least the resident build needs at once: the COO (4 bytes an index, 4 a value) and the
// sort's scratch (16 bytes a nonzero), before the formats themselves.
std::uint64_t resident_least(const CooTensor& t) { return t.nnz() * (4 * static_cast<std::uint64_t>(t.order()) + 4 + 16); }

// The tensor side of the run, resident over parts or streamed.
struct TensorSide {
    std::optional<GpuSlots> slots;                 // resident
    std::unique_ptr<StreamedCpdTensor> streamed;   // or streamed
    CpdStreaming stream_stats;
};

std::string gib(std::uint64_t b) { return std::to_string(static_cast<double>(b) / (1ull << 30)).substr(0, 5) + " GiB"; }

TensorSide prepare_tensor(const CooTensor& t, const CpdOptions& o, const std::vector<int>& devices, CpdResult& r, RunControl& control) {
    TensorSide side;
    const std::uint64_t free = gpu_free_memory();
    std::string reason;
    if (o.stream) reason = "asked for (--stream)";
    else if (free && resident_least(t) > free)
        reason = "the tensor and its sort need " + gib(resident_least(t)) + " on the GPU, " + gib(free) + " may be used";
    if (reason.empty()) {
        try {
            side.slots = build_gpu_slots(t, o.format, devices, control, o.rank);
            r.upload_seconds = side.slots->upload_seconds;
            r.build_seconds = side.slots->build_seconds;
            r.built_on_device = true;
            return side;
        } catch (const Error& e) {
            if (!out_of_gpu_memory(e) || devices.size() > 1) throw;
            side.slots.reset();
            reason = "the formats did not fit in the " + gib(free) + " the GPU had free (" + e.what() + ")";
        }
    }
    if (devices.size() > 1)
        throw InputError("the tensor does not fit on the GPUs (" + reason + "), and streaming runs on one GPU: use --gpus 1");
    side.stream_stats.reason = reason;
    return side;  // built by stream_tensor once the dense side holds its memory
}

// Device memory kept free beside the streams' buffers: the kernels' code, loaded on first use.
constexpr std::uint64_t kStreamMargin = 48ull << 20;

// The streamed tensor, sized to what the device has left once the dense side is allocated.
void stream_tensor(TensorSide& side, const CooTensor& t, const CpdOptions& o, CpdResult& r, RunControl& control) {
    const std::uint64_t left = gpu_free_memory();
    if (left <= kStreamMargin)
        throw Error("streaming needs device memory beside the factors of rank " + std::to_string(o.rank) + ", and " + gib(left) +
                    " are free");
    side.streamed = std::make_unique<StreamedCpdTensor>(t, o, left - kStreamMargin, control);
    control.stage("measuring the host-to-device copy rate");
    side.streamed->describe(side.stream_stats);
    r.build_seconds = side.streamed->build_seconds();
}

// Holds everything above `limit` of the free device memory for the run.
std::unique_ptr<GpuReservation> limit_memory(std::uint64_t limit) {
    if (!limit) return nullptr;
    const std::uint64_t free = gpu_free_memory();
    if (free <= limit) return nullptr;
    return std::make_unique<GpuReservation>(free - limit);
}

}  // namespace

bool cpd_runs_on_device(FormatKind format) { return multi_gpu_supports(format); }

std::vector<CpdResult> cpd_als_device(const CooTensor& t, const CpdOptions& o, double norm_x, const IterationCallback& on_iteration,
                                      RunControl& control) {
    require_gpu();
    const std::vector<int> devices = resolve_gpu_slots(o.gpus, o.gpu_slots);
    if (o.streams < 1 || o.streams > 16) throw InputError("--streams takes 1 to 16");
    if (o.gpu_memory_limit && devices.size() > 1) throw InputError("--limit-gpu-memory applies to one GPU: use --gpus 1");
    gpu_memory_reset_peak();
    const auto start = Clock::now();
    CpdResult setup;  // what every start shares: the tensor side and the GPUs
    setup.gpus = static_cast<int>(devices.size());
    setup.gpu_devices = devices;
    setup.gpu_memory_limit = o.gpu_memory_limit;
    const std::unique_ptr<GpuReservation> held = limit_memory(o.gpu_memory_limit);
    const int order = t.order();
    const std::uint64_t R = o.rank;
    const int parts = static_cast<int>(devices.size());
    // the dense side first, so that the formats' builds (and their shared-memory tiles, which
    // ask for their room as they are built) see what is left beside it
    std::vector<std::unique_ptr<gpu::CpdDevice>> devs;
    for (int g = 0; g < parts; ++g) {
        const gpu::OnDevice on(devices[static_cast<std::size_t>(g)]);
        devs.push_back(std::make_unique<gpu::CpdDevice>(t.dims(), R));
    }
    TensorSide side = prepare_tensor(t, o, devices, setup, control);
    if (side.slots) setup.gpu_nnz = side.slots->nnz();
    if (!side.slots) stream_tensor(side, t, o, setup, control);
    // the rows each part owns, per mode ([part], [part + 1])
    std::vector<std::vector<std::uint64_t>> owned(static_cast<std::size_t>(order));
    for (int m = 0; m < order; ++m) {
        owned[static_cast<std::size_t>(m)] = side.slots ? owned_row_cuts(*side.slots, m, t.dim(m)) : std::vector<std::uint64_t>{0, t.dim(m)};
        for (int g = 0; g < parts; ++g)
            devs[static_cast<std::size_t>(g)]->own_rows(m, owned[static_cast<std::size_t>(m)][static_cast<std::size_t>(g)],
                                                      owned[static_cast<std::size_t>(m)][static_cast<std::size_t>(g) + 1]);
    }
    // fn(part) on every part, on its GPU's thread
    auto each_part = [&](const std::function<void(int)>& fn) {
        if (side.slots) for_each_slot(*side.slots->group, fn);
        else fn(0);
    };
    // the parts' R-sized partial sums (the fit's inner products), and their R x R Grams
    std::vector<std::vector<double>> partial(static_cast<std::size_t>(parts), std::vector<double>(R));
    std::vector<DenseMatrix> part_grams(static_cast<std::size_t>(parts), DenseMatrix(R, R));
    auto sum_partials = [&] {
        std::vector<double> total(R, 0.0);
        for (const auto& p : partial)
            for (std::uint64_t c = 0; c < R; ++c) total[c] += p[c];
        return total;
    };
    // the parts' Grams (filled by fn on each part), summed
    auto summed_gram = [&](const std::function<void(int, double*)>& fn) {
        for (int g = 0; g < parts; ++g) fn(g, part_grams[static_cast<std::size_t>(g)].data.data());
        DenseMatrix sum(R, R);
        sum.fill(0.0);
        for (const DenseMatrix& p : part_grams)
            for (std::size_t e = 0; e < sum.data.size(); ++e) sum.data[e] += p.data[e];
        return sum;
    };
    // every part's fp32 rows of factor m to every other part
    auto gather_factor = [&](int m, CpdResult& r) {
        if (parts == 1) return;
        const auto start_gather = Clock::now();
        std::vector<void*> buffers;
        for (const auto& d : devs) buffers.push_back(d->factor32(m));
        std::vector<std::uint64_t> offsets;
        for (std::uint64_t c : owned[static_cast<std::size_t>(m)]) offsets.push_back(c * R);
        side.slots->group->allgather(buffers, offsets, false);
        r.collective_seconds += since(start_gather);
    };

    // One start: its factors to every GPU, then the ALS loop on the tensor side set up above.
    auto run_start = [&](int k, Clock::time_point began) {
        const CpdOptions so = start_options(o, k);
        CpdResult r = setup;
        std::vector<DenseMatrix> grams(static_cast<std::size_t>(order), DenseMatrix(R, R));
        const std::vector<DenseMatrix> start_factors = cpd_initial_factors(t, so.init, R, so.seed, o.original_ids);  // the host's, seed for seed
        for (int m = 0; m < order; ++m) {
            const DenseMatrix& a = start_factors[static_cast<std::size_t>(m)];
            for (auto& d : devs) d->set_factor(m, a.data.data());
            grams[static_cast<std::size_t>(m)] = summed_gram([&](int g, double* out) { devs[static_cast<std::size_t>(g)]->gram(m, out); });
        }
        r.lambda.assign(R, 1.0);
        r.setup_seconds = since(began);
        control.stage(parts > 1 ? "CPD-ALS on " + std::to_string(parts) + " GPU parts"
                                : side.streamed ? "CPD-ALS on the GPU, streaming the tensor" : "CPD-ALS on the GPU");
        FitLoop loop(began, o.max_iters, o.tolerance, on_iteration, control);
        for (int it = 1; it <= o.max_iters; ++it) {
            control.check();
            const auto t0 = Clock::now();
            IterationReport rep;
            rep.start = k;
            rep.mttkrp_seconds = rep.dense_seconds = 0;
            for (int n = 0; n < order; ++n) {
                const auto t1 = Clock::now();
                if (side.slots) {
                    double kernel = 0;  // the host clock below counts the same span
                    slots_mttkrp(*side.slots, devs, n, R, t.dims(), kernel, r.collective_seconds, &owned[static_cast<std::size_t>(n)]);
                } else {
                    side.streamed->mttkrp(*devs[0], n, R, side.stream_stats);
                }
                if (!side.slots) devs[0]->wait();  // (slots_mttkrp waits for its GPUs)
                rep.mttkrp_seconds += since(t1);
                const auto t2 = Clock::now();
                bool exact = true;
                const DenseMatrix vinv = linalg::spd_inverse(hadamard_of_others(grams, n), &exact);
                if (!exact) ++r.pseudo_inverse_solves;
                // A's Gram before normalisation gives the column norms (its diagonal) and, scaled by
                // them, the Gram after
                // (queued on every GPU from this thread, then collected: the GPUs work at once)
                DenseMatrix& gram = grams[static_cast<std::size_t>(n)];
                for (auto& d : devs) d->solve(n, vinv.data.data());
                gram = summed_gram([&](int g, double* out) { devs[static_cast<std::size_t>(g)]->solved_gram(out); });
                std::vector<double> sumsq(R);
                for (std::uint64_t c = 0; c < R; ++c) sumsq[c] = gram.at(c, c), r.lambda[c] = std::sqrt(sumsq[c]);
                for (std::uint64_t i = 0; i < R; ++i)
                    for (std::uint64_t j = 0; j < R; ++j)
                        if (r.lambda[i] > 0 && r.lambda[j] > 0) gram.at(i, j) /= r.lambda[i] * r.lambda[j];
                for (auto& d : devs) d->normalize(n, sumsq.data());
                gather_factor(n, r);
                if (parts == 1) devs[0]->wait();  // (the gather waits for every GPU)
                rep.dense_seconds += since(t2);
            }
            const auto t3 = Clock::now();
            // the last mode's MTTKRP, taken with every other factor current
            each_part([&](int g) { devs[static_cast<std::size_t>(g)]->inner(order - 1, partial[static_cast<std::size_t>(g)].data()); });
            const std::vector<double> inner = sum_partials();
            double in = 0;
            for (std::uint64_t c = 0; c < R; ++c) in += inner[c] * r.lambda[c];
            const double residual = norm_x + model_norm_squared(grams, r.lambda) - 2 * in;
            r.fit = fit_from(norm_x, residual);
            rep.fit_seconds = since(t3);
            if (loop.converged(it, t0, r.fit, r.iterations, rep)) {
                r.converged = true;
                break;
            }
        }
        for (int m = 0; m < order; ++m) {
            r.factors.emplace_back(t.dim(m), R);
            for (const auto& d : devs) d->get_factor(m, r.factors.back().data.data());  // each its own rows
        }
        return r;
    };

    std::vector<CpdResult> results;
    for (int k = 0; k < o.restarts; ++k) {
        control.check();
        results.push_back(run_start(k, k == 0 ? start : Clock::now()));
    }
    // over every start: the memory peak, the dense steps' device time, the streamed copies
    const auto steps = devs[0]->step_seconds();
    for (CpdResult& r : results) {
        r.peak_device_bytes = gpu_memory_peak_bytes();
        r.solve_seconds = steps.solve, r.normalize_seconds = steps.normalize, r.gram_seconds = steps.gram;
    }
    if (side.streamed) {
        CpdStreaming& s = side.stream_stats;
        s.copy_hidden = pipeline_overlap(s.timeline);
        s.overlap_of_possible = pipeline_overlap_of_possible(s.timeline);
        for (CpdResult& r : results) r.streaming = s;
    }
    return results;
}

}  // namespace tscope::detail
