#include "reorder_option.hpp"

#include <iostream>

#include "text_table.hpp"

namespace tscope::cli {

std::optional<std::pair<ReorderMethod, int>> check_reorder_option(const Args& args) {
    const auto method = args.value(kReorderOption);
    if (!method) {
        if (args.value(kReorderItersOption)) throw InputError("--reorder-iters applies to --reorder lexi");
        return std::nullopt;
    }
    const ReorderMethod m = parse_reorder_method(*method);
    args.refuse_unless(m == ReorderMethod::Lexi, kReorderItersOption, "--reorder lexi");
    return std::pair{m, static_cast<int>(args.integer(kReorderItersOption, kLexiIterations, 1, 1000))};
}

std::optional<Relabelling> apply_reorder_option(const Args& args, CooTensor& t, bool quiet) {
    const auto asked = check_reorder_option(args);
    if (!asked) return std::nullopt;
    const auto [m, iters] = *asked;
    Relabelling r = compute_relabelling(t, m, 1, iters);
    apply_relabelling(t, r);
    if (!quiet)
        std::cerr << "reordered by " << reorder_method_name(m) << " in " << number(r.seconds) << " s"
                  << reorder_detail(r) << "; results are shown in the original ids" << std::endl;
    return r;
}

std::string reorder_detail(const Relabelling& r) {
    if (r.method != ReorderMethod::Lexi) return {};
    const bool degree = r.from_degree;
    return " (" + std::to_string(r.iterations) + " rounds from " + (degree ? "the degree sort" : "the file's order") +
           ": " + grouped(degree ? r.blocks_from_degree : r.blocks_from_file) + " HiCOO blocks against " +
           grouped(degree ? r.blocks_from_file : r.blocks_from_degree) + " from " +
           (degree ? "the file's order" : "the degree sort") + ")";
}

Json reorder_json(const Relabelling& r) {
    Json j{{"method", reorder_method_name(r.method)}, {"seconds", r.seconds}, {"iterations", r.iterations}};
    if (r.method == ReorderMethod::Lexi) {
        j["start"] = r.from_degree ? "degree" : "file";
        j["blocks_from_file"] = r.blocks_from_file;
        j["blocks_from_degree"] = r.blocks_from_degree;
    }
    return j;
}

DenseMatrix rows_to_new(const Relabelling& r, int mode, const DenseMatrix& rows) {
    const std::vector<std::uint64_t>& old_id = r.old_id.at(static_cast<std::size_t>(mode));
    DenseMatrix out(rows.rows, rows.cols);
    for (std::uint64_t k = 0; k < rows.rows; ++k)
        for (std::uint64_t c = 0; c < rows.cols; ++c) out.at(k, c) = rows.at(old_id[k], c);
    return out;
}

}  // namespace tscope::cli
