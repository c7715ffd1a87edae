#include "file_util.hpp"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <climits>
#include <cstring>
#include <filesystem>

#include "gzip_inflater.hpp"
#include "tscope/error.hpp"
#include "tscope/io/temp_cleanup.hpp"
#include "tscope/text_words.hpp"

namespace tscope::detail {

// O_NONBLOCK: a FIFO without a writer would hold open() for ever, before the caller can refuse
// it as no regular file (sweep 66a F13); on a regular file it changes nothing.
ReadOnlyFile::ReadOnlyFile(const std::string& path) : fd_(::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK)) {
    if (fd_ < 0) throw InputError(path + ": cannot open: " + std::strerror(errno));
}

ReadOnlyFile::~ReadOnlyFile() { ::close(fd_); }


ByteBuffer::ByteBuffer(std::size_t size) {
    reserve(size);
    set_size(size);
}

ByteBuffer::~ByteBuffer() { release(); }

ByteBuffer::ByteBuffer(ByteBuffer&& other) noexcept
    : data_(other.data_), size_(other.size_), capacity_(other.capacity_), mapped_(other.mapped_) {
    other.data_ = nullptr;
    other.size_ = other.capacity_ = 0;
    other.mapped_ = false;
}

ByteBuffer& ByteBuffer::operator=(ByteBuffer&& other) noexcept {
    if (this != &other) {
        release();
        std::swap(data_, other.data_);
        std::swap(size_, other.size_);
        std::swap(capacity_, other.capacity_);
        std::swap(mapped_, other.mapped_);
    }
    return *this;
}

void ByteBuffer::release() {
    if (mapped_)
        ::munmap(data_, size_);
    else
        delete[] data_;
    data_ = nullptr;
    size_ = capacity_ = 0;
    mapped_ = false;
}

ByteBuffer ByteBuffer::map(int fd, std::size_t size, bool populate) {
    ByteBuffer buf;
    const auto page = static_cast<std::size_t>(::sysconf(_SC_PAGESIZE));
    if (size == 0 || size % page == 0) return buf;
    void* p = ::mmap(nullptr, size, PROT_READ, MAP_PRIVATE | (populate ? MAP_POPULATE : 0), fd, 0);
    if (p == MAP_FAILED) return buf;
    ::madvise(p, size, MADV_SEQUENTIAL);
    buf.data_ = static_cast<char*>(p);
    buf.size_ = buf.capacity_ = size;
    buf.mapped_ = true;
    return buf;
}

void ByteBuffer::drop_pages(std::size_t offset, std::size_t bytes) const {
    if (!mapped_ || bytes == 0) return;
    const auto page = static_cast<std::size_t>(::sysconf(_SC_PAGESIZE));
    const std::size_t first = (offset + page - 1) / page * page, end = (offset + bytes) / page * page;
    if (end > first) ::madvise(data_ + first, end - first, MADV_DONTNEED);
}

void ByteBuffer::reserve(std::size_t capacity) {
    if (mapped_) throw Error("ByteBuffer: a mapped file is read-only");
    if (capacity <= capacity_ && data_) return;
    if (data_) capacity = std::max(capacity, capacity_ * 2);  // geometric growth when appending
    char* grown = new char[capacity + 1];
    if (size_) std::memcpy(grown, data_, size_);
    delete[] data_;
    data_ = grown;
    capacity_ = capacity;
    data_[size_] = '\0';
}

void ByteBuffer::set_size(std::size_t size) {
    if (mapped_) throw Error("ByteBuffer: a mapped file is read-only");
    if (size > capacity_ || !data_) reserve(size);
    size_ = size;
    data_[size_] = '\0';
}

std::string errno_text(int err) { return std::strerror(err); }

namespace {

// An fd that closes itself.
struct Fd {
    int fd;
    explicit Fd(int f) : fd(f) {}
    ~Fd() {
        if (fd >= 0) ::close(fd);
    }
};

int open_for_reading(const std::string& path) {
    int fd =
        ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);  // as ReadOnlyFile: a FIFO is refused, not waited on
    if (fd < 0) throw InputError("cannot open '" + path + "': " + errno_text(errno));
    struct stat st {};
    if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        ::close(fd);
        throw InputError("cannot read '" + path + "': not a regular file");
    }
    return fd;
}

constexpr std::size_t kPiece = std::size_t{16} << 20;

}  // namespace

std::uint64_t regular_file_size(const std::string& path) {
    Fd f(open_for_reading(path));
    struct stat st {};
    ::fstat(f.fd, &st);
    return static_cast<std::uint64_t>(st.st_size);
}

