// The format-storage survey of a .tsb too large to load (issue 18, item 2): the advisor's profile
// (advisor.hpp) gathered in passes over the file in parts, and each format's storage predicted
// from it by the storage model, nothing built.
//
// Why most counts stay exact: a .tsb written here is in slice order of mode 1, so a tree level
// whose index prefix includes mode 1 never crosses a block of whole slices; the blocks are
// counted one at a time (memory: one block) and their counts add up. HiCOO's blocks lie within
// 2^bits slices (the group still open between two blocks keeps its keys), HLS's tiles within 16
// (streamed_density.hpp). What crosses every slice
// is sketched: a prefix without mode 1 is counted by a HyperLogLog, and the pieces of mode 1's
// fibers (B-CSF) come from a sample of those fibers (fiber_sketch.hpp). What no bounded pass can
// give is said: MM-CSF's partition needs every fiber's length at once, HOCFS-ELL's padding for
// mode 1 the longest mode-1 fiber of every block.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "tscope/advisor/advisor.hpp"
#include "tscope/formats/format_survey.hpp"

namespace tscope {

// A slice larger than profile_tsb's parts may hold. Its message says to read in larger parts;
// how is the caller's to add (the CLI's --part-nnz, the GUI's memory limit).
class SliceExceedsParts : public InputError {
public:
    using InputError::InputError;
};

// part_nnz: nonzeros read at a time (0: 4M), and about the most a block of whole slices holds
// (its trees are sorted once per layout: about 50 bytes a nonzero); one slice may hold up to 4
// parts. InputError for a file that is not in slice order of mode 1, SliceExceedsParts for a
// larger slice.
TensorProfile profile_tsb(const std::string& path, const FormatOptions& options = {}, std::uint64_t part_nnz = 0,
                          RunControl& control = no_control());

// The survey's rows from a profile: each (format, mode) of `request` with its storage predicted
// (FormatRow::predicted; estimate where a count it needs is sketched), or the reason it cannot be.
std::vector<FormatRow> predicted_survey(const TensorProfile& profile, const SurveyRequest& request);

}  // namespace tscope
