#include "tscope/run_control.hpp"

#include "tscope/error.hpp"

namespace tscope {

ParseError::ParseError(std::string file, std::uint64_t line, std::uint64_t column, const std::string& what)
    : InputError(file + ":" + std::to_string(line) + ":" + std::to_string(column) + ": " + what),
      file_(std::move(file)), line_(line), column_(column), detail_(what) {}

void RunControl::check() const {
    if (cancelled()) throw Cancelled();
}

RunControl& no_control() {
    static RunControl none;
    return none;
}

void AtomicRunControl::progress(std::uint64_t done, std::uint64_t total) {
    total_.store(total, std::memory_order_relaxed);
    done_.store(done, std::memory_order_relaxed);
}

void AtomicRunControl::stage(const std::string& name) {
    std::lock_guard lock(stage_mutex_);
    stage_ = name;
}

std::string AtomicRunControl::current_stage() const {
    std::lock_guard lock(stage_mutex_);
    return stage_;
}

}  // namespace tscope
