#include "terminal_progress.hpp"

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "text_table.hpp"

namespace tscope::cli {

TerminalProgress::TerminalProgress() {
    const char* forced = std::getenv("TS_PROGRESS");
    enabled_ = forced ? std::strcmp(forced, "1") == 0 : ::isatty(STDERR_FILENO) == 1;
    stage_start_ = last_ = Clock::now();
}

TerminalProgress::~TerminalProgress() { finish(); }

void TerminalProgress::stage(const std::string& name) {
    const std::lock_guard<std::mutex> hold(lock_);
    stage_ = name;
    stage_start_ = Clock::now();
}

void TerminalProgress::progress(std::uint64_t done, std::uint64_t total) {
    if (!enabled_ || total == 0) return;
    const std::unique_lock<std::mutex> hold(lock_, std::try_to_lock);  // a busy printer: skip, never wait
    if (!hold.owns_lock()) return;
    const auto now = Clock::now();
    if (now - last_ < std::chrono::milliseconds(200) && done < total) return;
    last_ = now;
    const double share = static_cast<double>(done) / static_cast<double>(total);
    const double spent = std::chrono::duration<double>(now - stage_start_).count();
    std::string line = (stage_.empty() ? std::string("working") : stage_) + ": " + number(100.0 * share, 3) + "%";
    if (share > 0.01 && done < total) line += ", " + number(spent * (1 - share) / share, 2) + " s left";
    std::fprintf(stderr, "\r%-72s", line.c_str());
    std::fflush(stderr);
    drawn_ = true;
}

void TerminalProgress::finish() {
    const std::lock_guard<std::mutex> hold(lock_);
    if (drawn_) std::fprintf(stderr, "\n");
    drawn_ = false;
}

}  // namespace tscope::cli
