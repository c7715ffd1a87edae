// CooTensor: a sparse tensor of any order as coordinate lists, one index array per mode
// (structure of arrays) plus one value array. Indices are 0-based in memory.
//
// Index arrays are 32-bit when every dimension fits (the common case: half the memory and
// bandwidth), else 64-bit; values are float or double. Kernels reach the typed arrays through
// visit(), which calls a generic lambda with the concrete index and value types.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "tscope/error.hpp"

namespace tscope {

enum class IndexWidth : std::uint8_t { U32 = 4, U64 = 8 };
enum class ValueType : std::uint8_t { F32 = 4, F64 = 8 };

const char* to_string(ValueType type);

// The most modes a tensor may have. DESIGN.md asks for at least 8.
inline constexpr int kMaxOrder = 16;

template <class T> struct TypeTag { using type = T; };

class CooTensor {
public:
    CooTensor() = default;
    // An empty tensor (nnz 0) of the given shape; the index width follows the dims.
    explicit CooTensor(std::vector<std::uint64_t> dims, ValueType values = ValueType::F64);
    CooTensor(std::vector<std::uint64_t> dims, IndexWidth width, ValueType values);

    // The narrowest width that holds every index below dims.
    static IndexWidth width_for(const std::vector<std::uint64_t>& dims);

    int order() const { return static_cast<int>(dims_.size()); }
    const std::vector<std::uint64_t>& dims() const { return dims_; }
    std::uint64_t dim(int mode) const { return dims_.at(static_cast<std::size_t>(mode)); }
    std::uint64_t nnz() const { return nnz_; }
    IndexWidth index_width() const { return width_; }
    ValueType value_type() const { return vtype_; }
    // nnz / prod(dims), computed in floating point so huge shapes don't overflow.
    double density() const;
    // Bytes held by the index and value arrays.
    std::uint64_t bytes() const;

    // Changes nnz; new entries are zero-initialised.
    void resize(std::uint64_t nnz);

    // Typed access. The type must match index_width() / value_type() (checked).
    template <class I> std::vector<I>& indices(int mode);
    template <class I> const std::vector<I>& indices(int mode) const;
    template <class V> std::vector<V>& values();
    template <class V> const std::vector<V>& values() const;

    // Untyped, slow access for tests, tools and small tensors.
    std::uint64_t index(int mode, std::uint64_t n) const;
    double value(std::uint64_t n) const;
    void set(std::uint64_t n, std::span<const std::uint64_t> coord, double value);

    // Calls f(TypeTag<I>{}, TypeTag<V>{}) with the concrete types of this tensor.
    template <class F> decltype(auto) visit(F&& f) const;

    // A copy with another value type (or the same tensor, copied, if it already matches).
    CooTensor with_value_type(ValueType type) const;

private:
    void check_mode(int mode) const;

    std::vector<std::uint64_t> dims_;
    std::uint64_t nnz_ = 0;
    IndexWidth width_ = IndexWidth::U32;
    ValueType vtype_ = ValueType::F64;
    std::vector<std::vector<std::uint32_t>> idx32_;
    std::vector<std::vector<std::uint64_t>> idx64_;
    std::vector<float> val32_;
    std::vector<double> val64_;
};

// ---- inline template definitions -----------------------------------------------------------

template <class I> std::vector<I>& CooTensor::indices(int mode) {
    return const_cast<std::vector<I>&>(std::as_const(*this).indices<I>(mode));
}

template <class I> const std::vector<I>& CooTensor::indices(int mode) const {
    check_mode(mode);
    if constexpr (std::is_same_v<I, std::uint32_t>) {
        if (width_ != IndexWidth::U32) throw Error("CooTensor: indices are 64-bit, asked for 32-bit");
        return idx32_[static_cast<std::size_t>(mode)];
    } else {
        static_assert(std::is_same_v<I, std::uint64_t>, "indices are uint32_t or uint64_t");
        if (width_ != IndexWidth::U64) throw Error("CooTensor: indices are 32-bit, asked for 64-bit");
        return idx64_[static_cast<std::size_t>(mode)];
    }
}

template <class V> std::vector<V>& CooTensor::values() {
    return const_cast<std::vector<V>&>(std::as_const(*this).values<V>());
}

template <class V> const std::vector<V>& CooTensor::values() const {
    if constexpr (std::is_same_v<V, float>) {
        if (vtype_ != ValueType::F32) throw Error("CooTensor: values are double, asked for float");
        return val32_;
    } else {
        static_assert(std::is_same_v<V, double>, "values are float or double");
        if (vtype_ != ValueType::F64) throw Error("CooTensor: values are float, asked for double");
        return val64_;
    }
}

template <class F> decltype(auto) CooTensor::visit(F&& f) const {
    if (width_ == IndexWidth::U32) {
        if (vtype_ == ValueType::F32) return f(TypeTag<std::uint32_t>{}, TypeTag<float>{});
        return f(TypeTag<std::uint32_t>{}, TypeTag<double>{});
    }
    if (vtype_ == ValueType::F32) return f(TypeTag<std::uint64_t>{}, TypeTag<float>{});
    return f(TypeTag<std::uint64_t>{}, TypeTag<double>{});
}

}  // namespace tscope
