#include "tscope/io/tsb_part.hpp"

#include <zlib.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <unistd.h>

#include "file_util.hpp"
#include "tsb_internal.hpp"

namespace tscope {

namespace {

// pread() until `bytes` are in, or an InputError naming the file.
void read_at(int fd, const std::string& path, std::uint64_t offset, void* dst, std::size_t bytes) {
    char* out = static_cast<char*>(dst);
    while (bytes > 0) {
        const ssize_t n = ::pread(fd, out, std::min<std::size_t>(bytes, std::size_t{1} << 30), static_cast<off_t>(offset));
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) throw InputError(path + ": reading failed at byte " + std::to_string(offset) + ": " +
                                     (n < 0 ? std::strerror(errno) : "unexpected end of file"));
        out += n, offset += static_cast<std::uint64_t>(n), bytes -= static_cast<std::size_t>(n);
    }
}

std::uint64_t element_bytes(const TsbHeader& h, std::size_t array) {
    return array < h.dims.size() ? static_cast<std::uint64_t>(h.width) : static_cast<std::uint64_t>(h.values);
}

}  // namespace

TsbPart read_tsb_part(const std::string& path, std::uint64_t first, std::uint64_t count, const LoadOptions& options) {
    TsbPart part;
    part.header = read_tsb_header(path);
    const TsbHeader& h = part.header;
    first = std::min(first, h.nnz);
    count = std::min(count, h.nnz - first);
    part.first = first;
    detail::ReadOnlyFile file(path);
    CooTensor t(h.dims, h.width, h.values);
    t.resize(count);
    // stored arrays one after the other: mode 1..N indices, then values, nnz entries each
    std::uint64_t array_start = h.header_bytes;
    auto take = [&](void* dst, std::size_t array) {
        const std::uint64_t w = element_bytes(h, array);
        read_at(file.fd(), path, array_start + first * w, dst, count * w);
        part.crcs.push_back(tsb_crc(0, dst, count * w));
        array_start += h.nnz * w;
    };
    t.visit([&](auto itag, auto vtag) {
        using I = typename decltype(itag)::type;
        using V = typename decltype(vtag)::type;
        for (int m = 0; m < t.order(); ++m) take(t.indices<I>(m).data(), static_cast<std::size_t>(m));
        take(t.values<V>().data(), h.dims.size());
    });
    read_at(file.fd(), path, array_start, &part.stored_crc, sizeof part.stored_crc);
    check_tsb_contents(t, path, first);
    convert_tsb_values(t, options, path, first);
    part.tensor = std::move(t);
    return part;
}

std::uint32_t combine_tsb_part_crcs(const TsbHeader& header, const std::vector<std::vector<std::uint32_t>>& crcs,
                                    const std::vector<std::uint64_t>& counts) {
    std::uint32_t crc = 0;
    for (std::size_t array = 0; array <= header.dims.size(); ++array)
        for (std::size_t p = 0; p < crcs.size(); ++p)
            crc = static_cast<std::uint32_t>(crc32_combine(crc, crcs[p].at(array),
                                                           static_cast<z_off_t>(counts[p] * element_bytes(header, array))));
    return crc;
}

}  // namespace tscope
