#include "jobs/UserWork.hpp"

#include <chrono>
#include <condition_variable>
#include <mutex>

namespace tsui {

namespace {

struct State {
    std::mutex mutex;
    std::condition_variable none;
    int running = 0;
};

State& state() {
    static State s;
    return s;
}

}  // namespace

UserWork::Scope::Scope() {
    std::lock_guard lock(state().mutex);
    ++state().running;
}

UserWork::Scope::~Scope() {
    {
        std::lock_guard lock(state().mutex);
        --state().running;
    }
    state().none.notify_all();
}

int UserWork::running() {
    std::lock_guard lock(state().mutex);
    return state().running;
}

void UserWork::waitUntilNone(const std::function<bool()>& stop) {
    std::unique_lock lock(state().mutex);
    // a short timeout, so that a cancel of the waiting work is seen promptly
    while (state().running > 0 && !stop()) state().none.wait_for(lock, std::chrono::milliseconds(20));
}

}  // namespace tsui
