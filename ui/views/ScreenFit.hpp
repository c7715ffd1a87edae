// A window's or dialog's first size, kept on its screen: on a small screen or at a high
// scale (1920 x 1080 at 200% is 960 x 540 logical pixels) a fixed default size put buttons and
// the status bar below the screen's edge. The offscreen platform's nominal 800 x 600 screen is
// no one's: there the default stays, so that screenshots keep their size.
#pragma once

#include <QSize>

class QWidget;

namespace tsui {

// `wanted` within `available` less `reserve` (a title bar, a margin), never below 1 x 1.
QSize fitToScreen(QSize wanted, QSize available, QSize reserve);

// `wanted` within the available geometry of `widget`'s screen (its parent's for a dialog not yet
// shown), less `reserve`; `wanted` itself on the offscreen platform or without a screen.
QSize fitToScreenOf(const QWidget* widget, QSize wanted, QSize reserve);

}  // namespace tsui
