// File plumbing shared by the readers and writers. Private to the engine.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "tscope/run_control.hpp"

namespace tscope::detail {

class GzipInflater;  // gzip_inflater.hpp

// A file opened read-only for pread/mmap, closed when it goes; InputError naming the path when
// it cannot be opened.
class ReadOnlyFile {
public:
    explicit ReadOnlyFile(const std::string& path);
    ~ReadOnlyFile();
    ReadOnlyFile(const ReadOnlyFile&) = delete;
    ReadOnlyFile& operator=(const ReadOnlyFile&) = delete;
    int fd() const { return fd_; }

private:
    int fd_;
};

// Bytes with a NUL just past the end, so that parsers may stop on a sentinel instead of
// testing the end pointer on every character. Either heap memory (not zero-filled) or a
// read-only memory map of a file, whose last page is zero-padded by the kernel.
class ByteBuffer {
public:
    ByteBuffer() = default;
    explicit ByteBuffer(std::size_t size);
    ~ByteBuffer();
    ByteBuffer(ByteBuffer&& other) noexcept;
    ByteBuffer& operator=(ByteBuffer&& other) noexcept;
    ByteBuffer(const ByteBuffer&) = delete;
    ByteBuffer& operator=(const ByteBuffer&) = delete;

    // Maps `size` bytes of fd; returns an empty buffer when the sentinel can't be guaranteed
    // (size a multiple of the page size) or mapping fails, so callers fall back to read().
    // populate: fault every page in now (text parsing reads it all at once); without it, pages
    // come in as they are read and drop_pages() can let them go again.
    static ByteBuffer map(int fd, std::size_t size, bool populate = true);
    // A mapped file: gives the whole pages inside [offset, offset + bytes) back (they stay in the
    // page cache, not in this process's memory). Nothing for heap memory.
    void drop_pages(std::size_t offset, std::size_t bytes) const;

    char* data() { return data_; }
    const char* data() const { return data_; }
    std::size_t size() const { return size_; }
    bool mapped() const { return mapped_; }
    std::string_view view() const { return {data_, size_}; }
    // Grows heap memory (keeping the contents) to hold at least `capacity` bytes.
    void reserve(std::size_t capacity);
    // Sets the size of heap memory (growing it if needed) and rewrites the sentinel.
    void set_size(std::size_t size);

private:
    void release();

    char* data_ = nullptr;
    std::size_t size_ = 0;
    std::size_t capacity_ = 0;
    bool mapped_ = false;
};

// Size of a regular file; InputError naming the path when it can't be opened or isn't a file.
std::uint64_t regular_file_size(const std::string& path);
// Whether path names a regular file (following links); false when it can't be stat'ed, so that
// the caller's open names the error.
bool is_regular_file(const std::string& path);
// Up to n first bytes of a file.
std::string read_prefix(const std::string& path, std::size_t n);
// Whole file, mapped (populated unless `populate` is false) or read in pieces that report
// progress and honour cancellation.
ByteBuffer read_file(const std::string& path, RunControl& control, bool populate = true);

// 3 where `data` starts with the UTF-8 byte order mark (EF BB BF, which Windows editors such as
// Notepad put before UTF-8 text), else 0: readers skip it, as the text after it is the file.
inline std::size_t utf8_bom_bytes(const char* data, std::size_t size) {
    return size >= 3 && static_cast<unsigned char>(data[0]) == 0xEF && static_cast<unsigned char>(data[1]) == 0xBB &&
                   static_cast<unsigned char>(data[2]) == 0xBF
               ? 3
               : 0;
}

// Bytes read in one pass from a file, a pipe, a FIFO or stdin: gzip (recognised by its magic
// bytes 0x1f 0x8b) is inflated as it is read, every member of it (gzip_inflater.hpp), anything
// else is passed through. Nothing is held beyond a 256 KiB input buffer.
class TextStream {
public:
    // Opens `path` ("-" is stdin). Regular files, pipes, FIFOs, character devices and sockets are
    // fine; a directory or a missing file is an InputError.
    explicit TextStream(const std::string& path);
    ~TextStream();
    TextStream(const TextStream&) = delete;
    TextStream& operator=(const TextStream&) = delete;

