// Temporary files never outlive the process, whatever signal ends it. An AtomicFile has no name
// while it is written (O_TMPFILE), which even SIGKILL cannot leave behind; it lists its
// temporary name here for the moment between naming it and renaming it onto the target, and for
// its whole life where nameless files are unavailable. The handlers installed below unlink what
// is listed (async-signal-safe: fixed slots, unlink only) before the signal's default action.
#pragma once

namespace tscope {

// SIGINT, SIGTERM, SIGHUP and SIGQUIT: remove the listed temporaries, then die of the signal.
// SIGBUS, which reading a memory-mapped .tsb raises where another program shortened the file
// meanwhile: say so on stderr, remove the temporaries and exit 2 (it died with no word, sweep
// 66a F3). Call once, early in main (the CLI and the GUI do).
void install_temp_cleanup_on_signals();

// Async-signal-safe: unlinks every listed temporary, restores the signal's default action and
// raises it again. What the handlers above do at once; the GUI's own handler (it first asks the
// window to cancel its work and quit) calls it on a second signal that comes before it is done.
[[noreturn]] void remove_temps_and_die(int sig);

// Removes the folders listed by list_created_dir that are still empty, the last listed first (a
// failed command leaves no empty output folder of its own making). Async-signal-safe (rmdir
// only); remove_temps_and_die does it too.
void remove_empty_created_dirs();

namespace detail {
// A folder this process created for its outputs, before any output is in it; at most 16 are
// kept (later ones are not listed).
void list_created_dir(const char* path);
// Returns the slot that lists `path` (-1 when all are taken: the file then relies on its
// destructor alone); unlisted again by release_temp(slot).
int list_temp(const char* path);
void release_temp(int slot);
}  // namespace detail

}  // namespace tscope
