// CPD-ALS over MPI ranks, medium-grained (Smith & Karypis, IPDPS 2016): the ranks form a grid
// p1 x ... x pN, each mode's indices are cut into p_n layers balanced by nonzeros, and a rank
// holds the nonzeros of one block. Each rank reads only its share of the .tsb file, sends every
// nonzero to the rank of its block, and from then on keeps only the factor rows its nonzeros
// touch: per mode, the partial MTTKRP rows go to each row's owner (one rank of the layer), the
// owner solves and normalises them, and the updated rows come back to the ranks that touch
// them; the Gram matrices, column norms and fit terms are summed over all ranks. The same
// random start and the same algebra as cpd_als(), so the fits agree to rounding.
//
// No MPI types here: the CLI includes this header whether or not the build has MPI.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "tscope/decomp/cpd_als.hpp"

namespace tscope {

// True when this build has the distributed CPD (TS_WITH_MPI).
bool mpi_built();

// MPI_Init on construction (threads: funneled), MPI_Finalize on destruction. One per process.
class MpiSession {
public:
    MpiSession(int& argc, char**& argv);
    ~MpiSession();
    MpiSession(const MpiSession&) = delete;
    MpiSession& operator=(const MpiSession&) = delete;
    int rank() const { return rank_; }
    int size() const { return size_; }
    // The rank's place among the ranks of its host (one GPU per rank where ranks share a host).
    int local_rank() const { return local_rank_; }
    // Started alone, not by mpirun or another launcher (a singleton of one rank): read before
    // MPI_Init, which sets the launcher's variables in a singleton too.
    bool started_alone() const { return started_alone_; }
    // Ends every rank of the job at once (MPI_Abort): for an error this rank alone met, outside
    // an agreed step, while the others wait in a collective for it (they waited for ever, sweep
    // 66a: one rank out of memory while it received its nonzeros).
    [[noreturn]] void abort_job(int status) const;

private:
    int rank_ = 0, size_ = 1, local_rank_ = 0;
    bool started_alone_ = false;
};

// Runs `work` (no MPI calls in it) on every rank; if it threw on any rank, every rank throws
// the lowest failing rank's error (an InputError stays one). Callers check their arguments
// with it, so one bad option ends every rank with the same words instead of a hang.
void agreed_on_all_ranks(const std::function<void()>& work);
// Runs `work` (no MPI calls in it) on rank 0 alone, for what only it does (the output folder it
// writes); its error is thrown on every rank, in its words with no rank named.
void agreed_on_rank_zero(const std::function<void()>& work);

// What an agreed step throws, other than an InputError (which stays one): every rank of the job
// holds it, so each may end on its own. Any other exception but an InputError is one rank's.
class AgreedError : public Error {
public:
    using Error::Error;
};

struct DistributedCpdOptions {
    CpdOptions cpd;          // rank, iterations, tolerance, seed, format, backend (omp or cuda)
    std::string grid_text;   // "AxBxC" (p1 x ... x pN); empty: choose_grid() on the tensor's dims
    bool gather_factors = false;  // rank 0 receives the whole factors (--write)
};

// What each rank did, gathered on rank 0.
struct RankReport {
    std::uint64_t nnz = 0;                 // the nonzeros of its block
    // Factor rows per iteration over all modes, each way: partial rows to owners and owned rows
    // back out; their sum is SPLATT's "communication volume" of the same rank.
    std::uint64_t rows_sent = 0, rows_received = 0;
    std::uint64_t rows_touched = 0, rows_owned = 0;  // over all modes
    int gpu = -1;                          // cuda: its GPU
    // The cores the rank may run on (its affinity mask) and its OpenMP threads: mpirun binds
    // each rank to one core by default, and more threads than cores then share it.
    int cores = 0, threads = 0;
    // The ranks on its host and the host's cores: ranks left unbound (--oversubscribe, --bind-to
    // none) that together run more threads than the host has share its cores unseen by `cores`.
    int host_ranks = 1, host_cores = 0;
    double read_s = 0, distribute_s = 0, build_s = 0;  // setup: its part of the file, the all-to-all, its formats
    double compute_s = 0, comm_s = 0;      // over the iterations: MTTKRP and dense work, and MPI calls
};

struct DistributedCpdResult {
    CpdResult cpd;            // rank 0: fit, lambda, iterations; factors only when gathered
    int ranks = 1;
    std::vector<int> grid;
    std::vector<std::uint64_t> dims;
    std::uint64_t nnz = 0;    // after duplicates were summed and zeros dropped
    std::uint64_t duplicates_summed = 0, zeros_dropped = 0;
    std::vector<RankReport> per_rank;  // rank 0 only
    double setup_seconds = 0;
};

// Runs on every rank of MPI_COMM_WORLD (an MpiSession must be alive); `path` must be a .tsb
// file. Errors are agreed on: every rank throws the same InputError/Error, so that rank 0 can
// print one message and every rank exit non-zero. on_iteration is called on rank 0 only.
DistributedCpdResult cpd_als_distributed(const std::string& path, const DistributedCpdOptions& options,
                                         const IterationCallback& on_iteration = {});

}  // namespace tscope
