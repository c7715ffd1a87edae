// OutputLock (tscope/io/output_lock.hpp): flock on the output folders, nested within a process.
#include "tscope/io/output_lock.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <filesystem>
#include <map>
#include <mutex>
#include <utility>

namespace tscope {
namespace {

using FolderId = std::pair<unsigned long, unsigned long>;

std::mutex g_mutex;
std::map<FolderId, int> g_held;  // the folders this process holds, with how many locks hold each

// The folder the file's rename happens in: a link's target's, as the writes follow links (review 70 R4).
std::string folder_of(const std::string& path) {
    std::error_code ec;
    std::filesystem::path p = std::filesystem::weakly_canonical(path, ec);
    if (ec) p = path;
    return p.has_parent_path() ? p.parent_path().string() : ".";
}

}  // namespace

OutputLock::OutputLock(const std::vector<std::string>& paths) {
    std::vector<std::pair<FolderId, std::string>> folders;
    for (const std::string& path : paths) {
        const std::string dir = folder_of(path);
        struct stat st {};
        if (::stat(dir.c_str(), &st) != 0) continue;  // the write says what is wrong with it
        const FolderId id{static_cast<unsigned long>(st.st_dev), static_cast<unsigned long>(st.st_ino)};
        if (std::none_of(folders.begin(), folders.end(), [&](const auto& f) { return f.first == id; }))
            folders.emplace_back(id, dir);
    }
    std::sort(folders.begin(), folders.end());
    for (const auto& [id, dir] : folders) {
        {
            std::lock_guard<std::mutex> hold(g_mutex);
            if (auto it = g_held.find(id); it != g_held.end()) {
                ++it->second, taken_.push_back(id), fds_.push_back(-1);
                continue;
            }
        }
        const int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        if (fd < 0) continue;
        int locked;
        do locked = ::flock(fd, LOCK_EX);
        while (locked != 0 && errno == EINTR);
        if (locked != 0) {
            ::close(fd);
            continue;
        }
        std::lock_guard<std::mutex> hold(g_mutex);
        ++g_held[id], taken_.push_back(id), fds_.push_back(fd);
    }
}

OutputLock::~OutputLock() {
    std::lock_guard<std::mutex> hold(g_mutex);
    for (std::size_t k = taken_.size(); k-- > 0;) {
        auto it = g_held.find(taken_[k]);
        if (it != g_held.end() && --it->second == 0) g_held.erase(it);
        if (fds_[k] >= 0) ::close(fds_[k]);  // closing the descriptor releases its flock
    }
}

}  // namespace tscope
