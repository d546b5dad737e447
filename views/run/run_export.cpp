#include "views/run/run_export.h"

#include "views/document.h"
#include "views/run/run_snapshot.h"
#include "views/settings_writer.h"

#include <QAction>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QFutureWatcher>
#include <QMainWindow>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QSaveFile>
#include <QSettings>
#include <QStatusBar>
#include <QtConcurrent>

namespace irlens::views {

namespace {

const QString kRunFolderKey = QStringLiteral("export/runFolder");

struct RunFileKind {
    RunFile file;
    const char* objectName; // of the action
    const char* contextText; // in the context menu of the dock showing it
    const char* menuText;  // File › Export run › …
    const char* what;      // what the file holds, for the tooltip and the dialogs
    const char* cliFlag;   // the irlens-cli run flag that writes the same file
    const char* suffix;    // of the offered file name, after the program's name
    const char* filter;
};

constexpr std::array<RunFileKind, 4> kRunFiles{{
    {RunFile::Profile, "exportRunProfile", QT_TRANSLATE_NOOP("irlens", "Export the profile (CSV)…"), QT_TRANSLATE_NOOP("irlens", "&Profile (CSV)…"), QT_TRANSLATE_NOOP("irlens", "every node's median, fastest and slowest time, bytes and FLOPs"),
     "--profile", "-profile.csv", QT_TRANSLATE_NOOP("irlens", "CSV (*.csv)")},
    {RunFile::Trace, "exportRunTrace", QT_TRANSLATE_NOOP("irlens", "Export the trace (Chrome JSON)…"), QT_TRANSLATE_NOOP("irlens", "&Trace (Chrome JSON)…"),
     QT_TRANSLATE_NOOP("irlens", "the median run as a trace for Perfetto or chrome://tracing: a track per worker, the memory counter"),
     "--trace", "-trace.json", QT_TRANSLATE_NOOP("irlens", "Chrome trace (*.json)")},
    {RunFile::MemoryCurve, "exportRunMemoryCurve", QT_TRANSLATE_NOOP("irlens", "Export the memory curve (CSV)…"), QT_TRANSLATE_NOOP("irlens", "&Memory curve (CSV)…"),
     QT_TRANSLATE_NOOP("irlens", "the bytes live at every node in execution order: weights, inputs, activations, workspace"), "--memory-csv",
     "-memory.csv", QT_TRANSLATE_NOOP("irlens", "CSV (*.csv)")},
    {RunFile::CriticalPath, "exportRunCriticalPath", QT_TRANSLATE_NOOP("irlens", "Export the critical path (CSV)…"), QT_TRANSLATE_NOOP("irlens", "&Critical path (CSV)…"),
     QT_TRANSLATE_NOOP("irlens", "the longest chain of dependent nodes, each with its median time"), "--critical-path-csv",
     "-critical-path.csv", QT_TRANSLATE_NOOP("irlens", "CSV (*.csv)")},
}};

QString trExport(const char* source) { return QCoreApplication::translate("irlens", source); }

// Writes `contents` to `path` through a temporary file renamed over it at the end: "" or why not.
QString saveRunFile(const QString& path, const std::string& contents) {
    QSaveFile f(path);
    if (!f.open(QIODevice::WriteOnly)) return trExport("Cannot write %1: %2").arg(path, f.errorString());
    if (f.write(contents.data(), static_cast<qint64>(contents.size())) != static_cast<qint64>(contents.size()))
        return trExport("Could not write all of %1: %2").arg(path, f.errorString());
    if (!f.commit()) return trExport("Could not write %1: %2").arg(path, f.errorString());
    return {};
}

} // namespace

RunExport::RunExport(QMainWindow* window, Document* document) : QObject(window), m_window(window), m_doc(document) {
    setObjectName("runExport");
    m_menu = new QMenu(tr("Export r&un"), window);
    m_menu->setObjectName("exportRunMenu");
    m_menu->setToolTipsVisible(true);
    for (const RunFileKind& k : kRunFiles) {
        auto* a = m_menu->addAction(trExport(k.menuText));
        a->setObjectName(QString::fromLatin1(k.objectName));
        connect(a, &QAction::triggered, this, [this, file = k.file] { ask(file); });
        m_actions[static_cast<size_t>(k.file)] = a;
    }
    addToFileMenu();
    connect(m_doc, &Document::runFinished, this, &RunExport::updateActions);
    updateActions();
}

// After File › Export report…, with the other exports.
void RunExport::addToFileMenu() {
    for (QAction* a : m_window->menuBar()->actions()) {
        if (a->text() != tr("&File") || !a->menu()) continue;
        QMenu* file = a->menu();
        const auto items = file->actions();
        qsizetype at = items.size();
        for (qsizetype i = 0; i < items.size(); ++i)
            if (items[i]->text() == tr("Export &report…")) at = i + 1;
        file->insertMenu(at < items.size() ? items.at(at) : nullptr, m_menu);
    }
}

void RunExport::addToContextMenu(QWidget* pane, RunFile file) {
    auto* a = new QAction(trExport(kRunFiles[static_cast<size_t>(file)].contextText), pane);
    a->setObjectName(QString::fromLatin1(kRunFiles[static_cast<size_t>(file)].objectName) + QStringLiteral("Context"));
    connect(a, &QAction::triggered, this, [this, file] { ask(file); });
    pane->setContextMenuPolicy(Qt::ActionsContextMenu);
    pane->addAction(a);
    m_contextActions.emplace_back(a, file);
    updateActions();
}

// Disabled with a reason (UI.md): the files describe a run.
void RunExport::updateActions() {
    const auto run = m_doc->runResult();
    const bool available = run && run->analysis;
    auto update = [&](QAction* a, const RunFileKind& k) {
        a->setEnabled(available);
        const QString tip = available ? tr("Save %1 (what irlens-cli run %2 writes)").arg(trExport(k.what), QString::fromLatin1(k.cliFlag))
                                      : tr("Run the program first (Run › Run, F5): this saves %1").arg(trExport(k.what));
        a->setToolTip(tip);
        a->setStatusTip(tip);
    };
    for (const RunFileKind& k : kRunFiles) update(m_actions[static_cast<size_t>(k.file)], k);
    for (const auto& [a, file] : m_contextActions) update(a, kRunFiles[static_cast<size_t>(file)]);
}

void RunExport::ask(RunFile file) {
    const RunFileKind& k = kRunFiles[static_cast<size_t>(file)];
    const QString stem = m_doc->filePath().isEmpty() ? QStringLiteral("run") : QFileInfo(m_doc->filePath()).completeBaseName();
    const QString folder = QSettings().value(kRunFolderKey, QDir::homePath()).toString();
    const QString path = QFileDialog::getSaveFileName(m_window, tr("Export run: %1").arg(trExport(k.menuText).remove('&').remove(QStringLiteral("…"))),
                                                      QDir(folder).filePath(stem + QString::fromLatin1(k.suffix)), trExport(k.filter));
    if (path.isEmpty()) return;
    writeSettingLater(kRunFolderKey, QFileInfo(path).absolutePath());
    write(file, path);
}

void RunExport::write(RunFile file, const QString& path) {
    const auto run = m_doc->runResult();
    auto analysis = run ? run->analysis : nullptr;
    auto fail = [this, path](const QString& message) {
        m_window->statusBar()->showMessage(message, 15000);
        if (m_window->isVisible()) {
            auto* box = new QMessageBox(QMessageBox::Warning, tr("Could not export"), message, QMessageBox::Ok, m_window);
            box->setObjectName("exportRunError");
            box->setAttribute(Qt::WA_DeleteOnClose);
            box->open();
        }
        Q_EMIT exportFailed(path, message);
    };
    if (!analysis) {
        fail(tr("%1 was not written: there is no run to export (Run › Run, F5)").arg(path));
        return;
    }
    auto* watcher = new QFutureWatcher<QString>(this);
    connect(watcher, &QFutureWatcher<QString>::finished, this, [this, watcher, path, fail] {
        watcher->deleteLater();
        if (const QString error = watcher->result(); !error.isEmpty()) {
            fail(error);
            return;
        }
        m_window->statusBar()->showMessage(tr("Wrote %1").arg(path), 8000);
        Q_EMIT exported(path);
    });
    // the trace of a big graph takes a while to build: off the GUI thread, like every job
    watcher->setFuture(QtConcurrent::run(Document::workerPool(), [analysis, file, path] { return saveRunFile(path, runFileText(*analysis, file)); }));
}

} // namespace irlens::views
