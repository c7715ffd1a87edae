#include "models/FormatTableModel.hpp"

#include <algorithm>

#include "views/TableExport.hpp"
#include "views/TextFormat.hpp"

namespace tsui {

FormatTableModel::FormatTableModel(QObject* parent) : QAbstractTableModel(parent) {}

void FormatTableModel::setSurvey(SurveyPtr survey, std::uint64_t cooBytes) {
    beginResetModel();
    survey_ = std::move(survey);
    cooBytes_ = cooBytes;
    predicting_ = survey_ &&
                  std::any_of(survey_->begin(), survey_->end(), [](const tscope::FormatRow& r) { return r.predicted; });
    smallest_.clear();
    if (survey_)
        for (const tscope::FormatRow& r : *survey_) {
            if (!r.built) continue;
            for (const int key : {r.mode, -1}) {
                auto [it, fresh] = smallest_.emplace(key, r.storage.bytes());
                if (!fresh) it->second = std::min(it->second, r.storage.bytes());
            }
        }
    endResetModel();
}

// As the CLI's star: the fewest bytes among the rows built for its mode; a row for every mode
// against every row.
bool FormatTableModel::smallest(const tscope::FormatRow& r) const {
    const auto it = smallest_.find(r.mode);
    return it != smallest_.end() && it->second == r.storage.bytes();
}

int FormatTableModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() || !survey_ ? 0 : static_cast<int>(survey_->size());
}

int FormatTableModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : ColumnCount; }

QVariant FormatTableModel::data(const QModelIndex& index, int role) const {
    if (!survey_ || !index.isValid() || index.row() >= rowCount()) return {};
    const tscope::FormatRow& r = (*survey_)[static_cast<std::size_t>(index.row())];
    const bool raw = role == Qt::UserRole;
    const bool sized = r.built || r.predicted;  // built, or its bytes predicted (a streamed tensor)
    const QString approx = r.estimate ? QStringLiteral("≈ ") : QString();
    if (role == Qt::ToolTipRole && !sized) return fromEngine(r.error);
    if (role == Qt::ToolTipRole && index.column() == Status && r.built && smallest(r))
        return r.mode < 0 ? tr("The fewest bytes of every format built")
                          : tr("The fewest bytes of the formats built for mode %1").arg(r.mode + 1);
    if (role == Qt::TextAlignmentRole)
        return index.column() <= Mode || index.column() == Status ? QVariant(Qt::AlignLeft | Qt::AlignVCenter)
                                                                   : QVariant(Qt::AlignRight | Qt::AlignVCenter);
    if (role != Qt::DisplayRole && !raw) return {};
    switch (index.column()) {
    case Format: return QString::fromLatin1(tscope::format_name(r.kind));
    case Mode:  // an every-mode format's raw mode is none: a CSV says "all" (it said mode 0), a sort puts it last
        return r.mode < 0 ? (raw ? QVariant() : QVariant(tr("all"))) : QVariant(r.mode + 1);
    case Units:
        if (!r.built) return {};
        return raw ? QVariant::fromValue<qulonglong>(r.storage.units()) : QVariant(grouped(r.storage.units()));
    case Bytes:
        if (!sized) return {};
        return raw ? QVariant::fromValue<qulonglong>(r.storage.bytes()) : QVariant(approx + humanBytes(r.storage.bytes()));
    case VsCoo: {
        if (!sized || cooBytes_ == 0) return {};
        const double ratio = static_cast<double>(r.storage.bytes()) / static_cast<double>(cooBytes_);
        return raw ? QVariant(ratio) : QVariant(approx + shortNumber(ratio) + QStringLiteral("×"));
    }
    case BuildSeconds:
        if (!r.built) return {};
        return raw ? QVariant(r.build_seconds) : QVariant(columnSeconds(r.build_seconds));
    case Status:
        if (r.built && smallest(r))
            // the smallest for the row's own mode (its column says which): "the smallest for mode 1" took
            // the narrow column three lines a row
            return r.mode < 0 ? tr("built; smallest of all") : tr("built; smallest");
        if (r.built) return tr("built");
        if (r.predicted) return r.estimate ? tr("estimated from sketched counts (nothing built)") : tr("predicted from exact counts (nothing built)");
        // where nothing is built, a row the counts cannot predict is not predicted (sweep 70c C15)
        return (predicting_ ? tr("not predicted: %1") : tr("not built: %1")).arg(fromEngine(r.error));
    default: return {};
    }
}

QVariant FormatTableModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation == Qt::Horizontal && role == kExportRole && section == BuildSeconds)
        return tr("Build s");  // raw seconds
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
    // two-line headers where the numbers are narrower than their names, so that Status keeps
    // the width (the CSV's headers are on one line)
    static const char* names[] = {"Format", "Mode", "Storage\nunits", "Bytes", "vs COO", "Build\ntime", "Status"};
    return section >= 0 && section < ColumnCount ? tr(names[section]) : QVariant();
}

}  // namespace tsui
