#include "views/main_window.h"

#include "core/io/dot_export.h"
#include "core/ops/op_family.h"
#include "views/column_fit.h"
#include "views/count_text.h"
#include "views/empty_note.h"
#include "views/report_export.h"
#include "views/run/run_export.h"
#include "views/run/run_node_info.h"
#include "views/graph/graph_items.h"
#include "core/ir/example_program.h"
#include "views/compare/compare_launcher.h"
#include "views/decomp/decomp_pane.h"
#include "views/decomp/decomposition.h"
#include "views/document.h"
#include "views/inspect/fx_text_pane.h"
#include "views/graph/graph_pane.h"
#include "views/graph/graph_scene.h"
#include "views/graph/graph_view.h"
#include "views/inspect/module_tree_model.h"
#include "views/inspect/node_inspector_model.h"
#include "views/inspect/table_models.h"
#include "views/inspect/table_pane.h"
#include "views/run/run_controller.h"
#include "views/run/analysis_docks.h"
#include "views/run/timeline_widget.h"
#include "views/run/roofline_dock.h"
#include "views/run/numerics_controller.h"
#include "views/inspect/value_stats_view.h"
#include "views/run/step_controller.h"
#include "views/teach/learn_launcher.h"
#include "views/teach/spec_reference.h"
#include "views/inspect/weights_pane.h"
#include "views/package/package_view.h"
#include "views/settings_writer.h"
#include "views/start/start_page.h"

#include <QAction>
#include <QApplication>
#include <QCloseEvent>
#include <QDockWidget>
#include <QSplitter>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QHeaderView>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QPainter>
#include <QProgressBar>
#include <QSettings>
#include <QGuiApplication>
#include <QScreen>
#include <QShortcut>
#include <QStatusBar>
#include <QSvgGenerator>
#include <QToolBar>
#include <QTabWidget>
#include <QTimer>
#include <QToolButton>
#include <QTreeView>
#include <array>
#include <memory>
#include <tuple>

