#pragma once
// File › Export run: the last run's profile (CSV), trace (Chrome / Perfetto JSON), memory curve (CSV)
// and critical path (CSV), each the file `irlens-cli run` writes with --profile, --trace, --memory-csv
// and --critical-path-csv (one writer each, in core: core/exec/run_files.h). Disabled until there is
// a run, saying so. The file is written on a worker, through a temporary file renamed at the end, so
// a failed write leaves an existing file as it was; the failure is named in a dialog. The folder last
// written to is offered next time (setting export/runFolder). The docks that show a part of the run
// offer its export in their context menu too.

#include "views/run/run_analysis.h"

#include <QObject>
#include <QString>

#include <array>
#include <utility>
#include <vector>

class QAction;
class QMainWindow;
class QMenu;
class QWidget;

namespace irlens::views {

class Document;

class RunExport : public QObject {
    Q_OBJECT
public:
    /// Adds the File › Export run menu to `window`, after File › Export report….
    RunExport(QMainWindow* window, Document* document);

    QMenu* menu() const { return m_menu; }
    QAction* action(RunFile file) const { return m_actions[static_cast<size_t>(file)]; }
    /// Writes `file` of the last run to `path` on a worker; exported() or exportFailed() follow.
    void write(RunFile file, const QString& path);
    /// Adds "Export <file>…" to `pane`'s context menu (the dock that shows that part of the run),
    /// enabled and explained as the File menu's action.
    void addToContextMenu(QWidget* pane, RunFile file);

signals:
    void exported(const QString& path);
    /// `message` names the file and says why it was not written.
    void exportFailed(const QString& path, const QString& message);

private:
    void ask(RunFile file);
    void updateActions();
    void addToFileMenu();

    QMainWindow* m_window;
    Document* m_doc;
    QMenu* m_menu = nullptr;
    std::array<QAction*, 4> m_actions{};
    std::vector<std::pair<QAction*, RunFile>> m_contextActions;
};

} // namespace irlens::views
