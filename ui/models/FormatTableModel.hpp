// The Formats tab's table: one row per (format, mode) of a format survey.
#pragma once

#include <QAbstractTableModel>
#include <map>
#include <memory>
#include <vector>

#include "tscope/formats/format_survey.hpp"

namespace tsui {

using SurveyPtr = std::shared_ptr<const std::vector<tscope::FormatRow>>;

class FormatTableModel : public QAbstractTableModel {
    Q_OBJECT

public:
    enum Column { Format, Mode, Units, Bytes, VsCoo, BuildSeconds, Status, ColumnCount };

    explicit FormatTableModel(QObject* parent = nullptr);
    void setSurvey(SurveyPtr survey, std::uint64_t cooBytes);

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    SurveyPtr survey_;
    std::uint64_t cooBytes_ = 0;
    bool predicting_ = false;  // a streamed survey: rows are predicted, none built
    // The fewest bytes of a built row per mode, and (key -1) of every built row: the CLI's star
    // (sweep 70c C3: the window had no word for the smallest)
    std::map<int, std::uint64_t> smallest_;
    bool smallest(const tscope::FormatRow& r) const;
};

}  // namespace tsui