namespace irlens::views {

using namespace irlens::core;

namespace {
constexpr int kMaxRecent = 10;
}

MainWindow::MainWindow(QWidget* parent) : QMainWindow(parent), m_doc(new Document(this)) {
    setObjectName("irlensMainWindow");
    setAcceptDrops(true);
    m_graph = new GraphPane(m_doc, this);
    setCentralWidget(m_graph);
    buildStartPage();
    buildDocks();
    buildMenus();

    m_statusProgram = new QLabel(this);
    m_statusVerifier = new QLabel(this);
    m_statusStage = new QLabel(this);
    m_progress = new QProgressBar(this);
    m_progress->setMaximumWidth(160);
    m_progress->setVisible(false);
    m_cancel = new QToolButton(this);
    m_cancel->setText(tr("Cancel"));
    m_cancel->setToolTip(tr("Cancel the running job (Esc)"));
    m_cancel->setVisible(false);
    statusBar()->addWidget(m_statusProgram, 1);
    statusBar()->addPermanentWidget(m_statusStage);
    statusBar()->addPermanentWidget(m_progress);
    statusBar()->addPermanentWidget(m_cancel);
    statusBar()->addPermanentWidget(m_statusVerifier);
    connect(m_cancel, &QToolButton::clicked, m_doc, &Document::cancel);
    auto* esc = new QShortcut(QKeySequence(Qt::Key_Escape), this);
    connect(esc, &QShortcut::activated, m_doc, [this] {
        if (m_doc->isBusy()) m_doc->cancel();
        if (m_step && m_step->isBusy()) m_step->stop();
    });
    // Run menu, profile / timeline / outputs docks and the heatmap (views/run_controller.h)
    m_run = new RunController(this, m_doc, m_graph);
    // Run › Step node / Run to here and the Values dock (views/run/step_controller.h)
    m_step = new StepController(this, m_doc);
    // Memory, Critical path and Source lines after a run (views/run/analysis_docks.h)
    m_analysis = new AnalysisDocks(this, m_doc, m_run->heatmap());
    // each node against this machine's roofs (views/run/roofline_dock.h)
    m_roofline = new RooflineDock(this, m_doc);
    // Run › Inputs…, Compare with reference values…, the Numerics dock, File › Export values…
    m_numerics = new NumericsController(this, m_doc, m_run, m_graph);
    // File › Export run: the last run's profile, trace, memory curve and critical path (views/run/run_export.h)
    m_runExport = new RunExport(this, m_doc);
    m_inspector->setExtraRows([this](InfoRow& root, int node) { addRunSection(root, m_doc->runResult().get(), node); });
    m_runExport->addToContextMenu(m_run->profilePane()->view(), RunFile::Profile);
    m_runExport->addToContextMenu(m_run->timeline(), RunFile::Trace);
    m_runExport->addToContextMenu(m_analysis->memoryCurve(), RunFile::MemoryCurve);
    m_runExport->addToContextMenu(m_analysis->pathPane()->view(), RunFile::CriticalPath);
    connect(m_graph->view(), &GraphView::runToHereRequested, m_step, &StepController::runTo);
    connect(m_graph->view(), &GraphView::notice, this, [this](const QString& message) { statusBar()->showMessage(message, 15000); });
    // the run's docks join the bottom tabs; the FX text stays in front until there is a run to show
    if (auto* fx = findChild<QDockWidget*>(QStringLiteral("fx"))) fx->raise();

    connect(m_doc, &Document::busyChanged, this, [this](bool busy) {
        m_progress->setVisible(busy);
        m_cancel->setVisible(busy);
        if (!busy) m_statusStage->clear();
    });
    connect(m_doc, &Document::progressChanged, this, [this](const QString& stage, int percent) {
        m_statusStage->setText(stage);
        m_progress->setRange(0, percent < 0 ? 0 : 100); // busy indicator when unknown
        if (percent >= 0) m_progress->setValue(percent);
    });
    connect(m_doc, &Document::programChanged, this, [this] { updateStatus(); updateTitle(); });
    connect(m_doc, &Document::diagnosticsChanged, this, &MainWindow::updateStatus);
    connect(m_doc, &Document::layoutReady, this, &MainWindow::updateStatus);
    connect(m_doc, &Document::loadFailed, this, [this](const QString& message) {
        statusBar()->showMessage(tr("Could not open: %1").arg(message), 15000);
        m_start->setMessage(tr("Could not open %1: %2").arg(QFileInfo(m_openingPath).fileName(), message));
        m_openingPath.clear();
        // with no program the start page says it in place; over a program that stays, a box says it
        if (isVisible() && m_doc->program()) QMessageBox::warning(this, tr("Could not open the file"), message);
    });
    // an AOTInductor package has no graph: say what it holds, in a window of its own
    connect(m_doc, &Document::packageOpened, this, [this](const QString& path, std::shared_ptr<const AotiPackage> package) {
        statusBar()->showMessage(tr("%1 is an AOTInductor package (compiled code, no exported program)")
                                     .arg(QFileInfo(path).fileName()), 15000);
        m_package = std::move(package);
        m_start->setMessage(tr("%1 is an AOTInductor package: compiled code and weights, no exported program to draw. "
                               "Its description opens in a window of its own.")
                                .arg(QFileInfo(path).fileName()),
                            true);
        m_openingPath.clear();
        showPackage();
    });
    connect(m_doc, &Document::layoutFailed, this, [this](const QString& message) {
        statusBar()->showMessage(tr("Layout failed: %1").arg(message), 15000);
    });

    // every dock exists now (the run's too): what View › Reset layout goes back to
    m_defaultState = saveState();
    QSettings settings;
    // a first start: 1500x950, or 92 % of a smaller screen (1366x768 laptops)
    QSize size(1500, 950);
    if (QScreen* screen = QGuiApplication::primaryScreen()) size = size.boundedTo(screen->availableGeometry().size() * 0.92);
    resize(size);
    restoreGeometry(settings.value("window/geometry").toByteArray());
    if (!restoreState(settings.value("window/state").toByteArray())) m_sizeDocksOnShow = true;
    rebuildRecentMenu(settings.value("recentFiles").toStringList());
    updateStatus();
}

MainWindow::~MainWindow() { waitForSettingWrites(); }

QDockWidget* MainWindow::addDock(const QString& title, const QString& name, QWidget* widget, Qt::DockWidgetArea area) {
    auto* d = new QDockWidget(title, this);
    d->setObjectName(name);
    d->setWidget(widget);
    addDockWidget(area, d);
    return d;
}

void MainWindow::buildDocks() {
    buildLeftDocks();
    buildRightDocks();
    buildBottomDocks();
}

// The module tree with the signature and the range constraints as tabs beside it.
void MainWindow::buildLeftDocks() {
    m_modules = new ModuleTreeModel(m_doc, this);
    m_moduleView = new QTreeView(this);
    m_moduleView->setModel(m_modules);
    m_moduleView->setUniformRowHeights(true);
    m_moduleView->header()->setSectionResizeMode(0, QHeaderView::Stretch);
    // class and node count as narrow as their contents: the module names get the rest
    m_moduleView->header()->setSectionResizeMode(1, QHeaderView::ResizeToContents);
    m_moduleView->header()->setSectionResizeMode(2, QHeaderView::ResizeToContents);
    m_moduleView->header()->setResizeContentsPrecision(200); // a few hundred rows decide, not all
    m_moduleView->header()->setStretchLastSection(false);
    m_moduleView->setToolTip(tr("Click: select the module's first node · Double-click: open or close the group"));
    connect(m_moduleView, &QTreeView::clicked, this, [this](const QModelIndex& idx) {
        const int m = idx.data(ModuleTreeModel::ModuleIndexRole).toInt();
        const auto& tree = *m_doc->scope().tree;
        // the first node at or below the module
        int first = -1;
        for (int n = 0; n < tree.module(0).totalNodes && first < 0; ++n)
            if (tree.isWithin(tree.moduleOfNode(n), m)) first = n;
        if (first >= 0) m_doc->selectNode(first);
    });
    connect(m_moduleView, &QTreeView::doubleClicked, this, [this](const QModelIndex& idx) {
        m_doc->toggleModule(idx.data(ModuleTreeModel::ModuleIndexRole).toInt());
    });
    auto* modulesDock = addDock(tr("Modules"), "modules", m_moduleView, Qt::LeftDockWidgetArea);
    m_signature = new SignatureModel(m_doc, this);
    auto* sigDock = addDock(tr("Signature"), "signature", new TablePane(m_doc, m_signature, SignatureModel::LinkRole, this),
                         Qt::LeftDockWidgetArea);
    m_ranges = new RangeConstraintsModel(m_doc, this);
    auto* rangeDock = addDock(tr("Range constraints"), "ranges", new TablePane(m_doc, m_ranges, 0, this), Qt::LeftDockWidgetArea);

    // empty, each says why and what fills it
    new EmptyNote(m_moduleView, [this] {
        if (!m_doc->program()) return tr("No program: open one and its modules are listed here");
        if (m_doc->scope().subgraph >= 0)
            return tr("Inside a subgraph: its nodes belong to no module of their own. Backspace goes back up to the modules");
        return tr("No modules: the nodes record no nn_module_stack (a pass may have dropped it), so every node is at the top level");
    });
    new EmptyNote(static_cast<TablePane*>(sigDock->widget())->view(), [this] {
        return m_doc->program() ? tr("The signature has no inputs or outputs") : tr("No program: its inputs and outputs are listed here");
    });
    new EmptyNote(static_cast<TablePane*>(rangeDock->widget())->view(), [this] {
        return m_doc->program() ? tr("No range constraints: no size in this program is symbolic (it was exported without dynamic "
                                     "shapes), so there is nothing to bound")
                                : tr("No program: the ranges of its symbolic sizes are listed here");
    });
    tabifyDockWidget(modulesDock, sigDock);
    tabifyDockWidget(sigDock, rangeDock);
    modulesDock->raise();
}

// The Node pane and the decomposition as tabs, each with the whole height (stacked, the Node pane had
// to be scrolled to reach the module stack and the teaching text showed 6 lines).
void MainWindow::buildRightDocks() {
    m_inspector = new NodeInspectorModel(m_doc, this);
    m_inspectorView = new QTreeView(this);
    m_inspectorView->setModel(m_inspector);
    m_inspectorView->setUniformRowHeights(true);
    m_inspectorView->setAlternatingRowColors(true);
    m_inspectorView->setToolTip(tr("Activate an underlined value to follow it (producer node, symbol, subgraph)"));
    connect(m_inspector, &QAbstractItemModel::modelReset, this, [this] {
        // open the sections a user reads first
        for (int r = 0; r < m_inspector->rowCount(); ++r) {
            const QString key = m_inspector->index(r, 0).data().toString();
            if (key != tr("Raw meta") && key != tr("source_fn_stack")) m_inspectorView->expand(m_inspector->index(r, 0));
        }
    });
    // property and value share the width: a long key no longer squeezes the values to a few letters
    new ColumnFitter(m_inspectorView, 1);
    auto follow = [this](const QModelIndex& idx) {
        const QString link = idx.data(InfoTreeModel::LinkRole).toString();
        if (!link.isEmpty()) followLink(m_doc, link);
    };
    connect(m_inspectorView, &QTreeView::activated, this, follow);
    connect(m_inspectorView, &QTreeView::clicked, this, follow);
    // the selected node's value as numbers under the tree, after a run or a step
    m_valueStats = new ValueStatsView(m_doc, this);
    auto* inspectorSplit = new QSplitter(Qt::Vertical, this);
    inspectorSplit->addWidget(m_inspectorView);
    inspectorSplit->addWidget(m_valueStats);
    inspectorSplit->setStretchFactor(0, 1);
    inspectorSplit->setStretchFactor(1, 1);
    auto* inspectorDock = addDock(tr("Node"), "inspector", inspectorSplit, Qt::RightDockWidgetArea);
    new EmptyNote(m_inspectorView, [this] {
        return m_doc->program() ? tr("Select a box in the graph, or a row in any table, to see its op, arguments, outputs, source "
                                     "and module stack here")
                                : tr("No program: the selected node is described here");
    });
    connect(m_graph->view(), &GraphView::showSourceRequested, this, [this, inspectorDock](int n) {
        inspectorDock->show();
        inspectorDock->raise();
        m_doc->selectNode(n);
        showStackTrace();
    });

    auto* decompDock = addDock(tr("Decomposition"), "decomposition", new DecompPane(m_doc, this), Qt::RightDockWidgetArea);
    tabifyDockWidget(inspectorDock, decompDock);
    inspectorDock->raise();
}

// The FX text, diagnostics and weights as tabs (the run's docks join them, views/run).
void MainWindow::buildBottomDocks() {
    // the FX text, forward()'s code and the print_tabular() table as tabs of one dock
    m_fx = new FxTextPane(m_doc, this);
    m_fxCode = new FxTextPane(m_doc, this, FxTextPane::Form::Code);
    m_fxTable = new FxTextPane(m_doc, this, FxTextPane::Form::Table);
    m_fxTabs = new QTabWidget(this);
    m_fxTabs->setObjectName("fxForms");
    m_fxTabs->setDocumentMode(true);
    m_fxTabs->setTabPosition(QTabWidget::South);
    m_fxTabs->addTab(m_fx, tr("Graph"));
    m_fxTabs->addTab(m_fxCode, tr("Code"));
    m_fxTabs->addTab(m_fxTable, tr("Table"));
    m_fxTabs->setTabToolTip(0, tr("The FX graph as print(ep.graph) shows it"));
    m_fxTabs->setTabToolTip(1, tr("forward() as GraphModule.code prints it; each line selects its node"));
    m_fxTabs->setTabToolTip(2, tr("graph.print_tabular(): opcode, name, target, args, kwargs; each row selects its node"));
    auto* fxDock = addDock(tr("FX text"), "fx", m_fxTabs, Qt::BottomDockWidgetArea);
    connect(m_graph->view(), &GraphView::showInFxTextRequested, this, [this, fxDock](int n) {
        fxDock->show();
        fxDock->raise();
        m_doc->selectNode(n);
        m_fxTabs->currentWidget()->setFocus();
    });
    m_diagnostics = new DiagnosticsModel(m_doc, this);
    auto* diagPane = new TablePane(m_doc, m_diagnostics, DiagnosticsModel::NodeNameRole, this, "node:");
    diagPane->setStretchColumn(3); // the message
    auto* diagDock = addDock(tr("Diagnostics"), "diagnostics", diagPane, Qt::BottomDockWidgetArea);
    new EmptyNote(diagPane->view(), [this] {
        if (!m_doc->program()) return tr("No program: the verifier's findings on it are listed here");
        if (m_doc->verifierSummary().contains(tr("verifying"))) return tr("Verifying…");
        return tr("No findings: the program keeps every Export IR rule the verifier checks (Help › Export IR rules)");
    });
    // activating the Rule column opens the rule's explanation (Help › Export IR rules)
    connect(diagPane, &TablePane::rowActivated, this, [this](const QModelIndex& index) {
        if (index.column() == 1) showSpecReference(index.data().toString());
    });
    m_weights = new WeightsPane(m_doc, this);
    auto* weightsDock = addDock(tr("Weights"), "weights", m_weights, Qt::BottomDockWidgetArea);
    tabifyDockWidget(fxDock, diagDock);
    tabifyDockWidget(diagDock, weightsDock);
    fxDock->raise();
    connect(m_doc, &Document::diagnosticsChanged, this, [this, diagDock] {
        diagDock->setWindowTitle(tr("Diagnostics (%1)").arg(m_doc->diagnostics().size()));
    });
}

namespace {

// Graph › Fold repeated blocks and Draw as the FX graph has it (checkable), in that order.
std::pair<QAction*, QAction*> addDrawingActions(QMenu* menu, Document* doc) {
    QAction* fold = menu->addAction(QObject::tr("&Fold repeated blocks"), doc, &Document::setFoldRepeatedBlocks);
    fold->setObjectName("foldRepeatedAction");
    fold->setCheckable(true);
    fold->setChecked(doc->foldRepeatedBlocks());
    fold->setToolTip(QObject::tr("In graphs of %1 nodes or more, runs of %2 or more identical sibling modules (a decoder's "
                                 "layers) drawn once with ×N; selecting or finding a node of another instance shows that instance")
                         .arg(Document::kFoldFromNodes)
                         .arg(Document::kMinFoldRun));
    QAction* fxForm = menu->addAction(QObject::tr("Draw as the &FX graph has it"), doc, &Document::setDrawFxPlaceholders);
    fxForm->setObjectName("fxPlaceholdersAction");
    fxForm->setCheckable(true);
    fxForm->setToolTip(QObject::tr("Lifted state (parameters, buffers, constants) as placeholder boxes with edges and a "
                                   "higher-order op's branches as get_attr boxes, as in the FX graph; off: state as chips on its users"));
    return {fold, fxForm};
}

// The docks a run fills, by the words the command line uses, and their object names.
const std::array<std::pair<const char*, const char*>, 10> kDockWords{{{"profile", "runProfile"},
                                                                     {"timeline", "runTimeline"},
                                                                     {"flame", "runFlameGraph"},
                                                                     {"outputs", "runOutputs"},
                                                                     {"memory", "runMemory"},
                                                                     {"path", "runCriticalPath"},
                                                                     {"lines", "runSourceLines"},
                                                                     {"roofline", "runRoofline"},
                                                                     {"values", "stepValues"},
                                                                     {"numerics", "runNumerics"}}};

} // namespace

void MainWindow::buildMenus() {
    buildFileMenu();
    buildEditMenu();
    buildViewMenu();
    buildGraphMenu();
    buildHelpMenu();
    auto* tb = addToolBar(tr("Main"));
    tb->setObjectName("mainToolbar");
    tb->addAction(tr("Open"), this, &MainWindow::chooseAndOpen);
    tb->addAction(tr("Fit"), m_graph->view(), &GraphView::fitAll);
    tb->addAction(tr("Collapse all"), m_doc, &Document::collapseAll);
    tb->addAction(tr("Expand all"), m_doc, &Document::expandAll);
}

void MainWindow::buildFileMenu() {
    QMenu* file = menuBar()->addMenu(tr("&File"));
    file->addAction(tr("&Open…"), QKeySequence::Open, this, &MainWindow::chooseAndOpen);
    m_recentMenu = file->addMenu(tr("Open &Recent"));
    file->addAction(tr("Open the &example"), this, &MainWindow::openExample);
    file->addSeparator();
    m_compare = new CompareLauncher(m_doc, file, this); // Compare with… (views/compare)
    file->addSeparator();
    file->addAction(tr("Export view as &SVG…"), this, [this] {
        const QString p = QFileDialog::getSaveFileName(this, tr("Export view"), "graph.svg", tr("SVG (*.svg)"));
        if (!p.isEmpty()) exportView(p);
    });
    file->addAction(tr("Export view as &PNG…"), this, [this] {
        const QString p = QFileDialog::getSaveFileName(this, tr("Export view"), "graph.png", tr("PNG (*.png)"));
        if (!p.isEmpty()) exportView(p);
    });
    file->addAction(tr("Export graph as &DOT…"), this, [this] {
        const QString p = QFileDialog::getSaveFileName(this, tr("Export DOT"), "graph.dot", tr("Graphviz (*.dot *.gv)"));
        if (!p.isEmpty()) exportDot(p);
    });
    file->addAction(tr("Export &report…"), this, [this] {
        const QString p = QFileDialog::getSaveFileName(this, tr("Export report"), "report.html", tr("HTML (*.html)"));
        if (p.isEmpty()) return;
        if (const QString err = writeDocumentReport(*m_doc, p); !err.isEmpty()) QMessageBox::warning(this, tr("Could not export"), err);
    });
    file->addAction(tr("Save decomposed program &As…"), QKeySequence::SaveAs, this, [this] {
        const QString p = QFileDialog::getSaveFileName(this, tr("Save the program as .pt2"), "decomposed.pt2",
                                                       tr("Exported programs (*.pt2)"));
        if (!p.isEmpty())
            if (const QString err = m_doc->decomposition()->saveAs(p); !err.isEmpty())
                QMessageBox::warning(this, tr("Could not save"), err);
    });
    file->addSeparator();
    file->addAction(tr("&Quit"), QKeySequence::Quit, this, &QWidget::close);
}

void MainWindow::buildEditMenu() {
    QMenu* edit = menuBar()->addMenu(tr("&Edit"));
    edit->addAction(tr("&Find…"), QKeySequence::Find, m_graph, &GraphPane::focusSearch);
    edit->addAction(tr("Find &next"), QKeySequence::FindNext, m_graph, [this] { m_graph->nextHit(false); });
    edit->addAction(tr("Find &previous"), QKeySequence::FindPrevious, m_graph, [this] { m_graph->nextHit(true); });
}

void MainWindow::buildViewMenu() {
    QMenu* view = menuBar()->addMenu(tr("&View"));
    GraphView* gv = m_graph->view();
    view->addAction(tr("&Fit"), QKeySequence(Qt::CTRL | Qt::Key_0), gv, &GraphView::fitAll);
    view->addAction(tr("Zoom &in"), QKeySequence(Qt::CTRL | Qt::Key_Equal), gv, [gv] { gv->zoomBy(1.25); });
    view->addAction(tr("Zoom &out"), QKeySequence(Qt::CTRL | Qt::Key_Minus), gv, [gv] { gv->zoomBy(0.8); });
    view->addSeparator();
    view->addAction(tr("&Reset layout"), this, &MainWindow::resetLayout);
    m_viewMenu = view->addMenu(tr("&Panes"));
    // every dock and toolbar of the window, the run docks included (QMainWindow lists them)
    connect(m_viewMenu, &QMenu::aboutToShow, this, [this] {
        m_viewMenu->clear();
        const std::unique_ptr<QMenu> all(createPopupMenu());
        if (all)
            for (QAction* a : all->actions())
                if (!a->isSeparator()) m_viewMenu->addAction(a);
    });
}

void MainWindow::buildGraphMenu() {
    QMenu* graph = menuBar()->addMenu(tr("&Graph"));
    graph->addAction(tr("&Collapse all modules"), m_doc, &Document::collapseAll);
    graph->addAction(tr("&Expand all modules"), m_doc, &Document::expandAll);
    std::tie(m_foldAction, m_fxPlaceholdersAction) = addDrawingActions(graph, m_doc);
    graph->addAction(tr("&Up from subgraph"), QKeySequence(Qt::ALT | Qt::Key_Backspace), m_doc, [this] { m_doc->leaveSubgraph(); });
    graph->addAction(tr("&Go to instance of a folded block"), QKeySequence(Qt::CTRL | Qt::Key_L), m_graph, &GraphPane::focusInstance)
        ->setObjectName("focusInstanceAction");
    graph->addAction(tr("Clear symbol highlight"), m_doc, [this] { m_doc->setHighlightSymbol({}); });
    graph->addSeparator();
    // the verifier's slow check, on demand: every val re-inferred by the meta functions
    QAction* meta = graph->addAction(tr("Check metas with the meta functions (EIR-M006)"), m_doc, &Document::checkInferredMeta);
    meta->setObjectName("checkMetaAction");
    connect(m_doc, &Document::metaChecked, this, [this](int findings) {
        statusBar()->showMessage(findings == 0 ? tr("Every meta['val'] agrees with its op's meta function (EIR-M006)")
                                               : tr("%1 meta['val'] disagree with the meta functions (EIR-M006): see Diagnostics").arg(findings),
                                 10000);
    });
}

void MainWindow::buildHelpMenu() {
    QMenu* help = menuBar()->addMenu(tr("&Help"));
    help->addAction(tr("&Legend"), this, &MainWindow::showLegend);
    help->addAction(tr("Export IR &rules…"), this, [this] { showSpecReference(); });
    help->addAction(tr("IR &levels and ops…"), this, [this] {
        showSpecReference();
        m_specReference->showPage(SpecReferenceDialog::Levels);
    });
    help->addSeparator();
    m_learn = new LearnLauncher(this, help); // the tour, the exercises, Explain this program
    help->addSeparator();
    help->addAction(tr("&Keys"), this, [this] {
        QMessageBox::information(this, tr("Keys"),
                                 tr("Wheel, Ctrl+= / Ctrl+-: zoom · drag: pan · Ctrl+0: fit\n"
                                    "Click: select · double-click a module box or group: open/close · double-click a HOP: enter\n"
                                    "Backspace: up from a subgraph · Alt+Up / Alt+Down: producer / first user\n"
                                    "Ctrl+F: search · Enter / Shift+Enter: next / previous hit · Esc: cancel a running job\n"
                                    "Ctrl+L: the instance a folded run of repeated blocks shows (Up / Down, or type its number)\n"
                                    "F10: step one node · Ctrl+F10: run to the selected node"));
    });
}

void MainWindow::showLegend() {
    // the op family colours and node shapes, drawn the way the graph draws them
    QString html = "<table cellspacing=4>";
    const OpFamily families[] = {OpFamily::Linear, OpFamily::Normalization, OpFamily::Activation, OpFamily::Elementwise,
                                 OpFamily::Reduction, OpFamily::View, OpFamily::DataMovement, OpFamily::Prims,
                                 OpFamily::HigherOrder, OpFamily::Symbolic, OpFamily::Other};
    for (OpFamily f : families) {
        const QColor c(QRgb(0xff000000u | opFamilyColor(f)));
        html += QString("<tr><td bgcolor='%1' style='color:%2'>&nbsp;&nbsp;%3&nbsp;&nbsp;</td></tr>")
                    .arg(c.name(), readableTextOn(c).name(), QString::fromUtf8(opFamilyName(f)));
    }
    html += "</table><p>" + tr("Badges, the op's level: C core ATen · N non-core ATen · P prims · H higher-order · S symbolic · X custom. The program's dialect (TRAINING, ATEN) is in the status bar") + "</p><p>" +
            tr("Green pills: user inputs · red pill: output · dashed boxes: collapsed modules · double border: "
               "higher-order op (double-click to enter) · small chips: parameters (blue), buffers (green), "
               "constants (lilac), values read far away (orange, click to jump)") + "</p>";
    QMessageBox box(this);
    box.setWindowTitle(tr("Legend"));
    box.setTextFormat(Qt::RichText);
    box.setText(html);
    box.exec();
}

void MainWindow::openFile(const QString& path) {
    addRecent(QFileInfo(path).absoluteFilePath());
    m_openingPath = QFileInfo(path).absoluteFilePath();
    m_doc->openFile(path);
}

void MainWindow::openExample() { m_doc->setProgram(makeExampleProgram(), tr("example")); }

bool MainWindow::exportView(const QString& path) {
    GraphScene* scene = m_graph->scene();
    const QRectF src = scene->sceneRect();
    if (src.isEmpty()) return false;
    if (path.endsWith(".svg", Qt::CaseInsensitive)) {
        QSvgGenerator gen;
        gen.setFileName(path);
        gen.setSize(src.size().toSize());
        gen.setViewBox(QRectF(QPointF(0, 0), src.size()));
        gen.setTitle(m_doc->title());
        gen.setDescription(tr("irlens graph view"));
        QPainter p(&gen);
        scene->render(&p, QRectF(QPointF(0, 0), src.size()), src);
        return p.end();
    }
    // raster: twice the scene size, capped so huge graphs do not exhaust memory
    double scale = std::min(2.0, 16000.0 / std::max(src.width(), src.height()));
    QImage img((src.size() * scale).toSize(), QImage::Format_ARGB32_Premultiplied);
    img.fill(palette().color(QPalette::Base));
    QPainter p(&img);
    p.setRenderHint(QPainter::Antialiasing);
    scene->render(&p, QRectF(QPointF(0, 0), src.size() * scale), src);
    p.end();
    return img.save(path);
}

bool MainWindow::exportDot(const QString& path) {
    if (!m_doc->program()) return false;
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly | QIODevice::Truncate)) return false;
    const std::string dot = core::exportDot(*m_doc->program());
    return f.write(dot.data(), static_cast<qint64>(dot.size())) == static_cast<qint64>(dot.size());
}

