// Counts the user-lane work running now, so that background work can step aside: the Formats
// survey and a benchmark on the same cores would both run slower (the benchmark's numbers
// would be wrong too). Background work waits at its check points while any user work runs.
#pragma once

#include <atomic>
#include <functional>

namespace tsui {

class UserWork {
public:
    // Held by a worker thread for as long as its user-lane work runs.
    class Scope {
    public:
        Scope();
        ~Scope();
        Scope(const Scope&) = delete;
        Scope& operator=(const Scope&) = delete;
    };

    static int running();
    // Blocks the calling (background) thread while user work runs; returns early once
    // stop() is true, checked every few milliseconds.
    static void waitUntilNone(const std::function<bool()>& stop);
};

}  // namespace tsui
