// What the window remembers between starts, beyond its geometry and recent files: the dock's
// place and width, the last tab, every named splitter's sizes, and the controls a tab marks
// with kRemembered (panels/Panel.hpp: its ranks, methods, repeats, formats, backends). A user
// who quit on Reorder with the Formats split moved had found neither as left (sweep 66b A4).
// Saved when the user closes the window: a scripted --screenshot run, which exits on its own,
// leaves nothing.
#pragma once

class QMainWindow;
class QSettings;
class QTabWidget;

namespace tsui {

void rememberWindow(const QMainWindow& window, const QTabWidget& tabs, QSettings& settings);
// Restores what rememberWindow saved; a value that no longer fits its control (a removed
// combo entry, a range since narrowed) is left at the control's default.
void restoreWindow(QMainWindow& window, QTabWidget& tabs, const QSettings& settings);

}  // namespace tsui
