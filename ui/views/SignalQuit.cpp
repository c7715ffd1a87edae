#include "views/SignalQuit.hpp"

#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

#include <QSocketNotifier>
#include <cerrno>
#include <stdexcept>

#include "tscope/io/temp_cleanup.hpp"

namespace tsui {

namespace {

int g_pipe[2] = {-1, -1};
volatile sig_atomic_t g_pending = 0;  // a quit was asked for and is under way

constexpr int kSignals[] = {SIGINT, SIGTERM, SIGHUP};

void on_signal(int sig) {
    if (g_pending) tscope::remove_temps_and_die(sig);  // the second one: at once
    g_pending = sig;
    const int saved = errno;  // the interrupted code may be about to read errno
    const char byte = static_cast<char>(sig);
    [[maybe_unused]] const ssize_t n = ::write(g_pipe[1], &byte, 1);
    errno = saved;
}

}  // namespace

SignalQuit::SignalQuit(QObject* parent) : QObject(parent) {
    if (g_pipe[0] < 0 && ::pipe2(g_pipe, O_CLOEXEC | O_NONBLOCK) != 0)
        throw std::runtime_error("SignalQuit: no pipe for the signal handler");
    g_pending = 0;
    notifier_ = new QSocketNotifier(g_pipe[0], QSocketNotifier::Read, this);
    connect(notifier_, &QSocketNotifier::activated, this, &SignalQuit::readPipe);
    for (int sig : kSignals) {
        struct sigaction old {};  // one the parent set to be ignored stays so (nohup's SIGHUP; review 70 R11)
        if (::sigaction(sig, nullptr, &old) == 0 && old.sa_handler == SIG_IGN) continue;
        struct sigaction sa {};
        sa.sa_handler = on_signal;
        sigemptyset(&sa.sa_mask);
        sa.sa_flags = SA_RESTART;  // the GUI's own reads and writes carry on as if nothing came
        ::sigaction(sig, &sa, nullptr);
    }
}

SignalQuit::~SignalQuit() {
    tscope::install_temp_cleanup_on_signals();  // for the rest of the process: immediate cleanup
}

void SignalQuit::readPipe() {
    char byte = 0;
    while (::read(g_pipe[0], &byte, 1) == 1) Q_EMIT received(static_cast<unsigned char>(byte));
}

}  // namespace tsui
