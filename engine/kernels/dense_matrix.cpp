#include "tscope/kernels/dense_matrix.hpp"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>

#include "tensor/random.hpp"
#include "tscope/error.hpp"
#include "tscope/io/text_file.hpp"
#include "tscope/kernels/relative_error.hpp"
#include "tscope/text_parse.hpp"

namespace tscope {

// On every thread: factor-sized matrices reach GBs, and a serial fill is seconds of an iteration.
void DenseMatrix::fill(double v) {
    const auto n = static_cast<std::int64_t>(data.size());
    double* p = data.data();
#pragma omp parallel for schedule(static) if (n > (1 << 18))
    for (std::int64_t i = 0; i < n; ++i) p[i] = v;
}

DenseMatrix random_matrix(std::uint64_t rows, std::uint64_t cols, std::uint64_t seed) {
    DenseMatrix m(rows, cols);
    // The pages are first touched on every thread: the kernel's page faults (zeroing each new
    // page) took 9.3 of the 10 s that one thread spent on a 17.3M x 32 factor (4.4 GB, the
    // delicious-4d shape's mode 2). The values stay one stream, the same on every machine.
    m.fill(0.0);
    detail::Rng rng(seed * 0x9e3779b97f4a7c15ULL + 17);
    for (auto& x : m.data) x = rng.uniform();
    return m;
}

DenseMatrix random_matrix_by_ids(const std::vector<std::uint64_t>& ids, std::uint64_t rows, std::uint64_t cols,
                                 std::uint64_t seed) {
    DenseMatrix drawn = random_matrix(rows, cols, seed);
    if (ids.empty()) return drawn;
    if (ids.size() != rows) throw Error("random_matrix_by_ids: " + std::to_string(ids.size()) + " ids for " + std::to_string(rows) + " rows");
    DenseMatrix out(rows, cols);
    for (std::uint64_t k = 0; k < rows; ++k) std::copy_n(drawn.row(ids[k]), cols, out.row(k));
    return out;
}

const std::vector<std::uint64_t>& ids_of_mode(const std::vector<std::vector<std::uint64_t>>& ids, int mode) {
    static const std::vector<std::uint64_t> none;
    return ids.empty() ? none : ids.at(static_cast<std::size_t>(mode));
}

double max_relative_error(const DenseMatrix& a, const DenseMatrix& reference) {
    if (a.rows != reference.rows || a.cols != reference.cols) return INFINITY;
    RelativeError e;
    for (std::size_t i = 0; i < a.data.size(); ++i) e.add(a.data[i], reference.data[i]);
    return e.value();
}

DenseMatrix read_matrix(const std::string& path, std::uint64_t rows, std::uint64_t cols) {
    std::error_code ec;
    if (std::filesystem::is_directory(path, ec))  // ifstream opens one, and it read as a matrix of 0 rows
        throw InputError("'" + path + "' is a folder, not a matrix file");
    std::ifstream in(path);
    if (!in) throw InputError("cannot open '" + path + "'");
    DenseMatrix m(0, cols);
    std::string line;
    std::uint64_t line_no = 0;
    while (std::getline(in, line)) {
        ++line_no;
        if (line.find_first_not_of(" \t\r") == std::string::npos || line[line.find_first_not_of(" \t\r")] == '#') continue;
        std::uint64_t c = 0;
        // token by token, so that an error names the token's own column (1-based)
        for (std::size_t at = line.find_first_not_of(" \t\r"); at != std::string::npos; at = line.find_first_not_of(" \t\r", at)) {
            const std::size_t end = std::min(line.find_first_of(" \t\r", at), line.size());
            const std::string tok = line.substr(at, end - at);
            double v = 0;
            if (parse_double(tok, v) != std::errc() || !std::isfinite(v))
                throw ParseError(path, line_no, at + 1, "expected a finite number, found '" + tok + "'");
            m.data.push_back(v);
            ++c;
            at = end;
        }
        if (c != cols)
            throw ParseError(path, line_no, 1, "expected " + std::to_string(cols) + " numbers per row, found " + std::to_string(c));
        ++m.rows;
    }
    if (rows && m.rows != rows)
        throw InputError(path + ": expected " + std::to_string(rows) + " rows (the mode's length), found " + std::to_string(m.rows));
    return m;
}

std::function<void(std::ostream&)> matrix_text(const DenseMatrix& m) {
    return [&m](std::ostream& out) {  // m outlives the write it is handed to
        out.precision(17);
        for (std::uint64_t r = 0; r < m.rows; ++r) {
            for (std::uint64_t c = 0; c < m.cols; ++c) out << (c ? " " : "") << m.at(r, c);
            out << '\n';
        }
    };
}

void write_matrix(const DenseMatrix& m, const std::string& path) { write_text_file(path, matrix_text(m)); }

double smape_percent(const DenseMatrix& a, const DenseMatrix& reference) {
    if (a.rows != reference.rows || a.cols != reference.cols) throw InputError("smape: the matrices differ in shape");
    const std::uint64_t n = a.data.size();
    double sum = 0;
    for (std::uint64_t i = 0; i < n; ++i) {
        const double d = std::fabs(a.data[i]) + std::fabs(reference.data[i]);
        if (d > 0) sum += std::fabs(a.data[i] - reference.data[i]) / d;
    }
    return n ? 100.0 * sum / static_cast<double>(n) : 0.0;
}

}  // namespace tscope