void MainWindow::updateStatus() {
    auto p = m_doc->program();
    if (!p) {
        m_statusProgram->setText(tr("No program"));
        m_statusVerifier->clear();
        return;
    }
    QString text = QStringLiteral("%1 · %2 · schema %3").arg(m_doc->title(), QString::fromUtf8(containerKindName(p->container)),
                                                             QString::fromStdString(p->schemaVersion.toString()));
    if (!p->torchVersionOrEstimate().empty())
        text += QStringLiteral(" · torch %1").arg(QString::fromStdString(p->torchVersionOrEstimate()));
    if (!p->verifiers.empty()) text += QStringLiteral(" · %1").arg(QString::fromStdString(p->verifiers.front()));
    text += QStringLiteral(" · ") + nodesText(static_cast<qint64>(p->graph.nodes.size()));
    if (auto l = m_doc->layout()) text += tr(" · %1 boxes shown").arg(l->graph.items.size());
    m_statusProgram->setText(text);
    m_statusVerifier->setText(m_doc->verifierSummary());
}

void MainWindow::updateTitle() {
    setWindowTitle(m_doc->title().isEmpty() ? QStringLiteral("irlens") : m_doc->title() + QStringLiteral(" — irlens"));
}

void MainWindow::addRecent(const QString& path) {
    QStringList recent = m_recent;
    recent.removeAll(path);
    recent.prepend(path);
    while (recent.size() > kMaxRecent) recent.removeLast();
    writeSettingLater("recentFiles", recent);
    rebuildRecentMenu(recent);
}

