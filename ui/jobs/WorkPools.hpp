// The application's own worker threads. Long work never runs on Qt's global thread pool:
// Qt 6.4's raster painting and image scaling hand pieces of a paint to that pool and wait for
// them on the GUI thread, so engine work that fills it freezes every repaint until it ends.
// Two pools with a fixed size keep the budget known: one for work the user is waiting for
// (loading, counting, benchmarks, decompositions), one for work started on their behalf (the
// Formats survey), which also yields to the first (see UserWork).
#pragma once

class QThreadPool;

namespace tsui {

enum class Lane {
    User,        // work the user started or is looking at
    Background,  // work started on the user's behalf, which waits while User work runs
};

// The pool for a lane, created on first use and kept for the process.
QThreadPool* workPool(Lane lane);
// How many threads each lane's pool may run at once.
int workPoolSize(Lane lane);

}  // namespace tsui
