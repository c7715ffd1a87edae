// How long work talks to whoever started it: progress reports and a cancel request.
// Engine code calls progress() and check() between chunks of work (never per nonzero).
// Implementations must be callable from any thread: OpenMP workers may report.
#pragma once

#include <atomic>
#include <cstdint>
#include <string>
#include <mutex>

namespace tscope {

class RunControl {
public:
    virtual ~RunControl() = default;
    // done out of total units of the current stage.
    virtual void progress(std::uint64_t done, std::uint64_t total) { (void)done, (void)total; }
    // A short human-readable name of what runs now ("reading", "parsing", ...).
    virtual void stage(const std::string& name) { (void)name; }
    virtual bool cancelled() const { return false; }
    // Throws tscope::Cancelled when cancelled() is true.
    void check() const;
};

// A control that does nothing and never cancels: the default for callers that don't care.
RunControl& no_control();

// A thread-safe control whose state is polled by someone else (a GUI timer, a test).
class AtomicRunControl : public RunControl {
public:
    void progress(std::uint64_t done, std::uint64_t total) override;
    void stage(const std::string& name) override;
    bool cancelled() const override { return cancel_.load(std::memory_order_relaxed); }

    void request_cancel() { cancel_.store(true, std::memory_order_relaxed); }
    std::uint64_t done() const { return done_.load(std::memory_order_relaxed); }
    std::uint64_t total() const { return total_.load(std::memory_order_relaxed); }
    std::string current_stage() const;

private:
    std::atomic<bool> cancel_{false};
    std::atomic<std::uint64_t> done_{0};
    std::atomic<std::uint64_t> total_{0};
    mutable std::mutex stage_mutex_;
    std::string stage_;
};

}  // namespace tscope
