// One part of a .tsb file: the nonzeros [first, first + count) of every stored array, read with
// offsets into the file and nothing else. The distributed CPD's ranks each read their own part,
// so no process ever holds the whole tensor. The payload checksum covers the whole file; each
// part reports its arrays' CRCs and combine_tsb_part_crcs() joins them in file order.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "tscope/io/tensor_io.hpp"
#include "tscope/io/tsb_format.hpp"

namespace tscope {

struct TsbPart {
    TsbHeader header;
    CooTensor tensor;                 // the part, with the whole tensor's dims
    std::uint64_t first = 0;          // its first nonzero's number in the file
    std::vector<std::uint32_t> crcs;  // CRC-32 of this part of each stored array (mode 1..N, values)
    std::uint32_t stored_crc = 0;     // the payload CRC the file ends with
};

// The nonzeros [first, first + count) (clipped to the file's nnz), their indices and values
// checked as read_tsb checks them, in the value type `options` asks for. Duplicates and zeros
// are left in: they are summed and dropped where the coordinates meet (the rank that owns them).
TsbPart read_tsb_part(const std::string& path, std::uint64_t first, std::uint64_t count, const LoadOptions& options = {});

// The payload CRC of the whole file from its consecutive parts' CRCs (crcs[p] and counts[p],
// parts in file order, together covering every nonzero).
std::uint32_t combine_tsb_part_crcs(const TsbHeader& header, const std::vector<std::vector<std::uint32_t>>& crcs,
                                    const std::vector<std::uint64_t>& counts);

}  // namespace tscope
