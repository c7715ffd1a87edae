// What decompose prints per iteration and writes into its JSON, shared by the single-process
// and the distributed (MPI) runs.
#pragma once

#include "json_report.hpp"
#include "tscope/decomp/decomposition.hpp"

namespace tscope::cli {

Json iteration_json(const IterationReport& r);
void print_iteration(const IterationReport& r);
// After --write DIR of an order-`order` result: a note on stderr naming the modeK.mat files
// past that order that DIR still holds from an earlier run, which read as this run's (sweep 66a
// F9). They are left: they may be the user's, not ours.
// `other` is the file the other decomposition writes beside its factors (a CPD's run notes an
// earlier Tucker's core.tns, a Tucker's an earlier CPD's lambda.mat: sweep 68a D4).
void note_older_mode_files(const std::string& dir, int order, const char* other);

// decompose FILE --method cpd --distributed ... (cmd_decompose_distributed.cpp), under mpirun.
int run_decompose_distributed(int argc, char** argv);

}  // namespace tscope::cli
