// engine headers (oneTBB) before Qt's: see run_snapshot.h
#include "core/compare/numeric_run.h"
#include "views/run/run_inputs.h"

#include "views/run/numerics_controller.h"
#include "views/document.h"
#include "views/graph/numeric_overlay.h"
#include "views/run/inputs_dialog.h"
#include "views/run/numerics_dock.h"
#include "views/run/run_controller.h"

#include <QAction>
#include <QDockWidget>
#include <QFileDialog>
#include <QFileInfo>
#include <QFutureWatcher>
#include <QMainWindow>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QPointer>
#include <QStatusBar>
#include <QtConcurrent>

namespace irlens::views {

using namespace irlens::core;

NumericsController::NumericsController(QMainWindow* window, Document* document, RunController* run, GraphPane* graph)
    : QObject(window), m_window(window), m_doc(document), m_run(run), m_graph(graph) {
    setObjectName("numericsController");
    createActions();
    createDock();
    addToMenus();
    m_overlay = new NumericOverlay(m_doc, m_graph, this);
    connect(m_overlayAction, &QAction::toggled, m_overlay, &NumericOverlay::setEnabled);
    connect(m_doc, &Document::numericsChanged, this, &NumericsController::updateExportAction);
    connect(m_doc, &Document::programChanged, this, [this] {
        m_run->setReference({}, m_pane->tolerance()); // reference values name another program's nodes
        updateExportAction();
    });
    connect(m_pane, &NumericsPane::toleranceChanged, this, [this](double tol) { m_run->setReference(m_run->reference(), tol); });
    connect(m_run, &RunController::numericsFailed, this, [this](const QString& message) {
        if (m_window->isVisible()) QMessageBox::warning(m_window, tr("Values not compared"), message);
    });
    // a comparison's result: the dock in front and the overlay on
    connect(m_doc, &Document::numericsChanged, this, [this] {
        auto numerics = m_doc->numerics();
        if (!numerics || !numerics->compared || m_shownCompare == numerics->referencePath) return;
        m_shownCompare = numerics->referencePath;
        revealDock();
        m_overlayAction->setChecked(true);
    });
    updateExportAction();
}

NumericsController::~NumericsController() {
    if (m_exportCancel) *m_exportCancel = true;
}

void NumericsController::createActions() {
    m_inputs = new QAction(tr("&Inputs…"), this);
    m_inputs->setObjectName("inputsAction");
    m_inputs->setToolTip(tr("Choose the input files runs and stepping use (.pt, .npy, .npz, .safetensors or a model.expected/ folder)"));
    connect(m_inputs, &QAction::triggered, this, &NumericsController::askInputs);
    m_compare = new QAction(tr("Compare with &reference values…"), this);
    m_compare->setObjectName("compareValuesAction");
    m_compare->setToolTip(tr("Run the program and compare every node's value with values captured in PyTorch "
                             "(.safetensors, a .pt dict or a folder of .npy, keyed by node name)"));
    connect(m_compare, &QAction::triggered, this, &NumericsController::askReference);
    m_export = new QAction(tr("Export &values…"), this);
    m_export->setObjectName("exportValuesAction");
    connect(m_export, &QAction::triggered, this, &NumericsController::askExportPath);
    m_overlayAction = new QAction(tr("Numeric &error overlay"), this);
    m_overlayAction->setObjectName("numericOverlayAction");
    m_overlayAction->setCheckable(true);
    m_overlayAction->setToolTip(tr("Colour the boxes by their value's error against the reference values (log scale)"));
}

void NumericsController::createDock() {
    m_pane = new NumericsPane(m_doc, m_overlayAction, m_compare, m_window);
    m_dock = new QDockWidget(tr("Numerics"), m_window);
    m_dock->setObjectName("runNumerics");
    m_dock->setWidget(m_pane);
    m_window->addDockWidget(Qt::BottomDockWidgetArea, m_dock);
    if (auto* profile = m_window->findChild<QDockWidget*>("runProfile")) m_window->tabifyDockWidget(profile, m_dock);
    m_dock->hide(); // shown by a comparison (or View › Numerics)
}

void NumericsController::addToMenus() {
    for (QAction* a : m_window->menuBar()->actions()) {
        QMenu* menu = a->menu();
        if (!menu) continue;
        if (a->text() == tr("&Run")) {
            QAction* before = menu->actions().size() > 2 ? menu->actions().at(2) : nullptr; // after Run and Cancel
            menu->insertAction(before, m_inputs);
            menu->insertAction(before, m_compare);
            menu->addAction(m_overlayAction);
            menu->addAction(m_dock->toggleViewAction());
        } else if (a->text() == tr("&File")) {
            QAction* after = nullptr;
            for (QAction* f : menu->actions())
                if (f->text() == tr("Export graph as &DOT…")) after = f;
            const auto items = menu->actions();
            const qsizetype at = after ? items.indexOf(after) + 1 : items.size();
            menu->insertAction(at < items.size() ? items.at(at) : nullptr, m_export);
        } else if (a->text() == tr("&View")) {
            menu->addAction(m_overlayAction);
        }
    }
}

// Disabled with a reason (UI.md): the values come from a run or a stepping session.
void NumericsController::updateExportAction() {
    const bool values = m_doc->numerics() != nullptr && !m_exporting;
    m_export->setEnabled(values);
    m_export->setToolTip(m_exporting ? tr("Writing the values…")
                         : values    ? tr("Write every node's value to a .safetensors file, keyed by node name (as irlens-cli run --dump)")
                                     : tr("No values to export yet: run the program (Run › Run, F5) or step it (F10) first"));
}

void NumericsController::revealDock() {
    m_dock->show();
    m_dock->raise();
}

QString NumericsController::chooseInputs(const QStringList& paths) {
    std::vector<std::string> files;
    for (const QString& p : paths) files.push_back(p.toStdString());
    if (!files.empty())
        if (const std::string error = checkInputFiles(*m_doc, files); !error.empty()) return QString::fromStdString(error);
    m_doc->setInputFiles(paths);
    m_window->statusBar()->showMessage(paths.isEmpty() ? tr("Runs use the default inputs") : tr("Runs use %1").arg(paths.join(", ")), 8000);
    return {};
}

void NumericsController::askInputs() {
    InputsDialog dialog(m_doc->inputFiles(), [this](const QStringList& paths) { return chooseInputs(paths); }, m_window);
    dialog.exec();
}

void NumericsController::compareWith(const QString& reference) {
    m_shownCompare.clear(); // this comparison's result comes to the front, even against the same file
    m_run->setReference(reference, m_pane->tolerance());
    m_run->run();
}

// A file, or (Cancel) a folder of NAME.npy files: each dialog's title says what Cancel does.
void NumericsController::askReference() {
    QString path = QFileDialog::getOpenFileName(m_window, tr("Reference values keyed by node name (Cancel: a folder of .npy files instead)"),
                                                QString(), tr("Tensor files (*.safetensors *.pt *.pth *.npz);;All files (*)"));
    if (path.isEmpty()) path = QFileDialog::getExistingDirectory(m_window, tr("A folder of NAME.npy files (Cancel: compare nothing)"));
    if (!path.isEmpty()) compareWith(path);
}

void NumericsController::exportValues(const QString& path) {
    ProgramPtr program = m_doc->program();
    if (!program || m_exporting) return;
    m_exporting = true;
    updateExportAction();
    auto cancel = std::make_shared<std::atomic<bool>>(false);
    m_exportCancel = cancel;
    NumericRunOptions options;
    options.inputs = runInputRequest(*m_doc);
    options.dumpPath = path.toStdString();
    options.programLabel = m_doc->filePath().isEmpty() ? m_doc->title().toStdString() : QFileInfo(m_doc->filePath()).fileName().toStdString();
    options.cancel = cancel.get();
    m_window->statusBar()->showMessage(tr("Writing every node's value to %1…").arg(path));
    auto outcome = std::make_shared<Result<NumericRun>>(Status::error("not run"));
    auto* watcher = new QFutureWatcher<void>(this);
    connect(watcher, &QFutureWatcher<void>::finished, this, [this, watcher, path, cancel, outcome] {
        watcher->deleteLater();
        if (m_exportCancel == cancel) m_exportCancel.reset();
        m_exporting = false;
        updateExportAction();
        const Result<NumericRun>& r = *outcome;
        if (!r) {
            const QString message = QString::fromStdString(r.status().message());
            m_window->statusBar()->showMessage(tr("Values not exported: %1").arg(message), 15000);
            Q_EMIT exportFailed(message);
            return;
        }
        m_window->statusBar()->showMessage(tr("Wrote %1 values (%2 MB) to %3")
                                               .arg(r->dumped)
                                               .arg(static_cast<double>(r->dumpBytes) / 1e6, 0, 'f', 1)
                                               .arg(path),
                                           15000);
        Q_EMIT exported(path, static_cast<int>(r->dumped));
    });
    watcher->setFuture(QtConcurrent::run(Document::workerPool(), [program, options, outcome] { *outcome = runNumerics(program, options); }));
}

void NumericsController::askExportPath() {
    const QString path = QFileDialog::getSaveFileName(m_window, tr("Export every node's value"), "values.safetensors",
                                                      tr("safetensors (*.safetensors)"));
    if (!path.isEmpty()) exportValues(path);
}

} // namespace irlens::views
