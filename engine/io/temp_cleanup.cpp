#include "tscope/io/temp_cleanup.hpp"

#include <errno.h>
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstring>

namespace tscope {

namespace {

// Enough for a bounded convert's runs at a small budget (--memory 8M spills a 120 MB tensor into
// 64 runs); 4 KiB a slot, touched only when used.
constexpr int kSlots = 1024;
constexpr std::size_t kPath = 4096;
char g_paths[kSlots][kPath];
std::atomic<bool> g_used[kSlots];  // lock-free on every platform we build for

constexpr int kDirs = 16;
char g_dirs[kDirs][kPath];
std::atomic<int> g_dir_count{0};

// The listed temporaries and the empty folders made for them; async-signal-safe (unlink, rmdir).
void remove_temps() {
    for (int i = 0; i < kSlots; ++i)
        if (g_used[i].load()) ::unlink(g_paths[i]);
    remove_empty_created_dirs();
}

void on_signal(int sig) { remove_temps_and_die(sig); }

// Only async-signal-safe calls: write, unlink, rmdir, _exit.
void on_bus_error(int) {
    static const char kWords[] =
        "error: a file being read ended early (SIGBUS on its memory map): another program shortened or replaced it "
        "while it was read; nothing was written\n";
    [[maybe_unused]] const ssize_t n = ::write(STDERR_FILENO, kWords, sizeof kWords - 1);
    remove_temps();
    ::_exit(2);
}

}  // namespace

void remove_empty_created_dirs() {
    for (int i = std::min(g_dir_count.load(), kDirs); i-- > 0;)
        ::rmdir(g_dirs[i]);  // fails, harmlessly, where not empty
}

// "NAME: stopped by SIGINT; ...", written with write(2) alone (safe in a handler): a convert or a
// download ended by Ctrl-C had said nothing, its progress line left unfinished (sweep 73a). Not
// for SIGPIPE: `| head -1` is an ordinary end.
static void say_stopped(int sig) {
    const char* name = sig == SIGINT    ? "SIGINT"
                       : sig == SIGTERM ? "SIGTERM"
                       : sig == SIGHUP  ? "SIGHUP"
                       : sig == SIGQUIT ? "SIGQUIT"
                                        : nullptr;
    if (!name) return;
    const auto put = [](const char* text) { (void)!::write(STDERR_FILENO, text, std::strlen(text)); };
    put("\n");
    put(program_invocation_short_name);
    put(": stopped by ");
    put(name);
    put("; its temporary files are removed\n");
}

void remove_temps_and_die(int sig) {
    remove_temps();
    say_stopped(sig);
    ::signal(sig, SIG_DFL);
    // unblocked first: called from a handler, the signal is blocked until the handler returns
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, sig);
    ::sigprocmask(SIG_UNBLOCK, &set, nullptr);
    ::raise(sig);
    ::_exit(128 + sig);  // for a signal whose default action does not end the process
}

void install_temp_cleanup_on_signals() {
    // SIGPIPE too: `| head -1` ended a run without its cleanup (sweep 70b B15). A signal the
    // parent set to be ignored stays ignored: nohup's SIGHUP, a harness's SIGPIPE (whose writes
    // then fail, and say so), `&` in a shell without job control's SIGINT and SIGQUIT.
    for (int sig : {SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE}) {
        struct sigaction old {};
        if (::sigaction(sig, nullptr, &old) == 0 && old.sa_handler == SIG_IGN) continue;
        struct sigaction sa {};
        sa.sa_handler = on_signal;
        sigemptyset(&sa.sa_mask);
        ::sigaction(sig, &sa, nullptr);
    }
    struct sigaction bus {};
    bus.sa_handler = on_bus_error;
    sigemptyset(&bus.sa_mask);
    ::sigaction(SIGBUS, &bus, nullptr);
}

namespace detail {

void list_created_dir(const char* path) {
    if (std::strlen(path) >= kPath) return;
    const int i = g_dir_count.load();
    if (i >= kDirs) return;
    std::strcpy(g_dirs[i], path);  // written before it is counted: a signal sees whole paths only
    g_dir_count.store(i + 1);
}

int list_temp(const char* path) {
    if (std::strlen(path) >= kPath) return -1;
    for (int i = 0; i < kSlots; ++i) {
        bool expected = false;
        if (g_used[i].load() || !g_used[i].compare_exchange_strong(expected, true)) continue;
        // written while the slot reads as used: a signal now may unlink a prefix, never a
        // path of someone else (the name is unique to this process and file)
        std::strcpy(g_paths[i], path);
        return i;
    }
    return -1;
}

void release_temp(int slot) {
    if (slot >= 0 && slot < kSlots) g_used[slot].store(false);
}

}  // namespace detail

}  // namespace tscope
