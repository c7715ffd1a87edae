// A distributed CPD run's ranks side by side: each rank's nonzeros (left axis) and its
// communication volume, the factor rows it sends and receives per iteration (right axis), so a
// badly balanced grid or a rank that talks much more than the others stands out.
#pragma once

#include <QObject>
#include <QString>
#include <vector>

#include "models/DecompRunFile.hpp"

class QCustomPlot;
class QCPBars;

namespace tsui {

class RankBarsPlot {
public:
    explicit RankBarsPlot(QCustomPlot* plot);
    ~RankBarsPlot();  // the plot may outlive this (a child widget goes after its owner's members)
    RankBarsPlot(const RankBarsPlot&) = delete;
    RankBarsPlot& operator=(const RankBarsPlot&) = delete;
    void show(const QString& title, const std::vector<RankShare>& ranks);
    QCustomPlot* plot() const { return plot_; }
    QCPBars* nonzeros() const { return nnz_; }
    QCPBars* volume() const { return volume_; }

private:
    // Labels every n-th rank, n as few as this width lets stand apart; run before each replot,
    // so a resize relabels.
    void label();

    QCustomPlot* plot_;
    QCPBars* nnz_;
    QCPBars* volume_;
    std::vector<RankShare> ranks_;
    QMetaObject::Connection relabel_;
};

}  // namespace tsui
