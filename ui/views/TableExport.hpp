// Tables to CSV (RFC 4180 quoting). Raw numbers (Qt::UserRole) are written when a model
// offers them, so that exported data keeps its precision rather than the display rounding.
#pragma once

#include <QString>

class QAbstractItemModel;

namespace tsui {

QString toCsv(const QAbstractItemModel& model);
bool writeCsv(const QAbstractItemModel& model, const QString& path, QString* error);

}  // namespace tsui
