// The Density tab: how the nonzeros spread. Nonzeros per slice of the chosen mode (index order
// or sorted), its fiber-length histogram on log scales, a two-mode binned density map that
// says how many cells one pixel holds, and HLS's 16^3 tile map (order 3). Computed on a worker
// while the tab is visible.
#pragma once

#include <QFutureWatcher>
#include <QWidget>
#include <memory>

#include "models/Dataset.hpp"
#include "tscope/run_control.hpp"
#include "tscope/tensor/density_map.hpp"

class QCheckBox;
class QComboBox;
class QCustomPlot;
class QLabel;

namespace tsui {

class DensityPanel : public QWidget {
    Q_OBJECT

public:
    explicit DensityPanel(QWidget* parent = nullptr);
    ~DensityPanel() override;
    void setDataset(const DatasetPtr& dataset);
    bool isBusy() const { return watcher_.isRunning(); }
    QCustomPlot* slicePlot() const { return slices_; }
    QCustomPlot* fiberPlot() const { return fibers_; }
    QCustomPlot* mapPlot() const { return map_; }
    QCustomPlot* tilePlot() const { return tiles_; }
    QString mapCaption() const;
    QString tileCaption() const;

Q_SIGNALS:
    void idle();

protected:
    // The counting starts when the tab is shown (and again for a new tensor): work that nobody
    // looks at would only take the cores from what the user does see.
    void showEvent(QShowEvent* event) override;

private:
    struct Result {
        int mode = 0, mapX = 0, mapY = 1;
        std::vector<std::uint64_t> sliceCounts;
        tscope::DensityMap map;
        std::shared_ptr<tscope::TileMap> tiles;  // order 3 only
        QString tileNote;
        QString error;
    };
    void start();
    void onDone();
    void drawSlices();
    void drawFibers();
    void drawMap(QCustomPlot* plot, const tscope::DensityMap& map, bool logScale, const QString& what);
    void fillModeChoices();

    DatasetPtr dataset_;
    DatasetPtr runningFor_;
    std::shared_ptr<tscope::AtomicRunControl> control_;
    QFutureWatcher<Result> watcher_;
    Result result_;
    bool pending_ = false;
    bool stale_ = false;  // the shown result is not for the current tensor / choices
    QComboBox* mode_;
    QComboBox* pair_;
    QCheckBox* sorted_;
    QLabel* status_;
    QLabel* mapCaption_;
    QLabel* tileCaption_;
    QCustomPlot* slices_;
    QCustomPlot* fibers_;
    QCustomPlot* map_;
    QCustomPlot* tiles_;
};

}  // namespace tsui
