// The bounded-memory text-to-.tsb conversion (see bounded_convert.hpp): the parse loop handing
// batches to the sorted runs (convert_runs.hpp), then their merge into the .tsb's arrays
// (convert_merge.hpp).
#include "tscope/io/bounded_convert.hpp"

#include <sys/stat.h>

#include <algorithm>
#include <bit>
#include <chrono>
#include <string>
#include <vector>

#ifdef _OPENMP
#include <omp.h>
#endif

#include "convert_merge.hpp"
#include "convert_runs.hpp"
#include "file_util.hpp"
#include "tensor/radix_sort.hpp"
#include "tns_reader.hpp"
#include "tsb_internal.hpp"
#include "tscope/bench/machine.hpp"
#include "tscope/io/tsb_format.hpp"
#include "tscope/tensor/coo_ops.hpp"

namespace tscope {
namespace {

using Clock = std::chrono::steady_clock;
double since(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }

using namespace detail::convert;

// A plain text file of at most `bytes` (gzip's text may be ten times its size).
bool plain_text_within(const std::string& path, std::uint64_t bytes) {
    struct stat st {};
    return file_kind(path) == FileKind::Text && ::stat(path.c_str(), &st) == 0 && static_cast<std::uint64_t>(st.st_size) <= bytes;
}

// The reader's parallel regions get one thread fewer while it runs (on 2 cores: the calling
// thread alone): the sorting worker has that core, and regions sharing it wait at their
// barriers for a thread the worker holds up (on 2 busy cores, 2 parse threads beside the
// worker were no faster than 1).
class ParseThreads {
public:
    ParseThreads() {
#ifdef _OPENMP
        threads_ = omp_get_max_threads();
        omp_set_num_threads(std::max(1, threads_ - 1));
#endif
    }
    ~ParseThreads() {
#ifdef _OPENMP
        omp_set_num_threads(threads_);
#endif
    }
    ParseThreads(const ParseThreads&) = delete;
    ParseThreads& operator=(const ParseThreads&) = delete;

private:
    int threads_ = 1;
};

// Parses the stream into sorted runs and merges them into `out`; or, when everything fitted
// one batch, writes it as the in-memory convert does.
template <class V>
void convert_stream(detail::TextStream& stream, const std::string& in, const std::string& out, const BoundedConvertOptions& options,
                    std::size_t block, BoundedConvertReport& report, RunControl& control) {
    LoadOptions load;
    load.values = options.values;
    load.stream_block_bytes = options.stream_block_bytes;
    control.stage("parsing and sorting");
    const auto spill_at = [&](int order) {
        return std::max<std::uint64_t>(1, report.memory_bytes / bytes_per_entry(order, sizeof(V)));
    };
    std::vector<SortedRun<V>> runs;
    detail::StreamShape shape;
    {
        RunSorter<V> sorter(out, spill_at, control);
        ParseThreads parse_threads;
        shape = detail::parse_tns_stream_spilling(stream, in, load, control, spill_at,
                                                  [&](detail::EntryBatch&& batch) { sorter.add(std::move(batch)); }, block);
        if (!shape.fitted) runs = sorter.finish();
    }
    report.info = std::move(shape.info);
    report.info.format = stream.gzip() ? "tns.gz" : "tns";
    report.dims = shape.dims;
    if (shape.fitted) {  // one batch held it all: written as the in-memory convert writes it
        control.stage("writing");
        write_tsb(shape.whole, out, control);
        report.nnz = shape.whole.nnz();
        report.runs = 1;
        return;
    }
    report.runs = std::count_if(runs.begin(), runs.end(), [](const SortedRun<V>& r) { return r.count > 0; });
    MergePlan plan;
    plan.dims = shape.dims;
    plan.base = shape.base;
    plan.name = in;
    bool packed = true;
    PackedLayout layout;
    for (const SortedRun<V>& r : runs) {
        plan.entries += r.count;
        report.run_file_bytes += r.file_bytes();
        packed = packed && r.packed;
        if (r.packed) layout = layout.order ? PackedLayout::widest(layout, r.layout) : r.layout;
    }
    // Room for the run's number below the key (the packed merge's tags), else the entry-by-entry one.
    packed = packed && layout.bits + std::bit_width(runs.size() - 1) < 64;
    // Up to half the budget for the runs' read buffers; the output gets about one run's buffer an
    // array. At most 256 KiB a run: a window read stays in the cache until the merge takes it
    // (4 MiB windows of 7 runs took the 64 MiB merge from 0.09 s to 0.2 s).
    plan.run_buffer_bytes = static_cast<std::size_t>(std::clamp<std::uint64_t>(
        report.memory_bytes / (2 * std::max<std::uint64_t>(1, runs.size())), 4096, 256 * 1024));

    control.stage("merging");
    const auto merge_start = Clock::now();
    detail::AtomicFile file(out);
    if (CooTensor::width_for(plan.dims) == IndexWidth::U64)
        report.nnz = packed ? merge_packed<std::uint64_t, V>(runs, layout, plan, file, report.info, control)
                            : merge_runs<std::uint64_t, V>(runs, plan, file, report.info, control);
    else
        report.nnz = packed ? merge_packed<std::uint32_t, V>(runs, layout, plan, file, report.info, control)
                            : merge_runs<std::uint32_t, V>(runs, plan, file, report.info, control);
    runs.clear();  // the run files go before the output is flushed
    file.commit();
    report.merge_seconds = since(merge_start);
}

}  // namespace

std::uint64_t default_convert_memory() {
    return std::clamp<std::uint64_t>(physical_memory_bytes() / 4, 64 * kMiB, 4096 * kMiB);
}

BoundedConvertReport convert_text_to_tsb(const std::string& in, const std::string& out, const BoundedConvertOptions& options,
                                         RunControl& control) {
    const auto start = Clock::now();
    BoundedConvertReport report;
    report.memory_bytes = options.memory_bytes ? options.memory_bytes : default_convert_memory();
    if (report.memory_bytes < kMiB)
        throw InputError("convert: a memory budget of " + std::to_string(report.memory_bytes) +
                         " bytes is too small; give at least 1 MiB (--memory 1M)");
    const std::size_t block = options.stream_block_bytes
                                  ? options.stream_block_bytes
                                  : static_cast<std::size_t>(std::clamp<std::uint64_t>(report.memory_bytes / 8, kMiB, 64 * kMiB));

    if (plain_text_within(in, report.memory_bytes / 4)) {
        // A plain file whose tensor surely fits (about 3 bytes held per byte of text): the
        // in-memory reader, which parses the whole file in parallel, then the same writer.
        LoadOptions load;
        load.values = options.values;
        load.stream_block_bytes = options.stream_block_bytes;
        LoadedTensor whole = load_tensor(in, load, control);
        write_tsb(whole.tensor, out, control);
        report.info = std::move(whole.info);
        report.dims = whole.tensor.dims();
        report.nnz = whole.tensor.nnz();
        report.runs = 1;
        report.seconds = since(start);
        return report;
    }
    detail::TextStream stream(in);
    if (options.values == ValueType::F32)
        convert_stream<float>(stream, in, out, options, block, report, control);
    else
        convert_stream<double>(stream, in, out, options, block, report, control);
    report.seconds = since(start);
    report.info.load_seconds = report.seconds;
    return report;
}

}  // namespace tscope