// The canvas's start page: shown while there is no program; a program opened from a file notes its
// dialect and node count beside its entry in the recent files.
void MainWindow::buildStartPage() {
    m_start = new StartPage;
    m_start->cover(m_graph);
    m_recentNotes = QSettings().value("recentNotes").toMap();
    connect(m_start, &StartPage::openRequested, this, &MainWindow::chooseAndOpen);
    connect(m_start, &StartPage::exampleRequested, this, &MainWindow::openExample);
    connect(m_start, &StartPage::recentRequested, this, &MainWindow::openFile);
    connect(m_start, &StartPage::packageRequested, this, &MainWindow::showPackage);
    connect(m_doc, &Document::programChanged, this, [this] {
        const auto p = m_doc->program();
        m_start->setVisible(!p);
        if (!p) return;
        m_start->setMessage({});
        if (m_openingPath.isEmpty()) return;
        QString note = p->verifiers.empty() ? QString() : QString::fromStdString(p->verifiers.front()) + QStringLiteral(" · ");
        m_recentNotes[m_openingPath] = note + nodesText(static_cast<qint64>(p->graph.nodes.size()));
        m_openingPath.clear();
        writeSettingLater("recentNotes", m_recentNotes);
        rebuildRecentMenu(m_recent);
    });
}

