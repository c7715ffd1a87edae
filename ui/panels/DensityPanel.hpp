// The Density tab: how the nonzeros spread. Nonzeros per slice of the chosen mode (index order
// or sorted), its fiber-length histogram on log scales, a two-mode binned density map that
// says how many cells one pixel holds, and HLS's 16^3 tile map (order 3). Computed on a worker
// while the tab is visible.
#pragma once

#include <QPoint>
#include <QPointF>
#include <memory>

#include "jobs/EngineJob.hpp"
#include "models/Dataset.hpp"
#include "panels/Panel.hpp"
#include "tscope/tensor/density_map.hpp"

class QCheckBox;
class QPushButton;
class QComboBox;
class QCustomPlot;
class QLabel;

namespace tsui {

class DensityPanel : public Panel {
    Q_OBJECT

public:
    explicit DensityPanel(QWidget* parent = nullptr);
    QString title() const override { return tr("Density"); }
    void setDataset(const DatasetPtr& dataset) override;
    bool isBusy() const override { return job_.isBusy(); }
    QCustomPlot* slicePlot() const { return slices_; }
    QCustomPlot* fiberPlot() const { return fibers_; }
    QCustomPlot* mapPlot() const { return map_; }
    QCustomPlot* tilePlot() const { return tiles_; }
    QString mapCaption() const;
    QString tileCaption() const;

protected:
    // The counting starts when the tab is shown (and again for a new tensor): work that nobody
    // looks at would only take the cores from what the user does see.
    void showEvent(QShowEvent* event) override;

private:
    struct Result {
        int mode = 0, mapX = 0, mapY = 1;
        // the non-empty slices only, (index, nonzeros) ascending, and how many the mode has: a
        // mode of 2e9 indices had its 16 GB of counts copied on the GUI thread (sweep 72)
        std::vector<std::pair<std::uint64_t, std::uint64_t>> slices;
        std::uint64_t sliceDim = 0;
        tscope::DensityMap map;
        std::shared_ptr<tscope::TileMap> tiles;  // order 3 only
        QString tileNote;
    };
    static Result count(const tscope::CooTensor& t, int mode, QPoint pair, tscope::RunControl& control);
    // The same for a tensor too large to load: the slices and the map summed over parts of its
    // .tsb; no tile map.
    static Result countStreamed(const Dataset& dataset, int mode, QPoint pair, tscope::RunControl& control);
    static void keepNonEmptySlices(Result& r, std::vector<std::uint64_t> counts);
    void start();
    // The counting ended: false when the choices or the tensor changed meanwhile and the
    // counting started again.
    bool settle();
    void showCounts(Result result);
    void drawMapOrSayWhyNot();
    void drawSlices();
    void drawFibers();
    // A bin spans map.cells_x x map.cells_y indices, on the tile map too (its tiles times 16)
    void drawMap(QCustomPlot* plot, const tscope::DensityMap& map, bool logScale, const QString& what,
                 double scaleTop = 0);
    void attachReadouts();
    // tiles: the tile map's readout (a fill share), else the nonzero map's (a count)
    QString describeCell(QCustomPlot* plot, const tscope::DensityMap& map, bool tiles, QPointF pixel,
                         const QString& what) const;
    void fillModeChoices();

    DatasetPtr dataset_;
    DatasetPtr runningFor_;
    EngineJob job_;
    Result result_;
    bool pending_ = false;
    bool stale_ = false;  // the shown result is not for the current tensor / choices
    QComboBox* mode_;
    QComboBox* pair_;
    QCheckBox* sorted_;
    QLabel* status_;
    QPushButton* cancel_;
    QLabel* mapCaption_;
    QLabel* tileCaption_;
    QCustomPlot* slices_;
    QCustomPlot* fibers_;
    QCustomPlot* map_;
    QCustomPlot* tiles_;
};

}  // namespace tsui
