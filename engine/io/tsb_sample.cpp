#include "tscope/io/tsb_sample.hpp"
#include "tscope/text_words.hpp"

#include <algorithm>

#include "tscope/checks.hpp"
#include "tscope/error.hpp"
#include "tscope/io/tsb_part.hpp"
#include "tscope/tensor/coo_ops.hpp"
#include "tscope/tensor/nnz_split.hpp"

namespace tscope {

namespace {

// The entries of `part` whose index in `mode` is below `cut`, appended to the columns.
template <class I, class V>
void keep_below(const CooTensor& part, int mode, std::uint64_t cut, std::vector<Column<I>>& idx, Column<V>& vals) {
    const auto& key = part.indices<I>(mode);
    const auto& v = part.values<V>();
    for (std::uint64_t z = 0; z < part.nnz(); ++z) {
        if (key[z] >= cut) continue;
        for (int m = 0; m < part.order(); ++m) idx[static_cast<std::size_t>(m)].push_back(part.indices<I>(m)[z]);
        vals.push_back(v[z]);
    }
}

}  // namespace

TsbSample read_tsb_slice_sample(const std::string& path, int mode, std::uint64_t max_nnz, std::uint64_t part_nnz,
                                RunControl& control) {
    const std::uint64_t kPartNnz = part_nnz ? part_nnz : std::uint64_t{4} << 20;
    const TsbHeader header = read_tsb_header(path);
    const int order = static_cast<int>(header.dims.size());
    if (mode < 0 || mode >= order) throw InputError("mode " + std::to_string(mode + 1) + " is not a mode of " + path);
    const std::uint64_t dim = header.dims[static_cast<std::size_t>(mode)];
    check_dense_fits(dim, 1, "counting the nonzeros of each of mode " + std::to_string(mode + 1) + "'s slices");
    const LoadOptions stored{ValueType::F64, true};

    control.stage("sample: counting slices");
    std::vector<std::uint64_t> per_slice(dim, 0);
    TsbSample out;
    out.mode = mode;
    for (std::uint64_t first = 0; first < header.nnz; first += kPartNnz) {
        control.check();
        TsbPart part = read_tsb_part(path, first, kPartNnz, stored);
        drop_zeros(part.tensor);
        // into the one array: a part's own array of every slice was as large as it (sweep 72)
        for (std::uint64_t z = 0; z < part.tensor.nnz(); ++z) ++per_slice[part.tensor.index(mode, z)];
        control.progress(std::min(first + kPartNnz, header.nnz), 2 * header.nnz);
    }
    std::uint64_t kept = 0;
    while (out.slices < dim && kept + per_slice[out.slices] <= max_nnz) kept += per_slice[out.slices++];
    for (std::uint64_t c : per_slice) out.file_nnz += c;
    if (out.slices == 0)
        throw InputError(path + ": the first slice of mode " + std::to_string(mode + 1) + " alone holds " +
                         grouped(per_slice.empty() ? 0 : per_slice[0]) + " nonzeros, more than the " +
                         grouped(max_nnz) + " a sample may hold");

    control.stage("sample: reading the slices");
    std::vector<std::uint64_t> dims = header.dims;
    dims[static_cast<std::size_t>(mode)] = out.slices;
    auto collect = [&](auto itag, auto vtag) {
        using I = typename decltype(itag)::type;
        using V = typename decltype(vtag)::type;
        std::vector<Column<I>> idx(static_cast<std::size_t>(order));
        Column<V> vals;
        for (auto& c : idx) c.reserve(kept);
        vals.reserve(kept);
        for (std::uint64_t first = 0; first < header.nnz; first += kPartNnz) {
            control.check();
            TsbPart part = read_tsb_part(path, first, kPartNnz, stored);
            drop_zeros(part.tensor);
            keep_below<I, V>(part.tensor, mode, out.slices, idx, vals);
            control.progress(header.nnz + std::min(first + kPartNnz, header.nnz), 2 * header.nnz);
        }
        out.tensor = CooTensor::from_columns(dims, std::move(idx), std::move(vals));
    };
    // the part's types are the file's: the sample keeps them
    CooTensor types(header.dims, header.width, header.values);
    types.visit(collect);
    return out;
}

}  // namespace tscope
