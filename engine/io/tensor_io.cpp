#include "tscope/io/tensor_io.hpp"

#include <unistd.h>
#include <zlib.h>

#include <cctype>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <memory>

#include "file_util.hpp"
#include "tns_reader.hpp"
#include "tscope/error.hpp"
#include "tscope/io/tns_format.hpp"
#include "tscope/io/tsb_format.hpp"
#include "tscope/text_words.hpp"

namespace tscope {
namespace {

using Clock = std::chrono::steady_clock;

std::string lower(std::string s) {
    for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return s;
}

// Text is FROSTT's whitespace-separated lines whatever the name says, so a name that promises
// another format (out.csv, out.mtx, out.json) would be a silently wrong file.
bool names_text(const std::filesystem::path& name) {
    const std::string ext = lower(name.extension().string());
    return ext.empty() || ext == ".tns" || ext == ".txt";
}

}  // namespace

OutputFormat output_format(const std::string& path) {
    const std::filesystem::path name = std::filesystem::path(path).filename();
    const std::string ext = lower(name.extension().string());
    if (ext == ".tsb") return OutputFormat::Tsb;
    if (names_text(name)) return OutputFormat::Text;
    if (ext == ".gz" && names_text(name.stem())) return OutputFormat::GzipText;
    throw InputError(
        "'" + path +
        "': a tensor is written by its name's extension, as .tns (text), .tns.gz (gzip text) "
        "or .tsb (binary); '" +
        (ext == ".gz" ? name.stem().extension().string() + name.extension().string() : name.extension().string()) +
        "' is none of them");
}

void check_tensor_output_name(const std::string& path) { output_format(path); }

FileKind file_kind(const std::string& path) {
    if (path == "-" || !detail::is_regular_file(path)) return FileKind::Stream;
    const std::string magic = detail::read_prefix(path, sizeof kTsbMagic);
    if (magic.size() == sizeof kTsbMagic && std::memcmp(magic.data(), kTsbMagic, sizeof kTsbMagic) == 0) return FileKind::Tsb;
    if (magic.size() >= 2 && static_cast<unsigned char>(magic[0]) == 0x1f && static_cast<unsigned char>(magic[1]) == 0x8b)
        return FileKind::Gzip;
    return FileKind::Text;
}

void require_nonzeros(const LoadedTensor& loaded, const std::string& what) {
    require_nonzeros(loaded.info.path, loaded.tensor.nnz(), loaded.info.zeros_dropped, what);
}

void require_nonzeros(const std::string& path, std::uint64_t nnz, std::uint64_t zeros, const std::string& what) {
    if (nnz > 0) return;
    throw InputError(path + ": the tensor has no nonzeros" +
                     // "of value 0" once duplicates are summed: an entry and its negative had read as
                     // "its 1 entry was 0" (sweep 73a)
                     (zeros ? " (its " + grouped(zeros) + (zeros == 1 ? " entry was 0" : " entries were all 0") +
                                  ", duplicates summed, and left out)"
                            : std::string()) +
                     ": nothing to " + what);
}

LoadedTensor load_tensor(const std::string& path, const LoadOptions& options, RunControl& control) {
    const auto start = Clock::now();
    const FileKind kind = file_kind(path);
    if (kind == FileKind::Stream) {
        // stdin, a pipe or a FIFO: one pass, whatever it holds
        detail::TextStream in(path);
        control.stage("reading and parsing");
        LoadedTensor out = detail::parse_tns_stream(in, path, options, control, options.stream_block_bytes);
        out.info.format = in.gzip() ? "tns.gz" : "tns";
        out.info.load_seconds = std::chrono::duration<double>(Clock::now() - start).count();
        return out;
    }
    if (kind == FileKind::Tsb) return read_tsb(path, options, control);
    if (kind == FileKind::Gzip) {
        // inflated and parsed block by block: never the whole text in memory
        detail::TextStream in(path);
        control.stage("decompressing and parsing");
        LoadedTensor out = detail::parse_tns_stream(in, path, options, control, options.stream_block_bytes);
        out.info.format = "tns.gz";
        out.info.load_seconds = std::chrono::duration<double>(Clock::now() - start).count();
        return out;
    }
    control.stage("reading");
    const detail::ByteBuffer text = detail::read_file(path, control);
    const auto read_done = Clock::now();
    LoadedTensor out;
    try {
        out = detail::parse_tns_buffer(text, path, options, control);
    } catch (const InputError& e) {
        // text is told by content, not name; a .tsb damaged at its start is read as text and
        // fails there, which alone read as "not a text .tns file" for a file the user calls a .tsb
        if (lower(std::filesystem::path(path).extension().string()) != ".tsb") throw;
        throw InputError(std::string(e.what()) +
                         " (the name ends in .tsb, but the file does not start with the .tsb magic "
                         "bytes: not a .tsb, or one damaged at its start)");
    }
    out.info.format = "tns";
    out.info.file_bytes = detail::regular_file_size(path);
    out.info.read_seconds = std::chrono::duration<double>(read_done - start).count();
    out.info.load_seconds = std::chrono::duration<double>(Clock::now() - start).count();
    return out;
}

void save_tensor(const CooTensor& t, const std::string& path, RunControl& control) {
    const OutputFormat format = output_format(path);
    if (format == OutputFormat::Tsb) {
        write_tsb(t, path, control);
        return;
    }
    control.stage("formatting");
    const std::string text = format_tns(t, control);
    control.stage("writing");
    detail::AtomicFile file(path);
    if (format == OutputFormat::GzipText) {
        // closed on every way out, a cancel's too: a gzFile left open would keep its descriptor,
        // and with it the nameless file's disk space, for the rest of a long-lived process
        const int fd = ::dup(file.descriptor());
        std::unique_ptr<gzFile_s, int (*)(gzFile)> gz(fd >= 0 ? gzdopen(fd, "wb6") : nullptr, gzclose);
        if (!gz) {
            if (fd >= 0) ::close(fd);
            throw Error("cannot write '" + path + "'");
        }
        std::size_t done = 0;
        while (done < text.size()) {
            const auto n = static_cast<unsigned>(std::min<std::size_t>(text.size() - done, 1u << 24));
            if (gzwrite(gz.get(), text.data() + done, n) != static_cast<int>(n)) {
                int code = Z_OK;
                const char* msg = gzerror(gz.get(), &code);
                throw Error("cannot write '" + path + "': " + (code == Z_ERRNO ? std::strerror(errno) : msg));
            }
            done += n;
            control.progress(done, text.size());
        }
        errno = 0;
        if (gzclose(gz.release()) != Z_OK)  // its last block and the trailer go out here: a full disk shows now
            throw Error("cannot write '" + path + "': " + (errno ? std::strerror(errno) : "compression failed"));
    } else {
        file.write(text.data(), text.size());
    }
    file.commit();
}

}  // namespace tscope