void MainWindow::chooseAndOpen() {
    const QString path = QFileDialog::getOpenFileName(this, tr("Open a torch.export program"), QString(),
                                                      tr("Exported programs (*.pt2 *.zip *.ep);;All files (*)"));
    if (!path.isEmpty()) openFile(path);
}

void MainWindow::showPackage() {
    if (!m_package) return;
    auto* view = new PackageView(m_package, this);
    view->setAttribute(Qt::WA_DeleteOnClose);
    view->show();
}

void MainWindow::rebuildRecentMenu(const QStringList& recent) {
    m_recent = recent;
    QStringList notes;
    for (const QString& path : recent) notes << m_recentNotes.value(path).toString();
    m_start->setRecent(recent, notes);
    m_recentMenu->clear();
    for (const auto& path : recent)
        m_recentMenu->addAction(QFileInfo(path).fileName(), this, [this, path] { openFile(path); })->setToolTip(path);
    m_recentMenu->setEnabled(!recent.isEmpty());
}

void MainWindow::closeEvent(QCloseEvent* event) {
    if (!DecompPane::confirmClose(m_doc->decomposition(), this)) {
        event->ignore();
        return;
    }
    waitForSettingWrites(); // a recent file or a run setting still on its way: one writer at a time
    QSettings settings;
    settings.setValue("window/geometry", saveGeometry());
    settings.setValue("window/state", saveState());
    QMainWindow::closeEvent(event);
}

