// A choice box as wide as its longest text, never squeezed below it. AdjustToContents alone let
// a layout short of room cut the text without an ellipsis: Reorder's "modes 1 × 2" read
// "modes 1", another choice, in a narrow window or at a large font (sweep 74a F6).
#pragma once

class QComboBox;

namespace tsui {

void sizeComboToText(QComboBox* box);

}  // namespace tsui
