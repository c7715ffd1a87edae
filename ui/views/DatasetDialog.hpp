// File ▸ Open dataset: the catalog's datasets (every FROSTT tensor) with their facts and what
// the cache folder holds of each (not fetched, partial, ready). "Download and open" fetches the
// chosen one (DatasetFetch: download with progress, resume, cancel; converted once to .tsb),
// "Open" takes a ready one; either way the dialog closes with the .tsb to open. The cache
// folder is a setting ("Change…"), $TENSORSCOPE_CACHE or ~/.cache/tensorscope by default.
#pragma once

#include <QDialog>
#include <QElapsedTimer>

#include "tscope/io/dataset_catalog.hpp"

class QLabel;
class QProgressBar;
class QPushButton;
class QTableWidget;

namespace tsui {

class DatasetFetch;

class DatasetDialog : public QDialog {
    Q_OBJECT

public:
    // An unreadable catalog shows its error in the dialog instead of the list.
    DatasetDialog(const QString& catalogPath, const QString& cacheDir, QWidget* parent = nullptr);
    // The .tsb the dialog closed with (empty unless accepted).
    QString chosenPath() const { return chosen_; }
    QTableWidget* table() const { return table_; }
    QPushButton* fetchButton() const { return fetch_; }
    QPushButton* cancelButton() const { return cancel_; }
    QLabel* statusLabel() const { return status_; }
    QString cacheDir() const { return cacheDir_; }
    void selectDataset(const QString& name);
    // The catalog beside the executable, else the source tree's (a build that is not installed).
    static QString defaultCatalogPath();
    // The setting, else the engine's default.
    static QString defaultCacheDir();

public Q_SLOTS:
    // Esc and the title bar's close while a fetch runs: refused with a word, as the disabled Close
    // button is (they had cancelled the download silently, sweep 65b); Cancel download stops it.
    void reject() override;

private:
    void fillTable();
    void selectSmallest();
    static QString sizeText(const tscope::CatalogEntry& e);
    void showDetails();
    void fetchOrOpen();
    void chooseCache();
    void setRunning(bool running);
    QString refusalText() const;
    const tscope::CatalogEntry* current() const;

    tscope::DatasetCatalog catalog_;
    QString cacheDir_, chosen_;
    QTableWidget* table_;
    QLabel* details_;
    QLabel* cacheLabel_;
    QLabel* status_;
    QProgressBar* progress_;
    QPushButton* fetch_;
    QPushButton* cancel_;
    QPushButton* close_;
    QPushButton* changeCache_;
    DatasetFetch* fetcher_;
    QElapsedTimer refused_;  // since an Esc was refused during a fetch: its word stays a while above the progress
};

}  // namespace tsui