void MainWindow::dragEnterEvent(QDragEnterEvent* event) {
    if (event->mimeData()->hasUrls()) event->acceptProposedAction();
}

void MainWindow::dropEvent(QDropEvent* event) {
    const auto urls = event->mimeData()->urls();
    if (!urls.isEmpty() && urls.front().isLocalFile()) openFile(urls.front().toLocalFile());
}

void MainWindow::showStackTrace() {
    // the Node pane's "Stack trace" row opened, its last frame (the model's own line) in view
    QAbstractItemModel* model = m_inspectorView->model();
    for (int r = 0; r < model->rowCount(); ++r) {
        const QModelIndex row = model->index(r, 0);
        if (row.data().toString() != tr("Stack trace")) continue;
        m_inspectorView->expand(row);
        const int frames = model->rowCount(row);
        const QModelIndex last = frames > 0 ? model->index(frames - 1, 0, row) : row;
        m_inspectorView->expand(last);
        m_inspectorView->setCurrentIndex(last);
        m_inspectorView->scrollTo(last, QAbstractItemView::PositionAtTop);
        return;
    }
}

void MainWindow::showSpecReference(const QString& rule) {
    if (!m_specReference) m_specReference = new SpecReferenceDialog(m_doc, this);
    m_specReference->showPage(SpecReferenceDialog::Rules);
    if (!rule.isEmpty()) m_specReference->showRule(rule);
    m_specReference->show();
    m_specReference->raise();
}

