#include "views/TableExport.hpp"

#include <QAbstractItemModel>
#include <QSaveFile>

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

QString toCsv(const QAbstractItemModel& model) {
    QString out;
    QStringList header;
    for (int c = 0; c < model.columnCount(); ++c)  // display headers may wrap; CSV headers don't
        header << quoted(model.headerData(c, Qt::Horizontal).toString().replace(QLatin1Char('\n'), QLatin1Char(' ')));
    out += header.join(QLatin1Char(',')) + QLatin1Char('\n');
    for (int r = 0; r < model.rowCount(); ++r) {
        QStringList row;
        for (int c = 0; c < model.columnCount(); ++c) {
            const QModelIndex i = model.index(r, c);
            QVariant v = model.data(i, Qt::UserRole);
            if (!v.isValid()) v = model.data(i, Qt::DisplayRole);
            row << quoted(v.toString());
        }
        out += row.join(QLatin1Char(',')) + QLatin1Char('\n');
    }
    return out;
}

bool writeCsv(const QAbstractItemModel& model, const QString& path, QString* error) {
    QSaveFile file(path);  // atomic: a failed export never leaves half a file
    if (!file.open(QIODevice::WriteOnly | QIODevice::Text) || file.write(toCsv(model).toUtf8()) < 0 || !file.commit()) {
        if (error) *error = QStringLiteral("cannot write %1: %2").arg(path, file.errorString());
        return false;
    }
    return true;
}

}  // namespace tsui
