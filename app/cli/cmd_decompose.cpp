// tensorscope-cli decompose FILE --method cpd|tucker|fastertucker [--rank R] [--iters N]
//                 [--backend omp|cuda] [--threads T] [--seed S] [--json] [--write DIR] ...
// Runs a decomposition, printing each iteration as it completes (or one JSON document).
#include <algorithm>
#include <cmath>
#include <iostream>

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

void print_iteration(const IterationReport& r) {
    if (r.start > 0 && r.iter == 1) std::cout << "start " << r.start + 1 << std::endl;
    std::cout << "iter " << r.iter << "  " << number(r.iter_seconds) << " s";
    if (!std::isnan(r.fit)) std::cout << "  fit " << number(r.fit, 6);
    if (!std::isnan(r.mttkrp_seconds))
        std::cout << "  (MTTKRP " << number(r.mttkrp_seconds) << " s, dense " << number(r.dense_seconds) << " s, fit "
                  << number(r.fit_seconds) << " s; host peak " << human_bytes(peak_host_memory_bytes()) << ")";
    if (!std::isnan(r.train_rmse))
        std::cout << "  train RMSE " << number(r.train_rmse, 4) << " MAE " << number(r.train_mae, 4) << "  test RMSE "
                  << number(r.test_rmse, 4) << " MAE " << number(r.test_mae, 4);
    std::cout << std::endl;
}

