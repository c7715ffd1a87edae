// Reordering a tensor's indices (issue 25): a permutation per mode, applied to a CooTensor in
// place, kept so that every result can be mapped back to the original ids. Methods: `random`
// (the baseline that destroys locality), `degree` (each mode's indices by descending nonzero
// count), `lexi` (Lexi-Order) and `bfs-mcs` (Li, Uçar, Çatalyürek, Sun, Barker, Vuduc, ICS 2019).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "tscope/kernels/dense_matrix.hpp"
#include "tscope/run_control.hpp"
#include "tscope/tensor/coo_tensor.hpp"

namespace tscope {

enum class ReorderMethod { Random, Degree, Lexi, BfsMcs };

ReorderMethod parse_reorder_method(const std::string& name);  // InputError naming the choices
const char* reorder_method_name(ReorderMethod m);

struct Relabelling {
    ReorderMethod method = ReorderMethod::Degree;
    // Per mode: new_id[old] and old_id[new], each a permutation of [0, dim).
    std::vector<std::vector<std::uint64_t>> new_id, old_id;
    double seconds = 0;
    int iterations = 1;  // Lexi-Order's rounds over the modes; 1 for the others
    // Lexi-Order runs from the file's order and from the degree sort and keeps the result with
    // fewer HiCOO blocks (2^7 a side, HiCOO's default); the file's on a tie.
    bool from_degree = false;
    std::uint64_t blocks_from_file = 0, blocks_from_degree = 0;
};

// The permutation of every mode by `method` (seed: random's generator; max_iters: Lexi-Order's
// rounds at most, it stops early when a round changes nothing). Lexi-Order and BFS-MCS report
// progress to `control` and stop with tscope::Cancelled when it is cancelled (Lexi-Order after
// each mode's step, BFS-MCS every 65,536 vertices numbered).
inline constexpr int kLexiIterations = 2;  // docs/bench/cpu-reorder.json: more rounds cost time for few blocks
Relabelling compute_relabelling(const CooTensor& t, ReorderMethod method, std::uint64_t seed = 1,
                                int max_iters = kLexiIterations, RunControl& control = no_control());

// Rewrites every index column through new_id, in place (no second copy of the tensor).
void apply_relabelling(CooTensor& t, const Relabelling& r);

// A dims[mode] x R matrix indexed by the new ids (a factor or an MTTKRP result
// computed on the relabelled tensor), its rows moved back to the original ids.
DenseMatrix rows_to_original(const Relabelling& r, int mode, const DenseMatrix& rows);

}  // namespace tscope
