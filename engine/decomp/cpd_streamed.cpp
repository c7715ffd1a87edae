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
    const std::uint64_t chunk = std::min(o.chunk_bytes ? o.chunk_bytes : kDefaultChunk, fits);
    if (chunk < kSmallestChunk)
        throw Error("streaming the tensor over " + std::to_string(o.streams) + " streams needs at least " +
                    std::to_string((kSmallestChunk * static_cast<std::uint64_t>(o.streams) * 4 / 3) >> 20) +
                    " MiB of device memory beside the factors, and " + std::to_string(budget >> 20) + " MiB are left");
    return chunk;
}

}  // namespace

StreamedCpdTensor::StreamedCpdTensor(const CooTensor& t, const CpdOptions& o, std::uint64_t budget, RunControl& control) {
    const auto start = Clock::now();
    per_mode_ = format_is_per_mode(o.format);
    for (int m = 0; m < (per_mode_ ? t.order() : 1); ++m) {
        control.check();
        control.stage("building " + std::string(format_name(o.format)) + (per_mode_ ? " for mode " + std::to_string(m + 1) : "") +
                      " on the host, to stream");
        FormatOptions fo;
        fo.mode = m;
        const std::unique_ptr<SparseFormat> f = build_format(o.format, t, fo, control);
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
            [&](const SparseFormat& other) { throw InputError("CPD cannot stream " + other.name()); }});
    }
    const std::uint64_t chunk = chunk_size(o, budget);
    control.stage("page-locking the format for streaming");
    if (o.format == FormatKind::COO) {
        streamed_.push_back(std::make_unique<gpu::StreamedTensor>(coo_.view(), chunk, o.streams));
    } else if (per_mode_) {
        for (std::size_t m = 0; m < trees_.size(); ++m)
            streamed_.push_back(std::make_unique<gpu::StreamedTensor>(std::vector<gpu::Fibers>{trees_[m].view(orders_[m])}, chunk, o.streams));
    } else {
        std::vector<gpu::Fibers> parts;
        for (std::size_t k = 0; k < trees_.size(); ++k) parts.push_back(trees_[k].view(orders_[k]));
        streamed_.push_back(std::make_unique<gpu::StreamedTensor>(parts, chunk, o.streams));
    }
    for (const auto& s : streamed_)
        if (s->device_bytes() > budget)
            throw Error("the streams' buffers need " + std::to_string(s->device_bytes() >> 20) + " MiB (a fiber longer than a chunk), " +
                        std::to_string(budget >> 20) + " MiB are left: use fewer streams or B-CSF");
    build_s_ = std::chrono::duration<double>(Clock::now() - start).count();
}

void StreamedCpdTensor::describe(CpdStreaming& stats) {
    stats.streams = streamed_[0]->streams();
    stats.chunk_bytes = 0;
    stats.chunks = stats.bytes_per_iteration = stats.tensor_bytes = 0;
    const int sweeps = per_mode_ ? 1 : static_cast<int>(trees_.empty() ? coo_.idx.size() : orders_[0].size());
    for (const auto& s : streamed_) {
        stats.chunks += s->chunks().size() * static_cast<std::uint64_t>(sweeps);
        stats.bytes_per_iteration += s->bytes() * static_cast<std::uint64_t>(sweeps);
        stats.tensor_bytes += s->bytes();
        stats.pinned = stats.pinned && s->pinned();
        for (const auto& c : s->chunks()) stats.chunk_bytes = std::max(stats.chunk_bytes, c.bytes);
    }
    stats.copy_rate = streamed_[0]->copy_rate();
}

void StreamedCpdTensor::mttkrp(gpu::CpdDevice& dev, int mode, std::uint64_t rank, CpdStreaming& stats) {
    gpu::StreamedTensor& t = of(mode);
    gpu::StreamRun run;
    dev.begin_mttkrp(mode, t.accumulates_in_double(),
                     [&](const float* const* f, float* out_f, double* out_d) { run = t.mttkrp(mode, rank, f, out_f, out_d); });
    dev.finish_mttkrp(mode);
    std::vector<PipelineChunk> timeline;
    for (std::size_t i = 0; i < run.chunks.size(); ++i) {
        const gpu::ChunkTimes& c = run.chunks[i];
        const gpu::StreamChunk& range = t.chunks()[i];
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
