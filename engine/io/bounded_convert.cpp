// The bounded-memory text-to-.tsb conversion (see bounded_convert.hpp): the parse loop handing
// batches to the sorted runs (convert_runs.hpp), then their merge into the .tsb's arrays
// (convert_merge.hpp).
#include "tscope/io/bounded_convert.hpp"

#include <sys/stat.h>

#include <algorithm>
#include <bit>
#include <charconv>
#include <chrono>
#include <fstream>
#include <optional>
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

// The size of a plain text file (gzip's text may be ten times its size); nothing for another kind.
std::optional<std::uint64_t> plain_text_bytes(const std::string& path) {
    struct stat st {};
    if (file_kind(path) != FileKind::Text || ::stat(path.c_str(), &st) != 0) return std::nullopt;
    return static_cast<std::uint64_t>(st.st_size);
}

// Whether the file's first MiB of nonzero lines already goes backwards in coordinate order (mode
// 1 first). Only a sample, so the choice it feeds is about speed: either way the output is the
// same file. Anything the sample cannot read as index lines (the parser will say what) counts as
// in order.
bool starts_out_of_order(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::string text(std::size_t{1} << 20, '\0');
    in.read(text.data(), static_cast<std::streamsize>(text.size()));
    text.resize(static_cast<std::size_t>(in.gcount()));
    std::vector<std::uint64_t> previous, current;
    for (std::size_t at = 0, end; (end = text.find('\n', at)) != std::string::npos; at = end + 1) {
        const char* p = text.data() + at;
        const char* const stop = text.data() + end;
        current.clear();
        for (;;) {
            while (p < stop && (*p == ' ' || *p == '\t' || *p == '\r')) ++p;
            if (p == stop || *p == '#') break;
            const char* token = p;
            while (p < stop && *p != ' ' && *p != '\t' && *p != '\r') ++p;
            std::uint64_t index = 0;
            const auto [last, ec] = std::from_chars(token, p, index);
            current.push_back(ec == std::errc() && last == p ? index
                                                             : ~std::uint64_t{0});  // the value, or not an index
        }
        if (current.empty()) continue;  // a blank line or a comment
        current.pop_back();             // the value
        if (current.empty() || std::find(current.begin(), current.end(), ~std::uint64_t{0}) != current.end() ||
            (!previous.empty() && previous.size() != current.size()))
            return false;
        if (current < previous) return true;
        previous.swap(current);
    }
    return false;
}

// The budget a batch gets when text that fits in memory goes through the runs anyway because it
// is out of order: about eight runs. Sorting packed keys a batch at a time beside the parse, then
// merging, beat loading the tensor whole and writing it through a sorted permutation (shuffled
// power-law text on this 2-core VM, default budget against runs: 5M nonzeros 1.48-1.56 s against
// 0.59-0.76 s in 7 runs, 20M 5.63 s against 2.12-2.15 s in 8); fewer runs leave the last batch's
// sort alone after the parse, more make the merge longer (20M: 4 runs 2.82 s, 32 runs 2.47 s).
// Text in order is faster loaded whole (20M: 1.10 s against 1.84 s in 32 runs).
std::uint64_t out_of_order_batch_bytes(std::uint64_t text_bytes, std::uint64_t budget) {
    return std::clamp<std::uint64_t>(text_bytes / 2, 16 * kMiB, budget);
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
        return std::max<std::uint64_t>(1, report.batch_bytes / bytes_per_entry(order, sizeof(V)));
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
        report.batch_bytes / (2 * std::max<std::uint64_t>(1, runs.size())), 4096, 256 * 1024));

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
    // A plain file whose tensor surely fits (about 3 bytes held per byte of text) is loaded by
    // the in-memory reader, which parses the whole file in parallel, then written by the same
    // writer; unless its lines are out of order, which sorted runs put in order faster.
    const auto text_bytes = plain_text_bytes(in);
    const bool fits = text_bytes && *text_bytes <= report.memory_bytes / 4;
    report.batch_bytes = report.memory_bytes;
    if (fits && starts_out_of_order(in)) {
        report.batch_bytes = out_of_order_batch_bytes(*text_bytes, report.memory_bytes);
    } else if (fits) {
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
    const std::size_t block =
        options.stream_block_bytes
            ? options.stream_block_bytes
            : static_cast<std::size_t>(std::clamp<std::uint64_t>(report.batch_bytes / 8, kMiB, 64 * kMiB));
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
