#include "decomp/mpi_comm.hpp"

#include <algorithm>
#include <climits>

#include "tscope/decomp/cpd_distributed.hpp"
#include "tscope/error.hpp"

namespace tscope::detail {

class MpiComm::Timed {
public:
    explicit Timed(double* seconds) : seconds_(seconds), start_(std::chrono::steady_clock::now()) {}
    ~Timed() { *seconds_ += std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count(); }

private:
    double* seconds_;
    std::chrono::steady_clock::time_point start_;
};

namespace {

constexpr std::size_t kPiece = std::size_t{1} << 26;  // elements per call: MPI counts are ints

}  // namespace

void MpiComm::sum(double* data, int n) const {
    Timed t(seconds_);
    MPI_Allreduce(MPI_IN_PLACE, data, n, MPI_DOUBLE, MPI_SUM, comm_);
}

void MpiComm::sum(std::uint64_t* data, std::size_t n) const {
    Timed t(seconds_);
    for (std::size_t done = 0; done < n; done += kPiece)
        MPI_Allreduce(MPI_IN_PLACE, data + done, static_cast<int>(std::min(kPiece, n - done)), MPI_UINT64_T, MPI_SUM, comm_);
}

std::uint64_t MpiComm::sum(std::uint64_t value) const {
    sum(&value, 1);
    return value;
}

double MpiComm::sum(double value) const {
    sum(&value, 1);
    return value;
}

std::vector<double> MpiComm::exchange_rows(const std::vector<double>& packed, const std::vector<int>& rows_out,
                                           const std::vector<int>& rows_in, std::uint64_t cols) const {
    Timed t(seconds_);
    // one element = one row of `cols` doubles, so the counts are rows and stay small ints
    MPI_Datatype row;
    MPI_Type_contiguous(static_cast<int>(cols), MPI_DOUBLE, &row);
    MPI_Type_commit(&row);
    std::vector<int> out_at(rows_out.size(), 0), in_at(rows_in.size(), 0);
    int in_total = 0;
    for (std::size_t q = 1; q < rows_out.size(); ++q) out_at[q] = out_at[q - 1] + rows_out[q - 1];
    for (std::size_t q = 0; q < rows_in.size(); ++q) in_at[q] = in_total, in_total += rows_in[q];
    std::vector<double> received(static_cast<std::size_t>(in_total) * cols);
    MPI_Alltoallv(packed.data(), rows_out.data(), out_at.data(), row, received.data(), rows_in.data(), in_at.data(), row, comm_);
    MPI_Type_free(&row);
    return received;
}

std::vector<std::vector<std::uint64_t>> MpiComm::all_gather(const std::vector<std::uint64_t>& mine) const {
    Timed t(seconds_);
    const int n = static_cast<int>(mine.size());
    std::vector<int> counts(static_cast<std::size_t>(size_)), at(static_cast<std::size_t>(size_), 0);
    MPI_Allgather(&n, 1, MPI_INT, counts.data(), 1, MPI_INT, comm_);
    std::size_t total = 0;
    for (int q = 0; q < size_; ++q) at[static_cast<std::size_t>(q)] = static_cast<int>(total), total += static_cast<std::size_t>(counts[static_cast<std::size_t>(q)]);
    std::vector<std::uint64_t> all(total);
    MPI_Allgatherv(mine.data(), n, MPI_UINT64_T, all.data(), counts.data(), at.data(), MPI_UINT64_T, comm_);
    std::vector<std::vector<std::uint64_t>> lists(static_cast<std::size_t>(size_));
    for (int q = 0; q < size_; ++q)
        lists[static_cast<std::size_t>(q)].assign(all.begin() + at[static_cast<std::size_t>(q)],
                                                  all.begin() + at[static_cast<std::size_t>(q)] + counts[static_cast<std::size_t>(q)]);
    return lists;
}

void MpiComm::settle(int kind, std::string message, bool name_rank) const {
    Timed t(seconds_);
    int failed[2] = {kind ? rank_ : INT_MAX, kind ? 1 : 0};
    MPI_Allreduce(MPI_IN_PLACE, &failed[0], 1, MPI_INT, MPI_MIN, comm_);
    if (failed[0] == INT_MAX) return;
    MPI_Allreduce(MPI_IN_PLACE, &failed[1], 1, MPI_INT, MPI_SUM, comm_);
    // the lowest failing rank's words reach every rank
    int head[2] = {kind, static_cast<int>(message.size())};
    MPI_Bcast(head, 2, MPI_INT, failed[0], comm_);
    message.resize(static_cast<std::size_t>(head[1]));
    MPI_Bcast(message.data(), head[1], MPI_CHAR, failed[0], comm_);
    if (name_rank && failed[1] < size_)
        message = "rank " + std::to_string(failed[0]) + " of " + std::to_string(size_) + ": " + message;
    if (head[0] == 1) throw InputError(message);
    throw AgreedError(message);
}

}  // namespace tscope::detail
