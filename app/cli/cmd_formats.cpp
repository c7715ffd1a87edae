// tensorscope-cli formats FILE [--mode M|all] [--format F|all] [--verify] [--json]
//                 [--csf-order 1,2,3]
// tensorscope-cli formats FILE.tsb --streamed [--part-nnz N] [--mode ...] [--format ...] [--json]
#include <iostream>
#include <map>

#include "args.hpp"
#include "reorder_option.hpp"
#include "commands.hpp"
#include "json_report.hpp"
#include "text_table.hpp"
#include "threads.hpp"
#include "tscope/advisor/streamed_profile.hpp"
#include "tscope/bench/machine.hpp"
#include "tscope/formats/format_survey.hpp"
#include "tscope/io/tsb_format.hpp"
#include "tscope/io/tensor_io.hpp"
#include "tscope/text_parse.hpp"

namespace tscope::cli {

namespace {

// The COO bytes of each mode, for the ratio column (COO is mode-independent in size).
std::uint64_t coo_bytes(const CooTensor& t) { return t.bytes(); }

// A .tsb read in parts, never whole: each format's storage predicted from counts gathered in
// bounded memory (tscope/advisor/streamed_profile.hpp), nothing built.
int run_formats_streamed(const Args& args, const std::string& path) {
    if (args.flag("--verify")) throw InputError("--verify builds each format: it needs the tensor loaded (leave out --streamed)");
    if (args.value(kReorderOption)) throw InputError("--reorder relabels the loaded tensor: leave out --streamed");
    const TsbHeader header = read_tsb_header(path);
    const CooTensor shape(header.dims, ValueType::F32);
    SurveyRequest request;
    request.modes = parse_modes(args.value_or("--mode", "all"), shape.order());
    request.formats = parse_names<FormatKind>(args.value_or("--format", "all"), parse_format);
    check_format_parameters(args, request.formats);
    request.options = parse_format_options(args, shape);
    const TensorProfile profile = [&] {
        try {
            return profile_tsb(path, request.options, parse_part_nnz(args));
        } catch (const SliceExceedsParts& e) {
            throw InputError(std::string(e.what()) + " (--part-nnz)");
        }
    }();
    const std::vector<FormatRow> rows = predicted_survey(profile, request);
    const double coo = static_cast<double>(predicted_storage(profile, KernelKind::MTTKRP, FormatKind::COO, 0));
    auto counts = [](const FormatRow& r) { return !r.predicted ? "none" : r.estimate ? "estimate" : "exact"; };
    if (args.flag("--json")) {
        Json list = Json::array();
        for (const FormatRow& r : rows) {
            Json row{{"name", format_name(r.kind)}, {"mode", r.mode >= 0 ? Json(r.mode + 1) : Json("all")}, {"built", false},
                     {"predicted", r.predicted}, {"prediction", counts(r)}};
            if (r.predicted) row["bytes"] = r.storage.bytes(), row["ratio_to_coo"] = static_cast<double>(r.storage.bytes()) / coo;
            else row["error"] = r.error;
            list.push_back(row);
        }
        std::cout << Json{{"file", path},
                          {"streamed", true},
                          {"order", header.dims.size()},
                          {"dims", header.dims},
                          {"nnz", profile.nnz},
                          {"coo_bytes", coo},
                          {"seconds", profile.seconds},
                          {"peak_host_bytes", peak_host_memory_bytes()},
                          {"formats", list}}
                         .dump(2, ' ', false, kBadUtf8)
                  << "\n";
        return 0;
    }
    TextTable table({"format", "mode", "bytes", "vs COO", "prediction"});
    for (const FormatRow& r : rows) {
        std::vector<std::string> line{format_name(r.kind), r.mode >= 0 ? std::to_string(r.mode + 1) : "all"};
        if (r.predicted) {
            const std::string approx = r.estimate ? "~" : "";
            line.insert(line.end(), {approx + human_bytes(r.storage.bytes()), approx + number(static_cast<double>(r.storage.bytes()) / coo) + "x",
                                     counts(r)});
        } else {
            line.insert(line.end(), {"-", "-", "none " + table.note(r.error)});  // refused for its size, or not determined
        }
        table.add(line);
    }
    std::cout << path << ": order " << header.dims.size() << ", " << counted(profile.nnz, "nonzero", "nonzeros")
              << ", read in parts in " << number(profile.seconds) << " s, never whole\n\n"
              << table.render()
              << "\nPredicted by the storage model from counts over the file (nothing built): an exact prediction is "
                 "the built format's bytes; ~ marks an estimate, from counts sketched where they cross the slices of "
                 "mode 1 (HyperLogLog, standard error 0.8%, or a sample of mode 1's fibers) or from a formula that "
                 "leaves out small arrays (BLCO's block table, sCOO's index widths).\n";
    return 0;
}

}  // namespace

// 1 where a round trip did not match or a format's build ran out of memory (what was asked was
// not done, as bench says it: it had been 0, sweep 71b); a shape a format refuses is an answer.
int survey_status(const std::vector<FormatRow>& rows) {
    for (const FormatRow& r : rows)
        if ((r.roundtrip_ok && !*r.roundtrip_ok) || r.out_of_memory) return 1;
    return 0;
}

int run_formats(int argc, char** argv) {
    Args args(argc, argv, 2, "formats",
              {"--mode", "--format", "--threads", "--csf-order", "--mode-order", "--fiber-threshold", "--hicoo-bits", "--hls-threshold",
               kReorderOption, kReorderItersOption, "--part-nnz"},
              {"--json", "--verify", "--streamed"});
    const std::string path = args.positional(0, "the tensor FILE");
    args.expect_positionals(1);
    apply_threads(args);
    if (args.flag("--streamed")) return run_formats_streamed(args, path);
    if (args.value("--part-nnz")) throw InputError("--part-nnz applies to --streamed");
    check_format_parameters(
        args, parse_names<FormatKind>(args.value_or("--format", "all"), parse_format));  // before the load
    check_reorder_option(args);
    check_mode_syntax(args);
    LoadedTensor loaded = load_tensor(path);
    // one message, exit 2, as bench and decompose say it: every row had said "no nonzeros" (sweep 71b)
    require_nonzeros(loaded, "store in a format");
    const std::optional<Relabelling> reorder = apply_reorder_option(args, loaded.tensor, args.flag("--json"));
    const CooTensor& t = loaded.tensor;
    SurveyRequest request;
    request.modes = parse_modes(args.value_or("--mode", "all"), t.order());
    request.formats = parse_names<FormatKind>(args.value_or("--format", "all"), parse_format);
    request.verify = args.flag("--verify");
    request.options = parse_format_options(args, t);
    const std::vector<FormatRow> rows = survey_formats(t, request);

    // the smallest built format of each mode, by bytes
    std::map<int, std::uint64_t> smallest;  // mode -1: the best over all modes (for all-mode formats)
    for (const FormatRow& r : rows) {
        if (!r.built) continue;
        for (int key : {r.mode, -1})
            if (!smallest.count(key) || r.storage.bytes() < smallest[key]) smallest[key] = r.storage.bytes();
    }
    const double coo = static_cast<double>(coo_bytes(t));

    if (args.flag("--json")) {
        Json list = Json::array();
        for (const FormatRow& r : rows) {
            Json arrays = Json::array();
            for (const ArrayInfo& a : r.storage.arrays)
                arrays.push_back(Json{{"name", a.name}, {"meaning", a.meaning}, {"elements", a.elements},
                                      {"element_bytes", a.element_bytes}, {"units", a.units}, {"bytes", a.bytes()}});
            Json params = Json::object();
            for (const auto& [k, v] : r.parameters) params[k] = v;
            Json row{{"name", format_name(r.kind)},  {"mode", r.mode >= 0 ? Json(r.mode + 1) : Json("all")},
                     {"built", r.built},              {"storage_units", r.storage.units()},
                     {"bytes", r.storage.bytes()},    {"ratio_to_coo", r.built ? static_cast<double>(r.storage.bytes()) / coo : 0.0},
                     {"build_seconds", r.build_seconds}, {"smallest", r.built && smallest[r.mode] == r.storage.bytes()},
                     {"parameters", params},          {"arrays", arrays}};
            row["roundtrip_ok"] = r.roundtrip_ok ? Json(*r.roundtrip_ok) : Json(nullptr);
            if (!r.error.empty()) row["error"] = r.error;
            if (!r.roundtrip_error.empty()) row["roundtrip_error"] = r.roundtrip_error;
            list.push_back(row);
        }
        Json doc{{"file", path}, {"order", t.order()}, {"dims", t.dims()}, {"nnz", t.nnz()},
                 {"coo_bytes", coo_bytes(t)}, {"formats", list}, {"machine", to_json(describe_machine())}};
        if (reorder) doc["reorder"] = reorder_json(*reorder);
        std::cout << doc.dump(2, ' ', false, kBadUtf8) << "\n";
        return survey_status(rows);
    }
    std::vector<std::string> header{"format", "mode", "storage units", "bytes", "vs COO", "build s"};
    if (request.verify) header.push_back("round trip");
    TextTable table(header);
    for (const FormatRow& r : rows) {
        std::vector<std::string> line{format_name(r.kind), r.mode >= 0 ? std::to_string(r.mode + 1) : "all"};
        if (!r.built) {
            line.insert(line.end(), {"-", "-", "-", "-"});
            if (request.verify) line.push_back("-");
            line.back() = "not built " + table.note(r.error);
        } else {
            const bool best = smallest[r.mode] == r.storage.bytes();
            line.push_back(grouped(r.storage.units()));
            line.push_back(human_bytes(r.storage.bytes()) + (best ? " *" : ""));
            line.push_back(number(static_cast<double>(r.storage.bytes()) / coo) + "x");
            line.push_back(number(r.build_seconds));
            if (request.verify) line.push_back(*r.roundtrip_ok ? "exact" : "MISMATCH: " + r.roundtrip_error);
        }
        table.add(line);
    }
    std::cout
        << path << ": order " << t.order() << ", " << counted(t.nnz(), "nonzero", "nonzeros") << ", COO "
        << human_bytes(coo_bytes(t)) << "\n\n"
        << table.render()
        << "\n* the smallest of the formats built for that mode (bytes); on a row for all modes, the smallest of"
        << " every row.\nStorage units count array elements as "
        << "hocfs Tables 4-6 do.\n"
        << "Mode: the tree's root for HOCSR, HOCFS, CSF and B-CSF (SpTV on such a tree contracts its last "
           "mode);\nCFB's fibers run along it (SpTV contracts it); COO sorts by it first; sCOO stores it dense.\n";
    return survey_status(rows);
}

}  // namespace tscope::cli
