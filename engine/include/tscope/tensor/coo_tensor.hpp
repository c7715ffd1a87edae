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
#include "tscope/tensor/column.hpp"

namespace tscope {

enum class IndexWidth : std::uint8_t { U32 = 4, U64 = 8 };
enum class ValueType : std::uint8_t { F32 = 4, F64 = 8 };

const char* to_string(ValueType type);

// The most modes a tensor may have (README: any order from 1 to 16).
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

    // Changes nnz. New entries are left uninitialised (see Column): write them.
    void resize(std::uint64_t nnz);
    // Takes over ready-made columns (sizes and widths checked against the shape).
    template <class I, class V>
    static CooTensor from_columns(std::vector<std::uint64_t> dims, std::vector<Column<I>> indices, Column<V> values);

    // Typed access. The type must match index_width() / value_type() (checked).
    template <class I> Column<I>& indices(int mode);
    template <class I> const Column<I>& indices(int mode) const;
    template <class V> Column<V>& values();
    template <class V> const Column<V>& values() const;

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
    std::vector<Column<std::uint32_t>> idx32_;
    std::vector<Column<std::uint64_t>> idx64_;
    Column<float> val32_;
    Column<double> val64_;
};

// ---- inline template definitions -----------------------------------------------------------

template <class I> Column<I>& CooTensor::indices(int mode) {
    return const_cast<Column<I>&>(std::as_const(*this).indices<I>(mode));
}

template <class I> const Column<I>& CooTensor::indices(int mode) const {
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

template <class V> Column<V>& CooTensor::values() {
    return const_cast<Column<V>&>(std::as_const(*this).values<V>());
}

template <class V> const Column<V>& CooTensor::values() const {
    if constexpr (std::is_same_v<V, float>) {
        if (vtype_ != ValueType::F32) throw Error("CooTensor: values are double, asked for float");
        return val32_;
    } else {
        static_assert(std::is_same_v<V, double>, "values are float or double");
        if (vtype_ != ValueType::F64) throw Error("CooTensor: values are float, asked for double");
        return val64_;
    }
}

template <class I, class V>
CooTensor CooTensor::from_columns(std::vector<std::uint64_t> dims, std::vector<Column<I>> indices, Column<V> values) {
    constexpr IndexWidth width = sizeof(I) == 4 ? IndexWidth::U32 : IndexWidth::U64;
    constexpr ValueType vtype = sizeof(V) == 4 ? ValueType::F32 : ValueType::F64;
    CooTensor t(std::move(dims), width, vtype);
    if (indices.size() != t.dims_.size()) throw Error("CooTensor::from_columns: one index column per mode expected");
    for (const auto& c : indices)
        if (c.size() != values.size()) throw Error("CooTensor::from_columns: columns of different lengths");
    t.nnz_ = values.size();
    if constexpr (width == IndexWidth::U32)
        t.idx32_ = std::move(indices);
    else
        t.idx64_ = std::move(indices);
    if constexpr (vtype == ValueType::F32)
        t.val32_ = std::move(values);
    else
        t.val64_ = std::move(values);
    return t;
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
