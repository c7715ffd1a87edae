// Tables to CSV (RFC 4180 quoting). Raw numbers (Qt::UserRole) are written when a model
// offers them, so that exported data keeps its precision rather than the display rounding.
#pragma once

#include <QString>
#include <Qt>

class QAbstractItemModel;
class QAbstractItemView;

namespace tsui {

// A cell's text for the CSV where its raw number alone would say too little (an estimate's "≈"):
// taken before Qt::UserRole. A header's text for the CSV where it differs from the shown one (a
// time column shown as "1.2 ms" exports seconds, and its header says so).
inline constexpr int kExportRole = Qt::UserRole + 1;

// rowNames: the vertical header becomes the first column (tables whose rows are named).
QString toCsv(const QAbstractItemModel& model, bool rowNames = false);
bool writeCsv(const QAbstractItemModel& model, const QString& path, QString* error, bool rowNames = false);
// A table of results, read-only: "Export table as CSV…" in its context menu (rows named when
// its vertical header shows), and Tab moves on to the next control, where it walked the cells
// (30 of them in the Overview's) before leaving (sweep 66b); the arrows still move between cells.
void setUpResultTable(QAbstractItemView* view);

}  // namespace tsui
