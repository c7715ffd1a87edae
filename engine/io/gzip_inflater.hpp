// gzip inflated from a file descriptor, member after member: RFC 1952 allows a file of several
// (`cat a.gz b.gz` is one gzip file), and every member is read. What follows the last member
// must be another member or zero padding; anything else is an InputError naming its offset.
// zlib's gzread ignores such bytes without a word, so a damaged second member lost its nonzeros
// and the load still succeeded (sweep 64), where gzip -t says "trailing garbage ignored".
#pragma once

#include <zlib.h>

#include <cstdint>
#include <string>
#include <vector>

namespace tscope::detail {

class GzipInflater {
public:
    // Reads `fd` (not owned) from its current position, after the `prefix` bytes already read
    // from it. `path` names the input in messages.
    GzipInflater(int fd, std::string path, const char* prefix = nullptr, std::size_t prefix_size = 0);
    ~GzipInflater();
    GzipInflater(const GzipInflater&) = delete;
    GzipInflater& operator=(const GzipInflater&) = delete;

    // Up to n bytes of inflated text; fewer only at the end, 0 once there. Corrupt data, or bytes
    // after a member that start none, is an InputError.
    std::size_t read(char* dst, std::size_t n);
    // After the end: the data stopped inside a member (a truncated download).
    bool truncated() const { return truncated_; }
    // Compressed bytes consumed so far, the prefix included.
    std::uint64_t consumed() const { return consumed_; }

private:
    bool fill();
    bool skip_zero_padding();
    [[noreturn]] void fail(const std::string& what) const;
    [[noreturn]] void not_a_member(std::uint64_t offset) const;

    int fd_;
    std::string path_;
    z_stream zs_{};
    std::vector<unsigned char> in_;
    bool input_ended_ = false;  // the descriptor gave its last byte
    bool ended_ = false;        // read() returns 0 from now on
    bool in_member_ = false;    // inside a member (its header seen or expected)
    bool truncated_ = false;
    std::uint64_t members_ = 0, consumed_ = 0, produced_ = 0;
};

}  // namespace tscope::detail
