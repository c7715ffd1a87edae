#include "plots/PlotKeyboard.hpp"

#include <qcustomplot.h>
#include <algorithm>

#include <QEvent>
#include <QKeyEvent>
#include <QPointer>

#include "plots/PlotInspector.hpp"

namespace tsui {

namespace {

constexpr double kZoomStep = 1.25;  // a key press zooms by this much
constexpr double kPanStep = 0.1;    // and pans by this share of the axis rect
const char* kName = "tsPlotKeys";

class PlotKeys : public QObject {
public:
    explicit PlotKeys(QCustomPlot* plot) : QObject(plot), plot_(plot) {
        setObjectName(QLatin1String(kName));
        plot->setFocusPolicy(Qt::StrongFocus);
        plot->installEventFilter(this);
        // a panel's clearItems() takes the frame with the others: it is made again as needed
        connect(plot, &QCustomPlot::beforeReplot, this, [this] { showFrame(plot_->hasFocus()); });
    }

    bool eventFilter(QObject* watched, QEvent* event) override {
        // A focused plot loses its focus inside ~QWidget, when its QCustomPlot part is gone (the
        // sanitizer build caught the replot below called on it): such a watched object is no
        // QCustomPlot any more, and is left alone.
        if (watched != plot_ || !qobject_cast<QCustomPlot*>(watched)) return false;
        if (event->type() == QEvent::FocusIn || event->type() == QEvent::FocusOut) {
            showFrame(event->type() == QEvent::FocusIn);
            plot_->replot(QCustomPlot::rpQueuedReplot);
            return false;
        }
        if (event->type() == QEvent::KeyPress) return key(static_cast<QKeyEvent*>(event)->key());
        return false;
    }

private:
    void showFrame(bool shown) {
        if (!shown && !frame_) return;
        if (!frame_) {
            frame_ = new QCPItemRect(plot_);
            frame_->setLayer(QStringLiteral("overlay"));
            frame_->setClipToAxisRect(false);
            frame_->topLeft->setType(QCPItemPosition::ptViewportRatio);
            frame_->bottomRight->setType(QCPItemPosition::ptViewportRatio);
            frame_->topLeft->setCoords(0, 0);
            frame_->bottomRight->setCoords(1, 1);
            frame_->setBrush(Qt::NoBrush);
            frame_->setSelectable(false);
        }
        frame_->setPen(QPen(plot_->palette().color(QPalette::Highlight), 2));
        frame_->setVisible(shown);
    }

    // The axes the mouse may zoom or pan in `orientation`, or none where it may not.
    QList<QCPAxis*> axes(QCP::Interaction interaction, Qt::Orientation orientation) const {
        if (!plot_->interactions().testFlag(interaction) || !plot_->axisRect()) return {};
        return interaction == QCP::iRangeZoom ? plot_->axisRect()->rangeZoomAxes(orientation)
                                              : plot_->axisRect()->rangeDragAxes(orientation);
    }

    // false where the plot does not zoom: the key goes on to the window
    bool zoom(double factor) {
        bool any = false;
        for (Qt::Orientation o : {Qt::Horizontal, Qt::Vertical})
            for (QCPAxis* axis : axes(QCP::iRangeZoom, o)) axis->scaleRange(factor, axis->range().center()), any = true;
        if (any) plot_->replot();
        return any;
    }

    // by `pixels` on screen (right and down positive), so that the view moves the way the arrow
    // points on reversed axes too (the heat maps' rows run down: Up had shown rows further
    // down, sweep 74c N3), and log axes pan as evenly as linear ones
    bool pan(Qt::Orientation orientation, double pixels) {
        const QList<QCPAxis*> panned = axes(QCP::iRangeDrag, orientation);
        for (QCPAxis* axis : panned) {
            const double a = axis->pixelToCoord(axis->coordToPixel(axis->range().lower) + pixels);
            const double b = axis->pixelToCoord(axis->coordToPixel(axis->range().upper) + pixels);
            axis->setRange(std::min(a, b), std::max(a, b));
        }
        if (!panned.isEmpty()) plot_->replot();
        return !panned.isEmpty();
    }

    double step(Qt::Orientation orientation) const {
        const QRect r = plot_->axisRect()->rect();
        return kPanStep * (orientation == Qt::Horizontal ? r.width() : r.height());
    }

    bool key(int key) {
        switch (key) {
        case Qt::Key_Plus:
        case Qt::Key_Equal: return zoom(1 / kZoomStep);
        case Qt::Key_Minus: return zoom(kZoomStep);
        case Qt::Key_Left: return pan(Qt::Horizontal, -step(Qt::Horizontal));
        case Qt::Key_Right: return pan(Qt::Horizontal, step(Qt::Horizontal));
        case Qt::Key_Up: return pan(Qt::Vertical, -step(Qt::Vertical));
        case Qt::Key_Down: return pan(Qt::Vertical, step(Qt::Vertical));
        case Qt::Key_Home: PlotInspector::resetZoomOf(plot_); return true;
        default: return false;
        }
    }

    QCustomPlot* plot_;
    QPointer<QCPItemRect> frame_;
};

}  // namespace

void enablePlotKeyboard(QCustomPlot* plot) {
    if (!plot->findChild<QObject*>(QLatin1String(kName), Qt::FindDirectChildrenOnly)) new PlotKeys(plot);
}

}  // namespace tsui
