// tensorscope-cli pipeline FILE --format hocfs|hocfs-ell|cfb [--mode M] [--streams K|auto]
//                 [--chunk-bytes B|auto] [--limit-gpu-memory B] [--check] [--json]
// Pipelined SpTV over CUDA streams (hocfs-sptv-pipeline Sec. 6.2): the timeline of every
// chunk, T_s, T_p, the model's T_p and the overlap, for each setting tried.
#include <algorithm>
#include <cctype>
#include <iostream>

#include "args.hpp"
#include "commands.hpp"
#include "json_report.hpp"
#include "text_table.hpp"
#include "threads.hpp"
#include "tscope/checks.hpp"
#include "tscope/cuda/device.hpp"
#include "tscope/io/tensor_io.hpp"
#include "tscope/kernels/dense_matrix.hpp"
#include "tscope/kernels/sptv.hpp"
#include "tscope/pipeline/pipeline_sptv.hpp"
#include "tscope/text_parse.hpp"

namespace tscope::cli {

namespace {

FormatKind pipeline_format(std::string name) {
    std::transform(name.begin(), name.end(), name.begin(), [](unsigned char c) { return std::tolower(c); });
    if (name == "hocfs" || name == "hocfs-csr") return FormatKind::HOCFS_CSR;
    if (name == "hocfs-ell") return FormatKind::HOCFS_ELL;
    if (name == "cfb") return FormatKind::CFB;
    throw InputError("--format must be hocfs (HOCFS-CSR), hocfs-ell or cfb, not '" + name + "'");
}

Json run_json(const PipelineRun& r) {
    Json chunks = Json::array(), sync = Json::array();
    for (const PipelineChunk& c : r.chunks) chunks.push_back(to_json(c));
    for (const PipelineChunk& c : r.sync_chunks) sync.push_back(to_json(c));
    return Json{{"streams", r.streams},         {"chunk_bytes", r.chunk_bytes}, {"t_sync", r.t_sync},
                {"t_pipe", r.t_pipe},           {"t_model", r.t_model},         {"overlap", r.overlap},
                {"overlap_of_possible", r.overlap_of_possible},
                {"transfer_s", r.transfer_s},   {"kernel_s", r.kernel_s},       {"vector_upload_s", r.vector_upload_s},
                {"device_bytes", r.device_bytes}, {"chunks", chunks},           {"sync_chunks", sync}};
}

}  // namespace

int run_pipeline(int argc, char** argv) {
    Args args(argc, argv, 2, "pipeline", {"--format", "--mode", "--streams", "--chunk-bytes", "--limit-gpu-memory", "--threads"},
              {"--check", "--json"});
    const std::string path = args.positional(0, "the tensor FILE");
    args.expect_positionals(1);
    apply_threads(args);
    const FormatKind kind = pipeline_format(args.value_or("--format", "hocfs"));
    PipelineOptions options;
    const std::string streams = args.value_or("--streams", "4");
    options.streams = streams == "auto" ? 0 : static_cast<int>(args.integer("--streams", 4, 1, 8));
    options.chunk_bytes = parse_bytes(args.value_or("--chunk-bytes", "64M"), "--chunk-bytes");
    if (auto r = args.value("--limit-gpu-memory")) options.gpu_memory_limit = parse_bytes(*r, "--limit-gpu-memory");

    check_input_exists(path);  // a wrong name is said before a missing GPU
    require_gpu();             // before loading: nothing else to do without one
    const GpuInfo gpu = query_gpu();
    const LoadedTensor loaded = load_tensor(path);
    const CooTensor& t = loaded.tensor;
    check_values_fit_gpu(t);
    const int mode = static_cast<int>(args.integer("--mode", 1, 1, static_cast<std::uint64_t>(t.order()))) - 1;
    const auto format = build_format(kind, t, sptv_options(kind, t.order(), mode));
    const DenseMatrix vm = random_matrix(t.dim(mode), 1, 101 + std::uint64_t(mode));
    const std::vector<double> v(vm.data.begin(), vm.data.end());
    const PipelineReport report = pipeline_sptv(*format, mode, v, options);
    const PipelineRun& best = report.runs[report.best];

    // --check: against cpu-ref (the serial oracle) on small tensors, else against omp, which
    // the test suites check against cpu-ref
    double max_err = -1;
    std::string check_against;
    if (args.flag("--check")) {
        const bool small = t.nnz() <= 2'000'000;
        check_against = small ? "cpu-ref" : "omp";
        const CooTensor ref = small ? sptv_reference(t, mode, v) : sptv(Backend::Omp, *format, mode, v);
        max_err = sparse_max_relative_error(report.result, ref);
    }
    const bool failed = max_err > 1e-4;

    if (args.flag("--json")) {
        Json runs = Json::array();
        for (const PipelineRun& r : report.runs) runs.push_back(run_json(r));
        Json doc{{"file", path},
                 {"format", report.format},
                 {"mode", mode + 1},
                 {"dims", t.dims()},
                 {"nnz", t.nnz()},
                 {"fibers", report.fibers},
                 {"bytes_in", report.bytes_in},
                 {"one_shot_bytes", report.one_shot_bytes},
                 {"gpu_free_bytes", report.gpu_free_bytes},
                 {"gpu_memory_limit", options.gpu_memory_limit},
                 {"prepare_s", report.prepare_s},
                 {"device", gpu.name},
                 {"streams", best.streams},
                 {"chunk_bytes", best.chunk_bytes},
                 {"t_sync", best.t_sync},
                 {"t_pipe", best.t_pipe},
                 {"t_model", best.t_model},
                 {"overlap", best.overlap},
                 {"chunks", run_json(best)["chunks"]},
                 {"pipeline", runs}};
        doc["max_rel_error"] = max_err >= 0 ? Json(max_err) : Json(nullptr);
        if (!check_against.empty()) doc["check_against"] = check_against;
        std::cout << doc.dump(1, ' ', false, kBadUtf8) << "\n";
        return failed ? 1 : 0;
    }
    std::cout << path << ": " << counted(t.nnz(), "nonzero", "nonzeros") << ", " << report.format << " mode "
              << mode + 1 << ", " << grouped(report.fibers) << " fibers; " << gpu.name << "\n"
              << "copied in: " << number(static_cast<double>(report.bytes_in) / 1e6) << " MB; one-shot SpTV would need "
              << number(static_cast<double>(report.one_shot_bytes) / 1e6) << " MB; "
              << number(static_cast<double>(report.gpu_free_bytes) / 1e6) << " MB free\n\n";
    TextTable table({"streams", "chunk MiB", "chunks", "T_s ms", "T_p ms", "model ms", "T_s/T_p", "overlap",
                     "of possible", "kernel/transfer"});
    for (const PipelineRun& r : report.runs)
        table.add({std::to_string(r.streams), number(static_cast<double>(r.chunk_bytes) / (1 << 20)), std::to_string(r.chunks.size()),
                   number(r.t_sync * 1e3), number(r.t_pipe * 1e3), number(r.t_model * 1e3), number(r.t_sync / r.t_pipe),
                   number(r.overlap * 100) + "%", number(r.overlap_of_possible * 100) + "%", number(r.transfer_s > 0 ? r.kernel_s / r.transfer_s * 100 : 0) + "%"});
    std::cout << table.render();
    if (max_err >= 0) std::cout << "max relative error against " << check_against << ": " << number(max_err, 2) << "\n";
    return failed ? 1 : 0;
}

}  // namespace tscope::cli
