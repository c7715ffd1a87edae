// SIGINT, SIGTERM and SIGHUP in the GUI: instead of dying at once (which the CLI does, after
// removing its temporaries), the window is asked to quit cleanly: received(sig) is emitted on
// the GUI thread, and tensorscope's main cancels the running work and leaves the event loop;
// the jobs are then cancelled and waited for as the window is destroyed, and whatever they were
// writing is removed as their stacks unwind (AtomicFile). The handler only writes the signal's
// number to a pipe (self-pipe), which a QSocketNotifier reads on the GUI thread: nothing but
// async-signal-safe calls in the handler. A second signal before the quit is done (work that
// does not look at its cancel flag, a stuck job) removes the listed temporaries at once and
// dies of it, as the CLI does. SIGQUIT keeps that immediate behaviour from the first one.
#pragma once

#include <QObject>

class QSocketNotifier;

namespace tsui {

class SignalQuit : public QObject {
    Q_OBJECT

public:
    // Installs the handlers (one SignalQuit per process); the destructor puts the engine's
    // immediate-cleanup handlers back.
    explicit SignalQuit(QObject* parent = nullptr);
    ~SignalQuit() override;

    // The exit status a quit on `sig` reports: 128 + sig, the shell's convention for a
    // process ended by a signal.
    static int exitStatus(int sig) { return 128 + sig; }

Q_SIGNALS:
    void received(int sig);

private:
    void readPipe();
    QSocketNotifier* notifier_ = nullptr;
};

}  // namespace tsui
