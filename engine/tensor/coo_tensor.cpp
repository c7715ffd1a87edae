#include "tscope/tensor/coo_tensor.hpp"

#include <cmath>
#include <limits>

#include "tscope/checks.hpp"

namespace tscope {

const char* to_string(ValueType type) { return type == ValueType::F32 ? "float" : "double"; }

CooTensor::CooTensor(std::vector<std::uint64_t> dims, ValueType values)
    : CooTensor(dims, width_for(dims), values) {}

CooTensor::CooTensor(std::vector<std::uint64_t> dims, IndexWidth width, ValueType values)
    : dims_(std::move(dims)), width_(width), vtype_(values) {
    if (dims_.empty() || dims_.size() > static_cast<std::size_t>(kMaxOrder))
        throw InputError("a tensor needs between 1 and " + std::to_string(kMaxOrder) + " modes, got " +
                         std::to_string(dims_.size()));
    for (std::size_t m = 0; m < dims_.size(); ++m) {
        if (dims_[m] == 0) throw InputError("mode " + std::to_string(m + 1) + " has length 0");
        if (width_ == IndexWidth::U32 && dims_[m] - 1 > std::numeric_limits<std::uint32_t>::max())
            throw Error("CooTensor: mode " + std::to_string(m + 1) + " does not fit 32-bit indices");
    }
    if (width_ == IndexWidth::U32)
        idx32_.resize(dims_.size());
    else
        idx64_.resize(dims_.size());
}

IndexWidth CooTensor::width_for(const std::vector<std::uint64_t>& dims) {
    for (auto d : dims)
        if (d - 1 > std::numeric_limits<std::uint32_t>::max()) return IndexWidth::U64;
    return IndexWidth::U32;
}

double CooTensor::density() const {
    if (dims_.empty()) return 0;
    // log-space so that 16 modes of 2^40 don't overflow a double
    double log_cells = 0;
    for (auto d : dims_) log_cells += std::log(static_cast<double>(d));
    return std::exp(std::log(static_cast<double>(nnz_)) - log_cells);
}

std::uint64_t CooTensor::bytes() const {
    return nnz_ * (static_cast<std::uint64_t>(order()) * static_cast<unsigned>(width_) + static_cast<unsigned>(vtype_));
}

void CooTensor::resize(std::uint64_t nnz) {
    for (auto& v : idx32_) v.resize(nnz);
    for (auto& v : idx64_) v.resize(nnz);
    if (vtype_ == ValueType::F32)
        val32_.resize(nnz);
    else
        val64_.resize(nnz);
    nnz_ = nnz;
}

void CooTensor::check_mode(int mode) const {
    tscope::check_mode(mode, order());
}

std::uint64_t CooTensor::index(int mode, std::uint64_t n) const {
    check_mode(mode);
    auto m = static_cast<std::size_t>(mode);
    return width_ == IndexWidth::U32 ? idx32_[m].at(n) : idx64_[m].at(n);
}

double CooTensor::value(std::uint64_t n) const {
    return vtype_ == ValueType::F32 ? val32_.at(n) : val64_.at(n);
}

void CooTensor::set(std::uint64_t n, std::span<const std::uint64_t> coord, double value) {
    if (coord.size() != dims_.size()) throw Error("CooTensor::set: coordinate has the wrong order");
    if (n >= nnz_) throw Error("CooTensor::set: entry out of range");
    for (std::size_t m = 0; m < dims_.size(); ++m) {
        if (coord[m] >= dims_[m])
            throw InputError("index " + std::to_string(coord[m] + 1) + " exceeds mode " + std::to_string(m + 1) +
                             " length " + std::to_string(dims_[m]));
        if (width_ == IndexWidth::U32)
            idx32_[m][n] = static_cast<std::uint32_t>(coord[m]);
        else
            idx64_[m][n] = coord[m];
    }
    if (vtype_ == ValueType::F32)
        val32_[n] = static_cast<float>(value);
    else
        val64_[n] = value;
}

CooTensor CooTensor::with_value_type(ValueType type) const {
    CooTensor out = *this;
    if (type == vtype_) return out;
    out.vtype_ = type;
    if (type == ValueType::F32) {
        out.val32_.assign(val64_.begin(), val64_.end());
        out.val64_ = {};
    } else {
        out.val64_.assign(val32_.begin(), val32_.end());
        out.val32_ = {};
    }
    return out;
}

}  // namespace tscope
