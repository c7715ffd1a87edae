#include "models/ModeStatsModel.hpp"

#include "views/TableExport.hpp"
#include "views/TextFormat.hpp"

namespace tsui {

ModeStatsModel::ModeStatsModel(QObject* parent) : QAbstractTableModel(parent) {}

void ModeStatsModel::setDataset(DatasetPtr dataset) {
    beginResetModel();
    dataset_ = std::move(dataset);
    endResetModel();
}

int ModeStatsModel::rowCount(const QModelIndex& parent) const {
    if (parent.isValid() || !dataset_) return 0;
    return static_cast<int>(dataset_->stats.modes.size());
}

int ModeStatsModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : ColumnCount; }

QVariant ModeStatsModel::data(const QModelIndex& index, int role) const {
    if (!dataset_ || !index.isValid() || index.row() >= rowCount()) return {};
    const tscope::ModeStats& s = dataset_->stats.modes[static_cast<std::size_t>(index.row())];
    if (role == Qt::TextAlignmentRole) return QVariant(Qt::AlignRight | Qt::AlignVCenter);
    // Qt::UserRole gives the raw number (for sorting, tests and CSV export); kExportRole, for an
    // estimate, the number with its mark, which the CSV had dropped (sweep 72b F13)
    if (role == kExportRole) {
        const auto m = static_cast<std::size_t>(index.row());
        const bool exact = !dataset_->streamed ||
                           (dataset_->fibersEstimated && m < dataset_->fibersExact.size() && dataset_->fibersExact[m]);
        if (exact || index.column() < Fibers) return {};
        const QVariant number = data(index, Qt::UserRole);
        if (!number.isValid()) return {};
        return (index.column() == FiberMax ? QStringLiteral("≥ ") : QStringLiteral("≈ ")) + number.toString();
    }
    const bool raw = role == Qt::UserRole;
    if (role != Qt::DisplayRole && !raw) return {};
    auto count = [&](std::uint64_t v) -> QVariant { return raw ? QVariant::fromValue<qulonglong>(v) : QVariant(grouped(v)); };
    auto real = [&](double v) -> QVariant { return raw ? QVariant(v) : QVariant(shortNumber(v)); };
    const auto mode = static_cast<std::size_t>(index.row());
    const bool exactFibers = dataset_->fibersEstimated && mode < dataset_->fibersExact.size() && dataset_->fibersExact[mode];
    if (dataset_->streamed && index.column() >= Fibers && !exactFibers) {  // a sketch's count, a sample's lengths, or nothing
        const bool sampled = mode < dataset_->fibersSampled.size() && dataset_->fibersSampled[mode];
        const bool sketched = dataset_->fibersEstimated && (index.column() == Fibers || index.column() == FiberMean || sampled);
        if (!sketched) return raw ? QVariant() : QVariant(QStringLiteral("—"));
        switch (index.column()) {
        case Fibers: return raw ? QVariant::fromValue<qulonglong>(s.fibers) : QVariant(QStringLiteral("≈ ") + grouped(s.fibers));
        case FiberStd: return raw ? QVariant(s.fiber_nnz.std) : QVariant(QStringLiteral("≈ ") + shortNumber(s.fiber_nnz.std));
        case FiberMax: return raw ? QVariant::fromValue<qulonglong>(s.fiber_nnz.max) : QVariant(QStringLiteral("≥ ") + grouped(s.fiber_nnz.max));
        default: return raw ? QVariant(s.fiber_nnz.mean) : QVariant(QStringLiteral("≈ ") + shortNumber(s.fiber_nnz.mean));
        }
    }
    switch (index.column()) {
    case Mode: return s.mode + 1;
    case Length: return count(s.dim);
    case Slices: return count(s.slices);
    case SliceMean: return real(s.slice_nnz.mean);
    case SliceStd: return real(s.slice_nnz.std);
    case SliceMax: return count(s.slice_nnz.max);
    case Fibers: return count(s.fibers);
    case FiberMean: return real(s.fiber_nnz.mean);
    case FiberStd: return real(s.fiber_nnz.std);
    case FiberMax: return count(s.fiber_nnz.max);
    default: return {};
    }
}

QVariant ModeStatsModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal) return {};
    if (role == Qt::ToolTipRole) {
        switch (section) {
        case Slices: return tr("Non-empty slices: index values of this mode that hold at least one nonzero");
        case Fibers: return tr("Non-empty mode-m fibers: nonzeros that share every index but this mode's");
        case SliceMean: case SliceStd: case SliceMax: return tr("Nonzeros per non-empty slice");
        case FiberMean: case FiberStd: case FiberMax: return tr("Nonzeros per non-empty fiber");
        default: return {};
        }
    }
    if (role != Qt::DisplayRole) return {};
    static const char* names[] = {"Mode",      "Length",    "Slices\n(non-empty)", "nnz/slice\nmean", "nnz/slice\nstd",
                                  "nnz/slice\nmax", "Fibers\n(non-empty)", "nnz/fiber\nmean", "nnz/fiber\nstd",
                                  "nnz/fiber\nmax"};
    return section >= 0 && section < ColumnCount ? tr(names[section]) : QVariant();
}

}  // namespace tsui
