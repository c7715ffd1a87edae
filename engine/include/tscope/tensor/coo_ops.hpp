// Whole-tensor operations on CooTensor: ordering, duplicate summing, comparison.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "tscope/run_control.hpp"
#include "tscope/tensor/coo_tensor.hpp"

namespace tscope {

// Mixed-radix linearization of some modes of a tensor: key = ((i_a * d_b) + i_b) * d_c + i_c ...
// with modes listed from most to least significant. fits is false when the product of the
// dims overflows 64 bits; callers then fall back to tuple comparison.
struct KeyLayout {
    std::vector<int> modes;
    std::vector<std::uint64_t> dims;
    bool fits = true;
    unsigned bits = 0;  // bits needed to hold the largest key
};
KeyLayout key_layout(const CooTensor& t, std::span<const int> modes);
// The linear key of every nonzero (layout.fits must hold).
std::vector<std::uint64_t> linear_keys(const CooTensor& t, const KeyLayout& layout);

// The modes 0..order-1 in natural order, the usual lexicographic order.
std::vector<int> natural_modes(int order);

// The permutation that sorts the nonzeros lexicographically by `modes` (stable). `control` is
// checked between the sort's passes.
std::vector<std::uint64_t> sorted_order(const CooTensor& t, std::span<const int> modes, RunControl& control = no_control());
// The same for a subset of the nonzeros (their entry numbers): the subset, sorted.
std::vector<std::uint64_t> sorted_order(const CooTensor& t, std::span<const int> modes,
                                        const std::vector<std::uint64_t>& subset, RunControl& control = no_control());
// Reorders the nonzeros: entry n of the result is entry perm[n] of t.
void apply_permutation(CooTensor& t, const std::vector<std::uint64_t>& perm);
// Sorts nonzeros lexicographically by modes (default: natural order); `control` is checked
// between the sort's passes and before the gathers.
void sort_lexicographic(CooTensor& t, std::span<const int> modes = {}, RunControl& control = no_control());
bool is_sorted_lexicographic(const CooTensor& t);

// Merges nonzeros that share coordinates by adding their values. Returns how many entries
// were merged away (0: the tensor is unchanged). When some were merged, the result is
// sorted lexicographically.
std::uint64_t sum_duplicates(CooTensor& t, RunControl& control = no_control());

// Removes the entries whose value is zero (written so in the file, or summed to it), keeping
// the others in their order. Returns how many went. The readers call it so that every format
// holds what the tensor holds: sCOO cannot tell a stored zero from its padding.
std::uint64_t drop_zeros(CooTensor& t);

// ||X||^2, the sum of the squared values, on every thread (a billion nonzeros are seconds
// serially): the decompositions' fit and their check that the values fit a double.
double squared_norm(const CooTensor& t);

// Exact, order-independent comparison of two tensors: same dims and the same set of
// (coordinate, value) pairs. On a mismatch, says where in *why (if given).
bool same_entries(const CooTensor& a, const CooTensor& b, std::string* why = nullptr);

}  // namespace tscope
