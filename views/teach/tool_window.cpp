#include "views/teach/tool_window.h"

#include <QWidget>

#include <algorithm>

namespace irlens::views {

void placeInCorner(QWidget* tool, const QWidget* window, Qt::Corner corner) {
    const QRect area = window->geometry();
    const int margin = 8;
    const bool right = corner == Qt::TopRightCorner || corner == Qt::BottomRightCorner;
    const bool bottom = corner == Qt::BottomLeftCorner || corner == Qt::BottomRightCorner;
    // the status bar stays visible under a window placed at the bottom
    const int x = right ? area.right() - tool->width() - margin : area.left() + margin;
    const int y = bottom ? area.bottom() - tool->height() - 5 * margin : area.top() + 6 * margin;
    tool->move(std::max(area.left(), x), std::max(area.top(), y));
}

} // namespace irlens::views
