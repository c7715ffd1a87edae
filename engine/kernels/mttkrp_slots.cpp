// Multi-GPU parts: mm-csf's formats built per part on the part's GPU, MTTKRPs combined with
// NCCL (or, for parts sharing a GPU, with copies on it).
#include "kernels/mttkrp_slots.hpp"

#include <algorithm>
#include <chrono>
#include <mutex>
#include <set>
#include <string>
#include <thread>

#include "cuda/device_scope.hpp"
#include "cuda/gpu_mmcsf_partition.hpp"
#include "formats/format_builders.hpp"
#include "kernels/csf_flatten.hpp"
#include "kernels/gpu_level_order.hpp"
#include "kernels/mttkrp_cuda.hpp"
#include "tscope/checks.hpp"
#include "tscope/cuda/device.hpp"
#include "tscope/error.hpp"
#include "tscope/formats/balanced_formats.hpp"
#include "tscope/parallel_errors.hpp"
#include "tscope/tensor/nnz_split.hpp"
#include "tscope/text_words.hpp"

namespace tscope::detail {

namespace {

using Clock = std::chrono::steady_clock;
double since(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }

bool own_gpus(const gpu::DeviceGroup& g) { return g.size() > 1 && g.device(0) != g.device(1); }

// fn(0) .. fn(n - 1) on a thread each (one per GPU: each thread selects its own); the first
// exception is rethrown once every thread has returned (a thread that starts after another
// failed does nothing, as the serial loop would stop).
void on_threads(int n, const std::function<void(int)>& fn) {
    if (n == 1) {
        fn(0);
        return;
    }
    ParallelErrors errors;
    std::vector<std::thread> threads;
    for (int k = 0; k < n; ++k) threads.emplace_back([&, k] { errors.run([&] { fn(k); }); });
    for (auto& th : threads) th.join();
    errors.rethrow();
}

// Part `slot` of every structure, on the slot's GPU, from that GPU's copy of the COO.
std::vector<std::shared_ptr<gpu::ResidentTensor>> build_part(const CooTensor& t, FormatKind format,
                                                             const gpu::DeviceCoo& coo, int slot, int parts,
                                                             const std::vector<std::vector<std::uint64_t>>& cuts,
                                                             const std::vector<std::uint8_t>& labels,
                                                             const GpuSlots& orders_of, std::uint64_t tiles_rank) {
    std::vector<std::shared_ptr<gpu::ResidentTensor>> out;
    const auto g = static_cast<std::size_t>(slot);
    auto filter = [&](std::size_t s, int mode) {
        return parts == 1 ? gpu::RowFilter{} : gpu::RowFilter{mode, cuts[s][g], cuts[s][g + 1]};
    };
    if (format == FormatKind::COO) {
        out.push_back(std::make_shared<gpu::ResidentTensor>(coo, cuts[0][g], cuts[0][g + 1]));
    } else if (format == FormatKind::MMCSF) {
        const std::vector<std::vector<int>>& orders = orders_of.partition_orders;
        std::vector<gpu::RowFilter> filters;
        for (int p = 0; p < t.order(); ++p)
            filters.push_back(filter(static_cast<std::size_t>(p), orders[static_cast<std::size_t>(p)][0]));
        // the partitions' long fibers cut as the host upload cuts them (mttkrp_cuda.cpp)
        const std::uint64_t split = gpu_fiber_split();
        out.push_back(std::make_shared<gpu::ResidentTensor>(
            gpu::ResidentTensor::build_partitioned(coo, labels.data(), orders, filters, split, tiles_rank)));
    } else {
        const std::uint64_t split = format == FormatKind::BCSF ? gpu_fiber_split() : 0;
        for (int m = 0; m < t.order(); ++m)
            out.push_back(std::make_shared<gpu::ResidentTensor>(
                gpu::ResidentTensor::build(coo, orders_of.tree_orders[static_cast<std::size_t>(m)], split,
                                           filter(static_cast<std::size_t>(m), m), tiles_rank)));
    }
    gpu::CpdDevice::synchronize();
    return out;
}

// MM-CSF's labels (Alg. 5), computed on `device` from a COO copy of its own (freed before the
// parts are built), or on the host where the device lacks the room: the same labels either way.
// Building the first GPU's parts from that copy rather than uploading another measured no faster
// (session 42 call 9, 63efc83, two H200s: the nell-2 shape's MM-CSF setup on one GPU 0.71-0.74 s
// against 0.74 in call 6); removed.
std::vector<std::uint8_t> partition_labels(const CooTensor& t, int device, RunControl& control) {
    try {
        const gpu::OnDevice on(device);
        const gpu::DeviceCoo coo(csf_flat::host_view(t));
        return gpu::mmcsf_partition(coo);
    } catch (const Error& e) {
        if (!out_of_gpu_memory(e)) throw;
    }
    control.stage("partitioning the nonzeros on the host (MM-CSF, Alg. 5): the GPU lacks the room");
    return mmcsf_partition(t, true);
}

}  // namespace

std::vector<int> resolve_gpu_slots(int gpus, const std::vector<int>& slots) {
    const GpuInfo info = query_gpu();
    if (!info.available) throw Error(info.reason);
    if (!slots.empty()) {
        for (int d : slots)
            if (d < 0 || d >= info.count)
                throw InputError("no GPU " + std::to_string(d) + ": this machine has " + std::to_string(info.count));
        return slots;
    }
    if (gpus < 0) throw InputError("--gpus takes a count of at least 1, or all");
    const int n = gpus == 0 ? info.count : gpus;
    if (n > info.count)
        throw InputError("--gpus " + std::to_string(n) + ": this machine has " + std::to_string(info.count) + " GPU" +
                         (info.count == 1 ? "" : "s"));
    if (n > 1 && !gpu::nccl_built()) throw InputError("--gpus " + std::to_string(n) + " needs NCCL, and this build has none");
    std::vector<int> out;
    for (int d = 0; d < n; ++d) out.push_back(d);
    return out;
}

void for_each_slot(const gpu::DeviceGroup& group, const std::function<void(int)>& fn) {
    if (own_gpus(group)) return on_threads(group.size(), fn);
    for (int g = 0; g < group.size(); ++g) fn(g);
}

std::vector<std::vector<std::uint64_t>> GpuSlots::nnz() const {
    std::vector<std::vector<std::uint64_t>> out(tensors.empty() ? 0 : tensors[0].size());
    for (const auto& slot : tensors)
        for (std::size_t s = 0; s < slot.size(); ++s) out[s].push_back(slot[s]->nnz());
    return out;
}

std::uint64_t GpuSlots::device_bytes() const {
    std::uint64_t b = 0;
    for (const auto& slot : tensors)
        for (const auto& t : slot) b += t->device_bytes();
    return b;
}

GpuSlots build_gpu_slots(const CooTensor& t, FormatKind format, const std::vector<int>& devices, RunControl& control,
                         std::uint64_t tiles_rank) {
    GpuSlots s;
    s.group = std::make_unique<gpu::DeviceGroup>(devices);
    s.per_mode = format == FormatKind::CSF || format == FormatKind::BCSF;
    const int parts = s.group->size();
    // the cuts: per mode (per-mode trees, rooted there), per MM-CSF partition (its root), or
    // by position (COO)
    std::vector<std::vector<std::uint64_t>> cuts;
    std::vector<std::uint8_t> labels;
    double partition_seconds = 0;  // part of MM-CSF's build
    if (format == FormatKind::MMCSF) {
        control.stage("partitioning the nonzeros on the GPU (MM-CSF, Alg. 5)");
        const auto start = Clock::now();
        labels = partition_labels(t, devices[0], control);
        partition_seconds = since(start);
    }
    const std::uint64_t l2 = query_gpu().l2_bytes;
    if (format == FormatKind::MMCSF) {
        // each partition in the GPU's level order at the rank given (the paper's where it is not known)
        s.partition_orders = gpu_mmcsf_orders(t.dims(), tiles_rank, l2);
        if (s.partition_orders.empty()) s.partition_orders = mmcsf_partition_orders(t.dims());
    }
    if (parts > 1) control.stage("cutting the nonzeros into " + std::to_string(parts) + " balanced parts");
    if (format == FormatKind::COO) {
        cuts.push_back(even_cuts(t.nnz(), parts));
    } else if (parts > 1) {
        for (int m = 0; m < t.order(); ++m) {
            const int root = format == FormatKind::MMCSF ? s.partition_orders[static_cast<std::size_t>(m)][0] : m;
            cuts.push_back(balanced_cuts(format == FormatKind::MMCSF ? slice_counts(t, root, labels.data(), static_cast<std::uint8_t>(m))
                                                                     : slice_counts(t, m),
                                         parts));
        }
    }
    if (s.per_mode) {
        // each tree in the GPU's level order at the rank given (SPLATT's where it is not known)
        for (int m = 0; m < t.order(); ++m) {
            s.row_cuts.push_back(parts > 1 ? cuts[static_cast<std::size_t>(m)] : std::vector<std::uint64_t>{});
            s.tree_orders.push_back(gpu_level_order(t.dims(), m, tiles_rank, l2));
        }
    } else {
        s.row_cuts.emplace_back();
        s.tree_orders.emplace_back();
    }

    // one COO upload per GPU; the parts on it are built from that copy
    s.tensors.resize(static_cast<std::size_t>(parts));
    const std::set<int> gpus(devices.begin(), devices.end());
    std::vector<int> first_slot_of;  // one representative slot per GPU
    for (int d : gpus)
        for (int g = 0; g < parts; ++g)
            if (devices[static_cast<std::size_t>(g)] == d) {
                first_slot_of.push_back(g);
                break;
            }
    control.stage(parts > 1
                      ? "building " + std::string(format_name(format)) + " on " + counted(gpus.size(), "GPU", "GPUs") +
                            ", " + std::to_string(parts) + " parts"
                      : "copying the tensor to the GPU and building " + std::string(format_name(format)) + " there");
    std::mutex timing;
    gpu::DeviceGroup& group = *s.group;
    auto build_on = [&](int rep) {
        gpu::OnDevice on(group.device(rep));
        const gpu::DeviceCoo coo(csf_flat::host_view(t));
        const auto start = Clock::now();
        for (int g = 0; g < parts; ++g)
            if (group.device(g) == group.device(rep)) {
                control.check();
                s.tensors[static_cast<std::size_t>(g)] =
                    build_part(t, format, coo, g, parts, cuts, labels, s, tiles_rank);
            }
        const std::lock_guard<std::mutex> hold(timing);
        s.upload_seconds = std::max(s.upload_seconds, coo.upload_seconds());
        s.build_seconds = std::max(s.build_seconds, partition_seconds + since(start));
    };
    on_threads(static_cast<int>(first_slot_of.size()), [&](int k) { build_on(first_slot_of[static_cast<std::size_t>(k)]); });
    return s;
}

std::vector<std::uint64_t> owned_row_cuts(const GpuSlots& s, int mode, std::uint64_t rows) {
    const auto& cuts = s.row_cuts[static_cast<std::size_t>(s.structure(mode))];
    return cuts.empty() ? even_cuts(rows, s.group->size()) : cuts;
}

void slots_mttkrp(GpuSlots& s, const std::vector<std::unique_ptr<gpu::CpdDevice>>& devs, int mode, std::uint64_t rank,
                  const std::vector<std::uint64_t>& dims, double& kernel_seconds, double& collective_seconds,
                  const std::vector<std::uint64_t>* owned) {
    gpu::DeviceGroup& group = *s.group;
    const int parts = group.size();
    // fp64 where any part's COO needs several output copies for this mode; else every part adds
    // into its fp32 output, widened after the collective as the fiber formats' is (a COO's single
    // copy then is the output: no fp64 clear and sum on the device, gpu_mttkrp.cu's coo_single_copy).
    // On one H200 (h200-issue19-session39.json call 4, alternating twice) a CPD iteration's
    // MTTKRPs on the delicious-4d shape's COO at rank 32 took 52.4-53.0 ms against 56.9-57.6 with
    // every COO mode summed into fp64 as before, the iteration 71.8-72.2 ms against 74.8-76.3
    // (iterations 2-5), the fits within 3e-7.
    bool wide = false;
    for (int g = 0; g < parts; ++g) wide = wide || s.of(g, mode).accumulates_in_double(mode, rank);
    auto start = Clock::now();
    // a part whose trees are rooted at its own rows writes only those: only they need clearing
    const bool own_rows_only = owned && !s.row_cuts[static_cast<std::size_t>(s.structure(mode))].empty();
    for (int g = 0; g < parts; ++g) {  // launches return at once: the GPUs run together
        const gpu::ResidentTensor& part = s.of(g, mode);
        devs[static_cast<std::size_t>(g)]->begin_mttkrp(
            mode, wide, [&](const float* const* f, float* out_f, double* out_d) { part.launch(mode, rank, f, out_f, out_d); },
            own_rows_only);
    }
    group.synchronize();
    kernel_seconds += since(start);
    if (parts > 1) {
        start = Clock::now();
        std::vector<void*> outputs;
        for (const auto& d : devs) outputs.push_back(d->output());
        const auto& cuts = s.row_cuts[static_cast<std::size_t>(s.structure(mode))];
        std::vector<std::uint64_t> offsets;
        for (std::uint64_t c : owned ? *owned : cuts) offsets.push_back(c * rank);
        if (cuts.empty() && owned) group.reduce_scatter(outputs, offsets, wide);
        else if (cuts.empty()) group.allreduce(outputs, dims[static_cast<std::size_t>(mode)] * rank, wide);
        else if (!owned) group.allgather(outputs, offsets, wide);
        // else: each part computed exactly its own rows, and keeps them
        collective_seconds += since(start);
    }
    for (const auto& d : devs) d->finish_mttkrp(mode);
}

}  // namespace tscope::detail
