#include "models/DecompRunsModel.hpp"

#include <cmath>

#include "views/TableExport.hpp"
#include "views/TextFormat.hpp"

namespace tsui {

DecompRunsModel::DecompRunsModel(QObject* parent) : QAbstractTableModel(parent) {}

int DecompRunsModel::addRun(DecompRun run) {
    runs_.push_back(std::move(run));
    return static_cast<int>(runs_.size()) - 1;
}

void DecompRunsModel::addIteration(int run, const tscope::IterationReport& report) {
    if (run < 0 || run >= static_cast<int>(runs_.size())) return;
    const int row = static_cast<int>(rows_.size());
    beginInsertRows({}, row, row);
    runs_[static_cast<std::size_t>(run)].iterations.push_back(report);
    rows_.emplace_back(run, static_cast<int>(runs_[static_cast<std::size_t>(run)].iterations.size()) - 1);
    endInsertRows();
}

bool DecompRunsModel::nameOtherTensors(const QString& current) {
    bool changed = false;
    for (DecompRun& r : runs_) {
        const QString tag = QStringLiteral(" · ") + r.tensor;
        if (r.tensor == current || r.tensor.isEmpty() || r.label.endsWith(tag)) continue;
        r.label += tag;
        changed = true;
    }
    if (changed && !rows_.empty()) Q_EMIT dataChanged(index(0, Run), index(static_cast<int>(rows_.size()) - 1, Run));
    return changed;
}

void DecompRunsModel::setOutcome(int run, const QString& outcome) {
    if (run >= 0 && run < static_cast<int>(runs_.size())) runs_[static_cast<std::size_t>(run)].outcome = outcome;
}

void DecompRunsModel::setSetup(int run, const CpdSetup& setup) {
    if (run >= 0 && run < static_cast<int>(runs_.size())) runs_[static_cast<std::size_t>(run)].setup = setup;
}

void DecompRunsModel::setBaseline(int run, double testRmse) {
    if (run >= 0 && run < static_cast<int>(runs_.size()))
        runs_[static_cast<std::size_t>(run)].baselineTestRmse = testRmse;
}

void DecompRunsModel::clear() {
    beginResetModel();
    runs_.clear();
    rows_.clear();
    endResetModel();
}

int DecompRunsModel::rowCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : static_cast<int>(rows_.size()); }
int DecompRunsModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : ColumnCount; }

QVariant DecompRunsModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || index.row() >= static_cast<int>(rows_.size())) return {};
    const auto [run, it] = rows_[static_cast<std::size_t>(index.row())];
    const DecompRun& r = runs_[static_cast<std::size_t>(run)];
    const tscope::IterationReport& rep = r.iterations[static_cast<std::size_t>(it)];
    const bool raw = role == Qt::UserRole;
    if (role == Qt::DecorationRole && index.column() == Run) return r.colour;
    if (role == Qt::TextAlignmentRole) return index.column() == Run ? QVariant() : QVariant(Qt::AlignRight | Qt::AlignVCenter);
    if (role != Qt::DisplayRole && !raw) return {};
    auto num = [&](double x, int digits) -> QVariant {
        if (raw) return x;
        return std::isnan(x) ? QStringLiteral("–") : QString::number(x, 'f', digits);
    };
    switch (index.column()) {
    case Run: return r.label;
    case Iter: return rep.iter;
    case Seconds: return raw ? QVariant(rep.seconds) : QVariant(columnSeconds(rep.seconds));
    case Fit: return num(rep.fit, 6);
    case TrainRmse: return num(rep.train_rmse, 4);
    case TestRmse: return num(rep.test_rmse, 4);
    case TrainMae: return num(rep.train_mae, 4);
    case TestMae: return num(rep.test_mae, 4);
    }
    return {};
}

QVariant DecompRunsModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || section < 0 || section >= ColumnCount)
        return QAbstractTableModel::headerData(section, orientation, role);
    // the engine's IterationReport::seconds runs from the method's start, setup included: a
    // bare "seconds" read as the iteration's own time
    if (role == Qt::ToolTipRole && section == Seconds)
        return tr(
            "Seconds from the start (its setup included: formats built, data uploaded) to the end of this iteration; "
            "the file's read, before the run (in the setup bar of an opened run), is not");
    if (role == kExportRole && section == Seconds) return tr("elapsed s");  // the CSV's raw seconds
    if (role != Qt::DisplayRole) return QAbstractTableModel::headerData(section, orientation, role);
    static const char* names[] = {"run",        "iteration", "elapsed",   "fit",
                                  "train RMSE", "test RMSE", "train MAE", "test MAE"};
    return tr(names[section]);
}

}  // namespace tsui
