// A build without MPI: the distributed CPD says so.
#include "tscope/decomp/cpd_distributed.hpp"

#include <cstdlib>

namespace tscope {

namespace {
const char* kNoMpi = "--distributed needs MPI: this build has none (configure with -DTS_WITH_MPI=ON and libopenmpi-dev installed)";
}

bool mpi_built() { return false; }

MpiSession::MpiSession(int&, char**&) { throw InputError(kNoMpi); }
MpiSession::~MpiSession() = default;
void MpiSession::abort_job(int status) const { std::_Exit(status); }

void agreed_on_all_ranks(const std::function<void()>& work) { work(); }
void agreed_on_rank_zero(const std::function<void()>& work) { work(); }

DistributedCpdResult cpd_als_distributed(const std::string&, const DistributedCpdOptions&, const IterationCallback&) {
    throw InputError(kNoMpi);
}

}  // namespace tscope
