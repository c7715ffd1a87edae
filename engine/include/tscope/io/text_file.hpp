// Text outputs (factor matrices, a Tucker core, permutations) written as every output here is:
// under a temporary name next to the target, renamed over it once complete.
#pragma once

#include <functional>
#include <memory>
#include <ostream>
#include <string>
#include <vector>

namespace tscope {

// Writes the text `fill` puts into the stream to `path`. The file appears whole or not at all:
// an exception from `fill` or a full disk leaves what was there before. A link at `path` is
// written through (the link stays); a folder, a device such as /dev/null or a FIFO there is an
// InputError, as is a link to nothing.
void write_text_file(const std::string& path, const std::function<void(std::ostream&)>& fill);

// A set of text files that belong together (a CPD's factors and weights, a reordering's
// permutations): every one is filled and flushed to the disk under its temporary name before
// any is renamed into place, so a failure (a full disk, an exception from a fill) leaves the
// previous set whole, never some files of each run.
struct TextFile {
    std::string path;
    std::function<void(std::ostream&)> fill;
};
void write_text_files(const std::vector<TextFile>& files);

namespace detail {
class AtomicFile;
}

// write_text_files in two steps, for a set that goes with another output: the constructor fills
// and flushes every file under its temporary name; commit() renames them into place. Destroyed
// uncommitted, it leaves the previous files as they were. The renames hold an OutputLock, so
// that two runs writing one set at once leave one run's files. (reorder: the permutations are ready
// before the relabelled tensor is written, and put in place after it.)
class TextFileSet {
public:
    explicit TextFileSet(const std::vector<TextFile>& files);
    ~TextFileSet();
    TextFileSet(const TextFileSet&) = delete;
    TextFileSet& operator=(const TextFileSet&) = delete;
    void commit();

private:
    std::vector<std::unique_ptr<detail::AtomicFile>> ready_;
    std::vector<std::string> paths_;
};

}  // namespace tscope
