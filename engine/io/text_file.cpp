// write_text_file (tscope/io/text_file.hpp): an ostream over an AtomicFile.
#include "tscope/io/text_file.hpp"

#include <array>
#include <memory>
#include <streambuf>

#include "file_util.hpp"
#include "tscope/error.hpp"
#include "tscope/io/output_lock.hpp"

namespace tscope {
namespace {

// Hands the stream's text to the file a buffer at a time. An error writing stays in `error` (a
// streambuf cannot throw through every ostream operation) and is raised after `fill`.
class AtomicFileBuf : public std::streambuf {
public:
    explicit AtomicFileBuf(detail::AtomicFile& file) : file_(file) {
        setp(buffer_.data(), buffer_.data() + buffer_.size());
    }
    std::string error;

protected:
    int_type overflow(int_type c) override {
        if (sync() != 0) return traits_type::eof();
        if (!traits_type::eq_int_type(c, traits_type::eof())) {
            *pptr() = traits_type::to_char_type(c);
            pbump(1);
        }
        return traits_type::not_eof(c);
    }
    int sync() override {
        try {
            file_.write(pbase(), static_cast<std::size_t>(pptr() - pbase()));
        } catch (const std::exception& e) {
            if (error.empty()) error = e.what();
            return -1;
        }
        setp(buffer_.data(), buffer_.data() + buffer_.size());
        return 0;
    }

private:
    detail::AtomicFile& file_;
    std::array<char, 1 << 20> buffer_{};
};

// Fills one file's temporary and flushes it to the disk; the rename is the caller's.
std::unique_ptr<detail::AtomicFile> filled(const TextFile& f) {
    auto file = std::make_unique<detail::AtomicFile>(f.path);
    auto buf = std::make_unique<AtomicFileBuf>(*file);  // 1 MiB: not on the stack
    std::ostream out(buf.get());
    f.fill(out);
    out.flush();
    if (!buf->error.empty()) throw Error(buf->error);
    if (!out) throw Error("cannot write '" + f.path + "'");
    file->prepare();
    return file;
}

}  // namespace

void write_text_file(const std::string& path, const std::function<void(std::ostream&)>& fill) {
    write_text_files({TextFile{path, fill}});
}

void write_text_files(const std::vector<TextFile>& files) { TextFileSet(files).commit(); }

TextFileSet::TextFileSet(const std::vector<TextFile>& files) {
    for (const TextFile& f : files) ready_.push_back(filled(f)), paths_.push_back(f.path);
}

TextFileSet::~TextFileSet() = default;

void TextFileSet::commit() {
    const OutputLock lock(paths_);  // another run's set is not renamed in between
    for (auto& file : ready_) file->commit();
    ready_.clear();
}

}  // namespace tscope
