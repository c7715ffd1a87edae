// tensorscope-cli bench FILE --kernel sptv|spttm|mttkrp|ttmc --format F|all --backend cpu-ref|omp|cuda
//                 [--mode M|all] [--rank R] [--repeat K] [--threads T] [--check] [--factors DIR]
//                 [--write DIR] [--json] [--csf-order ..] [--fiber-threshold T] [--variant V[,V..]|all]
#include <algorithm>
#include <cmath>
#include <filesystem>
#include <iostream>
#include <map>

#include "args.hpp"
#include "commands.hpp"
#include "json_report.hpp"
#include "reorder_option.hpp"
#include "text_table.hpp"
#include "threads.hpp"
#include "tscope/bench/kernel_bench.hpp"
#include "tscope/bench/roofline.hpp"
#include "tscope/cuda/device.hpp"
#include "tscope/io/tensor_io.hpp"
#include "tscope/io/text_file.hpp"
#include "tscope/text_parse.hpp"

namespace tscope::cli {

namespace {

// "43%", or "43% (gathers 91%)" where the row has the GPU's gather ceiling too ("gathers and
// adds" where MM-CSF's atomics count in it).
std::string of_bound(const BenchResult& r) {
    if (!(r.bound_s > 0)) return "-";
    std::string s = number(100 * r.share_of_bound) + "%";
    if (r.gather_bound_s > 0)
        s += std::string(r.add_bytes ? " (gathers and adds " : " (gathers ") + number(100 * r.share_of_gather_bound) +
             "%)";
    return s;
}

// What the table's roofline columns mean, printed above it.
constexpr const char* kRooflineLegend =
    "roofline: min bytes = the format's arrays, each distinct factor row once, the result (SpTV on omp:\n"
    "          the arrays its loop reads; COO, CFB, HOCFS-CSR and CSF are planned into one loop over\n"
    "          fiber starts, columns and values, so they run alike; HOCSR reads every row's offsets);\n"
    "          of bound = those bytes' time at the copy bandwidth / median (--json: bound_s, share_of_bound);\n"
    "          gathers = GPU MTTKRP/SpTTM: a factor row per nonzero (nnz x R x 4 bytes) at the measured\n"
    "          rate of gathering 128-byte rows from L2 / median (--json: gather_bytes, gather_gbps,\n"
    "          share_of_gather_bound); MM-CSF's nonzeros at the mode's leaves and nodes at its middle\n"
    "          levels add a row each by an atomic instead, at the measured rate of such adds, the two\n"
    "          times summed (--json: add_bytes, add_gbps); over shared tiles (\"(shared tiles)\" after the\n"
    "          format, --json path) the tiles' nonzeros gather no row: each block copies its tile's rows,\n"
    "          and an output row is added per run of one row;\n"
    "          GFLOP/s = the kernel's flops as COO counts them (MTTKRP 3 nnz R) / median: a format that\n"
    "          shares products along its fibers does fewer, so its rate can pass the peak\n\n";

// A checked result's error limit: fp32 on the GPU 1e-4; fp16 tensor cores (HLS on cuda) 1e-2,
// their accuracy judged by the SMAPE of hls Eq. 17 in the test suite; fp64 on the CPU 1e-8.
double error_limit(const BenchResult& r) {
    return r.backend != Backend::Cuda ? 1e-8 : r.format == FormatKind::HLS ? 1e-2 : 1e-4;
}

bool check_failed(const BenchResult& r) { return r.max_rel_error && !(*r.max_rel_error <= error_limit(r)); }

// One result as --json and --jsonl print it.
Json row_json(const BenchResult& r) {
    Json row{{"kernel", kernel_name(r.kernel)},
             {"format", format_name(r.format)},
             {"backend", backend_name(r.backend)},
             {"variant", r.variant},
             {"path", r.path},
             {"mode", r.mode + 1},
             {"rank", r.rank},
             {"ran", r.ran},
             {"median_s", r.median_s},
             {"transfer_s", r.transfer_s},
             {"gflops", r.gflops},
             {"gbps", r.gbps},
             {"bytes_moved", r.bytes_moved},
             {"min_bytes", r.bytes_moved},
             {"intensity", r.intensity},
             {"copy_gbps", r.copy_gbps},
             {"bound_s", r.bound_s},
             {"share_of_bound", r.share_of_bound},
             {"peak_gflops", r.peak_gflops},
             {"peak_source", r.peak_source},
             {"gather_bytes", r.gather_bytes},
             {"gather_gbps", r.gather_gbps},
             {"gather_bound_s", r.gather_bound_s},
             {"add_bytes", r.add_bytes},
             {"add_gbps", r.add_gbps},
             {"share_of_gather_bound", r.share_of_gather_bound},
             {"build_seconds", r.build_seconds},
             {"seconds", r.seconds},
             {"device", r.device}};
    // JSON has no inf: an infinite error is null, as an unchecked one is, and check_passed tells them apart
    row["max_rel_error"] = r.max_rel_error ? Json(*r.max_rel_error) : Json(nullptr);
    if (r.max_rel_error) row["check_passed"] = !check_failed(r);
    if (!r.error.empty()) row["error"] = r.error;
    if (r.vector_packed) row["vector_packed"] = r.vector_packed;
    if (r.hot_rows) row["hot_rows"] = r.hot_rows, row["hot_copies"] = r.hot_copies;
    if (r.gpus) {
        row["gpus"] = r.gpus, row["per_gpu_nnz"] = r.per_gpu_nnz;
        row["kernel_s"] = r.kernel_s, row["collective_s"] = r.collective_s;
    }
    if (r.streamed) {
        row["streamed"] = true, row["bytes_streamed"] = r.bytes_streamed, row["h2d_gbps"] = r.h2d_gbps;
        row["h2d_share_of_bound"] = r.h2d_share_of_bound, row["kernel_s"] = r.kernel_s;
    }
    return row;
}

// The machine the rows ran on, with the roofline's figures.
Json machine_json(const BenchRequest& request, double copy_gbps) {
    Json machine = to_json(describe_machine());
    machine["copy_gbps"] = copy_gbps;
    const PeakFigure peak = cpu_peak();
    machine["peak_gflops"] = peak.gflops, machine["peak_source"] = peak.source;
    if (std::find(request.backends.begin(), request.backends.end(), Backend::Cuda) != request.backends.end()) {
        machine["gpu_copy_gbps"] = copy_bandwidth_for(Backend::Cuda);
        const PeakFigure gpu_peak_figure = gpu_peak();
        machine["gpu_peak_gflops"] = gpu_peak_figure.gflops, machine["gpu_peak_source"] = gpu_peak_figure.source;
    }
    return machine;
}

// The option combinations bench refuses, before the tensor is read.
void check_bench_options(const Args& args) {
    if (args.value("--gpus") && (args.value_or("--backend", "omp") != "cuda" || args.value_or("--kernel", "mttkrp") != "mttkrp"))
        throw InputError("--gpus applies to --kernel mttkrp --backend cuda");
    const bool streamed = args.flag("--stream");
    if ((streamed || args.value("--streams") || args.value("--chunk-bytes")) &&
        (args.value_or("--backend", "omp") != "cuda" || args.value_or("--kernel", "mttkrp") != "mttkrp"))
        throw InputError("--stream, --streams and --chunk-bytes apply to --kernel mttkrp --backend cuda");
    if (!streamed && (args.value("--streams") || args.value("--chunk-bytes"))) throw InputError("--streams and --chunk-bytes need --stream");
    if (streamed && args.value("--gpus")) throw InputError("--stream runs on one GPU: leave --gpus out");
    if (args.flag("--jsonl") && args.flag("--json")) throw InputError("--json and --jsonl: choose one");
    check_format_parameters(args, parse_names<FormatKind>(args.value_or("--format", "all"), parse_format));
    // the values too, before the load (sweep 70b B9: --kernel foo waited for it)
    if (parse_kernel(args.value_or("--kernel", "mttkrp")) == KernelKind::SpTV &&
        args.integer("--rank", 1, 1, 4096) != 1)
        throw InputError(kRankIsNotSptvs);  // it was ignored (sweep 70b B14)
    (void)parse_names<Backend>(args.value_or("--backend", "omp"), parse_backend);
    (void)parse_names<SpttmVariant>(args.value_or("--variant", "all"), parse_spttm_variant);
    (void)args.integer("--rank", 32, 1, 4096);
    (void)args.integer("--repeat", 5, 1, 100000);
    check_mode_syntax(args);
    check_reorder_option(args);
    if (auto dir = args.value("--factors")) check_factor_dir(*dir);
    (void)args.integer("--streams", 4, 1, 16);
    if (auto v = args.value("--chunk-bytes")) (void)parse_bytes(*v, "--chunk-bytes");
    if (args.value("--gpus")) (void)parse_gpus(args);
    const std::string backends = args.value_or("--backend", "omp");
    args.refuse_unless(args.value_or("--kernel", "mttkrp") == "spttm" &&
                           (backends == "all" || backends.find("cuda") != std::string::npos),
                       "--variant", "--kernel spttm on --backend cuda (its COO variants)");
}

// What to run on t, from the options (factors read in t's numbering when it was reordered).
BenchRequest bench_request(const Args& args, const CooTensor& t, const std::optional<Relabelling>& reorder) {
    BenchRequest request;
    request.kernel = parse_kernel(args.value_or("--kernel", "mttkrp"));
    request.formats = parse_names<FormatKind>(args.value_or("--format", "all"), parse_format);
    request.backends = parse_names<Backend>(args.value_or("--backend", "omp"), parse_backend);
    if (request.backends.empty()) request.backends = {Backend::CpuRef, Backend::Omp, Backend::Cuda};
    request.modes = parse_modes(args.value_or("--mode", "all"), t.order());
    request.rank = args.integer("--rank", 32, 1, 4096);
    request.repeat = static_cast<int>(args.integer("--repeat", 5, 1, 100000));
    request.check = args.flag("--check");
    request.keep_outputs = args.given("--write");
    request.spttm_variants = parse_names<SpttmVariant>(args.value_or("--variant", "all"), parse_spttm_variant);
    request.options = parse_format_options(args, t);
    if (args.value("--gpus")) request.gpus = parse_gpus(args);
    request.stream = args.flag("--stream");
    if (request.stream && args.value_or("--format", "all") == "all") request.formats = {FormatKind::BLCO};
    request.streams = static_cast<int>(args.integer("--streams", 4, 1, 16));
    if (auto v = args.value("--chunk-bytes")) request.chunk_bytes = parse_bytes(*v, "--chunk-bytes");
    if (auto dir = args.value("--factors"))
        for (int m = 0; m < t.order(); ++m) {
            const DenseMatrix f = [&] {
                try {
                    return read_matrix(*dir + "/mode" + std::to_string(m + 1) + ".mat", t.dim(m), request.rank);
                } catch (const InputError& e) {
                    throw InputError(std::string("--factors: ") + e.what());
                }
            }();
            request.factors.push_back(reorder ? rows_to_new(*reorder, m, f) : f);
        }
    else if (reorder)  // the random factors drawn by the file's ids: --write gives what the file gives
        request.original_ids = reorder->old_id;
    return request;
}

// Where --write puts mode m's result.
std::string bench_output_path(const std::string& dir, KernelKind kernel, int mode) {
    return dir + "/" + kernel_name(kernel) + "_mode" + std::to_string(mode + 1) + ".mat";
}

// --write: the first result of each mode, SPLATT-style text, its rows in the file's numbering,
// written as one set (tscope/io/text_file.hpp).
void write_outputs(const std::string& dir, const std::vector<BenchResult>& results, const CooTensor& t,
                   const std::optional<Relabelling>& reorder) {
    std::filesystem::create_directories(dir);
    std::map<int, DenseMatrix> outputs;  // by mode: the maps' nodes stay put for the fills
    std::vector<TextFile> files;
    for (const BenchResult& r : results)
        if (r.ran && !outputs.count(r.mode)) {
            // the output's rows are the mode's indices (MTTKRP, SpTTM, TTMc): back to the original ids
            const bool rows_are_ids = reorder && r.output.rows == t.dim(r.mode);
            const DenseMatrix& out = outputs[r.mode] =
                rows_are_ids ? rows_to_original(*reorder, r.mode, r.output) : r.output;
            files.push_back({bench_output_path(dir, r.kernel, r.mode), matrix_text(out)});
        }
    write_text_files(files);
}

// One sweep over the modes: the sum of each mode's median and the modes summed, per (format, backend).
using Sweeps = std::map<std::pair<std::string, std::string>, std::pair<double, int>>;
Sweeps sweeps_of(const std::vector<BenchResult>& results) {
    Sweeps sweeps;
    for (const BenchResult& r : results)
        if (r.ran) {
            // a format's sweep whatever path each mode took (B-CSF's modes over tiles or not)
            auto& s = sweeps[{format_label(r, false), backend_name(r.backend)}];
            s.first += r.median_s;
            ++s.second;
        }
    return sweeps;
}

Json sweeps_json(const Sweeps& sweeps) {
    Json rows = Json::array();
    for (const auto& [key, s] : sweeps)
        rows.push_back(Json{{"format", key.first}, {"backend", key.second}, {"modes", s.second}, {"seconds", s.first}});
    return rows;
}

// Whether the request was not met, each reason said on stderr: --backend cuda without a device
// (the other backends' rows still run and print), or a result past its error limit (a failed
// check had exited 1 without a word, sweep 65).
bool request_failed(const std::vector<BenchResult>& results, const BenchRequest& request) {
    const GpuInfo gpu = query_gpu();
    const bool cuda_missing =
        !gpu.available && std::find(request.backends.begin(), request.backends.end(), Backend::Cuda) != request.backends.end();
    if (cuda_missing) std::cerr << "error: " << gpu.reason << "\n";
    std::size_t failed_checks = 0;
    bool infinite = false, reference_infinite = false;
    for (const BenchResult& r : results) {
        if (!check_failed(r)) continue;
        const double e = *r.max_rel_error;
        infinite = infinite || std::isinf(e);
        reference_infinite = reference_infinite || (std::isinf(e) && r.backend == Backend::CpuRef);
        if (++failed_checks > 5) continue;  // the rest counted below
        std::cerr << "error: check failed: " << kernel_name(r.kernel) << " " << format_label(r) << " on "
                  << backend_name(r.backend) << ", mode " << r.mode + 1 << ": max relative error "
                  << (std::isinf(e) ? std::string("inf") : number(e)) << " against cpu-ref, above "
                  << number(error_limit(r)) << "\n";
    }
    if (failed_checks > 5) std::cerr << "error: ... and " << failed_checks - 5 << " more rows failed their check\n";
    // cpu-ref against its own oracle fails only where the results are not finite
    if (reference_infinite)
        std::cerr << "error: cpu-ref's own results hold inf or NaN: the values' products overflow double; divide the "
                     "values by a constant\n";
    else if (infinite)  // cpu-ref's own rows may not have run: its reference is not known to be finite
        std::cerr << "error: an error of inf: a result or cpu-ref's reference holds inf or NaN (as where the values' "
                     "products overflow), or the result's shape differs\n";
    return cuda_missing || failed_checks > 0;
}

// The cuda rows' bandwidths for the table's first line, where any ran.
std::string gpu_line(const std::vector<BenchResult>& results) {
    for (const BenchResult& r : results)
        if (r.ran && r.backend == Backend::Cuda)
            return "; GPU copy bandwidth " + number(r.copy_gbps) + " GB/s, peak " +
                   (r.peak_gflops > 0 ? number(r.peak_gflops) + " GFLOP/s (" : "not known (") + r.peak_source + ")" +
                   (r.gather_gbps > 0 ? ", gathers of 128-byte rows " + number(r.gather_gbps) + " GB/s" : "") +
                   (r.add_gbps > 0 ? ", adds " + number(r.add_gbps) + " GB/s" : "");
    return {};
}

// The human-readable report: a line on the tensor and the machine, the rows, then the sweeps.
void print_table(const std::string& path, const CooTensor& t, const std::vector<BenchResult>& results,
                 const Sweeps& sweeps, double copy_gbps) {
    // the transfer column only where a cuda row ran: the CPU-only table stays narrow
    const bool transfers = std::any_of(results.begin(), results.end(), [](const BenchResult& r) { return r.ran && r.backend == Backend::Cuda; });
    std::vector<std::string> header{"kernel", "format", "backend", "mode", "rank", "median s", "transfer s", "GFLOP/s", "GB/s",
                                    "min bytes", "flop/B", "of bound", "max rel err", "build s"};
    const auto cells = [&](std::vector<std::string> row) {
        if (!transfers) row.erase(row.begin() + 6);
        return row;
    };
    TextTable table(cells(header));
    for (const BenchResult& r : results) {
        if (!r.ran) {
            table.add(cells({kernel_name(r.kernel), format_label(r), backend_name(r.backend),
                             std::to_string(r.mode + 1), std::to_string(r.rank), "-", "-", "-", "-", "-", "-", "-", "-",
                             "not run " + table.note(r.error)}));
            continue;
        }
        table.add(
            cells({kernel_name(r.kernel), format_label(r), backend_name(r.backend), std::to_string(r.mode + 1),
                   std::to_string(r.rank), number(r.median_s), r.backend == Backend::Cuda ? number(r.transfer_s) : "-",
                   number(r.gflops), number(r.gbps), human_bytes(r.bytes_moved), number(r.intensity), of_bound(r),
                   r.max_rel_error ? number(*r.max_rel_error, 2) : "-", number(r.build_seconds)}));
        if (r.gpus) {
            std::string parts;
            for (std::uint64_t n : r.per_gpu_nnz) {
                if (!parts.empty()) parts += ' ';
                parts += grouped(n);
            }
            table.add(cells({"", "  " + std::to_string(r.gpus) + " parts", "", "", "", "kernels " + number(r.kernel_s),
                             "collectives " + number(r.collective_s), "", "", "", "", "", "", "nonzeros " + parts}));
        }
        if (r.streamed)
            table.add(cells({"", "  streamed", "", "", "", "kernels " + number(r.kernel_s), "copies " + number(r.transfer_s), "",
                             "", human_bytes(r.bytes_streamed), "", "", "", "at " + number(r.h2d_gbps) + " GB/s host to device"}));
    }
    std::cout << path << ": " << counted(t.nnz(), "nonzero", "nonzeros") << "; "
              << (results.empty() ? "" : results.front().device) << "; copy bandwidth " << number(copy_gbps)
              << " GB/s, peak " << number(cpu_peak().gflops) << " GFLOP/s (" << cpu_peak().source << ")"
              << gpu_line(results) << "\n"
              << kRooflineLegend << table.render() << "\nsweeps (sum of the modes' medians):\n";
    for (const auto& [key, s] : sweeps)
        std::cout << "  " << key.first << " / " << key.second << ": " << number(s.first) << " s over " << s.second << " modes\n";
}

}  // namespace

int run_bench(int argc, char** argv) {
    Args args(argc, argv, 2, "bench",
              {"--kernel", "--format", "--backend", "--mode", "--rank", "--repeat", "--threads", "--factors", "--write",
               "--csf-order", "--mode-order", "--fiber-threshold", "--variant", "--hls-threshold", "--gpus",
               kReorderOption, kReorderItersOption, "--streams", "--chunk-bytes"},
              {"--check", "--json", "--jsonl", "--stream"});
    const std::string path = args.positional(0, "the tensor FILE");
    args.expect_positionals(1);
    apply_threads(args);
    if (auto dir = args.value("--write")) {  // before the load and the runs; the files of any order
        const KernelKind kernel = parse_kernel(args.value_or("--kernel", "mttkrp"));
        if (kernel == KernelKind::SpTV || kernel == KernelKind::SpTTM)  // it left empty .mat files, and exit 0
            throw InputError(std::string("--write writes the dense results of --kernel mttkrp and ttmc; ") +
                             kernel_name(kernel) + "'s result is sparse, and bench does not write it");
        check_output_dir(*dir);
        std::vector<std::string> outputs;
        for (int m = 0; m < kMaxOrder; ++m)
            outputs.push_back(bench_output_path(*dir, parse_kernel(args.value_or("--kernel", "mttkrp")), m));
        check_not_input(path, outputs, "--write");
    }
    check_bench_options(args);
    // --jsonl: each row on its own line as soon as it is measured, so a run cut short (a time
    // limit, a crash) keeps the rows it finished; a last line holds the sweeps and the machine
    const bool lines = args.flag("--jsonl");
    LoadedTensor loaded = load_tensor(path);
    require_nonzeros(loaded, "benchmark");
    const std::optional<Relabelling> reorder = apply_reorder_option(args, loaded.tensor, args.flag("--json") || lines);
    const CooTensor& t = loaded.tensor;
    BenchRequest request = bench_request(args, t, reorder);
    const double copy_gbps = copy_bandwidth_for(Backend::Omp);  // the one the CPU rows' roofline uses
    std::size_t printed = 0;                                    // --jsonl rows already out
    if (lines)
        request.on_result = [&printed](const BenchResult& r) {
            std::cout << row_json(r).dump(-1, ' ', false, kBadUtf8) << std::endl;
            ++printed;
        };
    const std::vector<BenchResult> results = run_bench(t, request);

    if (auto dir = args.value("--write")) write_outputs(*dir, results, t, reorder);
    const Sweeps sweeps = sweeps_of(results);
    const bool failed = request_failed(results, request);
    if (lines || args.flag("--json")) {
        Json doc{{"file", path}, {"order", t.order()}, {"dims", t.dims()}, {"nnz", t.nnz()}};
        if (lines) {  // the rows that came back all at once (--gpus, --stream), then the summary
            for (std::size_t i = printed; i < results.size(); ++i)
                std::cout << row_json(results[i]).dump(-1, ' ', false, kBadUtf8) << "\n";
            doc["rows"] = results.size();
        } else {
            Json rows = Json::array();
            for (const BenchResult& r : results) rows.push_back(row_json(r));
            doc["results"] = rows;
        }
        doc["sweeps"] = sweeps_json(sweeps);
        doc["machine"] = machine_json(request, copy_gbps);
        if (reorder) doc["reorder"] = reorder_json(*reorder);
        if (lines)
            std::cout << doc.dump(-1, ' ', false, kBadUtf8) << std::endl;
        else
            std::cout << doc.dump(2, ' ', false, kBadUtf8) << "\n";
        return failed ? 1 : 0;
    }
    print_table(path, t, results, sweeps, copy_gbps);
    return failed ? 1 : 0;
}

}  // namespace tscope::cli
