// A .tsb written byte by byte, with right checksums, whatever its header claims and in whatever
// order its nonzeros come: how a buggy or foreign writer's file looks (ours never stores
// duplicates, lies in its header, or leaves the nonzeros out of slice order).
#pragma once

#include <zlib.h>

#include <cstdint>
#include <string>
#include <vector>

#include "tscope/io/tsb_format.hpp"

namespace tstest {

// idx[m][z]: mode m's index of nonzero z, written as `ibytes` (4 or 8) bytes; values as fp64.
inline std::string tsb_bytes(std::uint32_t ibytes, std::uint64_t nnz, const std::vector<std::uint64_t>& dims,
                             const std::vector<std::vector<std::uint64_t>>& idx, const std::vector<double>& vals) {
    std::string out(tscope::kTsbMagic, sizeof tscope::kTsbMagic);
    auto put = [&out](auto v) { out.append(reinterpret_cast<const char*>(&v), sizeof v); };
    put(tscope::kTsbVersion), put(static_cast<std::uint32_t>(dims.size())), put(ibytes), put(std::uint32_t{8}),
        put(nnz);
    for (auto d : dims) put(d);
    put(static_cast<std::uint32_t>(crc32_z(0, reinterpret_cast<const Bytef*>(out.data()), out.size())));
    const std::size_t payload = out.size();
    for (const auto& col : idx)
        for (auto i : col) ibytes == 4 ? put(static_cast<std::uint32_t>(i)) : put(i);
    for (double v : vals) put(v);
    put(static_cast<std::uint32_t>(
        crc32_z(0, reinterpret_cast<const Bytef*>(out.data() + payload), out.size() - payload)));
    return out;
}

}  // namespace tstest
