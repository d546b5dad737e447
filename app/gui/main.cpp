// irlens: the desktop inspector. `irlens [FILE]`; without a file it opens the bundled example.
#include "app/gui/command_line.h"
#include "views/main_window.h"

#include <algorithm>

#include <QAction>
#include <QCheckBox>
#include <QApplication>
#include <QTabWidget>
#include <QDoubleSpinBox>
#include <QIcon>
#include <QLineEdit>
#include <QTimer>

#include "core/ir/large_pages.h"
#include "views/compare/compare_launcher.h"
#include "views/decomp/decomposition.h"
#include "views/document.h"
#include "views/graph/graph_pane.h"
#include "views/run/run_controller.h"
#include "views/run/analysis_docks.h"
#include "views/run/source_pane.h"
#include "views/run/step_controller.h"
#include "views/run/numerics_controller.h"
#include "views/teach/learn_launcher.h"
#include "views/teach/spec_reference.h"

#include <memory>

namespace {

// --dock / --what-if apply to the first run shown.
void applyFirstRunOptions(irlens::views::MainWindow& window, const irlens::app::GuiOptions& o) {
    const QCommandLineParser& parser = o.parser;
    if (!parser.isSet(o.dock) && !parser.isSet(o.whatIf)) return;
    auto first = std::make_shared<QMetaObject::Connection>();
    *first = QObject::connect(window.document(), &irlens::views::Document::runFinished, &window,
                              [&window, &o, first](irlens::views::RunSnapshotPtr run) {
        if (!run) return;
        QObject::disconnect(*first);
        const QCommandLineParser& parser = o.parser;
        if (parser.isSet(o.dock) && !window.raiseDock(parser.value(o.dock)))
            qWarning("irlens: --dock %s: no such dock (one of %s)", qPrintable(parser.value(o.dock)),
                     qPrintable(irlens::views::MainWindow::dockWords().join(", ")));
        if (parser.isSet(o.whatIf)) {
            const QStringList parts = parser.value(o.whatIf).split('=');
            window.analysisDocks()->whatIfSelector()->setText(parts.value(0));
            window.analysisDocks()->whatIfFactor()->setValue(parts.value(1, "0").toDouble());
            // after the docks' own filling, queued by the same signal, which would show the base path again
            QTimer::singleShot(0, &window, [&window] { window.analysisDocks()->applyWhatIf(); });
        }
    });
}

// --select, --search, --run, --decompose ... apply once, when the first layout arrives.
void applyFirstLayoutOptions(irlens::views::MainWindow& window, const irlens::app::GuiOptions& o) {
    auto* doc = window.document();
    auto once = std::make_shared<QMetaObject::Connection>();
    *once = QObject::connect(doc, &irlens::views::Document::layoutReady, &window, [&window, doc, once, &o] {
        QObject::disconnect(*once);
        const QCommandLineParser& parser = o.parser;
        if (parser.isSet(o.expandAll)) doc->expandAll();
        if (parser.isSet(o.inputs))
            if (const QString error = window.numericsController()->chooseInputs(parser.values(o.inputs)); !error.isEmpty())
                qWarning("irlens: --inputs: %s", qPrintable(error));
        if (parser.isSet(o.compareValues)) window.numericsController()->compareWith(parser.value(o.compareValues));
        if (parser.isSet(o.run)) {
            window.runController()->heatmapAction()->setChecked(true);
            window.runController()->run();
        }
        if (parser.isSet(o.decompose))
            doc->decomposition()->stepToLevel(parser.value(o.decompose) == "prims" ? irlens::core::IrLevel::Prims
                                                                                    : irlens::core::IrLevel::CoreAten);
        if (parser.isSet(o.compare)) window.compareLauncher()->compareWithFile(parser.value(o.compare));
        if (parser.isSet(o.search)) {
            window.graphPane()->searchField()->setText(parser.value(o.search));
            window.graphPane()->nextHit();
        }
        if (parser.isSet(o.reference)) {
            const QString page = parser.value(o.reference);
            window.showSpecReference(page.startsWith("rules:") ? page.mid(6) : QString());
            if (page == "levels") window.specReference()->showPage(irlens::views::SpecReferenceDialog::Levels);
            if (page == "ops") window.specReference()->showPage(irlens::views::SpecReferenceDialog::Ops);
        }
        if (parser.isSet(o.runTo)) {
            const int n = doc->nodeIndexOf(parser.value(o.runTo));
            if (n >= 0) window.stepController()->runTo(n);
        }
        const QString select = parser.value(o.select);
        if (parser.isSet(o.select) && (select.startsWith("in:") || select == "out")) {
            doc->selectItem(select);
        } else if (parser.isSet(o.select)) {
            int n = doc->nodeIndexOf(select);
            if (n >= 0) {
                doc->revealNode(n);
                doc->selectNode(n);
            }
        }
    });
}

} // namespace

int main(int argc, char** argv) {
    irlens::core::preferLargePages();
    QCoreApplication::setOrganizationName("irlens");
    QCoreApplication::setApplicationName("irlens");
    QCoreApplication::setApplicationVersion(IRLENS_VERSION);
    irlens::app::GuiOptions options;
    if (auto code = options.answerWithoutDisplay(argc, argv)) return *code;
    QApplication app(argc, argv);
    // the desktop entry's name, so Wayland compositors match the window to its entry and icon
    QGuiApplication::setDesktopFileName(IRLENS_APP_ID);
    // the installed theme icon when there is one (it follows icon themes), else the compiled-in set
    QIcon icon(":/icons/irlens.svg");
    for (int size : {16, 22, 24, 32, 48, 64, 128, 256}) icon.addFile(QString(":/icons/png/irlens-%1.png").arg(size), QSize(size, size));
    QApplication::setWindowIcon(QIcon::fromTheme(IRLENS_APP_ID, icon));
    const QCommandLineParser& parser = options.parser;
    options.parser.process(app);
    irlens::views::MainWindow window;
    window.show();
    if (parser.isSet(options.fxPlaceholders)) window.setFxPlaceholders(true);
    if (parser.isSet(options.noFold)) window.setFoldRepeated(false);
    window.fxTabs()->setCurrentIndex(static_cast<int>(std::max<qsizetype>(0, QStringList{"graph", "code", "table"}.indexOf(parser.value(options.fxForm)))));
    applyFirstRunOptions(window, options);
    if (parser.isSet(options.sourceRoot)) window.analysisDocks()->sourcePane()->setRoots(parser.values(options.sourceRoot), false);
    if (parser.isSet(options.memoryOverlay)) window.analysisDocks()->memoryOverlayToggle()->setChecked(true);
    applyFirstLayoutOptions(window, options);
    if (parser.isSet(options.tour)) {
        window.learn()->startTour(); // the tour puts its own programs on screen
    } else if (!parser.positionalArguments().isEmpty()) {
        window.openFile(parser.positionalArguments().front());
    } else {
        window.openExample();
    }
    return app.exec();
}
