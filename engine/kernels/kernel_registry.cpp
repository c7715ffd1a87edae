#include "tscope/kernels/kernel_registry.hpp"

#include <algorithm>

#include "kernels/kernel_registrations.hpp"
#include "tscope/cuda/device.hpp"
#include "tscope/error.hpp"

namespace tscope {

namespace {

struct KernelRow {
    KernelKind kind;
    const char* name;
    const char* title;
    void (*registration)(KernelRegistry&);
};

constexpr KernelRow kKernels[] = {
#define TSCOPE_KERNEL_ROW(kind, name, title, registration) {KernelKind::kind, name, title, &detail::registration},
    TSCOPE_KERNELS(TSCOPE_KERNEL_ROW)
#undef TSCOPE_KERNEL_ROW
};

const KernelRow& row(KernelKind k) {
    for (const auto& r : kKernels)
        if (r.kind == k) return r;
    throw Error("kernel kind " + std::to_string(static_cast<int>(k)) + " has no registry row");
}

}  // namespace

const char* kernel_name(KernelKind k) { return row(k).name; }
const char* kernel_title(KernelKind k) { return row(k).title; }

KernelKind parse_kernel(const std::string& name) {
    std::string known;
    for (const auto& r : kKernels) {
        if (name == r.name) return r.kind;
        known += std::string(known.empty() ? "" : ", ") + r.name;
    }
    throw InputError("unknown kernel '" + name + "' (known: " + known + ")");
}

std::vector<KernelKind> all_kernels() {
    std::vector<KernelKind> kinds;
    for (const auto& r : kKernels) kinds.push_back(r.kind);
    return kinds;
}

void KernelRegistry::oracle(KernelKind kernel) {
    for (FormatKind f : available_formats()) entries_.push_back({kernel, Backend::CpuRef, f});
}

void KernelRegistry::add(KernelKind kernel, Backend backend, std::initializer_list<FormatKind> formats) {
    if (backend == Backend::Cuda && !cuda_built()) return;
    for (FormatKind f : formats) entries_.push_back({kernel, backend, f});
}

const std::vector<KernelEntry>& kernel_entries() {
    static const std::vector<KernelEntry> entries = [] {
        KernelRegistry registry;
        for (const auto& r : kKernels) r.registration(registry);
        return registry.entries();
    }();
    return entries;
}

bool kernel_supports(KernelKind kernel, Backend backend, FormatKind format) {
    const auto& e = kernel_entries();
    return std::any_of(e.begin(), e.end(), [&](const KernelEntry& x) {
        return x.kernel == kernel && x.backend == backend && x.format == format;
    });
}

std::vector<FormatKind> kernel_formats(KernelKind kernel, Backend backend) {
    std::vector<FormatKind> kinds;
    for (FormatKind f : available_formats())
        if (kernel_supports(kernel, backend, f)) kinds.push_back(f);
    return kinds;
}

std::string kernel_formats_text(KernelKind kernel, Backend backend) {
    std::string text;
    for (FormatKind f : kernel_formats(kernel, backend)) text += std::string(text.empty() ? "" : ", ") + format_name(f);
    return text;
}

}  // namespace tscope
