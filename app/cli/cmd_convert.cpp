// tensorscope-cli convert IN OUT: between .tns, .tns.gz and .tsb (by OUT's extension).
// Text to .tsb goes through the bounded-memory external sort (tscope/io/bounded_convert.hpp)
// unless --in-memory asks for the loader; the other directions load the tensor whole.
#include <malloc.h>

#include <filesystem>
#include <iostream>

#include "args.hpp"
#include "commands.hpp"
#include "json_report.hpp"
#include "terminal_progress.hpp"
#include "text_table.hpp"
#include "threads.hpp"
#include "tscope/bench/machine.hpp"
#include "tscope/io/bounded_convert.hpp"
#include "tscope/io/tensor_io.hpp"
#include "tscope/io/tsb_format.hpp"

namespace tscope::cli {

namespace {

void print_summary(const std::string& in, const std::string& format, const std::string& out, int order,
                   std::uint64_t nnz, std::uint64_t duplicates) {
    std::cerr << "converted " << in << " (" << format << ") to " << out << ": order " << order << ", "
              << counted(nnz, "nonzero", "nonzeros");
    if (duplicates) std::cerr << ", " << counted(duplicates, "duplicate", "duplicates") << " summed";
    std::cerr << "\n";
}

int convert_bounded(const Args& args, const std::string& in, const std::string& out) {
    // Blocks of 256 KiB and more always come from mmap and go back to the system when freed:
    // glibc otherwise raises that threshold as blocks are freed and serves the next batches
    // from a heap that never shrinks, which took the resident peak to 2-5x the budget.
    ::mallopt(M_MMAP_THRESHOLD, 256 << 10);
    BoundedConvertOptions options;
    if (args.flag("--float")) options.values = ValueType::F32;
    if (auto v = args.value("--memory")) options.memory_bytes = parse_bytes(*v, "--memory");
    TerminalProgress progress;
    const BoundedConvertReport r = convert_text_to_tsb(in, out, options, progress);
    progress.finish();
    if (args.flag("--json")) {
        std::cout << Json{{"input", in},
                          {"output", out},
                          {"format", r.info.format},
                          {"bounded", true},
                          {"order", r.dims.size()},
                          {"dims", r.dims},
                          {"nnz", r.nnz},
                          {"duplicates_summed", r.info.duplicates_summed},
                          {"zeros_dropped", r.info.zeros_dropped},
                          {"memory_budget_bytes", r.memory_bytes},
                          {"batch_bytes", r.batch_bytes},
                          {"runs", r.runs},
                          {"run_file_bytes", r.run_file_bytes},
                          {"parse_sort_seconds", r.seconds - r.merge_seconds},
                          {"merge_seconds", r.merge_seconds},
                          {"seconds", r.seconds},
                          {"peak_host_bytes", peak_host_memory_bytes()}}
                         .dump(2, ' ', false, kBadUtf8)
                  << "\n";
    }
    print_summary(in, r.info.format, out, static_cast<int>(r.dims.size()), r.nnz, r.info.duplicates_summed);
    if (r.runs > 1)
        std::cerr << "(sorted in " << r.runs << " runs of at most " << human_bytes(r.batch_bytes) << ", "
                  << human_bytes(r.run_file_bytes) << " of temporary files)\n";
    return 0;
}

}  // namespace

int run_convert(int argc, char** argv) {
    Args args(argc, argv, 2, "convert", {"--threads", "--memory"}, {"--float", "--in-memory", "--json"});
    const std::string in = args.positional(0, "the input FILE");
    const std::string out = args.positional(1, "the output FILE");
    args.expect_positionals(2);
    apply_threads(args);
    check_output_name(out);
    check_not_input(in, {out}, "convert");
    const bool bounded =
        output_format(out) == OutputFormat::Tsb && !args.flag("--in-memory") && file_kind(in) != FileKind::Tsb;
    if (!bounded && args.value("--memory"))
        throw InputError("--memory applies to text converted to .tsb (without --in-memory)");
    if (!bounded && args.flag("--json")) throw InputError("--json applies to text converted to .tsb (without --in-memory)");
    if (bounded) return convert_bounded(args, in, out);
    LoadOptions options;
    if (args.flag("--float")) options.values = ValueType::F32;
    TerminalProgress progress;  // on a terminal: the stage, its share and the time left
    const LoadedTensor loaded = load_tensor(in, options, progress);
    progress.stage("writing " + out);
    save_tensor(loaded.tensor, out, progress);
    progress.finish();
    print_summary(in, loaded.info.format, out, loaded.tensor.order(), loaded.tensor.nnz(), loaded.info.duplicates_summed);
    return 0;
}

}  // namespace tscope::cli
