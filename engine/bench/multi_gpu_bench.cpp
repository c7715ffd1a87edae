#include "bench/multi_gpu_bench.hpp"

#include <algorithm>

#include "bench/bench_median.hpp"
#include "bench/mttkrp_row.hpp"
#include "formats/format_builders.hpp"
#include "kernels/gpu_level_order.hpp"
#include "kernels/mttkrp_slots.hpp"
#include "tscope/bench/machine.hpp"
#include "tscope/cuda/device.hpp"
#include "tscope/error.hpp"
#include "tscope/formats/balanced_formats.hpp"
#include "tscope/kernels/mttkrp.hpp"
#include "tscope/kernels/mttkrp_multi_gpu.hpp"

namespace tscope::detail {

namespace {

// One row: warm-up, then `repeat` timed runs of the mode's MTTKRP over the parts.
BenchResult time_mode(const CooTensor& t, const BenchRequest& request, MultiGpuMttkrp& mg, FormatKind kind, int mode,
                      const std::vector<DenseMatrix>& factors, const std::string& device) {
    BenchResult row;
    row.kernel = KernelKind::MTTKRP, row.format = kind, row.backend = Backend::Cuda, row.mode = mode, row.rank = request.rank;
    row.gpus = mg.parts();
    row.device = device;
    row.build_seconds = mg.build_seconds();
    const auto nnz = mg.part_nnz();
    row.per_gpu_nnz = nnz[nnz.size() == 1 ? 0 : static_cast<std::size_t>(mode)];
    DenseMatrix out(t.dim(mode), request.rank);
    MultiGpuTiming timing;
    mg.run(mode, factors, out, &timing);  // warm-up
    std::vector<double> kernels, collectives, transfers;
    for (int r = 0; r < request.repeat; ++r) {
        mg.run(mode, factors, out, &timing);
        row.seconds.push_back(timing.kernel_s + timing.collective_s);
        kernels.push_back(timing.kernel_s);
        collectives.push_back(timing.collective_s);
        transfers.push_back(timing.upload_s + timing.download_s);
    }
    row.median_s = median_of(row.seconds);
    row.kernel_s = median_of(kernels);
    row.collective_s = median_of(collectives);
    row.transfer_s = median_of(transfers);
    row.gflops = 3.0 * static_cast<double>(t.nnz()) * static_cast<double>(request.rank) / row.median_s / 1e9;
    row.bytes_moved = mg.device_bytes(mode);
    for (int m = 0; m < t.order(); ++m) row.bytes_moved += t.dim(m) * request.rank * 4;
    row.gbps = static_cast<double>(row.bytes_moved) / row.median_s / 1e9;
    if (const std::uint64_t tiled = mg.tile_nonzeros(mode, request.rank)) row.path = shared_tiles_path(tiled, t.nnz());
    // CSF's and B-CSF's trees in the GPU's level order where it is not SPLATT's, as a one-GPU row says
    if (const std::vector<int>& order = mg.tree_order(mode); !order.empty() && order != default_mode_order(t, mode))
        add_path(row.path, levels_text(order));
    // and MM-CSF's partitions
    if (const auto& orders = mg.partition_orders(); !orders.empty() && orders != mmcsf_partition_orders(t.dims()))
        add_path(row.path, partition_levels_text(orders));
    finish_mttkrp_row(row, t, request, mode, factors, std::move(out));
    return row;
}

}  // namespace

std::vector<BenchResult> run_multi_gpu_bench(const CooTensor& t, const BenchRequest& request, const std::vector<int>& modes,
                                             const std::vector<DenseMatrix>& factors, RunControl& control) {
    if (request.kernel != KernelKind::MTTKRP) throw InputError("--gpus applies to the MTTKRP benchmark");
    if (request.backends.size() != 1 || request.backends[0] != Backend::Cuda) throw InputError("--gpus needs --backend cuda alone");
    const GpuInfo gpu = query_gpu();
    std::vector<FormatKind> kinds = request.formats;
    if (kinds.empty()) kinds = multi_gpu_formats();
    std::vector<BenchResult> rows;
    // a format that does not run gets a row per mode saying why, as the single-GPU rows do
    auto refused = [&](FormatKind kind, int gpus, const std::string& why, std::size_t from = 0) {
        for (std::size_t k = from; k < modes.size(); ++k) {
            const int mode = modes[k];
            BenchResult row;
            row.kernel = KernelKind::MTTKRP, row.format = kind, row.backend = Backend::Cuda, row.mode = mode, row.rank = request.rank;
            row.gpus = gpus;
            row.error = why;
            row.device =
                gpu.available ? gpu.name : gpu.reason;  // the table's first line had read "nonzeros; ;" (sweep 66a F14)
            rows.push_back(std::move(row));
        }
    };
    if (!gpu.available) {
        for (FormatKind kind : kinds) refused(kind, request.gpus.value_or(1), gpu.reason);
        return rows;
    }
    const std::vector<int> devices = resolve_gpu_slots(request.gpus.value_or(1), request.gpu_slots);  // InputError: exit 2
    const bool shared = devices.size() > 1 && std::count(devices.begin(), devices.end(), devices[0]) == static_cast<long>(devices.size());
    const std::string device = std::to_string(devices.size()) + (shared ? " parts on one " : " x ") + gpu.name;
    const int parts = static_cast<int>(devices.size());
    for (FormatKind kind : kinds) {
        control.check();
        if (!multi_gpu_supports(kind)) {
            refused(kind, parts, std::string("no multi-GPU build for ") + format_name(kind) + " (COO, CSF, B-CSF and MM-CSF have one)");
            continue;
        }
        std::size_t done = 0;  // the modes timed before a failure keep their rows
        try {
            MultiGpuMttkrp mg(t, kind, 0, devices, control, request.rank);
            for (; done < modes.size(); ++done) {
                control.check();
                rows.push_back(time_mode(t, request, mg, kind, modes[done], factors, device));
            }
        } catch (const Cancelled&) {
            throw;
        } catch (const Error& e) {  // out of GPU memory for this format, ...
            refused(kind, parts, e.what(), done);
        }
    }
    return rows;
}

}  // namespace tscope::detail