bool is_regular_file(const std::string& path) {
    struct stat st {};
    return ::stat(path.c_str(), &st) != 0 || S_ISREG(st.st_mode);
}

std::string read_prefix(const std::string& path, std::size_t n) {
    Fd f(open_for_reading(path));
    std::string out(n, '\0');
    ssize_t got = ::read(f.fd, out.data(), n);
    if (got < 0) throw InputError("cannot read '" + path + "': " + errno_text(errno));
    out.resize(static_cast<std::size_t>(got));
    return out;
}

ByteBuffer read_file(const std::string& path, RunControl& control, bool populate) {
    Fd f(open_for_reading(path));
    struct stat st {};
    ::fstat(f.fd, &st);
    const auto size = static_cast<std::size_t>(st.st_size);
    control.check();
    if (ByteBuffer mapped = ByteBuffer::map(f.fd, size, populate); mapped.mapped()) {
        control.progress(size, size);
        return mapped;
    }
    ByteBuffer buf(size);
    std::size_t done = 0;
    while (done < size) {
        control.check();
        const std::size_t want = std::min(kPiece, size - done);
        ssize_t got = ::read(f.fd, buf.data() + done, want);
        if (got < 0 && errno == EINTR) continue;
        if (got < 0) throw InputError("cannot read '" + path + "': " + errno_text(errno));
        if (got == 0) break;  // file shrank while reading
        done += static_cast<std::size_t>(got);
        control.progress(done, size);
    }
    buf.set_size(done);
    return buf;
}

// ---- TextStream ----------------------------------------------------------------------------

TextStream::TextStream(const std::string& path) : path_(path) {
    int fd = -1;
    if (path == "-") {
        fd = ::fcntl(0, F_DUPFD_CLOEXEC, 3);  // gzclose closes it; stdin stays open
        if (fd < 0) throw InputError("cannot read stdin: " + errno_text(errno));
    } else {
        fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
        if (fd < 0) throw InputError("cannot open '" + path + "': " + errno_text(errno));
    }
    struct stat st {};
    if (::fstat(fd, &st) != 0 || S_ISDIR(st.st_mode)) {
        ::close(fd);
        throw InputError("cannot read '" + path + "': " + (S_ISDIR(st.st_mode) ? "it is a directory" : errno_text(errno)));
    }
    regular_ = S_ISREG(st.st_mode);
    disk_bytes_ = regular_ ? static_cast<std::uint64_t>(st.st_size) : 0;
    fd_ = fd;
}

TextStream::~TextStream() {
    gz_.reset();
    if (fd_ >= 0) ::close(fd_);
}

// Up to n bytes as they are on disk (or in the pipe); 0 at the end.
std::size_t TextStream::raw_read(char* dst, std::size_t n) {
    for (;;) {
        const ssize_t got = ::read(fd_, dst, n);
        if (got >= 0) {
            raw_bytes_ += static_cast<std::uint64_t>(got);
            return static_cast<std::size_t>(got);
        }
        if (errno != EINTR)
            throw InputError("cannot read '" + path_ + "': " + errno_text(errno) + " (after " + grouped(text_bytes_) +
                             " bytes of text)");
    }
}

// The first two bytes tell gzip (0x1f 0x8b) from anything else, read before anything is handed
// on: a pipe may give them one at a time.
void TextStream::detect() {
    detected_ = true;
    char head[2];
    std::size_t have = 0;
    while (have < 2)
        if (const std::size_t got = raw_read(head + have, 2 - have); got)
            have += got;
        else
            break;
    if (have == 2 && static_cast<unsigned char>(head[0]) == 0x1f && static_cast<unsigned char>(head[1]) == 0x8b)
        gz_ = std::make_unique<GzipInflater>(fd_, path_, head, have);
    else
        head_.assign(head, have);
}

// Up to n bytes of text before a byte order mark is looked for.
std::size_t TextStream::text_read(char* dst, std::size_t n) {
    if (!detected_) detect();
    if (gz_) return gz_->read(dst, n);
    if (head_used_ < head_.size()) {
        const std::size_t k = std::min(n, head_.size() - head_used_);
        std::memcpy(dst, head_.data() + head_used_, k);
        head_used_ += k;
        return k;
    }
    return raw_read(dst, n);
}

std::size_t TextStream::read(char* dst, std::size_t n) {
    std::size_t done = 0;
    while (done < n && !ended_) {
        const std::size_t got = text_read(dst + done, std::min<std::size_t>(n - done, std::size_t{1} << 30));
        if (got == 0) {
            ended_ = true;
            break;
        }
        done += got;
        // a read may give fewer bytes than asked: 3 here unless the whole text is shorter
        if (!started_ && done >= std::min<std::size_t>(n, 3)) {
            started_ = true;
            if (const std::size_t bom = utf8_bom_bytes(dst, done)) {
                std::memmove(dst, dst + bom, done - bom);
                done -= bom;
            }
        }
    }
    text_bytes_ += done;
    return done;
}

