#pragma once
// The Roofline dock: after a run, each node against this machine's roofs (run_analysis.h's
// RooflineSummary) as a plot (roofline_plot.h) under a caption with the roofs, where they came from
// (measured now or cached), the share of node time in nodes near their roof and the nodes not on the
// plot. Hidden until there is a run, like the run's other docks; `irlens --run --dock roofline`
// brings it to the front.

#include "views/run/run_snapshot.h"

#include <QObject>

class QDockWidget;
class QLabel;
class QMainWindow;

namespace irlens::views {

class Document;
class RooflinePlot;

class RooflineDock : public QObject {
    Q_OBJECT
public:
    RooflineDock(QMainWindow* window, Document* document);

    QDockWidget* dock() const { return m_dock; }
    RooflinePlot* plot() const { return m_plot; }
    QLabel* caption() const { return m_caption; }
    /// Shows the dock when there is an analysed run (View › Reset layout asks again).
    void revealDock();

private:
    void showRun(const RunSnapshotPtr& run);

    Document* m_doc;
    QDockWidget* m_dock = nullptr;
    RooflinePlot* m_plot = nullptr;
    QLabel* m_caption = nullptr;
    bool m_revealed = false;
};

} // namespace irlens::views