    // Up to n bytes of text; fewer only at the end, 0 once the end is reached. Corrupt gzip
    // data is an InputError. A UTF-8 byte order mark at the start is not passed on.
    std::size_t read(char* dst, std::size_t n);
    // Whether the bytes are gzip (known after the first read).
    bool gzip() const;
    // After the end: the gzip data stopped before its trailer (a truncated download).
    bool truncated() const;
    // Whether the input is a regular file, and its size on disk (0 for pipes).
    bool regular() const { return regular_; }
    std::uint64_t disk_bytes() const { return disk_bytes_; }
    // Compressed bytes consumed so far, where the input can tell (0 for pipes).
    std::uint64_t disk_offset() const;
    // Bytes read from the input so far, as they came (compressed where gzip): a pipe's size
    // once it has ended.
    std::uint64_t bytes_read() const;

private:
    std::size_t raw_read(char* dst, std::size_t n);
    void detect();
    std::size_t text_read(char* dst, std::size_t n);

    std::string path_;
    int fd_ = -1;
    std::unique_ptr<GzipInflater> gz_;  // where the bytes are gzip
    std::string head_;                  // else the first bytes, read to tell, handed on first
    std::size_t head_used_ = 0;
    bool detected_ = false;
    std::uint64_t raw_bytes_ = 0;
    bool regular_ = false;
    bool ended_ = false;
    bool started_ = false;  // the first bytes were read (and a byte order mark dropped)
    std::uint64_t disk_bytes_ = 0;
    std::uint64_t text_bytes_ = 0;
};

// The file a write to `path` replaces: path itself, or the file a link there points to (the
// link stays a link). Anything else there (a folder, a device such as /dev/null, a FIFO, a
// dangling link) is an InputError: renaming over it would replace it with a regular file.
std::string replaced_file(const std::string& path);

// Writes a file next to the target and renames it onto the target on commit(), so a failed or
// cancelled write never leaves a partial file (nor clobbers an existing one). The target is
// replaced_file(path). The file has no name until commit() (O_TMPFILE, then linkat through
// /proc), so even a SIGKILL leaves nothing; where that is not available it is written under a
// temporary name that temp_cleanup's handlers and the destructor remove.
class AtomicFile {
public:
    explicit AtomicFile(std::string path);
    ~AtomicFile();
    AtomicFile(const AtomicFile&) = delete;
    AtomicFile& operator=(const AtomicFile&) = delete;

    // The open file, for a writer that wants its own descriptor (dup it: gzdopen closes what it
    // is given).
    int descriptor() const { return fd_; }
    // Appends to the temporary file (plain binary writes).
    void write(const void* data, std::size_t size);
    // Writes and reads at an offset (the bounded convert fills several arrays of one file, and
    // reads back the sorted runs it wrote); the append position does not move.
    void write_at(std::uint64_t offset, const void* data, std::size_t size);
    void read_at(std::uint64_t offset, void* data, std::size_t size) const;
    // Cuts (or extends, with zeros) the temporary file to `size` bytes.
    void truncate(std::uint64_t size);
    // Flushes the data to the disk (fsync) and closes the file under its temporary name: what
    // can fail for lack of space has failed by now. No more writes after it.
    void prepare();
    // prepare() (where not done yet), renames the temporary file onto the target, and flushes
    // the directory, so a crash leaves the old file or the whole new one.
    void commit();

private:
    std::string path_;    // as given, for messages
    std::string target_;  // replaced_file(path_)
    std::string temp_;    // the name it has before the rename (from the start where nameless is unavailable)
    int fd_ = -1;
    bool named_ = false;  // temp_ exists on disk
    int slot_ = -1;  // in temp_cleanup's list while the temporary exists
    bool committed_ = false;
};

// Whether AtomicFiles opened from now on may be nameless (the default); off, they take the
// named route that filesystems without O_TMPFILE get, so tests can cover it here.
void allow_nameless_temporaries(bool on);

// "No such file or directory" style text for errno.
std::string errno_text(int err);

}  // namespace tscope::detail
