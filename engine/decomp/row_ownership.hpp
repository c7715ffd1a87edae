// Who owns each factor row in a distributed CPD's layer, and which rows go where (Smith &
// Karypis, "A Medium-Grained Algorithm for Distributed Sparse Tensor Factorization", IPDPS 2016,
// Sec. IV-C). The ranks of one layer of mode n (the grid's slab of ranks sharing that range of
// mode-n indices) each touch some of the layer's rows; every row gets exactly one owner, which
// sums the others' partial MTTKRP rows into its own, updates the row and sends it back. Pure host
// code, no MPI: every rank of the layer computes the same answer from the same lists.
#pragma once

#include <cstdint>
#include <vector>

namespace tscope::detail {

// owners[i - begin] for the rows [begin, end): a row only one peer touches is that peer's (no
// message for it at all); a row several touch goes to the one of them owning fewest so far; a
// row none touches goes to the peer owning fewest. `touched[q]`: peer q's rows, ascending.
std::vector<int> assign_row_owners(std::uint64_t begin, std::uint64_t end,
                                   const std::vector<std::vector<std::uint64_t>>& touched);

// What one peer (`me`) of a layer sends and receives for one mode.
struct RowExchange {
    // send[q]: positions in my touched list of the rows q owns (my partial sums go out, q's
    // updated rows come back), in ascending row order.
    std::vector<std::vector<std::uint64_t>> send;
    // receive[q]: positions in my owned list of the rows I own that q touches (q's partial sums
    // come in, my updated rows go back), in ascending row order.
    std::vector<std::vector<std::uint64_t>> receive;
    std::vector<std::uint64_t> owned;        // the rows I own, ascending
    std::vector<std::int64_t> owned_local;   // each owned row's position in my touched list, or -1
    std::uint64_t rows_sent() const;         // over both directions: partials out + updated rows out
    std::uint64_t rows_received() const;
};
RowExchange plan_row_exchange(int me, std::uint64_t begin, const std::vector<int>& owners,
                              const std::vector<std::vector<std::uint64_t>>& touched);

}  // namespace tscope::detail
