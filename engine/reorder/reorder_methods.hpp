// The reordering heuristics behind compute_relabelling (Li, Uçar, Çatalyürek, Sun, Barker,
// Vuduc, "Efficient and effective sparse tensor reordering", ICS 2019). Each returns, per mode,
// old_id[new]: the original index that gets new id `new`. Private to engine/reorder.
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "tscope/run_control.hpp"
#include "tscope/tensor/coo_tensor.hpp"

namespace tscope::detail {

using ModeOrders = std::vector<std::vector<std::uint64_t>>;

// Lexi-Order: the doubly lexical ordering of a matrix extended to tensors. One step orders
// mode n's indices (the rows of the unfolding X_(n), whose columns are the other modes' indices
// under their current order) lexically by their nonzero columns: the row whose first nonzero
// column comes earliest first, ties by the next column, a row that extends another first. The
// modes take turns; up to `max_iters` rounds, fewer when a round changes nothing. `start`: the
// orders the first round starts from (old_id[new] per mode). *iterations: the rounds run.
// after_step runs after each mode's step (a cancel check, progress).
ModeOrders lexi_order(
    const CooTensor& t, ModeOrders start, int max_iters, int* iterations,
    const std::function<void()>& after_step = [] {});

// The blocks of 2^bits indices a side (HiCOO's) that hold t's nonzeros once each mode is
// numbered by old_id: what Lexi-Order's starts are judged by.
std::uint64_t blocks_under(const CooTensor& t, const ModeOrders& old_id, unsigned bits);

// BFS-MCS: the tensor as a hypergraph (each mode's indices are vertices, each nonzero a hyperedge
// over its N indices), numbered by a maximum-cardinality search: from the densest index, the next
// vertex numbered is the one most connected (by nonzeros already reached) to the numbered ones;
// each mode's vertices get its new ids in the order they are numbered.
// `control` is checked (and told the vertices numbered) every 65,536 vertices.
ModeOrders bfs_mcs(const CooTensor& t, RunControl& control = no_control());

}  // namespace tscope::detail