namespace {

double real(const Args& args, const std::string& name, double fallback) {
    const auto v = args.value(name);
    if (!v) return fallback;
    try {
        std::size_t used = 0;
        const double x = std::stod(*v, &used);
        if (used != v->size() || !std::isfinite(x) || x < 0) throw std::invalid_argument(*v);
        return x;
    } catch (const std::exception&) {
        throw InputError(name + " expects a non-negative number, not '" + *v + "'");
    }
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

}  // namespace

int run_decompose(int argc, char** argv) {
    for (int i = 2; i < argc; ++i)  // MPI starts before the arguments are read: one rank reports them
        if (std::string(argv[i]) == "--distributed") return run_decompose_distributed(argc, argv);
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
    if (backend == Backend::CpuRef) throw InputError("decompose runs on omp or cuda");
    if (backend == Backend::Cuda) require_gpu();
    for (const char* gpu_only : {"--gpus", "--limit-gpu-memory", "--streams", "--chunk-bytes", "--stream"})
        if ((args.value(gpu_only) || args.flag(gpu_only)) && (backend != Backend::Cuda || method != DecompMethod::Cpd))
            throw InputError(std::string(gpu_only) + " applies to --method cpd --backend cuda");
    check_distributed(args);
    const FtSchedule schedule = parse_ft_schedule(args.value_or("--schedule", "hogwild"));  // before the load: a bad name fails fast
    const std::uint64_t seed = args.integer("--seed", 1);
    const bool json = args.flag("--json");
    if (auto dir = args.value("--write")) check_output_dir(*dir);  // before the load and the run
    LoadOptions load;
    // the device CPD computes in fp32: a --float .tsb stays fp32 in host memory too
    load.keep_stored_values = method == DecompMethod::Cpd && backend == Backend::Cuda;
    LoadedTensor loaded = load_tensor(path, load);
    const std::optional<Relabelling> reorder = apply_reorder_option(args, loaded.tensor, json);
    const CooTensor& t = loaded.tensor;
    IterationCallback report = json ? IterationCallback{} : IterationCallback(print_iteration);
    if (!json)
        std::cout << path << ": " << grouped(t.nnz()) << " nonzeros, " << decomp_method_name(method) << " on " << backend_name(backend)
                  << std::endl;

    Json doc{{"file", path}, {"method", decomp_method_name(method)}, {"backend", backend_name(backend)}, {"dims", t.dims()},
             {"nnz", t.nnz()}, {"duplicates_summed", loaded.info.duplicates_summed}};
    std::vector<IterationReport> iterations;
    switch (method) {
    case DecompMethod::Cpd: {
        CpdOptions o;
        o.rank = args.integer("--rank", 16, 1, 4096);
        o.max_iters = static_cast<int>(args.integer("--iters", 50, 1, 100000));
        o.tolerance = real(args, "--tol", 1e-5);
        o.seed = seed;
        o.backend = backend;
        o.format = parse_format(args.value_or("--format", "CSF"));
        o.init = parse_cpd_init(args.value_or("--init", "random"));
        o.restarts = static_cast<int>(args.integer("--restarts", 1, 1, 1000));
        read_gpu_options(args, o);
        const CpdResult r = cpd_als(t, o, report);
        iterations = r.iterations;
        doc["rank"] = o.rank, doc["format"] = format_name(o.format), doc["fit"] = r.fit, doc["converged"] = r.converged;
        doc["setup_seconds"] = r.setup_seconds, doc["pseudo_inverse_solves"] = r.pseudo_inverse_solves, doc["lambda"] = r.lambda;
        doc["setup"] = Json{{"read_s", loaded.info.load_seconds}, {"build_s", r.build_seconds}, {"upload_s", r.upload_seconds},
                            {"built_on", r.built_on_device ? "device" : "host"}};
        doc["peak_device_bytes"] = r.peak_device_bytes;
        if (r.built_on_device || backend == Backend::Cuda)
            doc["dense_parts_s"] = Json{{"solve", r.solve_seconds}, {"normalize", r.normalize_seconds}, {"gram", r.gram_seconds}};
        doc["init"] = cpd_init_name(o.init), doc["restarts"] = o.restarts;
        if (o.restarts > 1) {
            Json starts = Json::array();
            for (std::size_t k = 0; k < r.starts.size(); ++k) {
                Json its = Json::array();
                for (const IterationReport& it : r.starts[k]) its.push_back(iteration_json(it));
                starts.push_back(Json{{"start", k}, {"fit", r.start_fits[k]}, {"iterations", its}});
            }
            doc["starts"] = starts, doc["best_start"] = r.best_start;
        }
        if (backend == Backend::Cuda) add_gpu_report(doc, r);
        if (auto dir = args.value("--write")) write_cpd(reorder ? in_original_ids(r, *reorder) : r, *dir);
        if (!json && backend == Backend::Cuda) print_gpu_report(r);
        if (!json && o.restarts > 1) {
            std::cout << "starts:";
            for (std::size_t k = 0; k < r.start_fits.size(); ++k) std::cout << " " << number(r.start_fits[k], 6);
            std::cout << "; kept start " << r.best_start + 1 << std::endl;
        }
        if (!json)
            std::cout << "fit " << number(r.fit, 6) << (r.converged ? " (converged)" : "") << "; setup: read "
                      << number(loaded.info.load_seconds) << " s, build " << number(r.build_seconds) << " s ("
                      << (r.built_on_device ? "on the GPU" : "on the host") << "), upload " << number(r.upload_seconds)
                      << " s; peak memory: host " << human_bytes(peak_host_memory_bytes()) << ", device "
                      << human_bytes(r.peak_device_bytes) << std::endl;
        break;
    }
    case DecompMethod::Tucker: {
        TuckerOptions o;
        o.ranks = parse_count_list(args.value_or("--rank", "8"), "--rank");
        o.max_iters = static_cast<int>(args.integer("--iters", 25, 1, 100000));
        o.tolerance = real(args, "--tol", 1e-5);
        o.seed = seed;
        o.backend = backend;
        const std::string init = args.value_or("--init", "hosvd");
        if (init != "hosvd" && init != "random") throw InputError("--init must be hosvd or random");
        o.hosvd_init = init == "hosvd";
        const TuckerResult r = tucker_hooi(t, o, report);
        iterations = r.iterations;
        doc["ranks"] = r.core_dims, doc["init"] = init, doc["fit"] = r.fit, doc["converged"] = r.converged;
        doc["setup_seconds"] = r.setup_seconds;
        if (auto dir = args.value("--write")) write_tucker(reorder ? in_original_ids(r, *reorder) : r, *dir);
        if (!json) std::cout << "fit " << number(r.fit, 6) << (r.converged ? " (converged)" : "") << std::endl;
        break;
    }
    case DecompMethod::FasterTucker: {
        FasterTuckerOptions o;
        o.r_rank = args.integer("--rank", 16, 1, 4096);
        o.j_ranks = parse_count_list(args.value_or("--j", std::to_string(o.r_rank)), "--j");
        o.epochs = static_cast<int>(args.integer("--iters", 50, 1, 100000));
        o.lr_a = real(args, "--lr-a", o.lr_a), o.lr_b = real(args, "--lr-b", o.lr_b);
        o.reg_a = real(args, "--reg-a", o.reg_a), o.reg_b = real(args, "--reg-b", o.reg_b);
        o.test_fraction = real(args, "--test-fraction", o.test_fraction);
        o.fiber_threshold = args.integer("--fiber-threshold", 128, 1);
        o.schedule = schedule;
        o.seed = seed;
        o.backend = backend;
        const FasterTuckerResult r = faster_tucker(t, o, report);
        iterations = r.iterations;
        doc["rank"] = o.r_rank, doc["j"] = o.j_ranks, doc["train_nnz"] = r.train_nnz, doc["test_nnz"] = r.test_nnz;
        doc["global_mean"] = r.global_mean, doc["mean_predictor_test_rmse"] = r.mean_predictor_test_rmse;
        doc["lr_a"] = o.lr_a, doc["lr_b"] = o.lr_b, doc["reg_a"] = o.reg_a, doc["reg_b"] = o.reg_b;
        doc["setup_seconds"] = r.setup_seconds, doc["schedule"] = ft_schedule_name(o.schedule);
        if (!json)
            std::cout << "global-mean predictor: test RMSE " << number(r.mean_predictor_test_rmse, 4) << std::endl;
        break;
    }
    }
    if (reorder) doc["reorder"] = reorder_json(*reorder);
    if (json) {
        Json its = Json::array();
        for (const IterationReport& r : iterations) its.push_back(iteration_json(r));
        doc["iterations"] = its;
        doc["peak_host_bytes"] = peak_host_memory_bytes();
        doc["machine"] = to_json(describe_machine());
        std::cout << doc.dump(1) << "\n";
    }
    return 0;
}

}  // namespace tscope::cli
