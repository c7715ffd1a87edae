// Text outputs (factor matrices, a Tucker core, permutations) written as every output here is:
// under a temporary name next to the target, renamed over it once complete.
#pragma once

#include <functional>
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

}  // namespace tscope
