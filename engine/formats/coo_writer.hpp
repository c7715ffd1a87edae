// Builds a CooTensor entry by entry, whatever its index width: what every format's to_coo()
// uses. Private to the engine.
#pragma once

#include <cstdint>
#include <vector>

#include "tscope/formats/format.hpp"

namespace tscope::detail {

template <class V>
class CooWriter {
public:
    CooWriter(const std::vector<std::uint64_t>& dims, std::uint64_t nnz)
        : t_(dims, sizeof(V) == 4 ? ValueType::F32 : ValueType::F64) {
        t_.resize(nnz);
        wide_ = t_.index_width() == IndexWidth::U64;
        for (int m = 0; m < t_.order(); ++m) {
            if (wide_)
                p64_.push_back(t_.template indices<std::uint64_t>(m).data());
            else
                p32_.push_back(t_.template indices<std::uint32_t>(m).data());
        }
        vals_ = t_.template values<V>().data();
    }
    void index(std::uint64_t n, int mode, std::uint64_t i) {
        if (wide_)
            p64_[static_cast<std::size_t>(mode)][n] = i;
        else
            p32_[static_cast<std::size_t>(mode)][n] = static_cast<std::uint32_t>(i);
    }
    void value(std::uint64_t n, V v) { vals_[n] = v; }
    // Keeps the first `nnz` entries (for formats that skip padding or zeros).
    CooTensor finish(std::uint64_t nnz) {
        t_.resize(nnz);
        return std::move(t_);
    }

private:
    CooTensor t_;
    bool wide_ = false;
    std::vector<std::uint32_t*> p32_;
    std::vector<std::uint64_t*> p64_;
    V* vals_ = nullptr;
};

inline ArrayInfo array_info(std::string name, std::string meaning, std::uint64_t elements, std::uint32_t bytes,
                            std::uint64_t units) {
    return ArrayInfo{std::move(name), std::move(meaning), elements, bytes, units};
}

// An array of the tensor's values (ArrayInfo::values).
inline ArrayInfo value_array_info(std::string name, std::string meaning, std::uint64_t elements, std::uint32_t bytes,
                                  std::uint64_t units) {
    ArrayInfo a = array_info(std::move(name), std::move(meaning), elements, bytes, units);
    a.values = true;
    return a;
}

// "T_i", "T_j", "T_k" for order 3 as the paper writes them, "T_1".."T_N" otherwise.
inline std::string coo_array_name(int mode, int order) {
    if (order == 3) return std::string("T_") + "ijk"[mode];
    return "T_" + std::to_string(mode + 1);
}

}  // namespace tscope::detail
