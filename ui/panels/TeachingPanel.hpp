// The Teaching tab (small tensors, up to a few hundred nonzeros): the chosen format's arrays
// next to the tensor's slices. Clicking a nonzero highlights every cell that locates it in
// every array; clicking an array cell highlights the nonzeros that use it.
#pragma once

#include <memory>

#include "models/Dataset.hpp"
#include "panels/Panel.hpp"
#include "tscope/formats/format_anatomy.hpp"

class QComboBox;
class QLabel;
class QStackedWidget;
class QTableWidget;
class QVBoxLayout;

namespace tsui {

class TeachingPanel : public Panel {
    Q_OBJECT

public:
    static constexpr std::uint64_t kMaxNonzeros = 500;

    explicit TeachingPanel(QWidget* parent = nullptr);
    QString title() const override { return tr("Teaching"); }
    void setDataset(const DatasetPtr& dataset) override;
    // Selects the nonzero at these coordinates (0-based); false when there is none.
    bool selectNonzero(const std::vector<std::uint64_t>& coord);
    void selectFormat(const QString& name, int mode);
    const tscope::FormatAnatomy* anatomy() const { return anatomy_.get(); }
    QTableWidget* arraysTable() const { return arrays_; }
    // The (array, position) cells highlighted now.
    std::vector<std::pair<int, int>> highlightedCells() const;
    QString statusText() const;
    // Why the arrays are not shown, in their place; "" while they are.
    QString whyText() const;

private:
    void rebuild();
    void showSlices();
    void highlightEntry(int entry);
    void highlightCell(int array, int position);
    void clearHighlights();
    void clearOtherSelections();
    void showWhy(const QString& text);

    DatasetPtr dataset_;
    std::unique_ptr<tscope::FormatAnatomy> anatomy_;
    QComboBox* format_;
    QComboBox* mode_;
    QLabel* status_;
    QWidget* slicesBox_;
    QVBoxLayout* slicesLayout_;
    std::vector<QTableWidget*> sliceTables_;
    QWidget* slicesScroll_;
    std::vector<std::uint64_t> selected_;  // the highlighted nonzero, kept across formats
    QTableWidget* arrays_;
    QLabel* legend_;  // each array's name and what it holds
    QStackedWidget* pages_;
    QLabel* why_;
};

}  // namespace tsui