bool TextStream::gzip() const { return gz_ != nullptr; }

bool TextStream::truncated() const { return ended_ && gz_ && gz_->truncated(); }

std::uint64_t TextStream::bytes_read() const { return gz_ ? gz_->consumed() : raw_bytes_; }

std::uint64_t TextStream::disk_offset() const {
    if (!regular_) return 0;
    return gz_ ? gz_->consumed() : raw_bytes_;
}

// ---- AtomicFile ----------------------------------------------------------------------------

namespace {

const char* kind_of(mode_t mode) {
    if (S_ISDIR(mode)) return "a folder";
    if (S_ISCHR(mode) || S_ISBLK(mode)) return "a device";
    if (S_ISFIFO(mode)) return "a pipe (FIFO)";
    if (S_ISSOCK(mode)) return "a socket";
    return "not a regular file";
}

}  // namespace

std::string replaced_file(const std::string& path) {
    struct stat link {};
    if (::lstat(path.c_str(), &link) != 0) return path;  // a new file
    struct stat st {};
    if (::stat(path.c_str(), &st) != 0)
        throw InputError("cannot write '" + path +
                         "': it is a link to a file that does not exist; give the file's own path");
    if (!S_ISREG(st.st_mode))
        throw InputError("cannot write '" + path + "': it is " + kind_of(st.st_mode) +
                         ", and output goes to a regular file");
    if (!S_ISLNK(link.st_mode)) return path;
    std::error_code ec;
    const std::filesystem::path target = std::filesystem::canonical(path, ec);
    if (ec) throw InputError("cannot write '" + path + "': cannot follow the link (" + ec.message() + ")");
    return target.string();
}

namespace {

std::atomic<bool> g_nameless{true};

std::string directory_of(const std::string& path) {
    const std::size_t slash = path.rfind('/');
    return slash == std::string::npos ? "." : slash == 0 ? "/" : path.substr(0, slash);
}

// A file with no name in `dir` (O_TMPFILE), or -1 where the kernel or the filesystem lacks it.
int open_tmpfile(const std::string& dir) {
#ifdef O_TMPFILE
    return ::open(dir.c_str(), O_TMPFILE | O_RDWR | O_CLOEXEC, 0644);
#else
    (void)dir;
    return -1;
#endif
}

// Gives the nameless file `fd` the name `name` (through /proc/self/fd: linking by descriptor
// alone takes a privilege). A file there of that name was left by a killed process that had our
// pid: it goes first.
bool give_name(int fd, const std::string& name) {
    const std::string self = "/proc/self/fd/" + std::to_string(fd);
    if (::linkat(AT_FDCWD, self.c_str(), AT_FDCWD, name.c_str(), AT_SYMLINK_FOLLOW) == 0) return true;
    if (errno != EEXIST) return false;
    ::unlink(name.c_str());
    return ::linkat(AT_FDCWD, self.c_str(), AT_FDCWD, name.c_str(), AT_SYMLINK_FOLLOW) == 0;
}

// Whether nameless files can be named at all (-1: not tried yet). A sandbox, or a system without
// /proc, may allow O_TMPFILE and refuse the link commit() needs: tried once, on a throwaway
// nameless file (one linked and unlinked cannot be linked again), under a name unlinked at once.
std::atomic<int> g_linkable{-1};

bool linkable(const std::string& dir, const std::string& probe) {
    if (g_linkable.load() < 0) {
        const int fd = open_tmpfile(dir);
        const bool ok = fd >= 0 && give_name(fd, probe);
        if (ok) ::unlink(probe.c_str());
        if (fd >= 0) ::close(fd);
        g_linkable.store(ok ? 1 : 0);
    }
    return g_linkable.load() == 1;
}

// A nameless file in `dir` that commit() can name, or -1 (then the named route is taken).
int open_nameless(const std::string& dir, const std::string& probe) {
    if (!g_nameless.load() || g_linkable.load() == 0) return -1;
    const int fd = open_tmpfile(dir);
    if (fd >= 0 && !linkable(dir, probe)) {
        ::close(fd);
        return -1;
    }
    return fd;
}

}  // namespace

void allow_nameless_temporaries(bool on) { g_nameless.store(on); }

