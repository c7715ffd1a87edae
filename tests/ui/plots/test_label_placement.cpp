// Point labels cover neither one another nor a point: the placement itself, and the roofline's
// labels as QCustomPlot draws them (formats of one backend sit close on the chart; their labels
// had landed on one another).
#include <qcustomplot.h>
#include <QtTest>
#include <algorithm>
#include <cmath>

#include "plots/LabelPlacement.hpp"
#include "plots/RooflinePlot.hpp"

using namespace tsui;

namespace {

bool anyOverlap(const std::vector<QRectF>& boxes, QString* which) {
    for (std::size_t i = 0; i < boxes.size(); ++i)
        for (std::size_t j = i + 1; j < boxes.size(); ++j)
            if (boxes[i].intersects(boxes[j])) {
                *which = QStringLiteral("labels %1 and %2").arg(i).arg(j);
                return true;
            }
    return false;
}

// A row the roofline places: format `f` on the CPU at (intensity, gflops).
tscope::BenchResult cpuRow(tscope::FormatKind f, tscope::Backend b, double intensity, double gflops) {
    tscope::BenchResult r{};
    r.kernel = tscope::KernelKind::MTTKRP, r.format = f, r.backend = b;
    r.ran = true, r.intensity = intensity, r.gflops = gflops, r.copy_gbps = 60, r.peak_gflops = 100;
    r.peak_source = "measured";
    return r;
}

}  // namespace

class TestLabelPlacement : public QObject {
    Q_OBJECT

private slots:
    // Seven labels on points a few pixels apart, as a cluster of formats looks on a log chart.
    void crowdedLabelsGoApart() {
        std::vector<LabelToPlace> labels;
        std::vector<QPointF> points;
        for (int i = 0; i < 7; ++i) {
            points.emplace_back(300 + 3 * i, 200 - 2 * i);
            labels.push_back({points.back(), QSizeF(80, 12)});
        }
        const QRectF bounds(0, 0, 800, 400);
        const auto places = placeLabels(labels, points, 4, bounds);
        QCOMPARE(places.size(), labels.size());
        std::vector<QRectF> boxes;
        for (const LabelPlace& p : places) boxes.push_back(p.box);
        QString which;
        QVERIFY2(!anyOverlap(boxes, &which), qPrintable(which));
        for (std::size_t i = 0; i < places.size(); ++i) {
            QVERIFY(bounds.contains(places[i].box));
            for (const QPointF& p : points) QVERIFY(!places[i].box.adjusted(-4, -4, 4, 4).contains(p));
            // still beside its own point: within a few lines of it
            const QPointF d = places[i].box.center() - labels[i].anchor;
            QVERIFY2(std::hypot(d.x(), d.y()) < 6 * 12 + 80, qPrintable(QString::number(std::hypot(d.x(), d.y()))));
        }
        // seven places in a cluster: some stand off their points, and say so (the chart draws
        // them a line); the first, placed first, takes the ring next to its point
        QVERIFY(!places.front().away);
        QVERIFY(std::any_of(places.begin(), places.end(), [](const LabelPlace& p) { return p.away; }));
    }

    // The first label takes the nearest place (right of its point); one at the right edge goes left.
    void nearestFreePlaceFirstAndInsideThePlot() {
        const QRectF bounds(0, 0, 400, 300);
        const auto places = placeLabels({{QPointF(100, 100), QSizeF(60, 12)}, {QPointF(395, 100), QSizeF(60, 12)}},
                                        {QPointF(100, 100), QPointF(395, 100)}, 4, bounds);
        QCOMPARE(places[0].alignment, Qt::AlignLeft | Qt::AlignVCenter);
        QVERIFY(!places[0].away && !places[1].away);
        QCOMPARE(places[0].box.left(), 107.0);  // the disc's radius and a gap
        QCOMPARE(places[0].box.center().y(), 100.0);
        QVERIFY(places[1].box.right() <= 395);
        QVERIFY(bounds.contains(places[1].box));
    }

