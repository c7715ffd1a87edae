// tensorscope-cli info FILE [--json] [--threads T] [--float]
#include <iostream>

#include "args.hpp"
#include "commands.hpp"
#include "json_report.hpp"
#include "text_table.hpp"
#include "tscope/io/tensor_io.hpp"
#include "tscope/tensor/tensor_stats.hpp"
#include "threads.hpp"

namespace tscope::cli {

namespace {

std::string dims_text(const std::vector<std::uint64_t>& dims) {
    std::string s;
    for (std::size_t i = 0; i < dims.size(); ++i) s += (i ? " x " : "") + grouped(dims[i]);
    return s;
}

std::string dist_text(const CountDistribution& d) {
    return number(d.mean) + " / " + number(d.std) + " / " + grouped(d.max);
}

void print_text(const CooTensor& t, const LoadInfo& load, const TensorStats& stats) {
    std::string bases;
    for (std::size_t m = 0; m < load.zero_based.size(); ++m) bases += load.zero_based[m] ? "0" : "1";
    std::cout << "file        " << load.path << " (" << load.format << ", " << human_bytes(load.file_bytes) << ")\n"
              << "order       " << t.order() << "\n"
              << "dims        " << dims_text(t.dims()) << "\n"
              << "nnz         " << grouped(t.nnz()) << "\n"
              << "density     " << number(stats.density) << "\n"
              << "storage     " << (t.index_width() == IndexWidth::U32 ? "32" : "64") << "-bit indices, "
              << to_string(t.value_type()) << " values, " << human_bytes(t.bytes()) << " in memory\n"
              << "indices     " << (load.format == "tsb" ? "binary" : "per mode, base " + bases)
              << (load.header ? ", dims from the file's header" : "") << "\n"
              << "duplicates  " << grouped(load.duplicates_summed) << " summed\n"
              << "zeros       " << grouped(load.zeros_dropped) << " left out (entries of value 0)\n"
              << "load        " << number(load.load_seconds) << " s";
    if (load.text_bytes && load.parse_seconds > 0)
        std::cout << " (parse " << number(static_cast<double>(load.text_bytes) / 1e6 / load.parse_seconds) << " MB/s)";
    std::cout << "\nstatistics  " << number(stats.seconds) << " s\n\n";
    TextTable table({"mode", "dim", "slices", "nnz/slice mean/std/max", "fibers", "nnz/fiber mean/std/max"});
    for (const ModeStats& s : stats.modes)
        table.add({std::to_string(s.mode + 1), grouped(s.dim), grouped(s.slices), dist_text(s.slice_nnz),
                   grouped(s.fibers), dist_text(s.fiber_nnz)});
    std::cout << table.render();
    std::cout << "\n(slices and fibers count the non-empty ones; a mode-m fiber varies only index m)\n";
}

}  // namespace

int run_info(int argc, char** argv) {
    Args args(argc, argv, 2, "info", {"--threads"}, {"--json", "--float"});
    const std::string path = args.positional(0, "the tensor FILE");
    args.expect_positionals(1);
    apply_threads(args);
    LoadOptions options;
    if (args.flag("--float")) options.values = ValueType::F32;
    const LoadedTensor loaded = load_tensor(path, options);
    const TensorStats stats = compute_stats(loaded.tensor);
    if (args.flag("--json"))
        std::cout << info_json(loaded.tensor, loaded.info, stats).dump(2) << "\n";
    else
        print_text(loaded.tensor, loaded.info, stats);
    return 0;
}

}  // namespace tscope::cli
