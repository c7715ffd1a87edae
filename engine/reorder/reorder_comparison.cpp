#include "tscope/reorder/reorder_comparison.hpp"

#include "tscope/bench/kernel_bench.hpp"
#include "tscope/formats/format_registry.hpp"

namespace tscope {

namespace {

std::vector<FormatKind> default_storage(const CooTensor& t) {
    std::vector<FormatKind> f{FormatKind::COO, FormatKind::CSF, FormatKind::BCSF, FormatKind::HiCOO};
    if (t.order() == 3) f.push_back(FormatKind::HLS);
    return f;
}

ReorderSide measure(const CooTensor& t, const ReorderCompareRequest& request, const std::string& name, RunControl& control) {
    ReorderSide side;
    control.stage(name + ": density map");
    side.map = density_map(t, request.map_x, request.map_y, 256, control);
    control.stage(name + ": format storage");
    SurveyRequest survey;
    survey.formats = request.storage_formats.empty() ? default_storage(t) : request.storage_formats;
    survey.modes = {0};
    side.storage = survey_formats(t, survey, control);
    for (const FormatRow& row : side.storage)
        if (row.built && row.kind == FormatKind::HiCOO)
            for (const ArrayInfo& a : row.storage.arrays)
                if (a.name == "bptr") side.hicoo_blocks = a.elements - 1;
    if (t.order() == 3) side.hls_dense_tiles = hls_tile_map(t, 0, 1, 78, 64, control).dense_tiles;
    if (request.mttkrp_formats.empty()) return side;
    control.stage(name + ": MTTKRP");
    BenchRequest bench;
    bench.formats = request.mttkrp_formats;
    bench.backends = {Backend::Omp};
    bench.rank = request.rank;
    bench.repeat = request.repeat;
    for (const BenchResult& r : run_bench(t, bench, control)) {
        if (!r.ran) continue;
        auto it = std::find_if(side.mttkrp_sweep_s.begin(), side.mttkrp_sweep_s.end(), [&](const auto& p) { return p.first == r.format; });
        if (it == side.mttkrp_sweep_s.end()) side.mttkrp_sweep_s.emplace_back(r.format, r.median_s);
        else it->second += r.median_s;
    }
    return side;
}

}  // namespace

ReorderComparison compare_reordering(const CooTensor& t, const ReorderCompareRequest& request, RunControl& control) {
    if (request.map_x < 0 || request.map_y < 0 || request.map_x >= t.order() || request.map_y >= t.order() || request.map_x == request.map_y)
        throw InputError("the density map needs two different modes of the tensor");
    ReorderComparison c;
    c.before = measure(t, request, "file order", control);
    control.check();
    control.stage("reordering: " + std::string(reorder_method_name(request.method)));
    c.relabelling = compute_relabelling(t, request.method, request.seed, request.iters, control);
    CooTensor relabelled = t;  // the user's tensor stays as it is: every other tab shows it
    control.check();
    apply_relabelling(relabelled, c.relabelling);
    c.after = measure(relabelled, request, reorder_method_name(request.method), control);
    return c;
}

}  // namespace tscope
