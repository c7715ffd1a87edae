// tensorscope-cli: the headless front end. Errors go to stderr; exit status 2 for bad input,
// 1 for any other failure (README, "The CLI").
#include <unistd.h>
#include <cstring>
#include <iostream>
#include <new>

#include "cli/commands.hpp"
#include "tscope/blas_threads.hpp"
#include "tscope/cuda/device.hpp"
#include "tscope/error.hpp"
#include "tscope/failed_allocation.hpp"
#include "tscope/io/temp_cleanup.hpp"

namespace {

// The command's exit status: 2 for bad input, 1 for any other failure.
int run_command(const std::string& command, int argc, char** argv) {
    using namespace tscope::cli;
    try {
        if (command == "info") return run_info(argc, argv);
        if (command == "generate") return run_generate(argc, argv);
        if (command == "convert") return run_convert(argc, argv);
        if (command == "formats") return run_formats(argc, argv);
        if (command == "bench") return run_bench(argc, argv);
        if (command == "pipeline") return run_pipeline(argc, argv);
        if (command == "decompose") return run_decompose(argc, argv);
        if (command == "advise") return run_advise(argc, argv);
        if (command == "fetch") return run_fetch(argc, argv);
        if (command == "reorder") return run_reorder(argc, argv);
        if (command == "--version" || command == "version") {
            std::cout << "tensorscope-cli " << TS_VERSION << " (CUDA kernels "
                      << (tscope::cuda_built() ? "built" : "not built") << ")\n";
            return 0;
        }
        if (command == "help" || command == "--help" || command == "-h") {
            print_usage(false);
            return 0;
        }
        std::cerr << "tensorscope-cli: unknown command '" << command << "'\n";
        print_usage(true);
        return 2;
    } catch (const tscope::InputError& e) {
        std::cerr << "error: " << e.what() << "\n";
        return 2;
    } catch (const tscope::Cancelled&) {
        std::cerr << "cancelled\n";
        return 1;
    } catch (const std::bad_alloc&) {
        // the size that failed, as the window says it (issue 22); none where malloc was not ours
        std::cerr << "error: " << tscope::out_of_memory_words("in " + command) << "\n";
        return 1;
    } catch (const std::exception& e) {
        std::cerr << "error: " << e.what() << "\n";
        return 1;
    }
}

}  // namespace

int main(int argc, char** argv) {
    using namespace tscope::cli;
    if (tscope::ask_one_blas_thread_if_limited())  // under ulimit -v: no OpenBLAS worker to hang on
        execv("/proc/self/exe", argv);             // returns only where it failed: go on as we are
    tscope::install_temp_cleanup_on_signals();  // a killed convert leaves no .tmp behind
    if (argc < 2) {
        print_usage(true);
        return 2;
    }
    const std::string command = argv[1];
    const int status = run_command(command, argc, argv);
    if (status != 0) tscope::remove_empty_created_dirs();  // an output folder this run made, left empty
    return status;
}
