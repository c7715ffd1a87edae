// The Overview tab: the tensor's shape, load report and the per-mode statistics table.
#pragma once


#include "models/Dataset.hpp"
#include "panels/Panel.hpp"

class QLabel;
class QPushButton;
class QTableView;
class QStackedWidget;

namespace tsui {

class ModeStatsModel;

class OverviewPanel : public Panel {
    Q_OBJECT

public:
    explicit OverviewPanel(QWidget* parent = nullptr);
    QString title() const override { return tr("Overview"); }
    void setDataset(const DatasetPtr& dataset) override;
    ModeStatsModel* statsModel() const { return model_; }
    QTableView* statsTable() const { return table_; }
    // Summary field text by key ("order", "dims", "nnz", ...), for tests.
    QString summaryText(const QString& key) const;
    // "Load a sample that fits": shown for a tensor read in parts (Dataset::streamed).
    QPushButton* sampleButton() const { return sample_; }

Q_SIGNALS:
    // The user asks for the first slices of the streamed tensor's first mode that fit in memory.
    void sampleRequested();

private:
    void exportCsv();

    QStackedWidget* stack_;
    QList<QPair<QString, QLabel*>> fields_;
    ModeStatsModel* model_;
    QTableView* table_;
    QPushButton* sample_;
};

}  // namespace tsui
