// tensorscope-cli convert IN OUT: between .tns, .tns.gz and .tsb (by OUT's extension).
#include <filesystem>
#include <iostream>

#include "args.hpp"
#include "commands.hpp"
#include "terminal_progress.hpp"
#include "text_table.hpp"
#include "threads.hpp"
#include "tscope/io/tensor_io.hpp"

namespace tscope::cli {

int run_convert(int argc, char** argv) {
    Args args(argc, argv, 2, "convert", {"--threads"}, {"--float"});
    const std::string in = args.positional(0, "the input FILE");
    const std::string out = args.positional(1, "the output FILE");
    args.expect_positionals(2);
    apply_threads(args);
    std::error_code ec;
    if (std::filesystem::equivalent(in, out, ec))
        throw InputError("convert: the output '" + out + "' is the input file; refusing to overwrite it");
    LoadOptions options;
    if (args.flag("--float")) options.values = ValueType::F32;
    TerminalProgress progress;  // on a terminal: the stage, its share and the time left
    const LoadedTensor loaded = load_tensor(in, options, progress);
    progress.stage("writing " + out);
    save_tensor(loaded.tensor, out, progress);
    progress.finish();
    std::cerr << "converted " << in << " (" << loaded.info.format << ") to " << out << ": order "
              << loaded.tensor.order() << ", " << grouped(loaded.tensor.nnz()) << " nonzeros";
    if (loaded.info.duplicates_summed) std::cerr << ", " << grouped(loaded.info.duplicates_summed) << " duplicates summed";
    std::cerr << "\n";
    return 0;
}

}  // namespace tscope::cli
