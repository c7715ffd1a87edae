// The CPU-only build's device CPD: there is none.
#include "gpu_cpd.hpp"
#include "tscope/error.hpp"

namespace tscope::gpu {

namespace {
[[noreturn]] void none() { throw Error("no CUDA device (this build has no CUDA backend)"); }
}  // namespace

struct CpdDevice::Impl {};
CpdDevice::CpdDevice(const std::vector<std::uint64_t>&, std::uint64_t) { none(); }
CpdDevice::~CpdDevice() = default;
void CpdDevice::own_rows(int, std::uint64_t, std::uint64_t) { none(); }
void CpdDevice::set_factor(int, const double*) { none(); }
void CpdDevice::get_factor(int, double*) const { none(); }
void CpdDevice::mttkrp(const ResidentTensor&, int) { none(); }
void CpdDevice::begin_mttkrp(int, bool, const Launcher&, bool) { none(); }
void CpdDevice::finish_mttkrp(int) { none(); }
void* CpdDevice::output() const { return nullptr; }
void* CpdDevice::factor32(int) const { return nullptr; }
void CpdDevice::get_mttkrp(int, double*) const { none(); }
int CpdDevice::device() const { return 0; }
void CpdDevice::wait() const {}
void CpdDevice::solve(int, const double*) { none(); }
void CpdDevice::solved_gram(double*) { none(); }
void CpdDevice::normalize(int, const double*) { none(); }
void CpdDevice::gram(int, double*) const { none(); }
void CpdDevice::inner(int, double*) const { none(); }
void CpdDevice::synchronize() {}
std::uint64_t CpdDevice::device_bytes() const { return 0; }
CpdDevice::StepSeconds CpdDevice::step_seconds() const { return {}; }

}  // namespace tscope::gpu
