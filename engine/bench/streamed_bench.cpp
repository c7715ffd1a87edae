#include "bench/streamed_bench.hpp"

#include <string>

#include "bench/bench_median.hpp"
#include "bench/mttkrp_row.hpp"
#include "cuda/gpu_cpd.hpp"
#include "decomp/cpd_streamed.hpp"
#include "tscope/cuda/device.hpp"
#include "tscope/error.hpp"
#include "tscope/kernels/mttkrp.hpp"

namespace tscope::detail {

namespace {

// Device memory kept free beside the streams' buffers and the factors: the kernels' code.
constexpr std::uint64_t kMargin = 48ull << 20;

bool streamable(FormatKind k) {
    return k == FormatKind::COO || k == FormatKind::CSF || k == FormatKind::BCSF || k == FormatKind::MMCSF || k == FormatKind::BLCO;
}

BenchResult row_for(const BenchRequest& request, FormatKind kind, int mode) {
    BenchResult row;
    row.kernel = KernelKind::MTTKRP, row.format = kind, row.backend = Backend::Cuda, row.mode = mode, row.rank = request.rank;
    row.streamed = true;
    return row;
}

// One mode: a warm-up, then `repeat` timed runs, each the pipeline's span from the first
// copy-in to the last kernel's end (the factors and M stay on the device).
BenchResult time_mode(const CooTensor& t, const BenchRequest& request, StreamedCpdTensor& st, gpu::CpdDevice& dev, double rate,
                      FormatKind kind, int mode, const std::vector<DenseMatrix>& factors, const std::string& device) {
    BenchResult row = row_for(request, kind, mode);
    row.device = device;
    CpdStreaming warm;
    st.mttkrp(dev, mode, request.rank, warm);
    for (const PipelineChunk& c : warm.timeline) row.bytes_streamed += c.bytes_in;  // the same chunks every run
    std::vector<double> kernels, copies;
    for (int r = 0; r < request.repeat; ++r) {
        CpdStreaming run;
        st.mttkrp(dev, mode, request.rank, run);  // (the pipeline waits for its chunks)
        row.seconds.push_back(run.pipeline_s);
        kernels.push_back(run.kernel_s);
        copies.push_back(run.copy_s);
    }
    row.median_s = median_of(row.seconds);
    row.kernel_s = median_of(kernels);
    row.transfer_s = median_of(copies);
    row.gflops = 3.0 * static_cast<double>(t.nnz()) * static_cast<double>(request.rank) / row.median_s / 1e9;
    // the roofline of a streamed kernel is the host-to-device copy of its bytes
    row.h2d_gbps = rate / 1e9;
    row.bytes_moved = row.bytes_streamed;
    row.gbps = static_cast<double>(row.bytes_streamed) / row.median_s / 1e9;
    row.copy_gbps = row.h2d_gbps;
    row.bound_s = rate > 0 ? static_cast<double>(row.bytes_streamed) / rate : 0;
    row.share_of_bound = row.h2d_share_of_bound = row.bound_s / row.median_s;
    row.intensity = 3.0 * static_cast<double>(t.nnz()) * static_cast<double>(request.rank) / static_cast<double>(row.bytes_streamed);
    DenseMatrix out(t.dim(mode), request.rank);
    dev.get_mttkrp(mode, out.data.data());
    finish_mttkrp_row(row, t, request, mode, factors, std::move(out));
    return row;
}

}  // namespace

std::vector<BenchResult> run_streamed_bench(const CooTensor& t, const BenchRequest& request, const std::vector<int>& modes,
                                            const std::vector<DenseMatrix>& factors, RunControl& control) {
    if (request.kernel != KernelKind::MTTKRP) throw InputError("--stream applies to the MTTKRP benchmark");
    if (request.backends.size() != 1 || request.backends[0] != Backend::Cuda) throw InputError("--stream needs --backend cuda alone");
    if (request.streams < 1 || request.streams > 16) throw InputError("--streams takes 1 to 16");
    std::vector<FormatKind> kinds = request.formats;
    if (kinds.empty()) kinds = {FormatKind::BLCO};
    std::vector<BenchResult> rows;
    const GpuInfo gpu = query_gpu();
    auto refused = [&](FormatKind kind, const std::string& why, std::size_t from = 0) {
        for (std::size_t k = from; k < modes.size(); ++k) {
            BenchResult row = row_for(request, kind, modes[k]);
            row.error = why;
            row.device = gpu.available ? gpu.name : gpu.reason;  // not "nonzeros; ;" in the table's first line
            rows.push_back(std::move(row));
        }
    };
    for (FormatKind kind : kinds) {
        control.check();
        if (!gpu.available) {
            refused(kind, gpu.reason);
            continue;
        }
        if (!streamable(kind)) {
            refused(kind, std::string("no streamed MTTKRP for ") + format_name(kind) + " (COO, CSF, B-CSF, MM-CSF and BLCO have one)");
            continue;
        }
        std::size_t done = 0;  // the modes timed before a failure keep their rows
        try {
            gpu::CpdDevice dev(t.dims(), request.rank);  // the factors and M, resident
            for (int m = 0; m < t.order(); ++m) dev.set_factor(m, factors[static_cast<std::size_t>(m)].data.data());
            CpdOptions o;
            o.format = kind, o.rank = request.rank, o.streams = request.streams, o.chunk_bytes = request.chunk_bytes;
            const std::uint64_t free = gpu_free_memory();
            if (free <= kMargin) throw Error("streaming needs device memory beside the factors, and the GPU has none left");
            StreamedCpdTensor st(t, o, free - kMargin, control);
            control.stage("measuring the host-to-device copy rate");
            CpdStreaming described;
            st.describe(described);
            const std::string device = gpu.name + ", streamed from host memory over " + std::to_string(request.streams) + " streams";
            for (; done < modes.size(); ++done) {
                control.check();
                rows.push_back(time_mode(t, request, st, dev, described.copy_rate, kind, modes[done], factors, device));
                rows.back().build_seconds = st.build_seconds();
            }
        } catch (const Cancelled&) {
            throw;
        } catch (const Error& e) {
            refused(kind, e.what(), done);
        }
    }
    return rows;
}

}  // namespace tscope::detail