    // A mode that ran apart from its format's others is named too (sweep 72b: an MM-CSF point
    // at half the others' GFLOP/s had no label); modes that lie together share one.
    void aModeApartFromTheOthersHasItsOwnLabel() {
        std::vector<tscope::BenchResult> rows;
        const double gflops[] = {49.3, 22.1, 55.3};  // MovieLens' MM-CSF, modes 1-3
        for (int m = 0; m < 3; ++m) {
            rows.push_back(cpuRow(tscope::FormatKind::MMCSF, tscope::Backend::Omp, 5.0, gflops[m]));
            rows.back().mode = m;
            rows.push_back(cpuRow(tscope::FormatKind::COO, tscope::Backend::Omp, 3.5, 10 + 0.2 * m));
            rows.back().mode = m;
        }
        RooflinePlot roof;
        roof.resize(760, 420);
        roof.setResults(rows);
        QStringList written;
        for (QCPItemText* t : roof.labelItems()) written << t->text();
        written.sort();
        QCOMPARE(written, QStringList({QStringLiteral("COO/omp"), QStringLiteral("MM-CSF/omp m1,3"),
                                       QStringLiteral("MM-CSF/omp m2")}));
        // formats on one spot share a label (SpTV's, planned alike), each mode's spot its own
        rows.clear();
        for (tscope::FormatKind f : {tscope::FormatKind::COO, tscope::FormatKind::CSF})
            for (int m = 0; m < 2; ++m) {
                rows.push_back(cpuRow(f, tscope::Backend::Omp, 0.1 + 0.05 * m, 1.2 + 3 * m));
                rows.back().mode = m;
            }
        roof.setResults(rows);
        written.clear();
        for (QCPItemText* t : roof.labelItems()) written << t->text();
        written.sort();
        QCOMPARE(written, QStringList({QStringLiteral("COO, CSF/omp m1"), QStringLiteral("COO, CSF/omp m2")}));
    }

    // The roofline's labels as drawn: five formats of one backend on nearly one point, and
    // the same again for a second backend below them. Before LabelPlacement the fourth label
    // stepped back down onto the first.
    void rooflineLabelsDoNotOverlap() {
        using F = tscope::FormatKind;
        std::vector<tscope::BenchResult> rows;
        const F formats[] = {F::COO, F::CSF, F::HiCOO, F::BCSF, F::ALTO};
        for (int i = 0; i < 5; ++i) {
            // 8% apart: a few pixels, yet apart enough that each keeps its own label (points
            // closer than 7% share one, as coincident formats do)
            rows.push_back(cpuRow(formats[i], tscope::Backend::Omp, 0.6 * std::pow(1.08, i), 3.0 + 0.05 * i));
            rows.push_back(cpuRow(formats[i], tscope::Backend::CpuRef, 0.6 * std::pow(1.08, i), 0.85 + 0.01 * i));
        }
        RooflinePlot roof;
        roof.resize(760, 420);
        roof.show();
        QVERIFY(QTest::qWaitForWindowExposed(&roof));
        roof.setResults(rows);
        const auto items = roof.labelItems();
        QCOMPARE(items.size(), std::size_t{10});
        for (const QSize size : {QSize(760, 420), QSize(480, 300)}) {  // placed again at each size
            roof.resize(size);
            roof.plot()->replot();
            std::vector<QRectF> boxes;
            for (QCPItemText* t : items) {  // QCustomPlot's own box, less its padding: the text
                const QMargins pad = t->padding();
                boxes.push_back(QRectF(t->topLeft->pixelPosition(), t->bottomRight->pixelPosition())
                                    .adjusted(pad.left(), pad.top(), -pad.right(), -pad.bottom()));
            }
            QString which;
            QVERIFY2(!anyOverlap(boxes, &which),
                     qPrintable(QStringLiteral("%1 at %2 px").arg(which).arg(size.width())));
            const QRectF inside = roof.plot()->axisRect()->rect();
            for (const QRectF& b : boxes) QVERIFY(inside.adjusted(-1, -1, 1, 1).contains(b));
            // a label that stands off its point is joined to it: each line runs from a drawn
            // point to a label's box (sweep 74a F10: in a short window labels sat beside other
            // series' points with nothing to say whose they were)
            if (size.height() == 300) QVERIFY(!roof.leaderLines().empty());
            for (QCPItemLine* line : roof.leaderLines()) {
                const QPointF end = line->end->pixelPosition();
                QVERIFY(std::any_of(boxes.begin(), boxes.end(),
                                    [&](const QRectF& b) { return b.adjusted(-8, -8, 8, 8).contains(end); }));
            }
        }
    }
};

QTEST_MAIN(TestLabelPlacement)
#include "test_label_placement.moc"
