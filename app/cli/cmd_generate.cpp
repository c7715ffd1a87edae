// tensorscope-cli generate --dims I,J,K[,..] --nnz N [--dist uniform|powerlaw:A|blocks:B]
//                          [--seed S] [--float] -o FILE
#include <chrono>
#include <iostream>

#include "args.hpp"
#include "commands.hpp"
#include "text_table.hpp"
#include "threads.hpp"
#include "tscope/checks.hpp"
#include "tscope/io/tensor_io.hpp"
#include "tscope/tensor/generator.hpp"
#include "tscope/text_parse.hpp"

namespace tscope::cli {

int run_generate(int argc, char** argv) {
    Args args(argc, argv, 2, "generate", {"--dims", "--nnz", "--dist", "--seed", "-o", "--output", "--threads"},
              {"--float"});
    args.expect_positionals(0);
    apply_threads(args);
    GeneratorSpec spec;
    const auto dims = args.value("--dims");
    if (!dims) throw InputError("generate: --dims I,J,K is required");
    spec.dims = parse_count_list(*dims, "--dims");
    const auto nnz = args.value("--nnz");
    if (!nnz) throw InputError("generate: --nnz N is required");
    spec.nnz = parse_count(*nnz, "--nnz");
    parse_distribution(args.value_or("--dist", "uniform"), spec);
    spec.seed = args.integer("--seed", 1);
    if (args.flag("--float")) spec.values = ValueType::F32;
    const auto out = args.value("-o") ? args.value("-o") : args.value("--output");
    if (!out) throw InputError("generate: -o FILE is required (.tns, .tns.gz or .tsb)");
    check_output_name(*out);
    if (output_format(*out) != OutputFormat::Tsb)  // the text is formatted whole beside the tensor: about 120 B a nonzero
        check_fits_memory(static_cast<long double>(spec.nnz) * 120.0L,
                          "generate: " + std::to_string(spec.nnz) + " nonzeros written as text (the tensor and its text at once)");

    const auto start = std::chrono::steady_clock::now();
    const CooTensor t = generate_tensor(spec);
    const auto generated = std::chrono::steady_clock::now();
    save_tensor(t, *out);
    const auto saved = std::chrono::steady_clock::now();
    std::cerr << "generated " << counted(t.nnz(), "nonzero", "nonzeros") << " (" << describe(spec) << ") in "
              << number(std::chrono::duration<double>(generated - start).count()) << " s, wrote " << *out << " in "
              << number(std::chrono::duration<double>(saved - generated).count()) << " s\n";
    return 0;
}

}  // namespace tscope::cli
