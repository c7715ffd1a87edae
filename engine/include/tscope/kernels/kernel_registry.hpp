// The kernel registry: which (kernel, backend, format) triples this build runs. Each kernel's
// kernels/K.cpp registers its entries (register_K_kernels); the bench, the CLI's usage text,
// the Kernels and Decompositions views, CPD's format check and the data-driven test suites all
// read them, so an entry added there runs, shows and is tested everywhere at once.
#pragma once

#include <initializer_list>
#include <string>
#include <vector>

#include "tscope/formats/format.hpp"
#include "tscope/kernels/backend.hpp"

// Columns: enum name, CLI name, title (what messages call it), registration function (defined
// in kernels/K.cpp). Adding a kernel is one line here plus its own files.
#define TSCOPE_KERNELS(X)                                 \
    X(SpTV, "sptv", "SpTV", register_sptv_kernels)        \
    X(SpTTM, "spttm", "SpTTM", register_spttm_kernels)    \
    X(MTTKRP, "mttkrp", "MTTKRP", register_mttkrp_kernels) \
    X(TTMc, "ttmc", "TTMc", register_ttmc_kernels)

namespace tscope {

enum class KernelKind {
#define TSCOPE_KERNEL_ENUM(kind, ...) kind,
    TSCOPE_KERNELS(TSCOPE_KERNEL_ENUM)
#undef TSCOPE_KERNEL_ENUM
};

const char* kernel_name(KernelKind k);   // sptv, spttm, mttkrp, ttmc
const char* kernel_title(KernelKind k);  // SpTV, SpTTM, MTTKRP, TTMc
KernelKind parse_kernel(const std::string& name);  // InputError listing the names
std::vector<KernelKind> all_kernels();

struct KernelEntry {
    KernelKind kernel;
    Backend backend;
    FormatKind format;
};

// What a kernel's registration function fills.
class KernelRegistry {
public:
    // cpu-ref: the serial oracle, which runs on any format through to_coo().
    void oracle(KernelKind kernel);
    // An omp or cuda kernel for each of these formats; cuda entries only where the build has
    // the CUDA backend (a build without it runs none, whatever the machine).
    void add(KernelKind kernel, Backend backend, std::initializer_list<FormatKind> formats);
    const std::vector<KernelEntry>& entries() const { return entries_; }

private:
    std::vector<KernelEntry> entries_;
};

// Every entry of this build, kernel by kernel in the list's order.
const std::vector<KernelEntry>& kernel_entries();
bool kernel_supports(KernelKind kernel, Backend backend, FormatKind format);
// The formats a backend runs a kernel on, in display order.
std::vector<FormatKind> kernel_formats(KernelKind kernel, Backend backend);
// The same as "COO, CSF, B-CSF" (for usage texts and messages).
std::string kernel_formats_text(KernelKind kernel, Backend backend);

}  // namespace tscope
