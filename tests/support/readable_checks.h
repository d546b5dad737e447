#pragma once
// What a person sees, checked on real widgets: every table and tree on screen shows its headers and
// cells whole unless the width is truly used up, its tooltips wrap, and on a graph canvas no two labels
// overlap, no label lies on a frame's border, no tag covers a module's title, every tooltip wraps and
// every character written (tooltips, overlay boxes, legends) is in its font, and what floats on the
// canvas stays inside it and covers no box in view.
// Each check returns the problems it found (empty: readable), one line each, naming the pane and the text.

#include "views/graph/graph_items.h"
#include "views/graph/graph_scene.h"
#include "views/graph/graph_view.h"
#include "views/graph/overlay_items.h"

#include <QAbstractItemView>
#include <QApplication>
#include <QDockWidget>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QSpinBox>
#include <QScrollBar>
#include <QStyle>
#include <QStyledItemDelegate>
#include <QTabBar>
#include <QTableView>
#include <QTextDocument>
#include <QToolTip>
#include <QTreeView>

#include <algorithm>
#include <vector>

namespace irlens::testing {

/// The widest a tooltip may be before it is too wide to read in one sweep of the eye.
inline constexpr int kMaxTipWidth = 600;
/// A column this much wider than its widest cell has room to spare.
inline constexpr int kSpareSlack = 16;

/// A widget's name for a message: its dock's title, else its window's title, else its object name.
inline QString paneName(const QWidget* w) {
    for (const QWidget* p = w; p; p = p->parentWidget()) {
        if (auto* dock = qobject_cast<const QDockWidget*>(p)) return dock->windowTitle();
        if (p->isWindow()) return p->windowTitle().isEmpty() ? p->objectName() : p->windowTitle();
    }
    return w->objectName();
}

/// How wide a tooltip with `tip` is drawn: as QToolTip's label lays it out (rich text wraps, plain does not).
inline int tipWidth(const QString& tip) {
    QLabel label;
    label.setFont(QToolTip::font());
    label.setWordWrap(Qt::mightBeRichText(tip));
    label.setMargin(1 + label.style()->pixelMetric(QStyle::PM_ToolTipLabelFrameWidth, nullptr, &label));
    label.setText(tip);
    label.adjustSize();
    return label.width();
}

/// A tooltip's text as it reads (rich text without its markup).
inline QString tipText(const QString& tip) {
    if (!Qt::mightBeRichText(tip)) return tip;
    QTextDocument doc;
    doc.setHtml(tip);
    return doc.toPlainText();
}

/// The characters of `text` that `font` has no glyph for, each once ("U+23F1 ⏱"): drawn as a box.
inline QStringList undrawable(const QString& text, const QFont& font) {
    QStringList missing;
    const QFontMetrics fm(font);
    for (const char32_t c : text.toUcs4()) {
        if (c == '\n' || c == '\t' || c == 0x2029 || c == 0x2028 || fm.inFontUcs4(c)) continue;
        const QString entry = QString("U+%1 %2").arg(static_cast<uint>(c), 4, 16, QChar('0')).arg(QString::fromUcs4(&c, 1)).toUpper();
        if (!missing.contains(entry)) missing << entry;
    }
    return missing;
}

/// The width a cell needs to show its text whole: the widest line, the delegate's margins, an icon.
inline int cellNeed(const QAbstractItemView* view, const QModelIndex& index) {
    // the text as the delegate shows it (a double with its locale's six digits, not all seventeen)
    auto* delegate = qobject_cast<QStyledItemDelegate*>(view->itemDelegateForIndex(index));
    const QVariant value = index.data(Qt::DisplayRole);
    const QString text = delegate ? delegate->displayText(value, view->locale()) : value.toString();
    if (text.isEmpty()) return 0;
    const QVariant fontData = index.data(Qt::FontRole);
    const QFontMetrics fm(fontData.isValid() ? fontData.value<QFont>() : view->font());
    int widest = 0;
    for (const QString& line : text.split('\n')) widest = std::max(widest, fm.horizontalAdvance(line));
    const int margin = view->style()->pixelMetric(QStyle::PM_FocusFrameHMargin, nullptr, view) + 1;
    int need = widest + 2 * margin;
    if (index.data(Qt::DecorationRole).isValid()) need += view->style()->pixelMetric(QStyle::PM_SmallIconSize, nullptr, view) + 4;
    return need;
}

/// The indices of the rows a view shows, from its top row down to its viewport's bottom.
inline std::vector<QModelIndex> rowsOnScreen(const QAbstractItemView* view) {
    std::vector<QModelIndex> rows;
    auto* tree = qobject_cast<const QTreeView*>(view);
    QModelIndex row = view->indexAt(QPoint(1, 1));
    if (!row.isValid() && view->model()->rowCount(view->rootIndex()) > 0) return rows;
    const int bottom = view->viewport()->height();
    for (int seen = 0; row.isValid() && seen < 400; ++seen) {
        const QRect r = view->visualRect(row);
        if (r.top() >= bottom) break;
        rows.push_back(row.siblingAtColumn(0));
        if (tree) row = tree->indexBelow(row);
        else row = row.sibling(row.row() + 1, 0);
    }
    return rows;
}

/// Nesting depth of a row under the view's root (0 for a top row).
inline int depthOf(const QAbstractItemView* view, QModelIndex index) {
    int depth = 0;
    while (index.parent().isValid() && index.parent() != view->rootIndex()) {
        index = index.parent();
        ++depth;
    }
    return depth;
}

/// One table or tree: headers whole; a column cut only when no other column has room to spare and
/// the view has no width left; tooltips of the rows on screen at most kMaxTipWidth wide.
inline QStringList checkItemView(const QAbstractItemView* view) {
    QStringList problems;
    const QAbstractItemModel* model = view->model();
    if (!model || !view->isVisible() || view->viewport()->width() < 40) return problems;
    const QString pane = paneName(view);
    const QHeaderView* header = nullptr;
    auto* tree = qobject_cast<const QTreeView*>(view);
    if (tree) header = tree->header();
    else if (auto* table = qobject_cast<const QTableView*>(view)) header = table->horizontalHeader();
    if (!header) return problems;
    const int columns = model->columnCount(view->rootIndex());
    std::vector<int> width(static_cast<size_t>(columns), 0), need(static_cast<size_t>(columns), 0), titleNeeds(need);
    std::vector<QString> cutText(static_cast<size_t>(columns));
    const int headerMargin = view->style()->pixelMetric(QStyle::PM_HeaderMargin, nullptr, header);
    int used = 0;
    for (int c = 0; c < columns; ++c) {
        if (header->isSectionHidden(c)) continue;
        width[static_cast<size_t>(c)] = header->sectionSize(c);
        used += header->sectionSize(c);
        if (header->isHidden()) continue;
        const QString title = model->headerData(c, Qt::Horizontal).toString();
        // the title, its margins and the room for a sort arrow, as the header measures it
        const int titleNeed = std::max(header->fontMetrics().horizontalAdvance(title) + 2 * headerMargin, header->sectionSizeHint(c));
        need[static_cast<size_t>(c)] = titleNeed;
        titleNeeds[static_cast<size_t>(c)] = titleNeed;
        if (!title.isEmpty() && header->sectionSize(c) + 1 < titleNeed)
            problems << QString("%1: header \"%2\" is cut (%3 px of %4)").arg(pane, title).arg(header->sectionSize(c)).arg(titleNeed);
    }
    const int firstVisual = header->logicalIndex(0);
    for (const QModelIndex& row : rowsOnScreen(view)) {
        for (int c = 0; c < columns; ++c) {
            if (header->isSectionHidden(c)) continue;
            const QModelIndex cell = row.siblingAtColumn(c);
            int cellWidth = cellNeed(view, cell);
            if (tree && c == firstVisual)
                cellWidth += tree->indentation() * (depthOf(view, cell) + (tree->rootIsDecorated() ? 1 : 0));
            if (cellWidth > need[static_cast<size_t>(c)]) {
                need[static_cast<size_t>(c)] = cellWidth;
                if (cellWidth > width[static_cast<size_t>(c)] + 1) cutText[static_cast<size_t>(c)] = cell.data().toString();
            }
            const QString tip = cell.data(Qt::ToolTipRole).toString();
            if (!tip.isEmpty() && tipWidth(tip) > kMaxTipWidth)
                problems << QString("%1: the tooltip of \"%2\" is %3 px wide").arg(pane, cell.data().toString().left(40)).arg(tipWidth(tip));
        }
    }
    // width nobody uses: what the viewport has beyond the columns, and each column beyond its widest text
    const int unused = std::max(0, view->viewport()->width() - used);
    for (int c = 0; c < columns; ++c) {
        if (cutText[static_cast<size_t>(c)].isEmpty()) continue;
        QString spare;
        if (unused > kSpareSlack) spare = QString("%1 px of the view unused").arg(unused);
        for (int d = 0; d < columns && spare.isEmpty(); ++d) {
            if (d == c) continue;
            const QString other = model->headerData(d, Qt::Horizontal).toString();
            if (width[static_cast<size_t>(d)] - need[static_cast<size_t>(d)] > kSpareSlack)
                spare = QString("\"%1\" has %2 px to spare").arg(other).arg(width[static_cast<size_t>(d)] - need[static_cast<size_t>(d)]);
            // a neighbour that took the width for its cells: the widest columns should give way first
            else if (width[static_cast<size_t>(d)] > 2 * width[static_cast<size_t>(c)] + kSpareSlack &&
                     width[static_cast<size_t>(d)] > titleNeeds[static_cast<size_t>(d)] + kSpareSlack)
                spare = QString("\"%1\" takes %2 px").arg(other).arg(width[static_cast<size_t>(d)]);
        }
        if (!spare.isEmpty())
            problems << QString("%1: \"%2\" is cut in column \"%3\" (%4 px of %5) while %6")
                            .arg(pane, cutText[static_cast<size_t>(c)].left(60), model->headerData(c, Qt::Horizontal).toString())
                            .arg(width[static_cast<size_t>(c)])
                            .arg(need[static_cast<size_t>(c)])
                            .arg(spare);
    }
    return problems;
}

/// Every table and tree shown in `root` (a window, a dock).
inline QStringList checkItemViews(const QWidget* root) {
    QStringList problems;
    for (const QAbstractItemView* view : root->findChildren<QAbstractItemView*>())
        if (view->isVisible() && (qobject_cast<const QTreeView*>(view) || qobject_cast<const QTableView*>(view))) problems << checkItemView(view);
    return problems;
}

/// Every tab bar shown in `root` (dock tabs, tab widgets) shows its tabs' titles whole.
inline QStringList checkTabBars(const QWidget* root) {
    QStringList problems;
    for (const QTabBar* bar : root->findChildren<QTabBar*>()) {
        if (!bar->isVisible()) continue;
        const int room = bar->style()->pixelMetric(QStyle::PM_TabBarTabHSpace, nullptr, bar);
        for (int i = 0; i < bar->count(); ++i) {
            const QString text = bar->tabText(i).remove('&');
            const int need = bar->fontMetrics().horizontalAdvance(text) + room;
            const int have = bar->shape() == QTabBar::RoundedWest || bar->shape() == QTabBar::RoundedEast ? bar->tabRect(i).height()
                                                                                                         : bar->tabRect(i).width();
            if (have + 2 < need)
                problems << QString("%1: tab \"%2\" is cut (%3 px of %4)").arg(paneName(bar), text).arg(have).arg(need);
        }
    }
    return problems;
}

/// Every spin box shown in `root` (the toolbar's run settings, the graph pane's instance of a folded
/// run) shows its text whole in its edit field.
inline QStringList checkSpinBoxes(const QWidget* root) {
    QStringList problems;
    for (const QAbstractSpinBox* box : root->findChildren<QAbstractSpinBox*>()) {
        const QLineEdit* edit = box->findChild<QLineEdit*>();
        if (!box->isVisible() || !edit) continue;
        const QMargins margins = edit->textMargins();
        const int have = edit->contentsRect().width() - margins.left() - margins.right() - 4; // QLineEdit's own 2 px a side
        const int need = edit->fontMetrics().horizontalAdvance(edit->text());
        if (have < need)
            problems << QString("%1: spin box %2 shows \"%3\" in %4 px of %5").arg(paneName(box), box->objectName(), edit->text()).arg(have).arg(need);
    }
    return problems;
}

/// A label a scene draws, in scene coordinates, with its text for messages.
struct SceneLabel {
    QRectF rect;
    QString text;
};

/// The scene's edge labels, module titles and tags.
struct SceneLabels {
    std::vector<SceneLabel> edgeLabels, titles, tags;
};

inline SceneLabels collectLabels(const views::GraphScene& scene) {
    SceneLabels out;
    for (QGraphicsItem* item : scene.items()) {
        if (item->type() == views::EdgeItem::Type) {
            auto* edge = static_cast<const views::EdgeItem*>(item);
            if (!edge->labelRect().isEmpty()) out.edgeLabels.push_back({edge->mapRectToScene(edge->labelRect()), edge->toolTip()});
        } else if (item->type() == views::ClusterItem::Type) {
            auto* frame = static_cast<const views::ClusterItem*>(item);
            out.titles.push_back({frame->mapRectToScene(frame->titleRect()), frame->toolTip().section('\n', 0, 0)});
        }
        const QRectF tag = item->data(views::kTagRectKey).toRectF();
        if (!tag.isEmpty()) out.tags.push_back({item->mapRectToScene(tag), item->data(views::kTagTextKey).toString()});
    }
    return out;
}

/// Pairs of rects from `a` and `b` that overlap by more than half a unit (`same`: a and b are one list).
inline QStringList overlapsBetween(const std::vector<SceneLabel>& a, const std::vector<SceneLabel>& b, const QString& verb,
                                   bool same = false, int limit = 12) {
    QStringList problems;
    std::vector<const SceneLabel*> bs;
    for (const auto& l : b) bs.push_back(&l);
    std::sort(bs.begin(), bs.end(), [](auto* x, auto* y) { return x->rect.left() < y->rect.left(); });
    double widest = 0;
    for (auto* l : bs) widest = std::max(widest, l->rect.width());
    for (const auto& l : a) {
        const QRectF r = l.rect.adjusted(0.5, 0.5, -0.5, -0.5);
        auto it = std::lower_bound(bs.begin(), bs.end(), r.left() - widest, [](const SceneLabel* x, double v) { return x->rect.left() < v; });
        for (; it != bs.end() && (*it)->rect.left() < r.right(); ++it) {
            if (same && *it <= &l) continue; // each pair once, never a label with itself
            if (!r.intersects((*it)->rect)) continue;
            // one value going to several users: its label drawn twice in one place reads as one
            if ((*it)->text == l.text && (*it)->rect.toRect() == l.rect.toRect()) continue;
            problems << QString("\"%1\" %2 \"%3\"").arg(l.text, verb, (*it)->text);
            if (problems.size() >= limit) return problems;
        }
    }
    return problems;
}

/// The edge labels that cross a module frame's border (partly inside the frame, partly out).
inline QStringList labelsOnBorders(const views::GraphScene& scene, const std::vector<SceneLabel>& edgeLabels, int limit = 12) {
    QStringList problems;
    for (const views::ClusterItem* frame : scene.clusterItems()) {
        const QRectF border = frame->mapRectToScene(frame->frameRect());
        for (const SceneLabel& l : edgeLabels) {
            const QRectF r = l.rect.adjusted(0.5, 0.5, -0.5, -0.5);
            if (!r.intersects(border) || border.contains(r)) continue;
            problems << QString("\"%1\" lies on the border of %2").arg(l.text, frame->toolTip().section('\n', 0, 0));
            if (problems.size() >= limit) return problems;
        }
    }
    return problems;
}

/// No two edge labels overlap, no edge label lies on a module title or a frame's border, no tag covers
/// a module title and no box title runs into its level badge.
inline QStringList checkSceneLabels(const views::GraphScene& scene) {
    const SceneLabels labels = collectLabels(scene);
    QStringList problems;
    problems << overlapsBetween(labels.edgeLabels, labels.edgeLabels, "overlaps", true);
    problems << overlapsBetween(labels.edgeLabels, labels.titles, "lies on the title of");
    problems << labelsOnBorders(scene, labels.edgeLabels);
    problems << overlapsBetween(labels.tags, labels.titles, "tag covers the title of");
    for (const views::NodeItem* box : scene.nodeItems())
        if (!box->badgeRect().isEmpty() && box->titleRect().intersects(box->badgeRect()))
            problems << QString("the title of \"%1\" runs into its badge").arg(QString::fromStdString(box->item().title));
    return problems;
}

/// Nothing floating on the canvas (the minimap, a legend) covers a box that is in view.
inline QStringList checkCanvasOverlays(const views::GraphView& view) {
    QStringList problems;
    const QRect port = view.viewport()->rect();
    for (const QWidget* overlay : view.canvasOverlays()) {
        if (!overlay->isVisible()) continue;
        const QRect covered = overlay->geometry().translated(-view.viewport()->pos()); // in the viewport's coordinates
        for (const views::NodeItem* box : static_cast<const views::GraphScene*>(view.scene())->nodeItems()) {
            const QRect onScreen = view.mapFromScene(box->mapRectToScene(box->boxRect())).boundingRect();
            if (!onScreen.intersects(port) || !onScreen.intersects(covered)) continue;
            problems << QString("the %1 covers %2").arg(overlay->metaObject()->className(), QString::fromStdString(box->item().title));
            break;
        }
    }
    return problems;
}

/// Every tooltip of the scene's boxes, edges and frames is at most kMaxTipWidth wide and every character
/// of it is in the tooltip's font.
inline QStringList checkSceneTooltips(const views::GraphScene& scene, int limit = 12) {
    QStringList problems;
    const QFont font = QToolTip::font();
    const QFontMetrics fm(font);
    auto check = [&](const QString& tip, const QString& what) {
        if (tip.isEmpty() || problems.size() >= limit) return;
        // a plain tip is as wide as its widest line (QLabel's layout is slow on the 27,000 items of llama_deep)
        int width = 0;
        if (Qt::mightBeRichText(tip)) width = tipWidth(tip);
        else
            for (const QString& line : tip.split('\n')) width = std::max(width, fm.horizontalAdvance(line));
        if (width > kMaxTipWidth) problems << QString("the tooltip of %1 is %2 px wide").arg(what).arg(width);
        if (const QStringList missing = undrawable(tipText(tip), font); !missing.isEmpty())
            problems << QString("the tooltip of %1 has characters its font lacks: %2").arg(what, missing.join(", "));
    };
    for (const views::NodeItem* box : scene.nodeItems()) check(box->toolTipText(), QString::fromStdString(box->item().title));
    for (QGraphicsItem* item : scene.items())
        if (item->type() == views::EdgeItem::Type || item->type() == views::ClusterItem::Type) check(item->toolTip(), tipText(item->toolTip()).left(40));
    return problems;
}

/// Every character the overlays write (the boxes over graph boxes, the legends) is in its font.
inline QStringList checkOverlayText(const views::GraphView& view) {
    QStringList problems;
    for (QGraphicsItem* item : view.scene()->items()) {
        auto* box = dynamic_cast<const views::OverlayBox*>(item);
        if (!box) continue;
        for (const auto& line : box->lines())
            if (const QStringList missing = undrawable(line.text, line.font); !missing.isEmpty())
                problems << QString("\"%1\" on an overlay box has characters its font lacks: %2").arg(line.text, missing.join(", "));
        if (problems.size() >= 12) break;
    }
    for (const QWidget* child : view.canvasOverlays()) {
        auto* legend = dynamic_cast<const views::ScaleLegend*>(child); // no Q_OBJECT: findChildren<ScaleLegend*> finds every widget
        if (!legend) continue;
        QStringList texts{legend->title()};
        for (const auto& tick : legend->ticks()) texts << tick.label;
        for (const QString& text : texts)
            if (const QStringList missing = undrawable(text, legend->font()); !missing.isEmpty())
                problems << QString("\"%1\" in a legend has characters its font lacks: %2").arg(text, missing.join(", "));
    }
    problems.removeDuplicates();
    return problems;
}

/// What floats on the canvas (the minimap, a legend) lies wholly inside the canvas (the viewport and
/// the minimap's band beside it), wherever the view was scrolled or moved.
inline QStringList checkOverlaysInside(const views::GraphView& view) {
    QStringList problems;
    const QRect port = view.canvasRect(); // in the view's coordinates, as the overlays'
    for (const QWidget* overlay : view.canvasOverlays())
        if (overlay->isVisible() && !port.contains(overlay->geometry()))
            problems << QString("the %1 \"%2\" is at %3,%4 outside the %5x%6 canvas")
                            .arg(overlay->metaObject()->className(), overlay->objectName())
                            .arg(overlay->x())
                            .arg(overlay->y())
                            .arg(port.width())
                            .arg(port.height());
    return problems;
}

/// The minimap, when shown, draws the graph: a share of its pixels differ from its background.
inline QStringList checkMiniMapDrawn(const views::GraphView& view) {
    const views::MiniMap* mini = view.miniMap();
    if (!mini || !mini->isVisible()) return {};
    const QImage shot = const_cast<views::MiniMap*>(mini)->viewport()->grab().toImage();
    const QRgb background = shot.pixel(shot.width() / 2, 1);
    int drawn = 0;
    for (int y = 0; y < shot.height(); ++y)
        for (int x = 0; x < shot.width(); ++x) drawn += shot.pixel(x, y) != background;
    if (drawn * 50 >= shot.width() * shot.height()) return {};
    return {QString("the minimap is blank (%1 of %2 pixels drawn)").arg(drawn).arg(shot.width() * shot.height())};
}

} // namespace irlens::testing
