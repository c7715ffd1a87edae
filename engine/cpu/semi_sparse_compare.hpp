// Two semi-sparse results (sCOO) compared chunk by chunk, for semi_sparse_max_relative_error
// (spttm_cpu.cpp). Private to the engine.
#pragma once

#include <optional>

#include "tscope/formats/format.hpp"

namespace tscope::detail {

// The max relative error of a against reference, as sparse_max_relative_error gives it on their
// entries (zeros kept), where both are sCOO of one layout (dims, dense modes, sparse modes in any
// order, chunk size and count) and their chunks' sparse indices fit one 64-bit key; nullopt
// otherwise (the caller compares the entries). The chunks are matched by sorting their keys, not
// the chunks x chunk size entries: on a 20M-nonzero tensor at rank 32, 6M chunks against 192M
// entries (session 45: bench --check on SpTTM took 51 s more than without, mostly sorting those).
std::optional<double> semi_sparse_chunk_error(const SparseFormat& a, const SparseFormat& reference);

}  // namespace tscope::detail
