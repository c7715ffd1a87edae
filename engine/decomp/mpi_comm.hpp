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

    // out[q] = what q sent me, from each peer's rows of `cols` doubles: rows_out[q] rows to q.
    std::vector<double> exchange_rows(const std::vector<double>& packed, const std::vector<int>& rows_out,
                                      const std::vector<int>& rows_in, std::uint64_t cols) const;
    // Every peer's list, in peer order.
    std::vector<std::vector<std::uint64_t>> all_gather(const std::vector<std::uint64_t>& mine) const;

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
