#include "views/ScreenFit.hpp"

#include <QGuiApplication>
#include <QScreen>
#include <QWidget>

namespace tsui {

QSize fitToScreen(QSize wanted, QSize available, QSize reserve) {
    return wanted.boundedTo(available - reserve).expandedTo(QSize(1, 1));
}

QSize fitToScreenOf(const QWidget* widget, QSize wanted, QSize reserve) {
    if (QGuiApplication::platformName() == QLatin1String("offscreen")) return wanted;
    const QWidget* owner = widget->parentWidget() ? widget->parentWidget() : widget;
    const QScreen* s = owner->screen();
    return s ? fitToScreen(wanted, s->availableGeometry().size(), reserve) : wanted;
}

}  // namespace tsui
