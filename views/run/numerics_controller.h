#pragma once
// Numeric debugging in the window: Run › Inputs… (the user's tensor files, remembered per file by the
// Document), Run › Compare with reference values… (every node's value against values captured in
// PyTorch, through the RunController's run), the Numerics dock, View › Numeric error overlay, and
// File › Export values… (every node's value as the CLI's --dump writes it). Every number comes from
// core/compare (runNumerics); this only asks for it and shows it.

#include <QObject>
#include <QString>
#include <QStringList>

#include <atomic>
#include <memory>
#include <string>

class QAction;
class QDockWidget;
class QMainWindow;

namespace irlens::views {

class Document;
class GraphPane;
class NumericOverlay;
class NumericsPane;
class RunController;

class NumericsController : public QObject {
    Q_OBJECT
public:
    NumericsController(QMainWindow* window, Document* document, RunController* run, GraphPane* graph);
    ~NumericsController() override;

    QAction* inputsAction() const { return m_inputs; }
    QAction* compareAction() const { return m_compare; }
    QAction* exportAction() const { return m_export; }
    QAction* overlayAction() const { return m_overlayAction; }
    QDockWidget* dock() const { return m_dock; }
    NumericsPane* pane() const { return m_pane; }
    NumericOverlay* overlay() const { return m_overlay; }

    /// Takes `paths` as the inputs of the program on screen when they are usable: "" then, else the
    /// core's one line saying why not (nothing changes).
    QString chooseInputs(const QStringList& paths);
    /// Runs the program and compares every node's value with `reference` (keyed by node name); the
    /// dock and the overlay show the result when the run ends.
    void compareWith(const QString& reference);
    /// Runs the program once more node by node on the run's inputs and writes every value to `path`
    /// (safetensors) on a worker; exported() or exportFailed() follow.
    void exportValues(const QString& path);
    /// Shows the dock in front (after a comparison, or --dock numerics).
    void revealDock();

signals:
    void exported(const QString& path, int values);
    void exportFailed(const QString& message);

private:
    void createActions();
    void createDock();
    void addToMenus();
    void updateExportAction();
    void askInputs();
    void askReference();
    void askExportPath();

    QMainWindow* m_window;
    Document* m_doc;
    RunController* m_run;
    GraphPane* m_graph;
    QAction* m_inputs = nullptr;
    QAction* m_compare = nullptr;
    QAction* m_export = nullptr;
    QAction* m_overlayAction = nullptr;
    QDockWidget* m_dock = nullptr;
    NumericsPane* m_pane = nullptr;
    NumericOverlay* m_overlay = nullptr;
    std::shared_ptr<std::atomic<bool>> m_exportCancel; // the export running, if any
    bool m_exporting = false;
    std::string m_shownCompare; // the reference whose result last brought the dock to the front
};

} // namespace irlens::views
