#include "decomp/cpd_streamed.hpp"

#include <algorithm>
#include <chrono>

#include "tscope/error.hpp"
#include "tscope/formats/format_visit.hpp"
#include "tscope/pipeline/pipeline_sptv.hpp"

namespace tscope::detail {

namespace {

using Clock = std::chrono::steady_clock;

// A chunk of 64 MiB keeps the copy engine at its rate (docs/bench: the pipeline sweep); less
// where the memory left for the streams' buffers is short.
constexpr std::uint64_t kDefaultChunk = 64ull << 20;
constexpr std::uint64_t kSmallestChunk = 1ull << 20;

std::uint64_t chunk_size(const CpdOptions& o, std::uint64_t budget) {
    // each stream holds one chunk; a chunk's buffers may exceed it by a fiber, hence the slack
    const std::uint64_t fits = budget / static_cast<std::uint64_t>(o.streams) * 3 / 4;
    if (fits < kSmallestChunk)
        throw Error("streaming the tensor over " + std::to_string(o.streams) + " streams needs at least " +
                    std::to_string((kSmallestChunk * static_cast<std::uint64_t>(o.streams) * 4 / 3) >> 20) +
                    " MiB of device memory beside the factors, and " + std::to_string(budget >> 20) + " MiB are left");
    return std::min(o.chunk_bytes ? std::max<std::uint64_t>(o.chunk_bytes, 4096) : kDefaultChunk, fits);
}

}  // namespace

StreamedCpdTensor::StreamedCpdTensor(const CooTensor& t, const CpdOptions& o, std::uint64_t budget, RunControl& control) {
    const auto start = Clock::now();
    // CSF and B-CSF: a tree rooted at each mode; COO and MM-CSF: one structure for every mode
    per_mode_ = o.format == FormatKind::CSF || o.format == FormatKind::BCSF;
    order_ = t.order();
    for (int m = 0; m < (per_mode_ ? t.order() : 1); ++m) {
        control.check();
        control.stage("building " + std::string(format_name(o.format)) + (per_mode_ ? " for mode " + std::to_string(m + 1) : "") +
                      " on the host, to stream");
        FormatOptions fo;
        fo.mode = m;
        std::unique_ptr<SparseFormat> f = build_format(o.format, t, fo, control);
        auto add_tree = [&](const auto& csf) {
            trees_.push_back(csf_flat::flatten(csf));
            orders_.push_back(csf.order);
        };
        visit_format(*f, overloaded{
            [&]<class I, class V>(const CooFormat<I, V>& c) { coo_ = csf_flat::flatten(c); },
            [&]<class I, class V>(const CsfFormat<I, V>& c) { add_tree(c); },
            [&]<class I, class V>(const BcsfFormat<I, V>& c) { add_tree(c.csf); },
            [&]<class I, class V>(const MmcsfFormat<I, V>& c) {
                for (const auto& p : c.partitions) add_tree(p);
            },
            [&]<class I, class V>(const BlcoFormat<I, V>& c) {
                blco_vals_.assign(c.vals.begin(), c.vals.end());
                gpu::Blco& b = blco_view_;
                b.nnz = c.vals.size(), b.blocks = c.blocks(), b.keys = c.keys.data(), b.vals = blco_vals_.data();
                b.block_ptr = c.block_ptr.data();
                for (const auto& h : c.block_high) b.high.push_back(h.data());
                b.shift = c.shift, b.width = c.width, b.dims = c.dims();
            },
            [&](const SparseFormat& other) { throw InputError("cannot stream " + other.name()); }});
        if (o.format == FormatKind::BLCO) blco_ = std::move(f);  // the streams read its arrays
    }
    const std::uint64_t chunk = chunk_size(o, budget);
    control.stage("page-locking the format for streaming");
    if (o.format == FormatKind::COO) {
        streamed_ = std::make_unique<gpu::StreamedTensor>(coo_.view(), chunk, o.streams);
    } else if (o.format == FormatKind::BLCO) {
        streamed_ = std::make_unique<gpu::StreamedTensor>(blco_view_, chunk, o.streams);
    } else {
        std::vector<gpu::Fibers> parts;
        for (std::size_t k = 0; k < trees_.size(); ++k) parts.push_back(trees_[k].view(orders_[k]));
        streamed_ = std::make_unique<gpu::StreamedTensor>(parts, chunk, o.streams);
    }
    if (streamed_->device_bytes() > budget)
        throw Error("the streams' buffers need " + std::to_string(streamed_->device_bytes() >> 20) + " MiB (a fiber longer than a chunk), " +
                    std::to_string(budget >> 20) + " MiB are left: use fewer streams or B-CSF");
    build_s_ = std::chrono::duration<double>(Clock::now() - start).count();
}

void StreamedCpdTensor::describe(CpdStreaming& stats) {
    const gpu::StreamedTensor& t = *streamed_;
    // per-mode trees: each streamed once an iteration; one structure: once per mode
    const std::uint64_t sweeps = per_mode_ ? 1 : static_cast<std::uint64_t>(order_);
    stats.streams = t.streams();
    stats.chunks = t.chunks().size() * sweeps;
    stats.tensor_bytes = t.bytes();
    stats.bytes_per_iteration = t.bytes() * sweeps;
    stats.pinned = t.pinned();
    stats.chunk_bytes = 0;
    for (const auto& c : t.chunks()) stats.chunk_bytes = std::max(stats.chunk_bytes, c.bytes);
    stats.copy_rate = streamed_->copy_rate();
}

void StreamedCpdTensor::mttkrp(gpu::CpdDevice& dev, int mode, std::uint64_t rank, CpdStreaming& stats) {
    gpu::StreamedTensor& t = *streamed_;
    const int part = per_mode_ ? mode : -1;
    const std::vector<const gpu::StreamChunk*> ranges = t.chunks_of(part);
    gpu::StreamRun run;
    dev.begin_mttkrp(mode, t.accumulates_in_double(),
                     [&](const float* const* f, float* out_f, double* out_d) { run = t.mttkrp(mode, rank, f, out_f, out_d, part); });
    dev.finish_mttkrp(mode);
    std::vector<PipelineChunk> timeline;
    for (std::size_t i = 0; i < run.chunks.size(); ++i) {
        const gpu::ChunkTimes& c = run.chunks[i];
        const gpu::StreamChunk& range = *ranges[i];
        PipelineChunk p;
        p.stream = c.stream;
        p.fibers = range.last - range.first;
        p.entries = range.nz_last - range.nz_first;
        p.bytes_in = range.bytes;
        p.in_start = c.in_start, p.in_end = c.in_end;
        p.kernel_start = c.kernel_start, p.kernel_end = c.kernel_end;
        p.out_start = p.out_end = c.kernel_end;  // the output stays on the device
        stats.copy_s += c.in_end - c.in_start;
        stats.kernel_s += c.kernel_end - c.kernel_start;
        timeline.push_back(p);
    }
    stats.pipeline_s += run.total_s;
    stats.timeline = std::move(timeline);
}

}  // namespace tscope::detail
