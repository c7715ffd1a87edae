#include "json_report.hpp"

namespace tscope::cli {

Json to_json(const CountDistribution& d) {
    return Json{{"count", d.count}, {"mean", d.mean},  {"std", d.std},
                {"min", d.min},     {"max", d.max},    {"log2_histogram", d.log2_histogram}};
}

Json to_json(const PipelineChunk& c) {
    return Json{{"stream", c.stream},        {"slices", c.slices},       {"fibers", c.fibers},
                {"entries", c.entries},      {"bytes_in", c.bytes_in},   {"bytes_out", c.bytes_out},
                {"in_start", c.in_start},    {"in_end", c.in_end},       {"kernel_start", c.kernel_start},
                {"kernel_end", c.kernel_end}, {"out_start", c.out_start}, {"out_end", c.out_end}};
}

Json to_json(const MachineInfo& m) {
    return Json{{"cpu", m.cpu_model}, {"hardware_threads", m.hardware_threads}, {"threads", m.omp_threads},
                {"gpu", m.gpu}};
}

Json info_json(const CooTensor& t, const LoadInfo& load, const TensorStats& stats) {
    Json modes = Json::array();
    for (const ModeStats& s : stats.modes) {
        modes.push_back(
            Json{{"mode", s.mode + 1},
                 {"dim", s.dim},
                 {"slices", s.slices},
                 {"fibers", s.fibers},
                 // a .tsb stores its indices from 0, as the window says (it read false here, sweep 70c C14)
                 {"zero_based", load.format == "tsb" || (static_cast<std::size_t>(s.mode) < load.zero_based.size() &&
                                                         load.zero_based[static_cast<std::size_t>(s.mode)])},
                 {"slice_nnz", to_json(s.slice_nnz)},
                 {"fiber_nnz", to_json(s.fiber_nnz)}});
    }
    const double mb = static_cast<double>(load.text_bytes) / 1e6;
    return Json{{"file", load.path},
                {"format", load.format},
                {"order", t.order()},
                {"dims", t.dims()},
                {"nnz", t.nnz()},
                {"density", stats.density},
                {"index_bytes", static_cast<int>(t.index_width())},
                {"value_type", to_string(t.value_type())},
                {"header", load.header},
                {"duplicates_summed", load.duplicates_summed},
                {"zeros_dropped", load.zeros_dropped},
                {"file_bytes", load.file_bytes},
                {"text_bytes", load.text_bytes},
                {"lines", load.lines},
                {"load_seconds", load.load_seconds},
                {"read_seconds", load.read_seconds},
                {"parse_seconds", load.parse_seconds},
                {"parse_mb_per_s", load.parse_seconds > 0 && mb > 0 ? mb / load.parse_seconds : 0.0},
                {"stats_seconds", stats.seconds},
                {"memory_bytes", t.bytes()},
                {"modes", modes},
                {"machine", to_json(describe_machine())}};
}

}  // namespace tscope::cli
