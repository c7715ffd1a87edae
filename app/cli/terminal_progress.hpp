// Progress of long CLI work on stderr, one line rewritten in place ("parsing: 42%, 12 s left"),
// at most five times a second, where stderr is a terminal (or TS_PROGRESS=1 asks for it, as
// the tests do); elsewhere it stays silent, so logs and pipes see only the final report.
#pragma once

#include <chrono>
#include <mutex>
#include <string>

#include "tscope/run_control.hpp"

namespace tscope::cli {

class TerminalProgress : public RunControl {
public:
    TerminalProgress();
    ~TerminalProgress() override;
    void stage(const std::string& name) override;
    void progress(std::uint64_t done, std::uint64_t total) override;
    // Ends the line, if one was drawn.
    void finish();

private:
    using Clock = std::chrono::steady_clock;
    bool enabled_;
    std::mutex lock_;
    std::string stage_;
    Clock::time_point stage_start_, last_;
    bool drawn_ = false;
};

}  // namespace tscope::cli
