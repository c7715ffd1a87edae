#include "gzip_inflater.hpp"

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstring>

#include "tscope/error.hpp"

namespace tscope::detail {

namespace {

constexpr std::size_t kInput = std::size_t{1} << 18;

}  // namespace

GzipInflater::GzipInflater(int fd, std::string path, const char* prefix, std::size_t prefix_size)
    : fd_(fd), path_(std::move(path)), in_(std::max(kInput, prefix_size)) {
    if (inflateInit2(&zs_, 16 + MAX_WBITS) != Z_OK) throw Error("cannot decompress '" + path_ + "': out of memory");
    if (prefix_size) std::memcpy(in_.data(), prefix, prefix_size);
    zs_.next_in = in_.data();
    zs_.avail_in = static_cast<uInt>(prefix_size);
}

GzipInflater::~GzipInflater() { inflateEnd(&zs_); }

void GzipInflater::fail(const std::string& what) const {
    throw InputError("cannot decompress '" + path_ + "': " + what + " (after " + std::to_string(produced_) +
                     " bytes of text)");
}

void GzipInflater::not_a_member(std::uint64_t offset) const {
    fail("the bytes from offset " + std::to_string(offset) +
         " on are not a gzip member (damaged, or other data after the gzip data)");
}

// More compressed bytes where all are used; false at the input's end.
bool GzipInflater::fill() {
    if (zs_.avail_in > 0) return true;
    while (!input_ended_) {
        const ssize_t got = ::read(fd_, in_.data(), in_.size());
        if (got < 0 && errno == EINTR) continue;
        if (got < 0) fail(std::strerror(errno));
        if (got == 0) {
            input_ended_ = true;
            break;
        }
        zs_.next_in = in_.data();
        zs_.avail_in = static_cast<uInt>(got);
        return true;
    }
    return false;
}

// Between members: zero bytes (padding some tools write to fill a block) are passed over; true
// where the input ends in them.
bool GzipInflater::skip_zero_padding() {
    while (fill()) {
        if (zs_.next_in[0] != 0) return false;
        const auto zeros = static_cast<uInt>(
            std::find_if(zs_.next_in, zs_.next_in + zs_.avail_in, [](unsigned char c) { return c != 0; }) -
            zs_.next_in);
        zs_.next_in += zeros, zs_.avail_in -= zeros, consumed_ += zeros;
        if (zs_.avail_in > 0) return false;
    }
    return true;
}

std::size_t GzipInflater::read(char* dst, std::size_t n) {
    std::size_t done = 0;
    while (done < n && !ended_) {
        if (!in_member_) {  // a member's start: the first, or one after the last
            if (!fill() || (members_ > 0 && skip_zero_padding())) {
                ended_ = true;
                break;
            }
            if (members_ > 0 && zs_.next_in[0] != 0x1f) not_a_member(consumed_);  // the first byte past any padding
            in_member_ = true;
        }
        if (!fill()) {  // the input ended inside a member
            truncated_ = true;
            ended_ = true;
            break;
        }
        const uInt avail_in = zs_.avail_in;
        zs_.next_out = reinterpret_cast<Bytef*>(dst + done);
        zs_.avail_out = static_cast<uInt>(std::min<std::size_t>(n - done, UINT_MAX));
        const uInt avail_out = zs_.avail_out;
        const int rc = inflate(&zs_, Z_NO_FLUSH);
        consumed_ += avail_in - zs_.avail_in;
        done += avail_out - zs_.avail_out;
        produced_ += avail_out - zs_.avail_out;
        if (rc == Z_STREAM_END) {
            ++members_;
            in_member_ = false;
            inflateReset(&zs_);
        } else if (rc == Z_DATA_ERROR && members_ > 0 && zs_.total_in <= 10) {  // a bad header after a member
            not_a_member(consumed_ - zs_.total_in);
        } else if (rc != Z_OK && rc != Z_BUF_ERROR) {
            fail(zs_.msg ? zs_.msg : rc == Z_MEM_ERROR ? "out of memory" : "corrupt gzip data");
        }
    }
    return done;
}

}  // namespace tscope::detail
