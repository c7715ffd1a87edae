// The subcommands of tensorscope-cli (README, "The CLI"). Each returns the process
// exit status and throws tscope errors for main() to report.
#pragma once

namespace tscope::cli {

int run_info(int argc, char** argv);
int run_generate(int argc, char** argv);
int run_convert(int argc, char** argv);
int run_formats(int argc, char** argv);
int run_bench(int argc, char** argv);
int run_pipeline(int argc, char** argv);
int run_decompose(int argc, char** argv);
int run_advise(int argc, char** argv);
int run_fetch(int argc, char** argv);
int run_reorder(int argc, char** argv);

void print_usage(bool to_stderr);

}  // namespace tscope::cli
