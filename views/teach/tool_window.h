#pragma once
// Where the teaching tool windows (Exercises, Explain this program) first appear: in a corner of the
// main window, over a dock, so that the graph they talk about stays in view.

#include <Qt>

class QWidget;

namespace irlens::views {

/// Moves `tool` (a top-level window) into `corner` of `window`'s frame, a small margin inside it.
void placeInCorner(QWidget* tool, const QWidget* window, Qt::Corner corner);

} // namespace irlens::views
