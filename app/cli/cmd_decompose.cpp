// tensorscope-cli decompose FILE --method cpd|tucker|fastertucker [--rank R] [--iters N]
//                 [--backend omp|cuda] [--threads T] [--seed S] [--json] [--write DIR] ...
// Runs a decomposition, printing each iteration as it completes (or one JSON document).
#include <algorithm>
#include <cmath>
#include <filesystem>
#include <iostream>
#include <stdexcept>

#include "args.hpp"
#include "commands.hpp"
#include "decompose_report.hpp"
#include "reorder_option.hpp"
#include "json_report.hpp"
#include "text_table.hpp"
#include "threads.hpp"
#include "tscope/bench/machine.hpp"
#include "tscope/checks.hpp"
#include "tscope/cuda/device.hpp"
#include "tscope/decomp/cpd_als.hpp"
#include "tscope/decomp/faster_tucker.hpp"
#include "tscope/decomp/tucker_hooi.hpp"
#include "tscope/io/tensor_io.hpp"
#include "tscope/text_parse.hpp"

namespace tscope::cli {

Json iteration_json(const IterationReport& r) {
    Json j{{"iter", r.iter}, {"seconds", r.seconds}, {"iter_seconds", r.iter_seconds}};
    if (!std::isnan(r.fit)) j["fit"] = r.fit;
    if (!std::isnan(r.mttkrp_seconds))
        j["mttkrp_s"] = r.mttkrp_seconds, j["dense_s"] = r.dense_seconds, j["fit_s"] = r.fit_seconds;
    if (!std::isnan(r.train_rmse)) {
        j["train_rmse"] = r.train_rmse, j["test_rmse"] = std::isnan(r.test_rmse) ? Json(nullptr) : Json(r.test_rmse);
        j["train_mae"] = r.train_mae, j["test_mae"] = std::isnan(r.test_mae) ? Json(nullptr) : Json(r.test_mae);
    }
    return j;
}

void note_older_mode_files(const std::string& dir, int order, const char* other) {
    std::string found;
    std::error_code ec;
    for (int m = order + 1; m <= kMaxOrder; ++m) {  // the names write_cpd and write_tucker give
        const std::string name = "mode" + std::to_string(m) + ".mat";
        if (std::filesystem::exists(dir + "/" + name, ec)) found += (found.empty() ? "" : ", ") + name;
    }
    if (!found.empty())
        std::cerr << "note: " << dir << " also holds " << found << " from an earlier run of a higher order: not this "
                  << "run's factors, and left as they are" << std::endl;
    if (std::filesystem::exists(dir + "/" + other, ec))
        std::cerr << "note: " << dir << " also holds " << other << " from an earlier run of the other decomposition: "
                  << "not this run's, and left as it is" << std::endl;
}

void print_iteration(const IterationReport& r) {
    if (r.start > 0 && r.iter == 1) std::cout << "start " << r.start + 1 << std::endl;
    std::cout << "iter " << r.iter << "  " << number(r.iter_seconds) << " s";
    if (!std::isnan(r.fit)) std::cout << "  fit " << number(r.fit, 6);
    if (!std::isnan(r.mttkrp_seconds))
        std::cout << "  (MTTKRP " << number(r.mttkrp_seconds) << " s, dense " << number(r.dense_seconds) << " s, fit "
                  << number(r.fit_seconds) << " s; host peak " << human_bytes(peak_host_memory_bytes()) << ")";
    if (!std::isnan(r.train_rmse))
        std::cout << "  train RMSE " << number(r.train_rmse, 4) << " MAE " << number(r.train_mae, 4);
    if (!std::isnan(r.test_rmse))  // NaN when the test set is empty: said once, not printed as "nan"
        std::cout << "  test RMSE " << number(r.test_rmse, 4) << " MAE " << number(r.test_mae, 4);
    std::cout << std::endl;
}

namespace {

double real(const Args& args, const std::string& name, double fallback) {
    const auto v = args.value(name);
    if (!v) return fallback;
    double x = 0;
    const std::errc ec = parse_double(*v, x);
    if (ec == std::errc::result_out_of_range)  // 1e-400 is non-negative: say what is wrong with it
        throw InputError(name + " '" + *v +
                         "' is beyond what a double holds (from about 4.9e-324 to 1.8e308; 0 is fine)");
    if (ec != std::errc() || !std::isfinite(x) || x < 0)
        throw InputError(name + " expects a non-negative number, not '" + *v + "'");
    return x;
}

// A result's factors with their rows back in the tensor's original ids (--reorder).
template <class Result> Result in_original_ids(Result r, const Relabelling& relabelling) {
    for (std::size_t m = 0; m < r.factors.size(); ++m) r.factors[m] = rows_to_original(relabelling, static_cast<int>(m), r.factors[m]);
    return r;
}

void check_distributed(const Args& args) {
    if (args.value("--grid")) throw InputError("--grid applies to --distributed");
}

void read_gpu_options(const Args& args, CpdOptions& o) {
    o.gpus = parse_gpus(args);
    if (auto v = args.value("--limit-gpu-memory")) o.gpu_memory_limit = parse_bytes(*v, "--limit-gpu-memory");
    if (auto v = args.value("--chunk-bytes")) o.chunk_bytes = parse_bytes(*v, "--chunk-bytes");
    o.streams = static_cast<int>(args.integer("--streams", 4, 1, 16));
    o.stream = args.flag("--stream");
}

// gpus, the nonzeros of each part, the collectives' time; for a streamed run its copies and
// kernels, and the last MTTKRP's timeline as a "pipeline" run the GUI's Pipeline view opens.
void add_gpu_report(Json& doc, const CpdResult& r) {
    doc["device"] = query_gpu().name;
    doc["gpus"] = r.gpus, doc["gpu_devices"] = r.gpu_devices, doc["per_gpu_nnz"] = r.gpu_nnz;
    doc["collective_s"] = r.collective_seconds;
    doc["gpu_memory_limit"] = r.gpu_memory_limit;
    if (!r.streaming) return;
    const CpdStreaming& s = *r.streaming;
    const double lower = s.copy_rate > 0 ? static_cast<double>(s.bytes_per_iteration) / s.copy_rate : 0;
    doc["streaming"] = Json{{"reason", s.reason},
                            {"streams", s.streams},
                            {"chunk_bytes", s.chunk_bytes},
                            {"chunks_per_iteration", s.chunks},
                            {"tensor_bytes", s.tensor_bytes},
                            {"bytes_per_iteration", s.bytes_per_iteration},
                            {"pinned", s.pinned},
                            {"copy_rate_bytes_per_s", s.copy_rate},
                            {"copy_lower_bound_s", lower},
                            {"copy_s", s.copy_s},
                            {"kernel_s", s.kernel_s},
                            {"pipeline_s", s.pipeline_s},
                            {"copy_hidden", s.copy_hidden},
                            {"overlap_of_possible", s.overlap_of_possible}};
    Json chunks = Json::array();
    double copy = 0, kernel = 0, span = 0;
    for (const PipelineChunk& c : s.timeline) {
        chunks.push_back(to_json(c));
        copy += c.in_end - c.in_start, kernel += c.kernel_end - c.kernel_start, span = std::max(span, c.out_end);
    }
    doc["bytes_in"] = s.tensor_bytes;
    doc["pipeline"] = Json::array({Json{{"streams", s.streams}, {"chunk_bytes", s.chunk_bytes}, {"t_pipe", span},
                                        {"overlap", s.copy_hidden}, {"overlap_of_possible", s.overlap_of_possible},
                                        {"transfer_s", copy}, {"kernel_s", kernel}, {"chunks", chunks}}});
}

void print_gpu_report(const CpdResult& r) {
    if (r.gpus > 1) {
        std::cout << r.gpus << " GPU parts; nonzeros per part:";
        for (const auto& per : r.gpu_nnz) {
            std::cout << " [";
            for (std::size_t g = 0; g < per.size(); ++g) std::cout << (g ? " " : "") << grouped(per[g]);
            std::cout << "]";
        }
        std::cout << "; collectives " << number(r.collective_seconds) << " s" << std::endl;
    }
    if (!r.streaming) return;
    const CpdStreaming& s = *r.streaming;
    const double lower = s.copy_rate > 0 ? static_cast<double>(s.bytes_per_iteration) / s.copy_rate : 0;
    std::cout << "streamed (" << s.reason << "): " << human_bytes(s.bytes_per_iteration) << " an iteration in " << s.chunks
              << " chunks over " << s.streams << " streams; copy rate " << number(s.copy_rate / 1e9) << " GB/s, so at least "
              << number(lower) << " s an iteration; over the run, copies " << number(s.copy_s) << " s and kernels "
              << number(s.kernel_s) << " s; " << number(s.copy_hidden * 100) << "% of the last MTTKRP's copy hidden" << std::endl;
}

// Every option the method reads, read before the tensor: a typo (--init foo) had cost the whole
// load, after the report's first line was out (sweep 70b B9).
struct MethodOptions {
    CpdOptions cpd;
    TuckerOptions tucker;
    std::string tucker_init;
    FasterTuckerOptions faster;
};

MethodOptions read_method_options(const Args& args, DecompMethod method, Backend backend, std::uint64_t seed,
                                  FtSchedule schedule) {
    MethodOptions m;
    if (method == DecompMethod::Cpd) {
        CpdOptions& o = m.cpd;
        o.rank = args.integer("--rank", 16, 1, 4096);
        o.max_iters = static_cast<int>(args.integer("--iters", 50, 1, 100000));
        o.tolerance = real(args, "--tol", 1e-5);
        o.format = parse_format(args.value_or("--format", "CSF"));
        o.init = parse_cpd_init(args.value_or("--init", "random"));
        o.restarts = static_cast<int>(args.integer("--restarts", 1, 1, 1000));
        o.seed = seed, o.backend = backend;
        read_gpu_options(args, o);
    } else if (method == DecompMethod::Tucker) {
        TuckerOptions& o = m.tucker;
        o.ranks = parse_count_list(args.value_or("--rank", "8"), "--rank");
        o.max_iters = static_cast<int>(args.integer("--iters", 25, 1, 100000));
        o.tolerance = real(args, "--tol", 1e-5);
        m.tucker_init = args.value_or("--init", "hosvd");
        if (m.tucker_init != "hosvd" && m.tucker_init != "random")
            throw InputError("--init must be hosvd or random, not '" + m.tucker_init + "'");
        o.hosvd_init = m.tucker_init == "hosvd";
        o.seed = seed, o.backend = backend;
    } else {
        FasterTuckerOptions& o = m.faster;
        o.r_rank = args.integer("--rank", 16, 1, 4096);
        o.j_ranks = parse_count_list(args.value_or("--j", std::to_string(o.r_rank)), "--j");
        o.epochs = static_cast<int>(args.integer("--iters", 50, 1, 100000));
        o.lr_a = real(args, "--lr-a", o.lr_a), o.lr_b = real(args, "--lr-b", o.lr_b);
        o.reg_a = real(args, "--reg-a", o.reg_a), o.reg_b = real(args, "--reg-b", o.reg_b);
        o.test_fraction = real(args, "--test-fraction", o.test_fraction);
        if (o.test_fraction >= 1)
            throw InputError("--test-fraction must be at least 0 and below 1, got " +
                             args.value_or("--test-fraction", ""));
        o.fiber_threshold = args.integer("--fiber-threshold", 128, 1);
        o.schedule = schedule, o.seed = seed, o.backend = backend;
    }
    return m;
}

// What each method's run reads and where it reports.
struct DecomposeRun {
    const Args& args;
    const CooTensor& t;
    const LoadInfo& load;
    const std::optional<Relabelling>& reorder;
    Backend backend;
    const MethodOptions& options;
    bool json;
    IterationCallback report;
    Json& doc;
};

// Where the run needs a GPU, after every option has been read (and the tensor, which some are
// checked against): bad input is said as bad input on any machine, where --rank 0 or --init
// bogus had said "no CUDA device" without one (sweep 66c).
void require_gpu_for(const DecomposeRun& run) {
    if (run.backend == Backend::Cuda) require_gpu();
}

std::vector<IterationReport> run_cpd(const DecomposeRun& run) {
    CpdOptions o = run.options.cpd;
    if (run.reorder) o.original_ids = run.reorder->old_id;  // the file's start for the seed, relabelled or not
    require_gpu_for(run);
    const CpdResult r = cpd_als(run.t, o, run.report);
    run.doc["rank"] = o.rank, run.doc["format"] = format_name(o.format), run.doc["fit"] = r.fit,
    run.doc["converged"] = r.converged;
    run.doc["setup_seconds"] = r.setup_seconds, run.doc["pseudo_inverse_solves"] = r.pseudo_inverse_solves,
    run.doc["lambda"] = r.lambda;
    run.doc["setup"] = Json{{"read_s", run.load.load_seconds},
                            {"build_s", r.build_seconds},
                            {"upload_s", r.upload_seconds},
                            {"built_on", r.built_on_device ? "device" : "host"}};
    run.doc["peak_device_bytes"] = r.peak_device_bytes;
    if (r.built_on_device || run.backend == Backend::Cuda)
        run.doc["dense_parts_s"] =
            Json{{"solve", r.solve_seconds}, {"normalize", r.normalize_seconds}, {"gram", r.gram_seconds}};
    run.doc["init"] = cpd_init_name(o.init), run.doc["restarts"] = o.restarts;
    if (o.restarts > 1) {
        Json starts = Json::array();
        for (std::size_t k = 0; k < r.starts.size(); ++k) {
            Json its = Json::array();
            for (const IterationReport& it : r.starts[k]) its.push_back(iteration_json(it));
            starts.push_back(Json{{"start", k + 1}, {"fit", r.start_fits[k]}, {"iterations", its}});
        }
        run.doc["starts"] = starts,
        run.doc["best_start"] = r.best_start + 1;  // from 1, as the text says it (sweep 70b B16)
    }
    if (run.backend == Backend::Cuda) add_gpu_report(run.doc, r);
    if (auto dir = run.args.value("--write")) {
        write_cpd(run.reorder ? in_original_ids(r, *run.reorder) : r, *dir);
        note_older_mode_files(*dir, static_cast<int>(r.factors.size()), "core.tns");
    }
    if (!run.json && run.backend == Backend::Cuda) print_gpu_report(r);
    if (!run.json && o.restarts > 1) {
        std::cout << "starts:";
        for (std::size_t k = 0; k < r.start_fits.size(); ++k) std::cout << " " << number(r.start_fits[k], 6);
        std::cout << "; kept start " << r.best_start + 1 << std::endl;
    }
    if (!run.json)
        std::cout << "fit " << number(r.fit, 6) << (r.converged ? " (converged)" : "") << "; setup: read "
                  << number(run.load.load_seconds) << " s, build " << number(r.build_seconds) << " s ("
                  << (r.built_on_device ? "on the GPU" : "on the host") << "), upload " << number(r.upload_seconds)
                  << " s; peak memory: host " << human_bytes(peak_host_memory_bytes()) << ", device "
                  << human_bytes(r.peak_device_bytes) << std::endl;
    return r.iterations;
}

std::vector<IterationReport> run_tucker(const DecomposeRun& run) {
    TuckerOptions o = run.options.tucker;
    if (run.reorder) o.original_ids = run.reorder->old_id;
    require_gpu_for(run);
    const TuckerResult r = tucker_hooi(run.t, o, run.report);
    run.doc["ranks"] = r.core_dims, run.doc["init"] = run.options.tucker_init, run.doc["fit"] = r.fit,
    run.doc["converged"] = r.converged;
    run.doc["setup_seconds"] = r.setup_seconds;
    if (auto dir = run.args.value("--write")) {
        write_tucker(run.reorder ? in_original_ids(r, *run.reorder) : r, *dir);
        note_older_mode_files(*dir, static_cast<int>(r.factors.size()), "lambda.mat");
    }
    if (!run.json) std::cout << "fit " << number(r.fit, 6) << (r.converged ? " (converged)" : "") << std::endl;
    return r.iterations;
}

std::vector<IterationReport> run_faster_tucker(const DecomposeRun& run) {
    const FasterTuckerOptions& o = run.options.faster;
    require_gpu_for(run);
    const FasterTuckerResult r = faster_tucker(run.t, o, run.report);
    run.doc["rank"] = o.r_rank, run.doc["j"] = o.j_ranks, run.doc["train_nnz"] = r.train_nnz,
    run.doc["test_nnz"] = r.test_nnz;
    run.doc["global_mean"] = r.global_mean, run.doc["mean_predictor_test_rmse"] = r.mean_predictor_test_rmse;
    run.doc["lr_a"] = o.lr_a, run.doc["lr_b"] = o.lr_b, run.doc["reg_a"] = o.reg_a, run.doc["reg_b"] = o.reg_b;
    run.doc["setup_seconds"] = r.setup_seconds, run.doc["schedule"] = ft_schedule_name(o.schedule);
    if (!run.json && r.test_nnz == 0)
        std::cout << "test set: empty (--test-fraction " << o.test_fraction << " of " << run.t.nnz()
                  << " nonzeros), so no test RMSE" << std::endl;
    else if (!run.json)
        std::cout << "global-mean predictor: test RMSE " << number(r.mean_predictor_test_rmse, 4) << std::endl;
    return r.iterations;
}

// The options only some methods read, refused for the others.
void check_method_options(const Args& args, DecompMethod method) {
    const bool cpd = method == DecompMethod::Cpd, tucker = method == DecompMethod::Tucker;
    for (const char* name : {"--format", "--restarts"}) args.refuse_unless(cpd, name, "--method cpd");
    for (const char* name : {"--tol", "--init", "--write"})
        args.refuse_unless(cpd || tucker, name, "--method cpd and tucker");
    for (const char* name :
         {"--j", "--lr-a", "--lr-b", "--reg-a", "--reg-b", "--test-fraction", "--fiber-threshold", "--schedule"})
        args.refuse_unless(method == DecompMethod::FasterTucker, name, "--method fastertucker");
}

// The options decompose refuses before the tensor is read.
void check_decompose_options(const Args& args, DecompMethod method, Backend backend) {
    if (backend == Backend::CpuRef) throw InputError("decompose runs on omp or cuda");
    for (const char* gpu_only : {"--gpus", "--limit-gpu-memory", "--streams", "--chunk-bytes", "--stream"})
        if ((args.value(gpu_only) || args.flag(gpu_only)) && (backend != Backend::Cuda || method != DecompMethod::Cpd))
            throw InputError(std::string(gpu_only) + " applies to --method cpd --backend cuda");
    check_distributed(args);
    check_method_options(args, method);
    check_reorder_option(args);
}


}  // namespace

int run_decompose(int argc, char** argv) {
    for (int i = 2; i < argc && std::string(argv[i]) != "--"; ++i)  // MPI starts before the arguments are read:
        if (std::string(argv[i]) == "--distributed")
            return run_decompose_distributed(argc, argv);  // one rank reports them
    Args args(argc, argv, 2, "decompose",
              {"--method", "--rank", "--iters", "--backend", "--threads", "--seed", "--tol", "--format", "--init", "--write", "--j",
               "--lr-a", "--lr-b", "--reg-a", "--reg-b", "--test-fraction", "--fiber-threshold",
               "--schedule", "--restarts", "--gpus", "--limit-gpu-memory", "--streams", "--chunk-bytes", "--grid", kReorderOption,
               kReorderItersOption},
              {"--json", "--stream", "--distributed"});
    const std::string path = args.positional(0, "the tensor FILE");
    args.expect_positionals(1);
    apply_threads(args);
    const DecompMethod method = parse_decomp_method(args.value_or("--method", "cpd"));
    const Backend backend = parse_backend(args.value_or("--backend", "omp"));
    check_decompose_options(args, method, backend);
    const FtSchedule schedule = parse_ft_schedule(args.value_or("--schedule", "hogwild"));  // before the load: a bad name fails fast
    const std::uint64_t seed = args.integer("--seed", 1);
    const bool json = args.flag("--json");
    // the values too, the GPU's among them before any GPU is looked for (sweep 66a F8)
    const MethodOptions options = read_method_options(args, method, backend, seed, schedule);
    if (auto dir = args.value("--write")) {  // before the load and the run; the files of any order
        check_output_dir(*dir);
        check_not_input(
            path, method == DecompMethod::Tucker ? tucker_file_paths(*dir, kMaxOrder) : cpd_file_paths(*dir, kMaxOrder),
            "--write");
    }
    LoadOptions load;
    // the device CPD computes in fp32: a --float .tsb stays fp32 in host memory too
    load.keep_stored_values = method == DecompMethod::Cpd && backend == Backend::Cuda;
    LoadedTensor loaded = load_tensor(path, load);
    require_nonzeros(loaded, "decompose");
    const std::optional<Relabelling> reorder = apply_reorder_option(args, loaded.tensor, json);
    const CooTensor& t = loaded.tensor;
    IterationCallback report = json ? IterationCallback{} : IterationCallback(print_iteration);
    if (!json)
        std::cout << path << ": " << counted(t.nnz(), "nonzero", "nonzeros") << ", " << decomp_method_name(method)
                  << " on " << backend_name(backend) << std::endl;

    Json doc{{"file", path}, {"method", decomp_method_name(method)}, {"backend", backend_name(backend)}, {"dims", t.dims()},
             {"nnz", t.nnz()}, {"duplicates_summed", loaded.info.duplicates_summed}};
    const DecomposeRun run{args, t, loaded.info, reorder, backend, options, json, report, doc};
    const std::vector<IterationReport> iterations = method == DecompMethod::Cpd      ? run_cpd(run)
                                                    : method == DecompMethod::Tucker ? run_tucker(run)
                                                                                     : run_faster_tucker(run);
    if (reorder) doc["reorder"] = reorder_json(*reorder);
    if (json) {
        Json its = Json::array();
        for (const IterationReport& r : iterations) its.push_back(iteration_json(r));
        doc["iterations"] = its;
        doc["peak_host_bytes"] = peak_host_memory_bytes();
        doc["machine"] = to_json(describe_machine());
        std::cout << doc.dump(1, ' ', false, kBadUtf8) << "\n";
    }
    return 0;
}

}  // namespace tscope::cli