namespace {

// NAME.tmp-PID-N beside the target, NAME shortened where the whole would pass NAME_MAX: a name
// of 245-255 bytes is the user's to choose, and its temporary had made it "File name too long"
// (sweep 70b B5). The PID and counter keep a shortened one apart from any other.
std::string temporary_name(const std::string& target, unsigned n) {
    const std::string suffix = ".tmp-" + std::to_string(::getpid()) + "-" + std::to_string(n);
    const std::size_t slash = target.rfind('/');
    const std::size_t start = slash == std::string::npos ? 0 : slash + 1;
    std::size_t keep = std::min(NAME_MAX - suffix.size(), target.size() - start);
    // not inside a UTF-8 character: a file system that checks names would refuse half of one
    while (keep < target.size() - start && keep > 0 &&
           (static_cast<unsigned char>(target[start + keep]) & 0xC0) == 0x80)
        --keep;
    return target.substr(0, start) + target.substr(start, keep) + suffix;
}

}  // namespace

AtomicFile::AtomicFile(std::string path) : path_(std::move(path)), target_(replaced_file(path_)) {
    static std::atomic<unsigned> counter{0};
    temp_ = temporary_name(target_, counter++);
    // Nameless until commit: the kernel frees it with the process even on SIGKILL or the OOM
    // killer, which no handler sees (a convert's runs and output are each as large as the tensor).
    fd_ = open_nameless(directory_of(target_), temp_);
    if (fd_ >= 0) return;
    named_ = true;
    slot_ = list_temp(temp_.c_str());  // listed before it exists: a signal never misses it
    fd_ = ::open(temp_.c_str(), O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd_ < 0) {
        release_temp(slot_);
        throw InputError("cannot write '" + path_ + "': " + errno_text(errno));
    }
}

AtomicFile::~AtomicFile() {
    if (fd_ >= 0) ::close(fd_);
    if (named_ && !committed_) ::unlink(temp_.c_str());
    release_temp(slot_);
}

void AtomicFile::write(const void* data, std::size_t size) {
    const char* p = static_cast<const char*>(data);
    while (size > 0) {
        ssize_t put = ::write(fd_, p, size);
        if (put < 0 && errno == EINTR) continue;
        if (put < 0) throw Error("cannot write '" + path_ + "': " + errno_text(errno));
        p += put;
        size -= static_cast<std::size_t>(put);
    }
}

void AtomicFile::write_at(std::uint64_t offset, const void* data, std::size_t size) {
    const char* p = static_cast<const char*>(data);
    while (size > 0) {
        const ssize_t put = ::pwrite(fd_, p, size, static_cast<off_t>(offset));
        if (put < 0 && errno == EINTR) continue;
        if (put < 0) throw Error("cannot write '" + path_ + "': " + errno_text(errno));
        p += put;
        offset += static_cast<std::uint64_t>(put);
        size -= static_cast<std::size_t>(put);
    }
}

void AtomicFile::read_at(std::uint64_t offset, void* data, std::size_t size) const {
    char* p = static_cast<char*>(data);
    while (size > 0) {
        const ssize_t got = ::pread(fd_, p, size, static_cast<off_t>(offset));
        if (got < 0 && errno == EINTR) continue;
        if (got <= 0)
            throw Error("cannot read back the temporary of '" + path_ +
                        "': " + (got < 0 ? errno_text(errno) : "it ended early"));
        p += got;
        offset += static_cast<std::uint64_t>(got);
        size -= static_cast<std::size_t>(got);
    }
}

void AtomicFile::truncate(std::uint64_t size) {
    if (::ftruncate(fd_, static_cast<off_t>(size)) != 0) throw Error("cannot write '" + path_ + "': " + errno_text(errno));
}

void AtomicFile::commit() {
    prepare();
    if (::rename(temp_.c_str(), target_.c_str()) != 0)
        throw Error("cannot write '" + path_ + "': " + errno_text(errno));
    committed_ = true;
    release_temp(slot_);
    slot_ = -1;
    // the rename is durable once the directory is flushed too
    if (const int d = ::open(directory_of(target_).c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC); d >= 0) {
        ::fsync(d);
        ::close(d);
    }
}

void AtomicFile::prepare() {
    if (fd_ >= 0) {
        if (::fsync(fd_) != 0) throw Error("cannot write '" + path_ + "': " + errno_text(errno));
        if (!named_) {  // the temporary name appears only now, listed first, for the rename below
            slot_ = list_temp(temp_.c_str());
            if (!give_name(fd_, temp_)) throw Error("cannot write '" + path_ + "': " + errno_text(errno));
            named_ = true;
        }
        const int closed = ::close(fd_);
        fd_ = -1;
        if (closed != 0) throw Error("cannot write '" + path_ + "': " + errno_text(errno));
    }
}

}  // namespace tscope::detail
