// tensorscope-cli info FILE [--json] [--threads T] [--float]
// tensorscope-cli info FILE.tsb --streamed [--json] [--threads T] [--part-nnz N]
#include <algorithm>
#include <cmath>
#include <iostream>

#include "args.hpp"
#include "commands.hpp"
#include "json_report.hpp"
#include "text_table.hpp"
#include "threads.hpp"
#include "tscope/bench/machine.hpp"
#include "tscope/io/tensor_io.hpp"
#include "tscope/io/tsb_format.hpp"
#include "tscope/tensor/fiber_sketch.hpp"
#include "tscope/tensor/streamed_stats.hpp"
#include "tscope/tensor/tensor_stats.hpp"
#include "tscope/text_words.hpp"

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

// A figure marked estimated ("~"). Appended, not "~" + the temporary: GCC 12 warns of that form
// (-Wrestrict, a false positive in its inlined copy of the prefix).
std::string estimated(const std::string& figure) {
    std::string s = "~";
    s += figure;
    return s;
}

void print_text(const CooTensor& t, const LoadInfo& load, const TensorStats& stats) {
    // "1-based", or per mode where they differ ("0, 1, 1"): "base 1111" read as a number
    const auto& zero = load.zero_based;
    const bool one_based = std::none_of(zero.begin(), zero.end(), [](bool z) { return z; });
    const bool zero_based = std::all_of(zero.begin(), zero.end(), [](bool z) { return z; });
    std::string bases = one_based ? "1-based" : zero_based ? "0-based" : "base per mode";
    if (!one_based && !zero_based)
        for (std::size_t m = 0; m < zero.size(); ++m) bases += std::string(m ? ", " : " ") + (zero[m] ? "0" : "1");
    std::cout << "file        " << load.path << " (" << load.format << ", " << human_bytes(load.file_bytes) << ")\n"
              << "order       " << t.order() << "\n"
              << "dims        " << dims_text(t.dims()) << "\n"
              << "nnz         " << grouped(t.nnz()) << "\n"
              << "density     " << number(stats.density) << "\n"
              << "storage     " << (t.index_width() == IndexWidth::U32 ? "32" : "64") << "-bit indices, "
              << to_string(t.value_type()) << " values, " << human_bytes(t.bytes()) << " in memory\n"
              << "indices     " << (load.format == "tsb" ? "binary, stored 0-based" : bases)
              << (load.header ? ", dims from the file's header" : "") << "\n"
              << "duplicates  " << grouped(load.duplicates_summed) << " summed\n"
              << "zeros       " << grouped(load.zeros_dropped)
              << " left out (entries of value 0, written so or summed to it)\n"
              << "load        " << number(load.load_seconds) << " s";
    if (load.text_bytes && load.parse_seconds > 0)
        // in the unit that reads: "0.00222 MB/s" for a tiny file (sweep 73a)
        std::cout << " (parse " << human_bytes(static_cast<long double>(load.text_bytes) / load.parse_seconds) << "/s)";
    std::cout << "\nstatistics  " << number(stats.seconds) << " s\n\n";
    TextTable table({"mode", "dim", "slices", "nnz/slice mean/std/max", "fibers", "nnz/fiber mean/std/max"});
    for (const ModeStats& s : stats.modes)
        table.add({std::to_string(s.mode + 1), grouped(s.dim), grouped(s.slices), dist_text(s.slice_nnz),
                   grouped(s.fibers), dist_text(s.fiber_nnz)});
    std::cout << table.render();
    std::cout << "\n(slices and fibers count the non-empty ones; a mode-m fiber varies only index m)\n";
}

