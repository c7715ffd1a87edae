#include "tscope/tensor/streamed_stats.hpp"

#include <chrono>

#include "tscope/error.hpp"
#include "tscope/io/tsb_part.hpp"

namespace tscope {

namespace {

constexpr std::uint64_t kDefaultPart = std::uint64_t{1} << 23;

// One part's nonzeros counted into the per-mode slice counters.
template <class I, class V>
void count_part(const CooTensor& part, std::vector<std::vector<std::uint64_t>>& counts, std::uint64_t& nnz) {
    const auto& vals = part.values<V>();
    const auto n = static_cast<std::int64_t>(part.nnz());
    std::uint64_t kept = 0;
    for (std::int64_t z = 0; z < n; ++z) kept += vals[static_cast<std::size_t>(z)] != V(0);
    nnz += kept;
    // indices were checked against the dims by read_tsb_part; one thread per mode keeps the
    // counters free of atomics
#pragma omp parallel for schedule(static, 1)
    for (int m = 0; m < part.order(); ++m) {
        const auto& col = part.indices<I>(m);
        std::uint64_t* c = counts[static_cast<std::size_t>(m)].data();
        for (std::int64_t z = 0; z < n; ++z)
            if (vals[static_cast<std::size_t>(z)] != V(0)) ++c[col[static_cast<std::size_t>(z)]];
    }
}

}  // namespace

StreamedStats stream_tsb_stats(const std::string& path, std::uint64_t part_nnz, RunControl& control) {
    const auto start = std::chrono::steady_clock::now();
    if (part_nnz == 0) part_nnz = kDefaultPart;
    const TsbHeader header = read_tsb_header(path);
    StreamedStats out;
    std::vector<std::vector<std::uint64_t>> counts;
    for (std::uint64_t d : header.dims) counts.emplace_back(d, 0);
    std::vector<std::vector<std::uint32_t>> crcs;
    std::vector<std::uint64_t> sizes;
    std::uint32_t stored = 0;
    control.stage("reading " + path + " in parts");
    LoadOptions keep;
    keep.keep_stored_values = true;  // counted as stored: no conversion pass
    for (std::uint64_t first = 0; first < header.nnz; first += part_nnz) {
        control.check();
        TsbPart part = read_tsb_part(path, first, part_nnz, keep);
        part.tensor.visit([&](auto itag, auto vtag) {
            count_part<typename decltype(itag)::type, typename decltype(vtag)::type>(part.tensor, counts, out.nnz);
        });
        crcs.push_back(std::move(part.crcs));
        sizes.push_back(part.tensor.nnz());
        stored = part.stored_crc;
        ++out.parts;
        control.progress(first + part.tensor.nnz(), header.nnz);
    }
    if (header.nnz > 0 && combine_tsb_part_crcs(header, crcs, sizes) != stored)
        throw InputError(path + ": the payload checksum does not match (the file is damaged)");
    long double cells = 1;
    for (std::size_t m = 0; m < header.dims.size(); ++m) {
        ModeStats ms;
        ms.mode = static_cast<int>(m);
        ms.dim = header.dims[m];
        for (std::uint64_t c : counts[m])
            if (c) ms.slice_nnz.add(c);
        ms.slice_nnz.finish();
        ms.slices = ms.slice_nnz.count;
        out.stats.modes.push_back(std::move(ms));
        cells *= static_cast<long double>(header.dims[m]);
    }
    out.stats.density = cells > 0 ? static_cast<double>(static_cast<long double>(out.nnz) / cells) : 0.0;
    out.bytes_read = header.file_bytes;
    out.stats.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return out;
}

}  // namespace tscope
