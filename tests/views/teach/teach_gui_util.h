#pragma once
// What the teaching GUI tests share: real clicks on the graph's boxes, chips and pills, on table rows
// and on the anchors of a text, once the graph on screen is drawn.

#include "support/gui_test_util.h"
#include "views/document.h"
#include "views/graph/graph_items.h"
#include "views/graph/graph_pane.h"
#include "views/graph/graph_scene.h"
#include "views/graph/graph_view.h"
#include "views/main_window.h"

#include <QAbstractItemView>
#include <QTextBlock>
#include <QTextBrowser>
#include <QTest>

namespace irlens::testing {

/// Waits until the graph on screen is laid out (waitForLayout) and every item of that layout exists.
inline bool waitForScene(views::MainWindow& w, int timeoutMs = 60000) {
    if (!waitForLayout(*w.document(), timeoutMs)) return false;
    views::GraphScene* scene = w.graphPane()->scene();
    return QTest::qWaitFor([&] { return !w.document()->isBusy() && !scene->isBuilding() && scene->layout() == w.document()->layout(); },
                           timeoutMs);
}

/// A click, or a double-click as a mouse makes it: press, release, double-click, release (Qt Test's
/// mouseDClick on a widget sends the double-click event alone).
inline void click(QWidget* widget, const QPoint& at, bool twice = false) {
    QTest::mouseClick(widget, Qt::LeftButton, {}, at);
    if (!twice) return;
    QTest::mouseDClick(widget, Qt::LeftButton, {}, at);
    QTest::mouseRelease(widget, Qt::LeftButton, {}, at);
}

/// Clicks (or double-clicks) a scene rect's centre in the graph view, scrolled into view first.
inline void clickScene(views::MainWindow& w, const QRectF& rect, bool twice = false) {
    views::GraphView* view = w.graphPane()->view();
    view->centerOn(rect.center());
    click(view->viewport(), view->mapFromScene(rect.center()), twice);
}

/// The box drawing graph node `name` as its own (modules around it opened when needed).
inline const views::NodeItem* boxOf(views::MainWindow& w, const QString& name) {
    views::Document* doc = w.document();
    const int n = doc->nodeIndexOf(name);
    if (n < 0 || !waitForScene(w)) return nullptr;
    const views::NodeItem* item = w.graphPane()->scene()->itemForNode(n);
    if (!item || item->item().nodeIndex != n) {
        doc->revealNode(n);
        QTest::qWait(20);
        if (!waitForScene(w)) return nullptr;
        item = w.graphPane()->scene()->itemForNode(n);
    }
    return item && item->item().nodeIndex == n ? item : nullptr;
}

inline bool clickNode(views::MainWindow& w, const QString& name, bool twice = false) {
    const views::NodeItem* item = boxOf(w, name);
    if (!item) return false;
    clickScene(w, item->sceneBoundingRect(), twice);
    return true;
}

/// Clicks a placeholder: its pill (user inputs) or its chip on a box that reads it (lifted state);
/// "out" clicks the output pill.
inline bool clickPlaceholder(views::MainWindow& w, const QString& id) {
    if (!waitForScene(w)) return false;
    const std::string value = id.startsWith("in:") ? id.mid(3).toStdString() : std::string();
    for (const views::NodeItem* item : w.graphPane()->scene()->nodeItems()) {
        if (item->item().id == id.toStdString()) {
            clickScene(w, item->sceneBoundingRect());
            return true;
        }
        for (size_t c = 0; c < item->item().chips.size(); ++c)
            if (!value.empty() && item->item().chips[c].value == value && !item->chipRect(static_cast<int>(c)).isEmpty()) {
                clickScene(w, item->chipRect(static_cast<int>(c)));
                return true;
            }
    }
    return false;
}

/// Clicks (or double-clicks) the row of `view` whose column `column` shows `text` (and, when given,
/// whose column `column2` shows `text2`).
inline bool clickRow(QAbstractItemView* view, int column, const QString& text, bool twice = false, int column2 = -1,
                     const QString& text2 = {}) {
    const QAbstractItemModel* m = view->model();
    for (int r = 0; r < m->rowCount(); ++r) {
        const QModelIndex index = m->index(r, column);
        if (index.data().toString() != text) continue;
        if (column2 >= 0 && m->index(r, column2).data().toString() != text2) continue;
        view->scrollTo(index);
        click(view->viewport(), view->visualRect(index).center(), twice);
        return true;
    }
    return false;
}

/// Clicks the anchor `href` of a text browser where it is drawn.
inline bool clickAnchor(QTextBrowser* browser, const QString& href) {
    for (QTextBlock b = browser->document()->begin(); b.isValid(); b = b.next())
        for (auto it = b.begin(); !it.atEnd(); ++it) {
            const QTextFragment f = it.fragment();
            if (f.charFormat().anchorHref() != href) continue;
            QTextCursor first(browser->document()), last(browser->document());
            first.setPosition(f.position());
            last.setPosition(f.position() + f.length());
            browser->setTextCursor(first);
            browser->ensureCursorVisible();
            // the middle of the anchor's text, between the cursor positions before and after it
            const QRect a = browser->cursorRect(first), b = browser->cursorRect(last);
            QTest::mouseClick(browser->viewport(), Qt::LeftButton, {}, QPoint((a.left() + b.left()) / 2, a.center().y()));
            return true;
        }
    return false;
}

} // namespace irlens::testing
