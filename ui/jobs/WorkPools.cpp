#include "jobs/WorkPools.hpp"

#include <QThreadPool>

namespace tsui {

namespace {

// One job per tab at most runs on the user lane (load, Density, Teaching, Kernels, Pipeline,
// Decompositions): room for them all, so none waits behind another tab's.
constexpr int kUserThreads = 6;
// The survey is the only background work: one thread.
constexpr int kBackgroundThreads = 1;

QThreadPool* makePool(const char* name, int threads) {
    auto* pool = new QThreadPool;  // lives as long as the process, as Qt's global pool does
    pool->setObjectName(QLatin1String(name));
    pool->setMaxThreadCount(threads);
    pool->setExpiryTimeout(30000);
    return pool;
}

}  // namespace

QThreadPool* workPool(Lane lane) {
    static QThreadPool* const user = makePool("tsui-user-work", kUserThreads);
    static QThreadPool* const background = makePool("tsui-background-work", kBackgroundThreads);
    return lane == Lane::User ? user : background;
}

int workPoolSize(Lane lane) { return lane == Lane::User ? kUserThreads : kBackgroundThreads; }

}  // namespace tsui
