#include "decomp/mpi_comm.hpp"

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstdlib>
#include <cstring>

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

std::uint64_t mpi_message_bytes() {
    static const std::uint64_t bytes = [] {
        const char* text = std::getenv("TENSORSCOPE_MPI_MESSAGE_BYTES");
        if (!text || !*text) return std::uint64_t{1} << 30;
        char* end = nullptr;
        errno = 0;
        const unsigned long long v = std::strtoull(text, &end, 10);
        if (*text == '-' || *end || errno || v < 1 || v > static_cast<unsigned long long>(INT_MAX))
            throw InputError(std::string("TENSORSCOPE_MPI_MESSAGE_BYTES: expected a byte count from 1 to ") +
                             std::to_string(INT_MAX) + ", got '" + text + "'");
        return static_cast<std::uint64_t>(v);
    }();
    return bytes;
}

void MpiComm::transfer(const std::vector<Span>& to, const std::vector<std::uint64_t>& from, char* in) const {
    constexpr int kTag = 71;
    const std::uint64_t piece = mpi_message_bytes();
    std::vector<MPI_Request> sends;
    for (int q = 0; q < size_; ++q) {
        const Span& s = to[static_cast<std::size_t>(q)];
        for (std::uint64_t done = 0; done < s.bytes; done += piece) {
            sends.emplace_back();
            MPI_Isend(static_cast<const char*>(s.data) + done, static_cast<int>(std::min(piece, s.bytes - done)),
                      MPI_BYTE, q, kTag, comm_, &sends.back());
        }
    }
    // The sender picks its pieces: each round takes the next one from every peer not yet done,
    // into room for all it still owes (a piece that is smaller says so in its status).
    std::vector<std::uint64_t> at(from.size(), 0), got(from.size(), 0);
    for (std::size_t q = 1; q < from.size(); ++q) at[q] = at[q - 1] + from[q - 1];
    for (;;) {
        std::vector<MPI_Request> receives;
        std::vector<int> peers;
        for (int q = 0; q < size_; ++q) {
            const std::size_t uq = static_cast<std::size_t>(q);
            if (got[uq] == from[uq]) continue;
            receives.emplace_back();
            peers.push_back(q);
            MPI_Irecv(in + at[uq] + got[uq], static_cast<int>(std::min<std::uint64_t>(from[uq] - got[uq], INT_MAX)),
                      MPI_BYTE, q, kTag, comm_, &receives.back());
        }
        if (receives.empty()) break;
        std::vector<MPI_Status> status(receives.size());
        MPI_Waitall(static_cast<int>(receives.size()), receives.data(), status.data());
        for (std::size_t k = 0; k < receives.size(); ++k) {
            int n = 0;
            MPI_Get_count(&status[k], MPI_BYTE, &n);
            got[static_cast<std::size_t>(peers[k])] += static_cast<std::uint64_t>(n);
        }
    }
    MPI_Waitall(static_cast<int>(sends.size()), sends.data(), MPI_STATUSES_IGNORE);
}

std::vector<char> MpiComm::exchange(const std::vector<Span>& to, std::vector<std::uint64_t>& from) const {
    Timed t(seconds_);
    std::vector<std::uint64_t> out(static_cast<std::size_t>(size_));
    for (std::size_t q = 0; q < out.size(); ++q) out[q] = to[q].bytes;
    from.assign(out.size(), 0);
    MPI_Alltoall(out.data(), 1, MPI_UINT64_T, from.data(), 1, MPI_UINT64_T, comm_);
    std::uint64_t total = 0;
    for (std::uint64_t b : from) total += b;
    std::vector<char> in(total);
    transfer(to, from, in.data());
    return in;
}

std::vector<double> MpiComm::exchange_rows(const std::vector<double>& packed,
                                           const std::vector<std::uint64_t>& rows_out,
                                           const std::vector<std::uint64_t>& rows_in, std::uint64_t cols) const {
    Timed t(seconds_);
    // both directions' counts are known: no count exchange on this per-iteration path
    std::vector<Span> to(rows_out.size());
    std::vector<std::uint64_t> from(rows_in.size());
    std::uint64_t out_at = 0, in_total = 0;
    for (std::size_t q = 0; q < to.size(); ++q) {
        to[q] = {packed.data() + out_at * cols, rows_out[q] * cols * sizeof(double)};
        out_at += rows_out[q];
        from[q] = rows_in[q] * cols * sizeof(double);
        in_total += rows_in[q];
    }
    std::vector<double> received(in_total * cols);
    transfer(to, from, reinterpret_cast<char*>(received.data()));
    return received;
}

namespace {

std::vector<std::vector<std::uint64_t>> split_lists(const std::vector<char>& in,
                                                    const std::vector<std::uint64_t>& from) {
    std::vector<std::vector<std::uint64_t>> lists(from.size());
    std::uint64_t at = 0;
    for (std::size_t q = 0; q < from.size(); ++q) {
        lists[q].resize(from[q] / sizeof(std::uint64_t));
        if (from[q]) std::memcpy(lists[q].data(), in.data() + at, from[q]);
        at += from[q];
    }
    return lists;
}

}  // namespace

std::vector<std::vector<std::uint64_t>> MpiComm::all_gather(const std::vector<std::uint64_t>& mine) const {
    const std::vector<Span> to(static_cast<std::size_t>(size_), Span{mine.data(), mine.size() * sizeof(std::uint64_t)});
    std::vector<std::uint64_t> from;
    const std::vector<char> in = exchange(to, from);
    return split_lists(in, from);
}

std::vector<std::vector<std::uint64_t>> MpiComm::gather(const std::vector<std::uint64_t>& mine) const {
    std::vector<Span> to(static_cast<std::size_t>(size_));
    to[0] = {mine.data(), mine.size() * sizeof(std::uint64_t)};
    std::vector<std::uint64_t> from;
    const std::vector<char> in = exchange(to, from);
    return split_lists(in, from);
}

std::vector<double> MpiComm::gather(const double* mine, std::uint64_t n) const {
    std::vector<Span> to(static_cast<std::size_t>(size_));
    to[0] = {mine, n * sizeof(double)};
    std::vector<std::uint64_t> from;
    const std::vector<char> in = exchange(to, from);
    std::vector<double> all(in.size() / sizeof(double));
    if (!in.empty()) std::memcpy(all.data(), in.data(), in.size());
    return all;
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