void MainWindow::resetLayout() {
    restoreState(m_defaultState);
    // the default hides what has nothing to show; a run or a stepping session has
    m_run->revealDocks();
    m_analysis->revealDocks();
    m_roofline->revealDock();
    if (m_step->stepper()) m_step->valuesDock()->show();
    if (m_doc->numerics()) m_numerics->dock()->show();
    sizeDocks();
}

void MainWindow::sizeDocks() {
    // proportions that hold from 1366x768 to 4K: the graph keeps about 60 % of the width and
    // two thirds of the height; the side panes get what their tables need, no more
    const QSize s = size();
    auto find = [this](const char* name) { return findChild<QDockWidget*>(QString::fromLatin1(name)); };
    QDockWidget* left = find("modules");
    QDockWidget* right = find("inspector");
    QDockWidget* bottom = find("fx");
    if (left && right)
        // the left dock wide enough for its three tab titles whole (Modules, Signature, Range constraints)
        resizeDocks({left, right}, {std::clamp(s.width() * 17 / 100, 300, 520), std::clamp(s.width() * 23 / 100, 300, 700)},
                    Qt::Horizontal);
    if (bottom) resizeDocks({bottom}, {std::clamp(s.height() * 28 / 100, 170, 800)}, Qt::Vertical);
}

