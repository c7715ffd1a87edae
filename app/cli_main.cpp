// tensorscope-cli: the headless front end. Errors go to stderr; exit status 2 for bad input,
// 1 for any other failure (README, "The CLI").
#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <new>

#include "cli/commands.hpp"
#include "tscope/blas_threads.hpp"
#include "tscope/cuda/device.hpp"
#include "tscope/error.hpp"
#include "tscope/failed_allocation.hpp"
#include "tscope/io/temp_cleanup.hpp"
#include "tscope/text_words.hpp"

namespace {

// The command's exit status: 2 for bad input, 1 for any other failure.
// `COMMAND ... --help` (before any "--"): the help, as most tools answer it; it had been
// "unknown option --help", exit 2 (sweep 71b).
bool asks_for_help(int argc, char** argv) {
    for (int i = 2; i < argc && std::string(argv[i]) != "--"; ++i)
        if (std::string(argv[i]) == "--help") return true;
    return false;
}

int run_command(const std::string& command, int argc, char** argv) {
    using namespace tscope::cli;
    try {
        if (asks_for_help(argc, argv)) {
            print_usage(false);
            return 0;
        }
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
        // one line, as every bad input is said (the whole usage, 100 lines, had followed it: sweep 70b B19)
        std::cerr
            << "error: unknown command '" << tscope::one_line(command)
            << "' (commands: info, generate, convert, formats, bench, pipeline, decompose, advise, fetch, reorder; "
               "tensorscope-cli help shows their options)\n";
        return 2;
    } catch (const tscope::InputError& e) {
        std::cerr << "error: " << tscope::one_line(e.what()) << "\n";
        return 2;
    } catch (const tscope::Cancelled&) {
        std::cerr << "cancelled\n";
        return 1;
    } catch (const std::bad_alloc&) {
        // the size that failed, as the window says it (issue 22); none where malloc was not ours
        std::cerr << "error: " << tscope::out_of_memory_words("in " + command) << "\n";
        return 1;
    } catch (const std::exception& e) {
        std::cerr << "error: " << tscope::one_line(e.what()) << "\n";
        return 1;
    }
}

// Output a script reads from stdout that never arrived (a full disk, a closed stdout, a pipe
// whose reader left while SIGPIPE is ignored) is a failure, as coreutils treat it: it exited 0
// with the document lost (sweep 70b B1).
bool stdout_written() {
    errno = 0;  // before the flush: that is where a buffered write fails and says why
    std::cout.flush();
    const bool ok = std::cout.good() && std::fflush(stdout) == 0 && !std::ferror(stdout);
    if (!ok) {
        const int e = errno;
        std::cerr << "error: cannot write the standard output"
                  << (e ? std::string(": ") + std::strerror(e) : std::string()) << "\n";
    }
    return ok;
}

// A standard stream started closed (`>&-`) would take the number of the first file this run
// opens, and what is printed would go into it; read-only /dev/null in its place makes those
// writes fail instead, which stdout_written then says.
void hold_closed_standard_streams() {
    for (int fd = 0; fd <= 2; ++fd)
        if (fcntl(fd, F_GETFD) == -1 && errno == EBADF)
            (void)open("/dev/null", fd == 0 ? O_WRONLY : O_RDONLY);  // the lowest free number: fd, the lower ones held
}

}  // namespace

int main(int argc, char** argv) {
    using namespace tscope::cli;
    if (tscope::ask_one_blas_thread_if_limited())  // under ulimit -v: no OpenBLAS worker to hang on
        execv("/proc/self/exe", argv);             // returns only where it failed: go on as we are
    hold_closed_standard_streams();
    tscope::install_temp_cleanup_on_signals();  // a killed convert leaves no .tmp behind
    if (argc < 2) {
        print_usage(true);
        return 2;
    }
    const std::string command = argv[1];
    int status = run_command(command, argc, argv);
    if (!stdout_written() && status == 0) status = 1;
    if (status != 0) tscope::remove_empty_created_dirs();  // an output folder this run made, left empty
    return status;
}
