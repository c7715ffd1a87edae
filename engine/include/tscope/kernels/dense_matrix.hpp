// Dense row-major matrices: factor matrices (I_n x R) and kernel outputs.
#pragma once

#include <cstdint>
#include <functional>
#include <ostream>
#include <string>
#include <vector>

#include "tscope/tensor/column.hpp"

namespace tscope {

struct DenseMatrix {
    std::uint64_t rows = 0;
    std::uint64_t cols = 0;
    Column<double> data;  // row-major

    DenseMatrix() = default;
    DenseMatrix(std::uint64_t r, std::uint64_t c) : rows(r), cols(c), data(r * c) {}
    double* row(std::uint64_t r) { return data.data() + r * cols; }
    const double* row(std::uint64_t r) const { return data.data() + r * cols; }
    double& at(std::uint64_t r, std::uint64_t c) { return data[r * cols + c]; }
    double at(std::uint64_t r, std::uint64_t c) const { return data[r * cols + c]; }
    void fill(double v);
};

// Uniform values in [0, 1), reproducible from the seed (the same on every machine).
DenseMatrix random_matrix(std::uint64_t rows, std::uint64_t cols, std::uint64_t seed);
// random_matrix(ids.size(), cols, seed) with row k taken from row ids[k] (ids a permutation):
// the rows a relabelled mode gets where ids are its indices' ids in the file. Empty ids: as is.
DenseMatrix random_matrix_by_ids(const std::vector<std::uint64_t>& ids, std::uint64_t rows, std::uint64_t cols,
                                 std::uint64_t seed);
// Mode `mode`'s ids of a per-mode list (the options' original_ids), or an empty list where none
// was given.
const std::vector<std::uint64_t>& ids_of_mode(const std::vector<std::vector<std::uint64_t>>& ids, int mode);

// max |a - b| / max |b|: the normwise relative error of a against the reference b.
double max_relative_error(const DenseMatrix& a, const DenseMatrix& reference);
// The symmetric mean absolute percentage error of hls-tcu-sptmcm Eq. 17, in percent:
// 100/n sum |x - x^| / (|x| + |x^|) (entries where both are zero count as 0).
double smape_percent(const DenseMatrix& a, const DenseMatrix& reference);

// SPLATT-style text: one row of `cols` numbers per line. read_matrix checks the shape it
// expects (rows = 0 accepts any) and reports file:line for bad input.
DenseMatrix read_matrix(const std::string& path, std::uint64_t rows, std::uint64_t cols);
void write_matrix(const DenseMatrix& m, const std::string& path);
// The text write_matrix writes, as a fill for write_text_files (a set written as one).
std::function<void(std::ostream&)> matrix_text(const DenseMatrix& m);

}  // namespace tscope
