#include "plots/PlotHint.hpp"

#include <qcustomplot.h>
#include <QFontMetrics>

namespace tsui {

namespace {
const char* const kHintName = "tsui-plot-hint";
const char* const kHintText = "tsui-plot-hint-text";  // the hint as given, before wrapping

// Wraps the hint to the axis rect as the plot lays itself out: one long line was cut at both ends
// in a plot beside a table (Reorder's MTTKRP sweep, about 380 px).
void fitHint(QCustomPlot* plot, QCPItemText* text) {
    const int width = std::max(120, plot->axisRect()->width() - 20);
    text->setText(wrapHint(text->property(kHintText).toString(), QFontMetrics(text->font()), width));
}
}  // namespace

QString wrapHint(const QString& hint, const QFontMetrics& metrics, int width) {
    QStringList lines;
    QString line;
    for (const QString& word : hint.split(QLatin1Char(' '), Qt::SkipEmptyParts)) {
        const QString longer = line.isEmpty() ? word : line + QLatin1Char(' ') + word;
        if (!line.isEmpty() && metrics.horizontalAdvance(longer) > width)
            lines << line, line = word;
        else
            line = longer;
    }
    if (!line.isEmpty()) lines << line;
    return lines.join(QLatin1Char('\n'));
}

void showPlotHint(QCustomPlot* plot, bool empty, const QString& hint, bool legend) {
    QCPItemText* text = nullptr;
    for (int i = 0; i < plot->itemCount(); ++i)
        if (auto* t = qobject_cast<QCPItemText*>(plot->item(i)); t && t->objectName() == QLatin1String(kHintName)) text = t;
    if (!text) {
        text = new QCPItemText(plot);
        text->setObjectName(QLatin1String(kHintName));
        text->position->setType(QCPItemPosition::ptAxisRectRatio);
        text->position->setCoords(0.5, 0.5);
        text->setPositionAlignment(Qt::AlignCenter);
        text->setTextAlignment(Qt::AlignCenter);
        text->setColor(QColor(90, 90, 90));
        text->setClipToAxisRect(false);
        QObject::connect(plot, &QCustomPlot::afterLayout, text, [plot, text] { fitHint(plot, text); });
    }
    text->setProperty(kHintText, hint);
    fitHint(plot, text);
    text->setVisible(empty);
    plot->legend->setVisible(!empty && legend);
    plot->xAxis->setTickLabels(!empty);
    plot->yAxis->setTickLabels(!empty);
}

}  // namespace tsui
