// The CPU-only build's CUDA MTTKRP: there is none.
#include "gpu_mttkrp.hpp"
#include "tscope/error.hpp"

namespace tscope::gpu {

namespace {
[[noreturn]] void none() { throw Error("no CUDA device (this build has no CUDA backend)"); }
}  // namespace

double copy_bandwidth_gbps() { return 0; }
std::vector<std::uint32_t> hot_row_ids(const std::uint32_t*, std::uint64_t, bool, std::uint64_t) { none(); }

void mttkrp_coo(const Coo&, const Dense&, Timing&) { throw Error("no CUDA device (this build has no CUDA backend)"); }
void mttkrp_fibers(const std::vector<Fibers>&, const Dense&, Timing&) {
    throw Error("no CUDA device (this build has no CUDA backend)");
}

struct ResidentTensor::Impl {};
ResidentTensor::ResidentTensor(const Coo&) { throw Error("no CUDA device (this build has no CUDA backend)"); }
ResidentTensor::ResidentTensor(const std::vector<Fibers>&, std::uint64_t) {
    throw Error("no CUDA device (this build has no CUDA backend)");
}
ResidentTensor::ResidentTensor(const Blco&) { throw Error("no CUDA device (this build has no CUDA backend)"); }
ResidentTensor::ResidentTensor(const DeviceCoo&, std::uint64_t, std::uint64_t) { none(); }
ResidentTensor::ResidentTensor(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
ResidentTensor ResidentTensor::build(const DeviceCoo&, const std::vector<int>&, std::uint64_t, RowFilter,
                                     std::uint64_t) {
    none();
}
ResidentTensor ResidentTensor::build_partitioned(const DeviceCoo&, const std::uint8_t*,
                                                 const std::vector<std::vector<int>>&, const std::vector<RowFilter>&,
                                                 std::uint64_t, std::uint64_t) {
    none();
}
ResidentTensor::~ResidentTensor() = default;
ResidentTensor::ResidentTensor(ResidentTensor&&) noexcept = default;
void ResidentTensor::mttkrp(const Dense&, Timing&) const { none(); }
void ResidentTensor::launch(int, std::uint64_t, const float* const*, float*, double*) const { none(); }
bool ResidentTensor::accumulates_in_double(int, std::uint64_t) const { return false; }
void ResidentTensor::reserve_copies(int, std::uint64_t) const {}
std::uint64_t ResidentTensor::device_bytes() const { return 0; }
std::uint64_t ResidentTensor::nnz() const { return 0; }
ResidentTensor::TileTraffic ResidentTensor::shared_tiles(int, std::uint64_t) const { return {}; }
ResidentTensor::HotRowUse ResidentTensor::hot_rows(int, std::uint64_t) const { return {}; }
std::uint64_t ResidentTensor::shared_tiles_bytes() const { return 0; }
std::vector<ResidentTensor::HostCopy> ResidentTensor::download() const { none(); }

struct DeviceCoo::Impl {};
DeviceCoo::DeviceCoo(const HostCoo&) { none(); }
DeviceCoo::~DeviceCoo() = default;
std::uint64_t DeviceCoo::nnz() const { return 0; }
int DeviceCoo::order() const { return 0; }

}  // namespace tscope::gpu