// A .tsb read in parts, never whole: the exact slice figures, in memory that does not grow
// with the nonzeros (tscope/tensor/streamed_stats.hpp).
int run_info_streamed(const Args& args, const std::string& path) {
    const std::uint64_t part = parse_part_nnz(args);
    const StreamedStats s = stream_tsb_stats(path, part);
    const TsbHeader header = read_tsb_header(path);
    FiberSketch sketch;  // a second pass, when asked: its hashing would halve the first one's rate
    if (args.flag("--sketch-fibers")) sketch = sketch_tsb_fibers(path, part);
    const double gbps = s.stats.seconds > 0 ? static_cast<double>(s.bytes_read) / s.stats.seconds / 1e9 : 0;
    if (args.flag("--json")) {
        Json modes = Json::array();
        for (const ModeStats& m : s.stats.modes)
            modes.push_back(Json{{"mode", m.mode + 1}, {"dim", m.dim}, {"slices", m.slices}, {"slice_nnz", to_json(m.slice_nnz)}});
        if (!sketch.fibers.empty())
            for (std::size_t m = 0; m < sketch.fibers.size(); ++m) {
                modes[m]["fibers_estimate"] = sketch.fibers[m];
                if (sketch.exact[m]) {
                    modes[m]["fibers"] = sketch.fiber_nnz[m].count, modes[m]["fiber_nnz"] = to_json(sketch.fiber_nnz[m]);
                } else {  // lengths from a sample of the fibers (fiber_sketch.hpp)
                    modes[m]["fiber_nnz_sampled"] = to_json(sketch.sampled_nnz[m]);
                    modes[m]["sampled_fibers"] = sketch.sampled_fibers[m];
                    modes[m]["sample_level"] = sketch.sample_level[m];
                }
            }
        std::cout << Json{{"file", path},
                          {"format", "tsb"},
                          {"streamed", true},
                          {"order", header.dims.size()},
                          {"dims", header.dims},
                          {"nnz", s.nnz},
                          {"density", s.stats.density},
                          {"fibers_computed", !sketch.fibers.empty()},  // it had always been false (sweep 72)
                          {"in_coordinate_order", s.in_order},
                          {"parts", s.parts},
                          {"bytes_read", s.bytes_read},
                          {"seconds", s.stats.seconds},
                          {"gb_per_s", gbps},
                          {"peak_host_bytes", peak_host_memory_bytes()},
                          {"modes", modes}}
                         .dump(2, ' ', false, kBadUtf8)
                  << "\n";
        return 0;
    }
    std::cout << "file        " << path << " (tsb, " << human_bytes(s.bytes_read) << ", read in "
              << counted(s.parts, "part", "parts") << ", never whole)\n"
              << "order       " << header.dims.size() << "\n"
              << "dims        " << dims_text(header.dims) << "\n"
              << "nnz         " << grouped(s.nnz) << "\n"
              << "density     " << number(s.stats.density) << "\n"
              << "statistics  " << number(s.stats.seconds) << " s (" << number(gbps) << " GB/s)\n\n";
    const bool sketched = !sketch.fibers.empty();
    TextTable table(sketched ? std::vector<std::string>{"mode", "dim", "slices", "nnz/slice mean/std/max", "fibers", "nnz/fiber mean/std/max"}
                             : std::vector<std::string>{"mode", "dim", "slices", "nnz/slice mean/std/max"});
    for (const ModeStats& m : s.stats.modes) {
        std::vector<std::string> row{std::to_string(m.mode + 1), grouped(m.dim), grouped(m.slices), dist_text(m.slice_nnz)};
        const auto k = static_cast<std::size_t>(m.mode);
        if (sketched && sketch.exact[k]) {
            row.push_back(grouped(sketch.fiber_nnz[k].count));
            row.push_back(dist_text(sketch.fiber_nnz[k]));
        } else if (sketched) {
            const double f = sketch.fibers[k];
            row.push_back(estimated(grouped(static_cast<std::uint64_t>(std::llround(f)))));
            const CountDistribution& d = sketch.sampled_nnz[k];  // the longest is the sample's: a lower bound
            row.push_back(estimated(number(d.mean)) + " / " + estimated(number(d.std)) + " / >=" + grouped(d.max));
        }
        table.add(row);
    }
    std::cout << table.render();
    if (!s.in_order)
        std::cout << "\nnote: the file is not in coordinate order, so duplicate coordinates (which loading it whole "
                     "would sum) "
                     "were not ruled out: the figures count its stored entries\n";
    const bool all_exact = sketched && std::all_of(sketch.exact.begin() + 1, sketch.exact.end(), [](bool e) { return e; });
    if (sketched)
        std::cout << "\n(exact slice figures; fibers marked ~ estimated by a HyperLogLog sketch, standard error 0.8%, their spread from "
                     "a sketch of the squared lengths, the longest (>=) from a sample of fibers each followed exactly"
                  << (all_exact ? "; the others counted exactly, a slice of mode 1 at a time" : "; " + sketch.not_exact_why) << ")\n";
    else
        std::cout << "\n(exact slice figures; fibers need the nonzeros grouped and are left out of a streamed pass; --sketch-fibers "
                     "counts them)\n";
    return 0;
}

}  // namespace

int run_info(int argc, char** argv) {
    Args args(argc, argv, 2, "info", {"--threads", "--part-nnz"}, {"--json", "--float", "--streamed", "--sketch-fibers"});
    const std::string path = args.positional(0, "the tensor FILE");
    args.expect_positionals(1);
    apply_threads(args);
    if (args.flag("--streamed")) return run_info_streamed(args, path);
    if (args.value("--part-nnz")) throw InputError("--part-nnz applies to --streamed");
    if (args.flag("--sketch-fibers")) throw InputError("--sketch-fibers applies to --streamed (a loaded tensor's fibers are counted exactly)");
    LoadOptions options;
    // the values as the file stores them: a convert --float .tsb had been said to hold "double
    // values" (loaded into fp64, sweep 71b)
    options.keep_stored_values = !args.flag("--float");
    if (args.flag("--float")) options.values = ValueType::F32;
    const LoadedTensor loaded = load_tensor(path, options);
    const TensorStats stats = compute_stats(loaded.tensor);
    if (args.flag("--json"))
        std::cout << info_json(loaded.tensor, loaded.info, stats).dump(2, ' ', false, kBadUtf8) << "\n";
    else
        print_text(loaded.tensor, loaded.info, stats);
    return 0;
}

}  // namespace tscope::cli
