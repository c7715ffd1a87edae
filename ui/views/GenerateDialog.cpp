#include "views/GenerateDialog.hpp"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QSpinBox>
#include <QVBoxLayout>

#include "tscope/error.hpp"
#include "tscope/tensor/generator.hpp"
#include "tscope/text_parse.hpp"

namespace tsui {

GenerateDialog::GenerateDialog(QWidget* parent) : QDialog(parent) {
    setWindowTitle(tr("Generate a tensor"));
    auto* layout = new QVBoxLayout(this);
    auto* form = new QFormLayout;
    dims_ = new QLineEdit(QStringLiteral("10000,8000,6000"), this);
    dims_->setToolTip(tr("Comma-separated mode lengths; 1 to 16 modes"));
    dims_->setObjectName(QStringLiteral("dims"));
    nnz_ = new QLineEdit(QStringLiteral("500k"), this);
    nnz_->setObjectName(QStringLiteral("nnz"));
    nnz_->setToolTip(tr("Distinct nonzeros; k, M and G suffixes are accepted"));
    dist_ = new QComboBox(this);
    // Low-rank as the CLI's lowrank:R and the Samples' "Low-rank 3-D" (missing here, sweep 66b A8)
    dist_->addItems({tr("Uniform"), tr("Power-law (Zipf)"), tr("Dense blocks"), tr("Low-rank")});
    exponent_ = new QDoubleSpinBox(this);
    exponent_->setRange(0.0, 4.0);
    exponent_->setSingleStep(0.1);
    exponent_->setValue(1.1);
    blocks_ = new QSpinBox(this);
    blocks_->setRange(1, 1000000);
    blocks_->setValue(64);
    edge_ = new QSpinBox(this);
    edge_->setRange(1, 4096);
    edge_->setValue(16);
    rank_ = new QSpinBox(this);
    rank_->setObjectName(QStringLiteral("generateRank"));
    rank_->setRange(1, 4096);
    rank_->setValue(8);
    rank_->setToolTip(
        tr("A sum of this many rank-one tensors with sparse factors: CPD at this rank can fit it "
           "exactly. The nonzeros are then about, not exactly, the count asked for."));
    seed_ = new QSpinBox(this);
    seed_->setRange(0, 1 << 30);
    seed_->setValue(1);
    form->addRow(tr("Dimensions:"), dims_);
    form->addRow(tr("Nonzeros:"), nnz_);
    form->addRow(tr("Distribution:"), dist_);
    form->addRow(tr("Zipf exponent:"), exponent_);
    form->addRow(tr("Blocks:"), blocks_);
    form->addRow(tr("Block edge:"), edge_);
    form->addRow(tr("Rank:"), rank_);
    form->addRow(tr("Seed:"), seed_);
    layout->addLayout(form);
    error_ = new QLabel(this);
    error_->setObjectName(QStringLiteral("generateError"));
    // a dark red on a light window, a light one on a dark window: #b00020 on a dark palette's
    // near-black read at 2.2:1 (sweep 74a F9)
    const bool dark = palette().color(QPalette::Window).lightness() < 128;
    error_->setStyleSheet(dark ? QStringLiteral("color: #ff8a80") : QStringLiteral("color: #b00020"));
    error_->setWordWrap(true);
    layout->addWidget(error_);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    layout->addWidget(buttons);
    connect(buttons, &QDialogButtonBox::accepted, this, &GenerateDialog::tryAccept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(dist_, &QComboBox::currentIndexChanged, this, &GenerateDialog::updateEnabled);
    updateEnabled();
}

void GenerateDialog::updateEnabled() {
    exponent_->setEnabled(dist_->currentIndex() == 1);
    blocks_->setEnabled(dist_->currentIndex() == 2);
    edge_->setEnabled(dist_->currentIndex() == 2);
    rank_->setEnabled(dist_->currentIndex() == 3);
}

std::optional<tscope::GeneratorSpec> GenerateDialog::spec() {
    try {
        tscope::GeneratorSpec s;
        s.dims = tscope::parse_count_list(dims_->text().toStdString(), "dimensions");
        s.nnz = tscope::parse_count(nnz_->text().toStdString(), "nonzeros");
        s.seed = static_cast<std::uint64_t>(seed_->value());
        if (dist_->currentIndex() == 1) {
            s.distribution = tscope::Distribution::PowerLaw;
            s.zipf = {exponent_->value()};
        } else if (dist_->currentIndex() == 2) {
            s.distribution = tscope::Distribution::Blocks;
            s.blocks = static_cast<std::uint64_t>(blocks_->value());
            s.block_edge = static_cast<std::uint64_t>(edge_->value());
        } else if (dist_->currentIndex() == 3) {
            s.distribution = tscope::Distribution::LowRank;
            s.rank = static_cast<std::uint64_t>(rank_->value());
        }
        if (s.dims.size() > 16) throw tscope::InputError("dimensions: at most 16 modes");
        if (s.nnz == 0) throw tscope::InputError("nonzeros: at least 1");
        tscope::check_generator_spec(s);  // said here, before Accept, not in the window's banner after
        error_->clear();
        return s;
    } catch (const std::exception& e) {
        error_->setText(QString::fromStdString(e.what()));
        return std::nullopt;
    }
}

QString GenerateDialog::title() const {
    return tr("%1 (generated, %2 nonzeros)").arg(dist_->currentText(), nnz_->text());
}

void GenerateDialog::tryAccept() {
    if (spec()) accept();
}

}  // namespace tsui
