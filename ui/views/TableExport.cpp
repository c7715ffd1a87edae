#include "views/TableExport.hpp"

#include <QAbstractItemModel>
#include <QFileDialog>
#include <QHeaderView>
#include <QMenu>
#include <QMessageBox>
#include <QSaveFile>
#include <QTableView>

namespace tsui {

namespace {

QString quoted(QString cell) {
    if (cell.contains(QLatin1Char(',')) || cell.contains(QLatin1Char('"')) || cell.contains(QLatin1Char('\n'))) {
        cell.replace(QLatin1String("\""), QLatin1String("\"\""));
        return QLatin1Char('"') + cell + QLatin1Char('"');
    }
    return cell;
}

}  // namespace

QString toCsv(const QAbstractItemModel& model, bool rowNames) {
    QString out;
    QStringList header;
    if (rowNames) header << QString();
    for (int c = 0; c < model.columnCount(); ++c) {  // display headers may wrap; CSV headers don't
        QVariant h = model.headerData(c, Qt::Horizontal, kExportRole);
        if (!h.isValid()) h = model.headerData(c, Qt::Horizontal);
        header << quoted(h.toString().replace(QLatin1Char('\n'), QLatin1Char(' ')));
    }
    out += header.join(QLatin1Char(',')) + QLatin1Char('\n');
    for (int r = 0; r < model.rowCount(); ++r) {
        QStringList row;
        if (rowNames) row << quoted(model.headerData(r, Qt::Vertical).toString());
        for (int c = 0; c < model.columnCount(); ++c) {
            const QModelIndex i = model.index(r, c);
            QVariant v = model.data(i, kExportRole);
            if (!v.isValid()) v = model.data(i, Qt::UserRole);
            if (!v.isValid()) v = model.data(i, Qt::DisplayRole);
            row << quoted(v.toString());
        }
        out += row.join(QLatin1Char(',')) + QLatin1Char('\n');
    }
    return out;
}

bool writeCsv(const QAbstractItemModel& model, const QString& path, QString* error, bool rowNames) {
    QSaveFile file(path);  // atomic: a failed export never leaves half a file
    if (!file.open(QIODevice::WriteOnly | QIODevice::Text) || file.write(toCsv(model, rowNames).toUtf8()) < 0 || !file.commit()) {
        if (error) *error = QStringLiteral("cannot write %1: %2").arg(path, file.errorString());
        return false;
    }
    return true;
}

void setUpResultTable(QAbstractItemView* view) {
    view->setTabKeyNavigation(false);
    view->setContextMenuPolicy(Qt::CustomContextMenu);
    QObject::connect(view, &QWidget::customContextMenuRequested, view, [view](const QPoint& at) {
        QMenu menu(view);
        QAction* csv = menu.addAction(QObject::tr("Export table as CSV…"));
        if (menu.exec(view->viewport()->mapToGlobal(at)) != csv || !view->model()) return;
        const QString path = QFileDialog::getSaveFileName(view, QObject::tr("Export table"), QStringLiteral("table.csv"), QObject::tr("CSV (*.csv)"));
        const auto* table = qobject_cast<const QTableView*>(view);
        QString error;
        if (!path.isEmpty() && !writeCsv(*view->model(), path, &error, table && table->verticalHeader()->isVisible()))
            QMessageBox::warning(view, QObject::tr("Export"), error);
    });
}

}  // namespace tsui
