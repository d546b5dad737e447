#pragma once
// The main window: graph canvas in the centre, panes as dock widgets (arrangement and geometry kept
// in QSettings), File › Open / recent files / drag & drop, exports (SVG, PNG, DOT), status bar with
// era, schema, node count and verifier summary, progress bar with cancel (Esc).

#include <QMainWindow>
#include <QVariantMap>

#include <memory>

namespace irlens::core {
struct AotiPackage;
}

class QLabel;
class QMenu;
class QProgressBar;
class QToolButton;
class QTreeView;

class QDockWidget;

class QTabWidget;

namespace irlens::views {

class Document;
class GraphPane;
class FxTextPane;
class NodeInspectorModel;
class ModuleTreeModel;
class SignatureModel;
class DiagnosticsModel;
class RangeConstraintsModel;
class WeightsPane;
class CompareLauncher;
class RunController;
class StepController;
class AnalysisDocks;
class RooflineDock;
class NumericsController;
class RunExport;
class SpecReferenceDialog;
class StartPage;
class LearnLauncher;
class ValueStatsView;

class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    explicit MainWindow(QWidget* parent = nullptr);
    ~MainWindow() override;

    Document* document() const { return m_doc; }
    GraphPane* graphPane() const { return m_graph; }
    NodeInspectorModel* inspectorModel() const { return m_inspector; }
    ModuleTreeModel* moduleModel() const { return m_modules; }
    SignatureModel* signatureModel() const { return m_signature; }
    DiagnosticsModel* diagnosticsModel() const { return m_diagnostics; }
    RangeConstraintsModel* rangeModel() const { return m_ranges; }
    WeightsPane* weightsPane() const { return m_weights; }
    FxTextPane* fxPane() const { return m_fx; }
    FxTextPane* fxCodePane() const { return m_fxCode; }
    FxTextPane* fxTablePane() const { return m_fxTable; }
    /// The tabs of the FX dock: Graph, Code, Table.
    QTabWidget* fxTabs() const { return m_fxTabs; }
    /// File › Compare with… (views/compare): opens the Compare window.
    CompareLauncher* compareLauncher() const { return m_compare; }
    /// The Run menu, the run docks and the heatmap (views/run/run_controller.h).
    RunController* runController() const { return m_run; }
    StepController* stepController() const { return m_step; }
    AnalysisDocks* analysisDocks() const { return m_analysis; }
    RooflineDock* rooflineDock() const { return m_roofline; }
    /// Run › Inputs…, Compare with reference values…, File › Export values…, the Numerics dock and
    /// the numeric overlay (views/run/numerics_controller.h).
    NumericsController* numericsController() const { return m_numerics; }
    RunExport* runExport() const { return m_runExport; }
    /// The Node pane's statistics of the selected node's value (views/inspect/value_stats_view.h).
    ValueStatsView* valueStatsView() const { return m_valueStats; }

