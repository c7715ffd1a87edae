// Hover readouts and zoom/pan for a plot. Moving the mouse over data shows what lies under
// the cursor (a bar, a point, a heat-map cell) as a tooltip and in the window's status bar;
// the wheel zooms and a drag pans; "Reset zoom" (the plot's right-click menu) returns to the
// ranges the panel last drew. What a readout says comes from the panel, which knows the units;
// finding the item under the cursor is done here with QCustomPlot's own hit tests.
#pragma once

#include <QObject>
#include <QPointF>
#include <QString>
#include <functional>
#include <optional>

class QCustomPlot;
class QCPBars;
class QCPColorMap;
class QCPGraph;
class QMouseEvent;

namespace tsui {

// The bar under a pixel.
struct BarHit {
    QCPBars* bars = nullptr;
    double key = 0, value = 0;
};
// The data point of a graph nearest a pixel, within a few pixels.
struct PointHit {
    QCPGraph* graph = nullptr;
    double key = 0, value = 0;
};
// The heat-map cell under a pixel, and its value (NaN where the map leaves it empty).
struct CellHit {
    QCPColorMap* map = nullptr;
    int keyCell = 0, valueCell = 0;
    double value = 0;
};

std::optional<BarHit> barAt(QCustomPlot* plot, QPointF pixel);
std::optional<PointHit> pointAt(QCustomPlot* plot, QPointF pixel);
std::optional<CellHit> cellAt(QCustomPlot* plot, QPointF pixel);

class PlotInspector : public QObject {
    Q_OBJECT

public:
    // What lies under a pixel, in words; "" for nothing.
    using Describe = std::function<QString(QPointF pixel)>;

    // Gives `plot` hover readouts (through describe) and wheel zoom / drag pan, once; a second
    // call replaces describe.
    static PlotInspector* attach(QCustomPlot* plot, Describe describe);
    // The plot's inspector, or nullptr.
    static PlotInspector* of(const QCustomPlot* plot);

    QString textAt(QPointF pixel) const { return describe_ ? describe_(pixel) : QString(); }
    // The ranges "Reset zoom" returns to: the panel calls this after it set them.
    void rememberHome();
    void resetZoom();
    // `plot`'s home ranges through its inspector, or all its data where it has none.
    static void resetZoomOf(QCustomPlot* plot);

Q_SIGNALS:
    // The hover text, "" when the cursor left the data.
    void readout(const QString& text);

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    explicit PlotInspector(QCustomPlot* plot);
    void hover(QMouseEvent* event);
    void show(const QString& text, QPointF pixel);

    QCustomPlot* plot_;
    Describe describe_;
    struct Home {
        double xLower, xUpper, yLower, yUpper;
    };
    std::optional<Home> home_;
    QString shown_;
};

}  // namespace tsui
