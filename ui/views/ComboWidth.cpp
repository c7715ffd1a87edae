#include "views/ComboWidth.hpp"

#include <QComboBox>

namespace tsui {

void sizeComboToText(QComboBox* box) {
    box->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    box->setSizePolicy(QSizePolicy::Fixed, QSizePolicy::Fixed);  // its size hint, which follows the items
}

}  // namespace tsui
