#pragma once
// Run › Step node (F10) and Run to here: executes the program on screen one node at a time in graph
// order, as torch.fx.Interpreter does (core/exec/stepper.h), on the inputs a run would use. The next
// node is selected in the graph, and where stepping stands goes to the Document (stepping()), which the
// graph draws (views/graph/step_marker.h); the Values pane lists every node's value, live or freed
// after its last use. Long stretches (Run to here far down a big graph) run in slices on the UI thread, so the
// window stays responsive and Esc stops them. A new program drops the session.

#include <QObject>

#include <memory>
#include <string>
#include <unordered_map>
#include <unordered_set>

class QAction;
class QDockWidget;
class QLabel;
class QMainWindow;
class QTimer;

namespace irlens::core {
struct NumericRun;
}
namespace irlens::core::exec {
class Stepper;
}

namespace irlens::views {

class Document;
class StepValuesModel;
class TablePane;

class StepController : public QObject {
    Q_OBJECT
public:
    /// Adds the actions to the Run menu and the Values dock (hidden until the first step) to `window`.
    StepController(QMainWindow* window, Document* document);
    ~StepController() override;

    QAction* stepAction() const { return m_step; }
    QAction* runToAction() const { return m_runTo; }
    QAction* restartAction() const { return m_restart; }
    QDockWidget* valuesDock() const { return m_dock; }
    StepValuesModel* valuesModel() const { return m_model; }
    TablePane* valuesPane() const { return m_pane; }
    const core::exec::Stepper* stepper() const { return m_stepper.get(); }
    /// Still stepping towards a Run to here target.
    bool isBusy() const { return m_target >= 0; }

    /// Executes the next node (starting a session first).
    void step();
    /// Executes every node up to and including top-level node `node`.
    void runTo(int node);
    /// Drops the session: the next step starts from the first node again.
    void restart();
    /// Stops a Run to here where it stands (Esc); the nodes run so far keep their values.
    void stop();

signals:
    /// A step or a Run to here finished (or failed: the message is in the status bar and the pane).
    void stepped();

private:
    bool ensureSession();
    void createDock();
    void createMenu();
    void continueRunTo();
    void afterSteps(int from, int to);
    void updateRow(int node);
    void recordValues(int node);
    void showNext();
    void fail(const QString& message);
    void updateActions();

    QMainWindow* m_window;
    Document* m_doc;
    QAction* m_step = nullptr;
    QAction* m_runTo = nullptr;
    QAction* m_restart = nullptr;
    QDockWidget* m_dock = nullptr;
    QLabel* m_status = nullptr;
    StepValuesModel* m_model = nullptr;
    TablePane* m_pane = nullptr;
    QTimer* m_slice = nullptr;
    std::unique_ptr<core::exec::Stepper> m_stepper;
    QString m_inputsFrom;
    std::unordered_map<std::string, int> m_producer; // value name -> the node producing it
    std::unordered_set<std::string> m_graphOutputs;  // values the graph returns (never freed)
    std::shared_ptr<core::NumericRun> m_values;           // every value made so far, with its statistics
    std::shared_ptr<const core::NumericRun> m_published; // the copy last given to the Document
    int m_target = -1;       // Run to here: the node to reach, -1 when idle
    int m_sliceFrom = 0;     // the first node of the running Run to here
};

} // namespace irlens::views
