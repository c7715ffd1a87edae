// File ▸ Generate: a synthetic tensor from the engine's generator (uniform, power-law, blocks).
#pragma once

#include <QDialog>
#include <optional>

#include "tscope/tensor/generator.hpp"

class QComboBox;
class QDoubleSpinBox;
class QLabel;
class QLineEdit;
class QSpinBox;

namespace tsui {

class GenerateDialog : public QDialog {
    Q_OBJECT

public:
    explicit GenerateDialog(QWidget* parent = nullptr);
    // The spec the fields describe, or nullopt (with the reason shown) when they are invalid.
    std::optional<tscope::GeneratorSpec> spec();
    QString title() const;

private:
    void updateEnabled();
    void tryAccept();

    QLineEdit* dims_;
    QLineEdit* nnz_;
    QComboBox* dist_;
    QDoubleSpinBox* exponent_;
    QSpinBox* blocks_;
    QSpinBox* edge_;
    QSpinBox* rank_;
    QSpinBox* seed_;
    QLabel* error_;
};

}  // namespace tsui
