// What the main window needs from a tab: its title, the dataset it shows, whether it still
// works in the background (and a signal when it stops), and the work --run starts. The window
// holds its tabs as a list of these, so adding a tab touches no window code but the list.
#pragma once

#include <QWidget>

#include "models/Dataset.hpp"

namespace tsui {

// The property that marks a tab's Cancel button: Esc presses the one the user sees, enabled.
inline constexpr char kCancelsWork[] = "cancelsWork";
// The property that marks a control (QSpinBox, QDoubleSpinBox, QComboBox, QCheckBox, a checkable
// QListWidget) whose value the window remembers between starts (views/WindowMemory); its
// objectName, unique in the window, is the key.
inline constexpr char kRemembered[] = "remembered";

class Panel : public QWidget {
    Q_OBJECT

public:
    using QWidget::QWidget;

    // The tab's title, as the user sees it and --tab names it.
    virtual QString title() const = 0;
    virtual void setDataset(const DatasetPtr& dataset) = 0;
    // True while the tab's own background work runs.
    virtual bool isBusy() const { return false; }
    // Starts the tab's own work (a benchmark, a decomposition...) with its current settings;
    // false for tabs that have none.
    virtual bool runOwnWork() { return false; }

Q_SIGNALS:
    // The tab's background work has ended (finished, failed or cancelled) and none follows.
    void idle();
    // A failure the user caused or should know of, in plain words ("Density: counting the
    // slices of mode 1 needs 800 GB..."): the window shows it in its banner.
    void failed(const QString& message);
};

}  // namespace tsui