void MainWindow::showEvent(QShowEvent* event) {
    QMainWindow::showEvent(event);
    if (m_sizeDocksOnShow) {
        // once the window has its final size (the window manager may still resize it)
        m_sizeDocksOnShow = false;
        QTimer::singleShot(0, this, &MainWindow::sizeDocks);
    }
}

void MainWindow::setFxPlaceholders(bool on) {
    if (m_fxPlaceholdersAction->isChecked() != on) m_fxPlaceholdersAction->trigger();
}

void MainWindow::setFoldRepeated(bool on) {
    if (m_foldAction->isChecked() != on) m_foldAction->trigger();
}

QStringList MainWindow::dockWords() {
    QStringList words;
    for (const auto& [word, object] : kDockWords) words << QString::fromLatin1(word);
    return words;
}

QDockWidget* MainWindow::dockNamed(const QString& objectName) const { return findChild<QDockWidget*>(objectName); }

bool MainWindow::raiseDock(const QString& name) {
    QString object = name;
    for (const auto& [word, objectName] : kDockWords)
        if (name == QLatin1String(word)) object = QString::fromLatin1(objectName);
    auto* dock = findChild<QDockWidget*>(object);
    if (!dock) return false;
    dock->show();
    dock->raise();
    resizeDocks({dock}, {height() * 2 / 5}, Qt::Vertical); // tall enough to read
    return true;
}

} // namespace irlens::views
