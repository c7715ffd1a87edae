// CPD-ALS on the device: mm-csf Alg. 1 with the tensor, the factors, their Grams'
// inputs and the MTTKRP output resident on the GPU for the whole run. Per mode the host gets the
// R x R Gram and R norms, forms V (the Hadamard product of the other Grams) and its inverse
// (R x R, LAPACK), and sends that back; the fit needs R inner products more. The formats are
// built on the device from an uploaded COO (COO, CSF, B-CSF, and MM-CSF's partitions), so host
// memory holds the loaded tensor and, for MM-CSF, one byte per nonzero (its partition labels).
#include "decomp/cpd_device.hpp"

#include <chrono>
#include <cmath>
#include <memory>

#include "cuda/gpu_cpd.hpp"
#include "decomp/cpd_fit.hpp"
#include "decomp/dense_linalg.hpp"
#include "decomp/fit_loop.hpp"
#include "formats/format_builders.hpp"
#include "kernels/csf_flatten.hpp"
#include "tscope/formats/balanced_formats.hpp"
#include "tscope/checks.hpp"
#include "tscope/cuda/device.hpp"
#include "tscope/error.hpp"

namespace tscope::detail {

namespace {

using Clock = std::chrono::steady_clock;
double since(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }

// One resident tensor per mode for the per-mode formats, one for all modes otherwise.
struct DeviceFormats {
    std::vector<std::shared_ptr<gpu::ResidentTensor>> per_mode;
    const gpu::ResidentTensor& of(int mode) const {
        return *per_mode[per_mode.size() == 1 ? 0 : static_cast<std::size_t>(mode)];
    }
};

DeviceFormats build_on_device(const CooTensor& t, const CpdOptions& o, CpdResult& r, RunControl& control) {
    DeviceFormats out;
    // the COO (4 bytes an index, 4 a value) and the sort's scratch (16 bytes a nonzero) at least,
    // before the formats themselves: refuse in words rather than fail in an allocation
    const std::uint64_t least = t.nnz() * (4 * static_cast<std::uint64_t>(t.order()) + 4 + 16);
    if (const std::uint64_t free = gpu_free_memory(); free && least > free)
        throw Error("CPD on the GPU needs at least " + std::to_string(least >> 30) + " GiB of device memory to build " +
                    format_name(o.format) + " there (the tensor and its sort), and " + std::to_string(free >> 30) +
                    " GiB are free");
    control.stage("copying the tensor to the GPU");
    const gpu::DeviceCoo coo(csf_flat::host_view(t));
    r.upload_seconds = coo.upload_seconds();
    const auto start = Clock::now();
    if (o.format == FormatKind::COO) {
        out.per_mode.push_back(std::make_shared<gpu::ResidentTensor>(coo));
    } else if (o.format == FormatKind::MMCSF) {
        // Alg. 5's dynamic partitioning is one pass in nonzero order on the host (its rule reads
        // the counts the nonzeros before it left); each partition's tree is built on the device
        control.stage("partitioning the nonzeros (MM-CSF, Alg. 5)");
        const std::vector<std::uint8_t> labels = mmcsf_partition(t, true);
        std::vector<std::vector<int>> orders;
        for (int p = 0; p < t.order(); ++p) orders.push_back(mmcsf_partition_order(t, p));
        control.stage("building MM-CSF on the GPU");
        out.per_mode.push_back(
            std::make_shared<gpu::ResidentTensor>(gpu::ResidentTensor::build_partitioned(coo, labels.data(), orders)));
    } else {
        const std::uint64_t split = o.format == FormatKind::BCSF ? FormatOptions{}.bcsf_fiber_threshold : 0;
        for (int m = 0; m < t.order(); ++m) {
            control.check();
            control.stage("building " + std::string(format_name(o.format)) + " for mode " + std::to_string(m + 1) + " on the GPU");
            out.per_mode.push_back(
                std::make_shared<gpu::ResidentTensor>(gpu::ResidentTensor::build(coo, default_mode_order(t, m), split)));
        }
    }
    gpu::CpdDevice::synchronize();
    r.build_seconds = since(start);
    r.built_on_device = true;
    return out;
}

}  // namespace

bool cpd_runs_on_device(FormatKind format) {
    return format == FormatKind::COO || format == FormatKind::CSF || format == FormatKind::BCSF || format == FormatKind::MMCSF;
}

CpdResult cpd_als_device(const CooTensor& t, const CpdOptions& o, double norm_x, const IterationCallback& on_iteration,
                         RunControl& control) {
    require_gpu();
    gpu_memory_reset_peak();
    const auto start = Clock::now();
    CpdResult r;
    const DeviceFormats formats = build_on_device(t, o, r, control);
    const int order = t.order();
    const std::uint64_t R = o.rank;
    gpu::CpdDevice dev(t.dims(), R);
    std::vector<DenseMatrix> grams(static_cast<std::size_t>(order), DenseMatrix(R, R));
    for (int m = 0; m < order; ++m) {  // the host backend's starting point, seed for seed
        const DenseMatrix a = random_matrix(t.dim(m), R, o.seed + 17 * std::uint64_t(m));
        dev.set_factor(m, a.data.data());
        dev.gram(m, grams[static_cast<std::size_t>(m)].data.data());
    }
    r.lambda.assign(R, 1.0);
    r.setup_seconds = since(start);

    control.stage("CPD-ALS on the GPU");
    FitLoop loop(start, o.max_iters, o.tolerance, on_iteration, control);
    std::vector<double> inner(R);
    for (int it = 1; it <= o.max_iters; ++it) {
        control.check();
        const auto t0 = Clock::now();
        IterationReport parts;
        parts.mttkrp_seconds = parts.dense_seconds = 0;
        for (int n = 0; n < order; ++n) {
            auto t1 = Clock::now();
            dev.mttkrp(formats.of(n), n);
            gpu::CpdDevice::synchronize();
            parts.mttkrp_seconds += since(t1);
            t1 = Clock::now();
            bool exact = true;
            const DenseMatrix vinv = linalg::spd_inverse(hadamard_of_others(grams, n), &exact);
            if (!exact) ++r.pseudo_inverse_solves;
            dev.solve_and_normalize(n, vinv.data.data(), r.lambda.data());
            dev.gram(n, grams[static_cast<std::size_t>(n)].data.data());
            parts.dense_seconds += since(t1);
        }
        const auto t2 = Clock::now();
        // the last mode's MTTKRP, taken with every other factor current
        dev.inner(order - 1, inner.data());
        double in = 0;
        for (std::uint64_t c = 0; c < R; ++c) in += inner[c] * r.lambda[c];
        const double residual = norm_x + model_norm_squared(grams, r.lambda) - 2 * in;
        r.fit = fit_from(norm_x, residual);
        parts.fit_seconds = since(t2);
        if (loop.converged(it, t0, r.fit, r.iterations, parts)) {
            r.converged = true;
            break;
        }
    }
    for (int m = 0; m < order; ++m) {
        r.factors.emplace_back(t.dim(m), R);
        dev.get_factor(m, r.factors.back().data.data());
    }
    r.peak_device_bytes = gpu_memory_peak_bytes();
    const auto steps = dev.step_seconds();
    r.solve_seconds = steps.solve, r.normalize_seconds = steps.normalize, r.gram_seconds = steps.gram;
    return r;
}

}  // namespace tscope::detail
