// A distributed CPD run's ranks side by side: each rank's nonzeros (left axis) and its
// communication volume, the factor rows it sends and receives per iteration (right axis), so a
// badly balanced grid or a rank that talks much more than the others stands out.
#pragma once

#include <QString>
#include <vector>

#include "models/DecompRunFile.hpp"

class QCustomPlot;
class QCPBars;

namespace tsui {

class RankBarsPlot {
public:
    explicit RankBarsPlot(QCustomPlot* plot);
    void show(const QString& title, const std::vector<RankShare>& ranks);
    QCustomPlot* plot() const { return plot_; }
    QCPBars* nonzeros() const { return nnz_; }
    QCPBars* volume() const { return volume_; }

private:
    QCustomPlot* plot_;
    QCPBars* nnz_;
    QCPBars* volume_;
};

}  // namespace tsui
