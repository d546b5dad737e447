#pragma once
// Run › Run (F5): compiles the program on screen, runs it on a worker with a profiling observer
// (progress in nodes, Esc cancels) with the thread count of the toolbar's spin box, and publishes the
// result in the Document as a RunSnapshot.
// Results of superseded runs (new program, new run) are dropped by generation id. It also owns the
// panes that show a run: the profile table, the per-thread timeline, the module flame graph, the
// outputs and the heatmap.

#include "views/run/run_snapshot.h"

#include <QObject>

#include <array>
#include <atomic>
#include <memory>

class QAction;
class QComboBox;
class QDockWidget;
class QLabel;
class QMainWindow;
class QProgressBar;
class QSpinBox;
class QTimer;
class QToolButton;

namespace irlens::views {

class Document;
class FlameGraphWidget;
class GraphPane;
class HeatmapOverlay;
class ProfileTableModel;
class RunOutputsModel;
class TablePane;
class TimelineWidget;

class RunController : public QObject {
    Q_OBJECT
public:
    /// Adds the Run menu, toolbar button, View › Heatmap and the run docks to `window`.
    RunController(QMainWindow* window, Document* document, GraphPane* graph);
    ~RunController() override;

    QAction* runAction() const { return m_run; }
    QAction* cancelAction() const { return m_cancelAction; }
    QAction* heatmapAction() const { return m_heatmapAction; }
    ProfileTableModel* profileModel() const { return m_profile; }
    TablePane* profilePane() const { return m_profilePane; }
    QComboBox* groupingCombo() const { return m_grouping; }
    TimelineWidget* timeline() const { return m_timeline; }
    FlameGraphWidget* flameGraph() const { return m_flame; }
    /// Threads of the next run (Run toolbar; remembered as run/threads).
    QSpinBox* threadsBox() const { return m_threads; }
    /// Warm-up runs before the measured ones (the first is the cold start, shown apart; remembered
    /// as run/warmup, default 2) and measured runs (run/repeat, default 20).
    QSpinBox* warmupBox() const { return m_warmup; }
    QSpinBox* repeatBox() const { return m_repeat; }
    RunOutputsModel* outputsModel() const { return m_outputs; }
    HeatmapOverlay* heatmap() const { return m_heatmap; }
    bool isRunning() const { return m_running; }

    /// Starts a run of the current program (a running one is cancelled and its result dropped).
    void run();
    void cancel();
    /// Reference values (keyed by node name) the next runs compare every value with, and the
    /// tolerance (normwise relative error); "" none. Run › Compare with reference values… sets it.
    void setReference(const QString& path, double tolerance);
    QString reference() const { return m_reference; }
    /// The Profile summary line.
    QLabel* summaryLabel() const { return m_summary; }
    /// Shows the run's docks (hidden until there is a run to show) when there is a run result;
    /// the first result does it by itself, View › Reset layout asks again.
    void revealDocks();

signals:
    void runFailed(const QString& message);
    void runningChanged(bool running);
    /// The run finished, but its values could not be compared (an unreadable reference): why.
    void numericsFailed(const QString& message);

private:
    struct Job;
    using Docks = std::array<QDockWidget*, 4>; // profile, timeline, flame graph, outputs
    void createActions();
    Docks createPanes();
    void createMenus(const Docks& docks);
    void createRunBoxes();
    void createStatusWidgets();
    void connectDocument(QDockWidget* profileDock);
    void finish(quint64 generation, std::shared_ptr<Job> job);
    void setRunning(bool running);
    void updateRunAvailable();
    void setHeatmapAvailable(bool available);
    QString numericsSummary() const;

    QMainWindow* m_window;
    Document* m_doc;
    GraphPane* m_graph;
    QAction* m_run = nullptr;
    QAction* m_cancelAction = nullptr;
    QAction* m_heatmapAction = nullptr;
    ProfileTableModel* m_profile = nullptr;
    TablePane* m_profilePane = nullptr;
    QComboBox* m_grouping = nullptr;
    TimelineWidget* m_timeline = nullptr;
    FlameGraphWidget* m_flame = nullptr;
    QSpinBox* m_threads = nullptr;
    QSpinBox* m_warmup = nullptr;
    QSpinBox* m_repeat = nullptr;
    RunOutputsModel* m_outputs = nullptr;
    HeatmapOverlay* m_heatmap = nullptr;
    QLabel* m_summary = nullptr;
    QProgressBar* m_progress = nullptr;
    QToolButton* m_cancelButton = nullptr;
    QTimer* m_poll = nullptr;
    quint64 m_generation = 0;
    std::shared_ptr<Job> m_job;
    Docks m_docks{};
    bool m_docksRevealed = false; // the first run's result showed the docks; the user decides after that
    bool m_running = false;
    QString m_reference;
    double m_tolerance = 0; // core::Tolerance's default, set by the constructor
    QString m_numericsError;
};

} // namespace irlens::views
