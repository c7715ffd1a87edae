#include "models/KernelResultsModel.hpp"

#include "views/TableExport.hpp"
#include "views/TextFormat.hpp"

namespace tsui {

KernelResultsModel::KernelResultsModel(QObject* parent) : QAbstractTableModel(parent) {}

void KernelResultsModel::setResults(std::vector<tscope::BenchResult> results) {
    beginResetModel();
    results_ = std::move(results);
    for (auto& r : results_) r.output = {};  // the tables never show the output matrices
    endResetModel();
}

void KernelResultsModel::addResult(tscope::BenchResult result) {
    const int row = static_cast<int>(results_.size());
    beginInsertRows({}, row, row);
    result.output = {};
    results_.push_back(std::move(result));
    endInsertRows();
}

int KernelResultsModel::rowCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : static_cast<int>(results_.size()); }
int KernelResultsModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : ColumnCount; }

QVariant KernelResultsModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || index.row() >= static_cast<int>(results_.size())) return {};
    const tscope::BenchResult& r = results_[static_cast<std::size_t>(index.row())];
    const bool raw = role == Qt::UserRole;
    if (role == Qt::TextAlignmentRole)
        return index.column() >= Mode && index.column() <= Error ? QVariant(Qt::AlignRight | Qt::AlignVCenter) : QVariant();
    if (role == Qt::ToolTipRole && !r.ran) return QString::fromStdString(r.error);
    if (role == Qt::ToolTipRole && index.column() == Note) return data(index, Qt::DisplayRole);  // the table cuts it
    if (role != Qt::DisplayRole && !raw) return {};
    // a row that did not run has no number: its raw value is none, so that a CSV says "–" and a
    // sort puts it last (both had taken 0, the fastest time: sweep 72b F3)
    // times in their unit: a column in plain seconds mixed "0.0134" and "6.34e-3" (sweep 72b)
    auto value = [&](double x, QString (*text)(double)) -> QVariant {
        if (!r.ran) return raw ? QVariant() : QVariant(QStringLiteral("–"));
        return raw ? QVariant(x) : QVariant(text(x));
    };
    switch (index.column()) {
    case Kernel: return QString::fromLatin1(tscope::kernel_name(r.kernel));
    case Format: return QString::fromStdString(tscope::format_label(r));
    case Backend: return QString::fromLatin1(tscope::backend_name(r.backend));
    case Mode: return r.mode + 1;
    case Rank:  // a row that did not run may carry none (a recording's read 0)
        if (r.rank == 0) return raw ? QVariant() : QVariant(QStringLiteral("–"));
        return static_cast<qulonglong>(r.rank);
    case Median:  // a row that did not run says so where its time would be: "–" alone read as no error (sweep 73b)
        if (!r.ran) return raw ? QVariant() : QVariant(tr("not run"));
        return value(r.median_s, columnSeconds);
    case Transfer:
        return r.backend == tscope::Backend::Cuda ? value(r.transfer_s, columnSeconds)
                                                  : (raw ? QVariant() : QVariant(QStringLiteral("–")));
    case Gflops: return value(r.gflops, shortNumber);
    case Gbps: return value(r.gbps, shortNumber);
    case Error:
        if (!r.max_rel_error) return raw ? QVariant() : QVariant(QStringLiteral("–"));
        return raw ? QVariant(*r.max_rel_error) : QVariant(engineering(*r.max_rel_error));
    case Note: {
        if (!r.ran) return QString::fromStdString(r.error);
        QString note = QString::fromStdString(r.device);
        if (r.vector_packed)  // SpTV on the GPU with a vector larger than L2 (SptvPlan::vector_packed)
            note += tr(" · %1 much-read vector entries packed ahead (vector over L2)").arg(grouped(r.vector_packed));
        return note;
    }
    }
    return {};
}

QVariant KernelResultsModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation == Qt::Horizontal && role == Qt::ToolTipRole && section == Error)
        return tr("The largest relative error of the result against the serial oracle (cpu-ref)");
    if (orientation == Qt::Horizontal && role == Qt::ToolTipRole && section == Note)
        return tr("The device a run used, or why it did not run (hover a cell for all of it)");
    if (orientation == Qt::Horizontal && role == kExportRole && (section == Median || section == Transfer))
        return section == Median ? tr("median s") : tr("transfer s");  // the CSV's raw seconds
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return QAbstractTableModel::headerData(section, orientation, role);
    switch (section) {
    case Kernel: return tr("kernel");
    case Format: return tr("format");
    case Backend: return tr("backend");
    case Mode: return tr("mode");
    case Rank: return tr("rank");
    case Median: return tr("median");
    case Transfer: return tr("transfer");
    case Gflops: return tr("GFLOP/s");
    case Gbps: return tr("GB/s");
    case Error: return tr("error vs ref");
    case Note: return tr("device");  // the column takes what is left: a long name was cut at both ends
    }
    return {};
}

}  // namespace tsui
