// visit_format: the one place that turns a SparseFormat into its concrete class and index and
// value types. A kernel or view that works per format writes one overload (or one generic
// lambda) per class it handles, instead of a ladder of dynamic_casts over the four
// (index, value) combinations:
//
//   visit_format(format, overloaded{
//       [&]<class I, class V>(const CsfFormat<I, V>& f) { ... },
//       [&](const SparseFormat& f) { throw InputError("no kernel for " + f.name()); }});
//
// The catch-all SparseFormat overload takes the classes no other overload matches (a derived-to-
// base conversion loses to an exact template match). Every overload must return the same type.
#pragma once

#include <cstdint>
#include <type_traits>

#include "tscope/error.hpp"
#include "tscope/formats/alto_format.hpp"
#include "tscope/formats/balanced_formats.hpp"
#include "tscope/formats/blco_format.hpp"
#include "tscope/formats/hls_format.hpp"
#include "tscope/formats/paper_formats.hpp"

namespace tscope {

template <class... F>
struct overloaded : F... {
    using F::operator()...;
};
template <class... F>
overloaded(F...) -> overloaded<F...>;

namespace detail {

template <class I, class V, class Format, class F>
decltype(auto) visit_kind(Format& format, F& fn) {
    switch (format.kind()) {
#define TSCOPE_VISIT_CASE(kind, name, cls, ...)                                                  \
    case FormatKind::kind:                                                                     \
        if constexpr (std::is_const_v<Format>) return fn(static_cast<const cls<I, V>&>(format)); \
        else return fn(static_cast<cls<I, V>&>(format));
        TSCOPE_FORMATS(TSCOPE_VISIT_CASE)
#undef TSCOPE_VISIT_CASE
    }
    throw Error("visit_format: a format kind missing from format_list.hpp");
}

template <class Format, class F>
decltype(auto) visit_typed(Format& format, F& fn) {
    if (format.wide_indices())
        return format.float_values() ? visit_kind<std::uint64_t, float>(format, fn)
                                     : visit_kind<std::uint64_t, double>(format, fn);
    return format.float_values() ? visit_kind<std::uint32_t, float>(format, fn)
                                 : visit_kind<std::uint32_t, double>(format, fn);
}

}  // namespace detail

template <class F>
decltype(auto) visit_format(const SparseFormat& format, F&& fn) {
    return detail::visit_typed<const SparseFormat>(format, fn);
}
template <class F>
decltype(auto) visit_format(SparseFormat& format, F&& fn) {
    return detail::visit_typed<SparseFormat>(format, fn);
}

// Calls fn(I{}, V{}) with the index and value types the formats use for t (format_uses_32bit,
// the tensor's value type): how a builder picks its instantiation.
template <class F>
decltype(auto) with_format_types(const CooTensor& t, F&& fn) {
    const bool floats = t.value_type() == ValueType::F32;
    if (format_uses_32bit(t)) return floats ? fn(std::uint32_t{}, float{}) : fn(std::uint32_t{}, double{});
    return floats ? fn(std::uint64_t{}, float{}) : fn(std::uint64_t{}, double{});
}

}  // namespace tscope
