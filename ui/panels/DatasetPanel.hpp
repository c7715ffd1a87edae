// The dataset panel (left dock): what is loaded, the bundled samples, recent files.
#pragma once

#include <QWidget>

#include "models/Dataset.hpp"
#include "models/SampleCatalog.hpp"

class QLabel;
class QListWidget;
class QListWidgetItem;

namespace tsui {

class DatasetPanel : public QWidget {
    Q_OBJECT

public:
    explicit DatasetPanel(QWidget* parent = nullptr);
    void setDataset(const DatasetPtr& dataset);
    void setRecentFiles(const QStringList& files);
    const QList<Sample>& samples() const { return samples_; }

Q_SIGNALS:
    void requested(const tsui::DatasetRequest& request);
    void openClicked();
    void generateClicked();

private:
    void onSample(QListWidgetItem* item);
    // The bundled sample `dataset` was opened from (its file, or its generator's title), or -1.
    int sampleIndexOf(const Dataset& dataset) const;
    void onRecent(QListWidgetItem* item);

    QList<Sample> samples_;
    QLabel* current_;
    QListWidget* sampleList_;
    QListWidget* recentList_;
};

}  // namespace tsui
