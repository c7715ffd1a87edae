#include "plots/PlotExport.hpp"

#include <QFileDialog>
#include <QFileInfo>
#include <QMenu>
#include <QMessageBox>
#include <qcustomplot.h>

#include "plots/PlotInspector.hpp"
#include "plots/PlotKeyboard.hpp"
#include "views/OutputPath.hpp"

namespace tsui {

bool savePlot(QCustomPlot* plot, const QString& path, QString* error) {
    const QString ext = QFileInfo(path).suffix().toLower();
    bool ok = false;
    if (ext == QLatin1String("png"))
        ok = plot->savePng(path, 0, 0, 2.0);  // twice the screen resolution: crisp in slides
    else if (ext == QLatin1String("pdf"))
        ok = plot->savePdf(path);
    else {
        if (error) *error = QObject::tr("choose a .png or .pdf file name");
        return false;
    }
    if (!ok && error) {
        const QString why = whyNotWritable(path);
        *error = why.isEmpty() ? QObject::tr("cannot write %1").arg(path)
                               : QObject::tr("cannot write %1: %2").arg(path, why);
    }
    return ok;
}

void enablePlotExport(QCustomPlot* plot) {
    enablePlotKeyboard(plot);  // the menu below opens from the Menu key too, once the plot has focus
    plot->setContextMenuPolicy(Qt::CustomContextMenu);
    QObject::connect(plot, &QWidget::customContextMenuRequested, plot, [plot](const QPoint& at) {
        QMenu menu(plot);
        QAction* png = menu.addAction(QObject::tr("Save plot as PNG…"));
        QAction* pdf = menu.addAction(QObject::tr("Save plot as PDF…"));
        QAction* reset = menu.addAction(QObject::tr("Reset zoom"));
        QAction* chosen = menu.exec(plot->mapToGlobal(at));
        if (chosen == reset) {
            PlotInspector::resetZoomOf(plot);
            return;
        }
        if (chosen != png && chosen != pdf) return;
        const bool isPng = chosen == png;
        const QString path = QFileDialog::getSaveFileName(plot, QObject::tr("Save plot"), isPng ? QStringLiteral("plot.png") : QStringLiteral("plot.pdf"),
                                                          isPng ? QObject::tr("PNG image (*.png)") : QObject::tr("PDF document (*.pdf)"));
        if (path.isEmpty()) return;
        QString error;
        if (!savePlot(plot, path, &error)) QMessageBox::warning(plot, QObject::tr("Save plot"), error);
    });
}

}  // namespace tsui
