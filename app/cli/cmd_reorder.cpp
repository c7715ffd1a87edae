// tensorscope-cli reorder IN OUT --method lexi|bfs-mcs|degree|random [--iters K] [--seed S] [--perm-out DIR] [--float] [--json]
// Relabels every mode's indices (issue 25) and writes the reordered tensor; --perm-out writes,
// per mode, DIR/modeN.perm: line k holds the original (1-based) id of new index k.
#include <filesystem>
#include <memory>
#include <iostream>

#include "args.hpp"
#include "commands.hpp"
#include "json_report.hpp"
#include "reorder_option.hpp"
#include "terminal_progress.hpp"
#include "text_table.hpp"
#include "threads.hpp"
#include "tscope/error.hpp"
#include "tscope/io/output_lock.hpp"
#include "tscope/io/tensor_io.hpp"
#include "tscope/io/text_file.hpp"
#include "tscope/reorder/relabelling.hpp"

namespace tscope::cli {

namespace {

// DIR/modeN.perm for each mode.
std::vector<std::string> permutation_paths(const std::string& dir, int order) {
    std::vector<std::string> paths;
    for (int m = 0; m < order; ++m)
        paths.push_back((std::filesystem::path(dir) / ("mode" + std::to_string(m + 1) + ".perm")).string());
    return paths;
}

// The permutations' files, filled and on disk under temporary names, to be put in place once the
// relabelled tensor is: a failure of either leaves the previous tensor and permutations together.
std::unique_ptr<TextFileSet> prepared_permutations(const Relabelling& r, const std::string& dir) {
    const std::vector<std::string> paths = permutation_paths(dir, static_cast<int>(r.old_id.size()));
    std::vector<TextFile> files;
    for (std::size_t m = 0; m < r.old_id.size(); ++m)
        files.push_back({paths[m], [&r, m](std::ostream& out) {
                             for (std::uint64_t old : r.old_id[m]) out << old + 1 << '\n';
                         }});
    return std::make_unique<TextFileSet>(files);
}

}  // namespace

int run_reorder(int argc, char** argv) {
    Args args(argc, argv, 2, "reorder", {"--method", "--seed", "--perm-out", "--threads", "--iters"},
              {"--json", "--float"});
    const std::string in = args.positional(0, "the input FILE");
    const std::string out = args.positional(1, "the output FILE");
    args.expect_positionals(2);
    apply_threads(args);
    const ReorderMethod method = parse_reorder_method(args.value_or("--method", "degree"));
    args.refuse_unless(method == ReorderMethod::Lexi, "--iters", "--method lexi");
    args.refuse_unless(method == ReorderMethod::Random, "--seed", "--method random");
    const std::uint64_t seed = args.integer("--seed", 1);
    const int iters = static_cast<int>(args.integer("--iters", kLexiIterations, 1, 1000));
    const auto perm_dir = args.value("--perm-out");
    // --perm-out is made first: OUT may go into it (review 70 R1: the folder check refused
    // `reorder x.tns out/x.tns --perm-out out` before out existed)
    if (perm_dir) check_output_dir(*perm_dir, "--perm-out");
    check_output_name(out);
    check_not_input(in, {out}, "reorder");
    if (perm_dir) {  // before the load; neither the input nor the reordered tensor may be a permutation's file
        const std::vector<std::string> perms = permutation_paths(*perm_dir, kMaxOrder);
        check_not_input(in, perms, "--perm-out");
        check_not_input(out, perms, "--perm-out", "the output tensor");
        for (const std::string& perm : perms) {  // a folder there failed after the tensor was written, leaving it
            std::error_code ec;
            if (std::filesystem::exists(perm, ec) && !std::filesystem::is_regular_file(perm, ec))
                throw InputError("--perm-out: " + perm + " is not a regular file, and a permutation is written there");
        }
    }
    TerminalProgress progress;                  // on a terminal: the stage, its share and the time left
    // The values as the input stores them (a float .tsb stays float; session 79 relabelled one
    // into doubles, a file a fifth larger), or fp32 with --float, as convert --float
    LoadOptions options;
    options.keep_stored_values = !args.flag("--float");
    if (args.flag("--float")) options.values = ValueType::F32;
    LoadedTensor loaded = load_tensor(in, options, progress);
    progress.stage(std::string("reordering by ") + reorder_method_name(method));
    const Relabelling r = compute_relabelling(loaded.tensor, method, seed, iters, progress);
    apply_relabelling(loaded.tensor, r);
    progress.stage("writing " + out);
    const std::unique_ptr<TextFileSet> perms = perm_dir ? prepared_permutations(r, *perm_dir) : nullptr;
    {
        // the tensor and its permutations are one set: another reorder's are not put in between
        // (sweep 70b B7); the tensor is written under the lock, as it is put in place at its end
        std::vector<std::string> set{out};
        if (perm_dir) set.push_back(permutation_paths(*perm_dir, 1).front());
        const OutputLock lock(set);
        save_tensor(loaded.tensor, out, progress);
        if (perms) perms->commit();
    }
    progress.finish();
    if (args.flag("--json")) {
        Json doc{{"input", in}, {"output", out}};
        doc.update(reorder_json(r));
        doc["nnz"] = loaded.tensor.nnz();
        std::cout << doc.dump(2, ' ', false, kBadUtf8) << "\n";
    } else {
        std::cerr << "reordered " << in << " by " << reorder_method_name(method) << " in " << number(r.seconds) << " s"
                  << reorder_detail(r) << ": wrote " << out
                  << (perm_dir ? " and the permutations in " + *perm_dir : std::string()) << "\n";
    }
    return 0;
}

}  // namespace tscope::cli
