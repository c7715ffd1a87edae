// tensorscope-cli advise FILE [--kernel K|all] [--backend B|all] [--mode M|all] [--rank R] [--json]
//                 [--threads T] [--fiber-threshold T] [--hicoo-bits B] [--hls-threshold T]
// The format advisor: each format's predicted storage, bytes moved and time, ranked, with a
// reason, from the tensor's statistics (no format is built, no kernel runs).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iostream>

#include "args.hpp"
#include "commands.hpp"
#include "json_report.hpp"
#include "text_table.hpp"
#include "threads.hpp"
#include "tscope/advisor/advisor.hpp"
#include "tscope/error.hpp"
#include "tscope/io/tensor_io.hpp"
#include "tscope/text_words.hpp"

namespace tscope::cli {

namespace {

Json advice_json(const Advice& a) {
    Json ranking = Json::array();
    int place = 0;
    for (const FormatAdvice& f : a.ranking) {
        Json row{{"place", f.supported ? Json(++place) : Json(nullptr)}, {"format", format_name(f.format)}, {"supported", f.supported}};
        if (f.supported) {
            Json modes = Json::array();
            for (const ModePrediction& m : f.modes)
                modes.push_back(Json{{"mode", m.mode + 1},
                                     {"predicted_s", m.seconds},
                                     {"bytes_moved", m.bytes_moved},
                                     {"stream_bytes", m.traffic.stream_bytes},
                                     {"cached_bytes", m.traffic.cached_bytes},
                                     {"compute_bytes", m.traffic.compute_bytes},
                                     {"miss_bytes", m.traffic.miss_bytes},
                                     {"nodes", m.traffic.nodes},
                                     {"steps", m.traffic.steps},
                                     {"cells", m.traffic.cells}, {"minority", m.traffic.minority},
                                     {"flops", m.traffic.flops}});
            row["storage_bytes"] = f.storage_bytes;
            row["storage_exact"] = f.storage_exact;
            row["bytes_moved"] = f.bytes_moved;
            row["predicted_s"] = f.seconds;
            row["modes"] = modes;
        }
        row["reason"] = f.reason;
        ranking.push_back(row);
    }
    Json modes = Json::array();
    for (int m : a.request.modes) modes.push_back(m + 1);
    return Json{{"kernel", kernel_name(a.request.kernel)},
                {"backend", backend_name(a.request.backend)},
                {"rank", a.request.kernel == KernelKind::SpTV ? 1 : a.request.rank},
                {"modes", modes},
                {"device", a.machine.device},
                {"bandwidth_gbps", a.machine.bandwidth_gbps},
                {"bandwidth_source", a.machine.source},
                {"cache_bytes", a.machine.cache_bytes},
                {"summary", a.summary},
                {"caveat", a.caveat},
                {"ranking", ranking}};
}

// A predicted time in its unit, so that one column reads at a glance ("360 us", "3.43 ms",
// "9,537 s"; it had mixed 3.60e-04, 0.00343 and 9537).
std::string time_text(double s) {
    char buf[64];
    // each unit from where %.3g rounds up to it: 999.6 us is "1 ms", not "1e+03 us"
    if (s >= 1e15 || !std::isfinite(s))
        std::snprintf(buf, sizeof buf, "%.3g s", s);
    else if (s >= 999.5)
        return grouped(static_cast<std::uint64_t>(std::llround(s))) + " s";
    else if (s >= 0.9995)
        std::snprintf(buf, sizeof buf, "%.3g s", s);
    else if (s >= 0.9995e-3)
        std::snprintf(buf, sizeof buf, "%.3g ms", s * 1e3);
    else
        std::snprintf(buf, sizeof buf, "%.3g us", s * 1e6);
    return buf;
}

// "rank 32, modes 1,2,3": what the prediction assumed, so that a pasted ranking can be reproduced.
std::string assumed(const Advice& a) {
    std::string out;  // appended piece by piece: GCC 12 warns (-Wrestrict) on the + chain
    if (a.request.kernel != KernelKind::SpTV) out.append("rank ").append(std::to_string(a.request.rank)).append(", ");
    out.append(a.request.modes.size() == 1 ? "mode " : "modes ");
    for (std::size_t i = 0; i < a.request.modes.size(); ++i)
        out.append(i ? "," : "").append(std::to_string(a.request.modes[i] + 1));
    return out;
}

void print_text(const Advice& a) {
    std::cout << kernel_title(a.request.kernel) << " on " << backend_name(a.request.backend) << ", " << assumed(a)
              << " (" << a.machine.device << ", " << number(a.machine.bandwidth_gbps) << " GB/s copy, "
              << a.machine.source << ")\n";
    if (!a.caveat.empty()) std::cout << "note: " << a.caveat << "\n";
    TextTable table({"#", "format", "storage", "moves", "predicted"});
    std::string reasons;  // under the table: a sentence does not fit a column
    int place = 0;
    for (const FormatAdvice& f : a.ranking) {
        const std::string tag = f.supported ? std::to_string(++place) : "-";
        const std::string name = format_name(f.format);
        reasons += "  " + tag + " " + (f.reason.rfind(name, 0) == 0 ? "" : name + ": ") + f.reason + "\n";
        if (!f.supported) {
            table.add({tag, format_name(f.format), "-", "-", "-"});
            continue;
        }
        table.add({tag, format_name(f.format), human_bytes(f.storage_bytes) + (f.storage_exact ? "" : " ~"),
                   human_bytes(f.bytes_moved), time_text(f.seconds)});
    }
    std::cout << table.render() << "why:\n" << reasons << "\n";
}

}  // namespace

int run_advise(int argc, char** argv) {
    Args args(argc, argv, 2, "advise",
              {"--kernel", "--backend", "--mode", "--rank", "--threads", "--fiber-threshold", "--hicoo-bits", "--hls-threshold"},
              {"--json"});
    const std::string path = args.positional(0, "the tensor FILE");
    args.expect_positionals(1);
    apply_threads(args);
    // every option that needs no tensor is checked before the load
    std::vector<KernelKind> kernels = parse_names<KernelKind>(args.value_or("--kernel", "all"), parse_kernel);
    if (kernels.empty()) kernels = all_kernels();
    std::vector<Backend> backends = parse_names<Backend>(args.value_or("--backend", "omp"), parse_backend);
    if (backends.empty()) backends = {Backend::Omp, Backend::Cuda};
    for (Backend b : backends)
        if (b == Backend::CpuRef)
            throw InputError("advise: --backend cpu-ref times the serial oracle on coordinates, whatever the format; use omp or cuda");
    const std::uint64_t rank = args.integer("--rank", 32, 1, 4096);
    if (args.given("--rank") && rank != 1 &&
        std::all_of(kernels.begin(), kernels.end(), [](KernelKind k) { return k == KernelKind::SpTV; }))
        throw InputError(kRankIsNotSptvs);  // it was ignored (sweep 70b B14)
    const LoadedTensor loaded = load_tensor(path);
    const CooTensor& t = loaded.tensor;
    const std::vector<int> modes = parse_modes(args.value_or("--mode", "all"), t.order());
    const FormatOptions options = parse_format_options(args, t);
    require_nonzeros(loaded, "advise on");

    const TensorProfile profile = profile_tensor(t, options);
    std::vector<Advice> advice;
    for (Backend b : backends) {
        const MachineFigures machine = machine_figures(b);
        for (KernelKind k : kernels) advice.push_back(advise(profile, {k, b, modes, rank}, machine));
    }
    if (args.flag("--json")) {
        Json list = Json::array();
        for (const Advice& a : advice) list.push_back(advice_json(a));
        std::cout << Json{{"file", path},
                          {"order", t.order()},
                          {"dims", t.dims()},
                          {"nnz", t.nnz()},
                          {"profile_seconds", profile.seconds},
                          {"machine", to_json(describe_machine())},
                          {"advice", list}}
                         .dump(2, ' ', false, kBadUtf8)
                  << "\n";
        return 0;
    }
    std::cout << path << ": " << counted(t.nnz(), "nonzero", "nonzeros") << ", statistics in "
              << number(profile.seconds) << " s\n\n";
    for (const Advice& a : advice) print_text(a);
    std::cout << "(predicted from the statistics alone; `bench` measures. Storage marked ~ is an estimate.)\n";
    return 0;
}

}  // namespace tscope::cli