    void openFile(const QString& path);
    /// The bundled example (what a start without a file shows).
    void openExample();
    /// Writes the current view: .svg (vector) or .png (raster, 2x).
    bool exportView(const QString& path);
    /// Writes the flat graph of the program as DOT.
    bool exportDot(const QString& path);
    /// Op family colours, shapes and badges.
    void showLegend();
    /// Help › Export IR rules (and IR levels, ops): the reference window, on rule `rule` when given.
    void showSpecReference(const QString& rule = {});
    SpecReferenceDialog* specReference() const { return m_specReference; }
    /// Help › Tour of the Export IR, Exercises and Explain this program (views/teach).
    LearnLauncher* learn() const { return m_learn; }
    /// What the canvas shows while there is no program (views/start).
    StartPage* startPage() const { return m_start; }
    /// A dock by its object name ("inspector", "signature", "fx" ...); nullptr when there is none.
    QDockWidget* dockNamed(const QString& objectName) const;
    /// Graph › Draw as the FX graph has it, on or off; the menu's check follows.
    void setFxPlaceholders(bool on);
    /// Graph › Fold repeated blocks, on or off; the menu's check follows.
    void setFoldRepeated(bool on);
    /// Brings a dock to the front, tall enough to read: a run dock by its word in dockWords() or any
    /// dock by its object name. False when the window has no such dock.
    bool raiseDock(const QString& name);
    /// The words raiseDock() knows for the docks a run fills (irlens --dock takes them).
    static QStringList dockWords();

protected:
    void closeEvent(QCloseEvent* event) override;
    void dragEnterEvent(QDragEnterEvent* event) override;
    void dropEvent(QDropEvent* event) override;

public:
    /// View › Reset layout: the docks as a fresh install has them, sized for the window.
    void resetLayout();

protected:
    void showEvent(QShowEvent* event) override;

private:
    void sizeDocks();
    /// Opens the Node pane's stack trace at the selected node's last frame ("Show source").
    void showStackTrace();
    void buildMenus();
    void buildFileMenu();
    void buildEditMenu();
    void buildViewMenu();
    void buildGraphMenu();
    void buildHelpMenu();
    void buildStartPage();
    /// File › Open's dialog, then openFile.
    void chooseAndOpen();
    /// The description of the last AOTInductor package opened, in a window of its own.
    void showPackage();
    void buildDocks();
    void buildLeftDocks();
    void buildRightDocks();
    void buildBottomDocks();
    QDockWidget* addDock(const QString& title, const QString& name, QWidget* widget, Qt::DockWidgetArea area);
    void updateStatus();
    void updateTitle();
    void addRecent(const QString& path);
    void rebuildRecentMenu(const QStringList& recent);

    Document* m_doc;
    GraphPane* m_graph;
    NodeInspectorModel* m_inspector = nullptr;
    ModuleTreeModel* m_modules = nullptr;
    SignatureModel* m_signature = nullptr;
    DiagnosticsModel* m_diagnostics = nullptr;
    RangeConstraintsModel* m_ranges = nullptr;
    WeightsPane* m_weights = nullptr;
    FxTextPane* m_fx = nullptr;
    FxTextPane* m_fxCode = nullptr;
    FxTextPane* m_fxTable = nullptr;
    QTabWidget* m_fxTabs = nullptr;
    CompareLauncher* m_compare = nullptr;
    RunController* m_run = nullptr;
    StepController* m_step = nullptr;
    AnalysisDocks* m_analysis = nullptr;
    RooflineDock* m_roofline = nullptr;
    NumericsController* m_numerics = nullptr;
    RunExport* m_runExport = nullptr;
    ValueStatsView* m_valueStats = nullptr;
    SpecReferenceDialog* m_specReference = nullptr;
    LearnLauncher* m_learn = nullptr;
    QTreeView* m_moduleView = nullptr;
    QTreeView* m_inspectorView = nullptr;
    QAction* m_foldAction = nullptr;
    QAction* m_fxPlaceholdersAction = nullptr;
    QMenu* m_viewMenu = nullptr;
    QMenu* m_recentMenu = nullptr;
    QStringList m_recent; // the Open Recent list, newest first (saved by writeSettingLater)
    QVariantMap m_recentNotes; // per recent path: "ATEN · 70 nodes", what it held when last opened
    QString m_openingPath;     // the file being opened (its note is written once it has loaded)
    StartPage* m_start = nullptr;
    std::shared_ptr<const core::AotiPackage> m_package; // the last package opened (the start page shows it again)
    QLabel* m_statusProgram = nullptr;
    QLabel* m_statusVerifier = nullptr;
    QLabel* m_statusStage = nullptr;
    QProgressBar* m_progress = nullptr;
    QToolButton* m_cancel = nullptr;
    QByteArray m_defaultState;     // saveState() once every dock exists
    bool m_sizeDocksOnShow = false; // no saved layout: size the docks for the window when shown
};

} // namespace irlens::views
