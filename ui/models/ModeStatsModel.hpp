// The per-mode statistics table of the Overview tab: one row per mode.
#pragma once

#include <QAbstractTableModel>

#include "models/Dataset.hpp"

namespace tsui {

class ModeStatsModel : public QAbstractTableModel {
    Q_OBJECT

public:
    enum Column { Mode, Length, Slices, SliceMean, SliceStd, SliceMax, Fibers, FiberMean, FiberStd, FiberMax, ColumnCount };

    explicit ModeStatsModel(QObject* parent = nullptr);
    void setDataset(DatasetPtr dataset);

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    DatasetPtr dataset_;
};

}  // namespace tsui
