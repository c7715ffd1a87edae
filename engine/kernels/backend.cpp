#include "tscope/kernels/backend.hpp"

#include "tscope/error.hpp"

namespace tscope {

const char* backend_name(Backend b) {
    switch (b) {
    case Backend::CpuRef: return "cpu-ref";
    case Backend::Omp: return "omp";
    case Backend::Cuda: return "cuda";
    }
    return "?";
}

Backend parse_backend(const std::string& name) {
    for (Backend b : {Backend::CpuRef, Backend::Omp, Backend::Cuda})
        if (name == backend_name(b)) return b;
    throw InputError("unknown backend '" + name + "' (known: cpu-ref, omp, cuda)");
}

}  // namespace tscope
