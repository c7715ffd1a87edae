// The CPU-only build's streamed MTTKRP: there is none.
#include "gpu_streamed.hpp"
#include "tscope/error.hpp"

namespace tscope::gpu {

struct StreamedTensor::Impl {};

namespace {
[[noreturn]] void none() { throw Error("no CUDA device (this build has no CUDA backend)"); }
}  // namespace

StreamedTensor::StreamedTensor(const std::vector<Fibers>&, std::uint64_t, int) { none(); }
StreamedTensor::StreamedTensor(const Coo&, std::uint64_t, int) { none(); }
StreamedTensor::StreamedTensor(const Blco&, std::uint64_t, int) { none(); }
StreamedTensor::~StreamedTensor() = default;
StreamRun StreamedTensor::mttkrp(int, std::uint64_t, const float* const*, float*, double*, int) { none(); }
double StreamedTensor::copy_rate() { none(); }
std::uint64_t StreamedTensor::device_bytes() const { return 0; }
std::vector<const StreamChunk*> StreamedTensor::chunks_of(int) const { return {}; }

}  // namespace tscope::gpu
