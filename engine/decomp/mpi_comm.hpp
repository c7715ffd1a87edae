// The few MPI calls the distributed CPD makes, each timed into one counter (the report keeps
// communication apart from computation), and the error agreement that keeps a failure on one
// rank from leaving the others waiting in a collective. Private to engine/decomp; MPI builds only.
#pragma once

#include <mpi.h>

#include <chrono>
#include <cstdint>
#include <string>
#include <vector>

#include "tscope/error.hpp"
#include "tscope/kernels/dense_matrix.hpp"

namespace tscope::detail {

// The largest message one MPI call carries: TENSORSCOPE_MPI_MESSAGE_BYTES (1 to 2^31-1),
// 1 GiB where unset. Throws an InputError naming the variable for any other value; call it
// once inside agreed() before the first exchange, so that every rank refuses together.
std::uint64_t mpi_message_bytes();

class MpiComm {
public:
    explicit MpiComm(MPI_Comm comm, double* seconds) : comm_(comm), seconds_(seconds) {
        MPI_Comm_rank(comm_, &rank_);
        MPI_Comm_size(comm_, &size_);
    }
    MPI_Comm get() const { return comm_; }
    int rank() const { return rank_; }
    int size() const { return size_; }

    void sum(double* data, int n) const;
    void sum(std::uint64_t* data, std::size_t n) const;  // in pieces: counts are ints
    std::uint64_t sum(std::uint64_t value) const;
    double sum(double value) const;

    // Bytes for one peer: `bytes` from `data`.
    struct Span {
        const void* data = nullptr;
        std::uint64_t bytes = 0;
    };
    // Sends to[q] to each peer q and returns what every peer sent me, in peer order, with
    // from[q] bytes from q. Sizes are 64-bit: a message carries at most mpi_message_bytes(),
    // since MPI's counts and displacements are ints (sweep 71a F1: a part of 2^31 nonzeros
    // wrapped and dropped some). Collective.
    std::vector<char> exchange(const std::vector<Span>& to, std::vector<std::uint64_t>& from) const;
    // out[q] = what q sent me, from each peer's rows of `cols` doubles: rows_out[q] rows to q.
    std::vector<double> exchange_rows(const std::vector<double>& packed, const std::vector<std::uint64_t>& rows_out,
                                      const std::vector<std::uint64_t>& rows_in, std::uint64_t cols) const;
    // Every peer's list, in peer order.
    std::vector<std::vector<std::uint64_t>> all_gather(const std::vector<std::uint64_t>& mine) const;
    // Rank 0 gets every rank's list, in rank order (the others an empty one).
    std::vector<std::vector<std::uint64_t>> gather(const std::vector<std::uint64_t>& mine) const;
    // Rank 0 gets every rank's doubles, end to end in rank order (the others none).
    std::vector<double> gather(const double* mine, std::uint64_t n) const;

    // Runs `work` (which must make no MPI call) on every rank; when it threw on any, throws on
    // every rank the error of the lowest failing rank (an InputError stays one), naming the
    // rank where only some failed.
    template <class F>
    void agreed(F&& work) const {
        std::string message;
        const int kind = attempt(work, message);
        settle(kind, message, true);
    }
    // Runs `work` (no MPI call in it) on rank 0 alone, for what only rank 0 does (the output
    // folder it writes): its error is thrown on every rank in its own words, with no "rank 0 of
    // P" before them, which had read as if the ranks disagreed (sweep 66a F10).
    template <class F>
    void agreed_on_root(F&& work) const {
        std::string message;
        const int kind = rank_ == 0 ? attempt(work, message) : 0;
        settle(kind, message, false);
    }

private:
    // Receives from[q] bytes from each q into `in` at the peers' running offsets, while every
    // piece of to[] goes out; a piece is at most mpi_message_bytes().
    void transfer(const std::vector<Span>& to, const std::vector<std::uint64_t>& from, char* in) const;

    // 0 fine, 1 an InputError, 2 any other error; `message` its words.
    template <class F>
    static int attempt(F&& work, std::string& message) {
        try {
            work();
            return 0;
        } catch (const InputError& e) {
            message = e.what();
            return 1;
        } catch (const std::bad_alloc&) {
            message = "out of host memory";
            return 2;
        } catch (const std::exception& e) {
            message = e.what();
            return 2;
        }
    }
    void settle(int kind, std::string message, bool name_rank) const;
    class Timed;

    MPI_Comm comm_;
    double* seconds_;
    int rank_ = 0, size_ = 1;
};

}  // namespace tscope::detail
