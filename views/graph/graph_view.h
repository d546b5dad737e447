#pragma once
// The graph canvas: zoom (wheel, Ctrl+= / Ctrl+-), pan (drag), fit (Ctrl+0), a minimap in the
// corner, click to select, double-click to open/close module groups or enter a HOP's subgraph,
// Alt+Up / Alt+Down to the producer / first user, Backspace to leave a subgraph.

#include <QGraphicsScene>
#include <QGraphicsView>
#include <QImage>

#include <vector>

class QMenu;

namespace irlens::views {

class Document;
class GraphScene;
class MiniMap;

class GraphView : public QGraphicsView {
    Q_OBJECT
public:
    GraphView(Document* document, GraphScene* scene, QWidget* parent = nullptr);
    ~GraphView() override;

    /// The zoom limits of the wheel and the keys; text is legible from kLegibleZoom up. Fit goes below
    /// kMinZoom to show a tall graph whole when the scene holds at most kFitWholeItems items (boxes,
    /// edges and frames), all of which a view of the whole graph paints in every frame: llama_deep
    /// unfolded and expanded (27,000 items, 553,097 points tall) fits a 1366×768 window at 0.08 % and
    /// pans at 28 ms a frame. The wheel may then go as low as that fit.
    static constexpr double kMinZoom = 0.02;
    static constexpr int kFitWholeItems = 50000;
    static constexpr double kMaxZoom = 8.0;
    static constexpr double kLegibleZoom = 0.45;
    static constexpr double kStartZoom = 0.7;
    /// The minimap's narrowest side in pixels.
    static constexpr int kMiniMapMinSide = 40;

    /// Zooms by a factor, clamped to [kMinZoom, kMaxZoom].
    void zoomBy(double factor);
    void setZoom(double zoom);
    /// The whole graph in view (never enlarged past 100 %) above the band an overlay's legend takes at
    /// the canvas's bottom; a graph of more than kFitWholeItems items that would need a zoom below
    /// kMinZoom is shown at kMinZoom around the selection (or its top), and `notice` says why.
    void fitAll();
    /// Lowers kFitWholeItems (tests reach the limit with a graph they can afford).
    void setFitWholeItems(int items) { m_fitWholeItems = items; }
    /// Centres a node at a zoom where it can be read (zooming in when the view is below that).
    void zoomToNode(int nodeIndex);
    /// The first view of a graph: fitted when readable, else the top of it at a legible zoom.
    void showStart();
    /// Centres the view on a graph node (its box) without changing the zoom much.
    void centerOnNode(int nodeIndex);
    double zoom() const;
    MiniMap* miniMap() const { return m_mini; }
    /// What floats over the canvas (the minimap, an overlay's legend): children of the view, not of its
    /// viewport, so a scroll leaves them in their corners; their geometry is in the view's coordinates.
    std::vector<QWidget*> canvasOverlays() const;
    /// The canvas in the view's coordinates: the viewport and the bands of the minimap and the legends.
    QRect canvasRect() const { return viewport()->geometry().marginsAdded(viewportMargins()); }

    /// What a double-click on a scene point does (exposed for tests); true when it did something.
    bool activateAt(const QPointF& scenePos);
    /// Selects what is under a scene point (a node, a module's first node, or nothing).
    void selectAt(const QPointF& scenePos);
    /// The node part of the context menu: Show source, Decompose this node, Find producers / users,
    /// Go to producer / first user (public so tests can read the actions without opening a menu).
    void addNodeActions(QMenu& menu, int nodeIndex);

protected:
    void wheelEvent(QWheelEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseDoubleClickEvent(QMouseEvent* event) override;
    void keyPressEvent(QKeyEvent* event) override;
    void contextMenuEvent(QContextMenuEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;
    void scrollContentsBy(int dx, int dy) override;
    bool event(QEvent* event) override;
    bool eventFilter(QObject* watched, QEvent* event) override;

signals:
    /// "Show in FX text" from the context menu (the main window raises that pane).
    void showInFxTextRequested(int nodeIndex);
    /// "Show source": the node's stack trace and the lines around its last frame (the Node pane).
    void showSourceRequested(int nodeIndex);
    /// "Run to here": execute the top-level graph up to this node (the stepping interpreter).
    void runToHereRequested(int nodeIndex);
    /// A line for the status bar: why Fit could not show the whole graph.
    void notice(const QString& message);

private:
    void onRebuilt();
    /// Fits the graph; false when it is too big to fit whole (then shown at kMinZoom).
    bool fitWhole();
    void placeOverlays();
    void selectItemAt(const QPointF& scenePos);

    Document* m_doc;
    GraphScene* m_scene;
    MiniMap* m_mini;
    bool m_fitOnNextLayout = true;
    double m_fitZoom = kMinZoom; // the last fit's zoom, when below kMinZoom: the wheel's floor
    int m_fitWholeItems = kFitWholeItems;
    bool m_clickSelecting = false; // selectAt is running: the selection came from the canvas
};

/// An overview of the whole scene with the visible area outlined; click or drag to move there.
/// It shows an empty stand-in scene with the graph's rect and paints the boxes itself as plain
/// rectangles from a list rebuilt only when the graph changed: asking the real scene to paint its
/// 11,000 items at thumbnail size takes ~65 ms per repaint on deep_stack after a decomposition. The
/// list is read from the scene's own item lists, never QGraphicsScene::items() (which sorts every
/// item by stacking order: over a second per slice on the 100k-node program), and not while the
/// scene is still being built.
class MiniMap : public QGraphicsView {
    Q_OBJECT
public:
    MiniMap(GraphView* main, GraphScene* scene);
    void refresh();

protected:
    void drawBackground(QPainter* painter, const QRectF& rect) override;
    void drawForeground(QPainter* painter, const QRectF& rect) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void wheelEvent(QWheelEvent* event) override;

private:
    struct Box {
        QRectF rect;
        QColor fill; // invalid for module frames (outlined only)
    };
    void collectBoxes();
    QImage paintBoxes(const QSize& size, const QTransform& toPixels) const;

    GraphView* m_main;
    GraphScene* m_source;
    QGraphicsScene m_standIn;
    std::vector<Box> m_boxes;
    bool m_boxesStale = true;
    QImage m_picture; // the boxes as painted at m_pictureTransform
    QTransform m_pictureTransform;
};

} // namespace irlens::views
