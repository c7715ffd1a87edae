// Held while a set of outputs is put in place, so that two runs writing the same set at once
// leave one run's set whole, never some files of each: two `decompose --write DIR` runs at once
// had left one run's lambda.mat beside the other's mode1.mat, and two reorders a tensor beside
// the other run's permutations, both exiting 0 (sweep 70b B6/B7).
#pragma once

#include <string>
#include <vector>

namespace tscope {

// An exclusive flock(2) on each folder the files at `paths` go into, taken in one order (by
// device and inode) so that two sets never wait on each other, released on destruction. Within
// one process it nests: a folder this process holds already is not taken again (a second flock
// of it here would wait for ever), so it keeps processes apart, not threads of one (neither the
// CLI nor the window writes one set from two threads). Where a file system refuses the lock
// (some network ones), the set goes ahead unlocked, as before.
class OutputLock {
public:
    explicit OutputLock(const std::vector<std::string>& paths);
    ~OutputLock();
    OutputLock(const OutputLock&) = delete;
    OutputLock& operator=(const OutputLock&) = delete;

private:
    std::vector<std::pair<unsigned long, unsigned long>> taken_;  // (device, inode) of the folders this one took
    std::vector<int> fds_;
};

}  // namespace tscope
