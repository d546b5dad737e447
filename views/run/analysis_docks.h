#pragma once
// Where the time and the memory go, after a run (issue #16's views): the Memory dock (live bytes
// after each node in execution order, stacked by weights / inputs / activations / workspace, the
// peak marked, the blocks live at the peak), the Critical path dock (the longest chain of measured
// node times, outlined on the graph, the scheduling model's predicted wall time beside the measured
// one, and a what-if: an op, a module or a node made faster or free), and the Source lines dock
// (time per file:line of the model's source, self and inclusive; a row selects its nodes). Hidden
// until there is a run, like the run's other docks.

#include "views/run/run_analysis.h"

#include <QWidget>

#include <array>

class QAction;
class QCheckBox;
class QDockWidget;
class QDoubleSpinBox;
class QLabel;
class QLineEdit;
class QMainWindow;
class QStandardItemModel;

namespace irlens::views {

class Document;
class HeatmapOverlay;
class SourcePane;
class TablePane;

/// The live-bytes curve: stacked areas per node in execution order; hover names the node, a click
/// selects it.
class MemoryCurve : public QWidget {
    Q_OBJECT
public:
    explicit MemoryCurve(Document* document, QWidget* parent = nullptr);
    void setMemory(MemorySummary memory);
    const MemorySummary& memory() const { return m_memory; }
    /// The curve point under an x position of the widget, -1 when none.
    int pointAt(int x) const;

protected:
    void paintEvent(QPaintEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;

private:
    QRectF plotRect() const;
    Document* m_doc;
    MemorySummary m_memory;
};

class AnalysisDocks : public QObject {
    Q_OBJECT
public:
    /// `overlay`: the graph's heatmap, which the Memory dock's toggle switches to memory mode.
    AnalysisDocks(QMainWindow* window, Document* document, HeatmapOverlay* overlay = nullptr);

    MemoryCurve* memoryCurve() const { return m_curve; }
    QStandardItemModel* liveModel() const { return m_live; }
    QStandardItemModel* pathModel() const { return m_path; }
    QStandardItemModel* linesModel() const { return m_lines; }
    TablePane* linesPane() const { return m_linesPane; }
    TablePane* pathPane() const { return m_pathPane; }
    /// The source file beside the Source lines table, annotated with the time per line.
    SourcePane* sourcePane() const { return m_source; }
    QLabel* memorySummary() const { return m_memoryText; }
    /// "Colour the graph by memory": the heatmap overlay in memory mode.
    QCheckBox* memoryOverlayToggle() const { return m_memoryOverlay; }
    /// The same toggle in the View menu (enabled once a run is analysed).
    QAction* memoryOverlayAction() const { return m_memoryOverlayAction; }
    QLabel* pathSummary() const { return m_pathText; }
    QLineEdit* whatIfSelector() const { return m_selector; }
    QDoubleSpinBox* whatIfFactor() const { return m_factor; }
    /// The critical path now shown (after a what-if, the new one).
    const PathSummary& path() const { return m_shownPath; }
    /// Shows the docks when there is a run (View › Reset layout asks again).
    void revealDocks();
    /// Runs the what-if in the selector and factor fields.
    void applyWhatIf();
    /// Selects the nodes of a Source lines row (each node whose stack has that file:line).
    void selectLine(int row);
    /// "PyTorch's own lines": off (the default), the Source lines table leaves out lines in PyTorch's
    /// files (`torch/...`), whose time is already on the model's lines that called them.
    QCheckBox* libraryLinesToggle() const { return m_libraryLines; }

private:
    QWidget* buildMemory();
    QWidget* buildPath();
    QWidget* buildLines();
    void addMemoryOverlayAction();
    void updateMemoryOverlayAction();
    void showRun();
    void showMemory(const RunAnalysis& analysis);
    void showLines(const RunAnalysis& analysis);
    /// Fills the Source lines table from m_allLines, with or without PyTorch's lines.
    void fillLines();
    /// `baselineNs` > 0: a what-if, compared with the model's prediction on the measured times.
    void showPath(const PathSummary& path, const QString& heading, int64_t baselineNs = 0);

    QMainWindow* m_window;
    Document* m_doc;
    HeatmapOverlay* m_overlay;
    QCheckBox* m_memoryOverlay = nullptr;
    QAction* m_memoryOverlayAction = nullptr;
    std::array<QDockWidget*, 3> m_docks{};
    bool m_revealed = false;
    MemoryCurve* m_curve = nullptr;
    QStandardItemModel* m_live = nullptr;
    QStandardItemModel* m_path = nullptr;
    QStandardItemModel* m_lines = nullptr;
    TablePane* m_linesPane = nullptr;
    SourcePane* m_source = nullptr;
    TablePane* m_livePane = nullptr;
    TablePane* m_pathPane = nullptr;
    QLabel* m_memoryText = nullptr;
    QLabel* m_pathText = nullptr;
    QLineEdit* m_selector = nullptr;
    QDoubleSpinBox* m_factor = nullptr;
    PathSummary m_shownPath;
    LineSummary m_allLines;  // every line of the run
    LineSummary m_lineRows;  // the rows shown, in the table's order
    QCheckBox* m_libraryLines = nullptr;
};

} // namespace irlens::views
