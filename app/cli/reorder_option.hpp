// --reorder METHOD [--reorder-iters K] on formats, bench and decompose (issue 25): the loaded
// tensor is relabelled before the work, and everything a user sees or gets in a file is in the
// original ids again (a user never sees permuted rows).
#pragma once

#include <optional>
#include <string>
#include <utility>

#include "args.hpp"
#include "json_report.hpp"
#include "tscope/reorder/relabelling.hpp"

namespace tscope::cli {

// The options' names, for the commands' lists of what they accept.
inline constexpr const char* kReorderOption = "--reorder";
inline constexpr const char* kReorderItersOption = "--reorder-iters";

// The method and rounds --reorder asks for (nullopt: none), InputError for a bad name or rounds:
// called before the load, so that a typo does not wait for it.
std::optional<std::pair<ReorderMethod, int>> check_reorder_option(const Args& args);
// Relabels `t` when --reorder is given (one line on stderr unless quiet), else nothing.
std::optional<Relabelling> apply_reorder_option(const Args& args, CooTensor& t, bool quiet);
// {"method", "seconds", "iterations"}; Lexi-Order adds "start" ("file" or "degree", the one
// kept) and "blocks_from_file", "blocks_from_degree" (HiCOO's 128^N blocks from each start).
Json reorder_json(const Relabelling& r);
// Lexi-Order's " (K rounds from START: N HiCOO blocks against M from the other)"; empty for the others.
std::string reorder_detail(const Relabelling& r);
// Rows of a per-mode matrix between the ids: to the relabelled ones (inputs such as --factors)
// and back to the original ones (outputs).
DenseMatrix rows_to_new(const Relabelling& r, int mode, const DenseMatrix& rows);

}  // namespace tscope::cli
