// What decompose prints per iteration and writes into its JSON, shared by the single-process
// and the distributed (MPI) runs.
#pragma once

#include "json_report.hpp"
#include "tscope/decomp/decomposition.hpp"

namespace tscope::cli {

Json iteration_json(const IterationReport& r);
void print_iteration(const IterationReport& r);

// decompose FILE --method cpd --distributed ... (cmd_decompose_distributed.cpp), under mpirun.
int run_decompose_distributed(int argc, char** argv);

}  // namespace tscope::cli
