// irlens: the desktop inspector. `irlens [FILE]`; without a file it opens the bundled example.
#include "views/main_window.h"

#include <algorithm>

#include <QAction>
#include <QCheckBox>
#include <QApplication>
#include <QTabWidget>
#include <QCommandLineParser>
#include <QDockWidget>
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
#include "views/teach/spec_reference.h"

#include <memory>

// --dock / --what-if apply to the first run shown.
void applyFirstRunOptions(irlens::views::MainWindow& window, const QCommandLineParser& parser, const QCommandLineOption& dock,
                          const QCommandLineOption& whatIf) {
    if (!parser.isSet(dock) && !parser.isSet(whatIf)) return;
    auto first = std::make_shared<QMetaObject::Connection>();
    *first = QObject::connect(window.document(), &irlens::views::Document::runFinished, &window,
                              [&window, &parser, dock, whatIf, first](irlens::views::RunSnapshotPtr run) {
        if (!run) return;
        QObject::disconnect(*first);
        const QString name = parser.value(dock);
        const QString object = name == "memory" ? "runMemory" : name == "path" ? "runCriticalPath" : name == "lines" ? "runSourceLines"
                                                             : "run" + name.left(1).toUpper() + name.mid(1);
        if (auto* d = window.findChild<QDockWidget*>(object)) {
            d->raise();
            window.resizeDocks({d}, {window.height() * 2 / 5}, Qt::Vertical); // tall enough to read
        }
        if (parser.isSet(whatIf)) {
            const QStringList parts = parser.value(whatIf).split('=');
            window.analysisDocks()->whatIfSelector()->setText(parts.value(0));
            window.analysisDocks()->whatIfFactor()->setValue(parts.value(1, "0").toDouble());
            // after the docks' own filling, queued by the same signal, which would show the base path again
            QTimer::singleShot(0, &window, [&window] { window.analysisDocks()->applyWhatIf(); });
        }
    });
}

int main(int argc, char** argv) {
    irlens::core::preferLargePages();
    QApplication app(argc, argv);
    QApplication::setOrganizationName("irlens");
    QApplication::setApplicationName("irlens");
    QApplication::setApplicationVersion(IRLENS_VERSION);
    // the desktop entry's name, so Wayland compositors match the window to its entry and icon
    QGuiApplication::setDesktopFileName(IRLENS_APP_ID);
    // the installed theme icon when there is one (it follows icon themes), else the compiled-in set
    QIcon icon(":/icons/irlens.svg");
    for (int size : {16, 22, 24, 32, 48, 64, 128, 256}) icon.addFile(QString(":/icons/png/irlens-%1.png").arg(size), QSize(size, size));
    QApplication::setWindowIcon(QIcon::fromTheme(IRLENS_APP_ID, icon));
    QCommandLineParser parser;
    parser.setApplicationDescription("Inspect torch.export programs (.pt2)");
    parser.addHelpOption();
    parser.addVersionOption();
    parser.addPositionalArgument("file", "a .pt2 file to open");
    QCommandLineOption select("select", "select the node NAME once the graph is shown (in:VALUE: a placeholder; out: the output node)", "NAME");
    QCommandLineOption search("search", "search for TEXT once the graph is shown", "TEXT");
    QCommandLineOption decompose("decompose", "once shown, decompose the program to LEVEL (core or prims)", "LEVEL");
    parser.addOption(select);
    parser.addOption(search);
    QCommandLineOption run("run", "run the program once the graph is shown and turn the heatmap on");
    parser.addOption(run);
    parser.addOption(decompose);
    QCommandLineOption runTo("run-to", "once shown, step the program node by node up to the node NAME (Run › Run to here)", "NAME");
    parser.addOption(runTo);
    QCommandLineOption reference("reference", "open the Export IR reference on PAGE (rules, levels or ops; rules:ID for one rule)", "PAGE");
    parser.addOption(reference);
    QCommandLineOption dock("dock", "with --run: bring the dock NAME to the front once the run is shown (memory, path, lines, roofline, profile ...)", "NAME");
    parser.addOption(dock);
    QCommandLineOption whatIf("what-if", "with --run: ask the Critical path dock what if SELECTOR took FACTOR of its time", "SELECTOR=FACTOR");
    parser.addOption(whatIf);
    QCommandLineOption sourceRoot("source-root", "look for the model's source files under DIR (for this session; the Source lines dock's roots field keeps its own)", "DIR");
    parser.addOption(sourceRoot);
    QCommandLineOption memoryOverlay("memory-overlay", "with --run: colour the graph by the bytes live at the peak (the Memory dock's toggle)");
    parser.addOption(memoryOverlay);
    QCommandLineOption fxDrawn("fx-placeholders", "draw the graph as the FX graph has it (Graph › Draw as the FX graph has it)");
    parser.addOption(fxDrawn);
    QCommandLineOption noFold("no-fold", "draw repeated blocks in full (Graph › Fold repeated blocks off)");
    parser.addOption(noFold);
    QCommandLineOption expandAll("expand-all", "once shown, open every module (Graph › Expand all modules)");
    parser.addOption(expandAll);
    QCommandLineOption fxForm("fx", "show the FX dock's FORM tab: graph, code (forward()) or table (print_tabular)", "FORM");
    parser.addOption(fxForm);
    QCommandLineOption compare("compare", "once shown, open the Compare window against the program in FILE", "FILE");
    parser.addOption(compare);
    parser.process(app);
    irlens::views::MainWindow window;
    window.show();
    if (parser.isSet(fxDrawn)) window.findChild<QAction*>("fxPlaceholdersAction")->trigger();
    if (auto* fold = window.findChild<QAction*>("foldRepeatedAction"); parser.isSet(noFold) && fold->isChecked()) fold->trigger();
    window.fxTabs()->setCurrentIndex(static_cast<int>(std::max<qsizetype>(0, QStringList{"graph", "code", "table"}.indexOf(parser.value(fxForm)))));
    applyFirstRunOptions(window, parser, dock, whatIf);
    if (parser.isSet(sourceRoot)) window.analysisDocks()->sourcePane()->setRoots(parser.values(sourceRoot), false);
    if (parser.isSet(memoryOverlay)) window.analysisDocks()->memoryOverlayToggle()->setChecked(true);
    // --select / --search apply once, when the first layout arrives
    auto* doc = window.document();
    auto once = std::make_shared<QMetaObject::Connection>();
    *once = QObject::connect(doc, &irlens::views::Document::layoutReady, &window, [&window, doc, once, &parser, select, search, decompose, run, runTo, compare, reference, expandAll] {
        QObject::disconnect(*once);
        if (parser.isSet(expandAll)) doc->expandAll();
        if (parser.isSet(run)) {
            window.runController()->heatmapAction()->setChecked(true);
            window.runController()->run();
        }
        if (parser.isSet(decompose))
            doc->decomposition()->stepToLevel(parser.value(decompose) == "prims" ? irlens::core::IrLevel::Prims
                                                                                  : irlens::core::IrLevel::CoreAten);
        if (parser.isSet(compare)) window.compareLauncher()->compareWithFile(parser.value(compare));
        if (parser.isSet(search)) {
            window.graphPane()->searchField()->setText(parser.value(search));
            window.graphPane()->nextHit();
        }
        if (parser.isSet(reference)) {
            const QString page = parser.value(reference);
            window.showSpecReference(page.startsWith("rules:") ? page.mid(6) : QString());
            if (page == "levels") window.specReference()->showPage(irlens::views::SpecReferenceDialog::Levels);
            if (page == "ops") window.specReference()->showPage(irlens::views::SpecReferenceDialog::Ops);
        }
        if (parser.isSet(runTo)) {
            const int n = doc->nodeIndexOf(parser.value(runTo));
            if (n >= 0) window.stepController()->runTo(n);
        }
        if (parser.isSet(select) && (parser.value(select).startsWith("in:") || parser.value(select) == "out")) {
            doc->selectItem(parser.value(select));
        } else if (parser.isSet(select)) {
            int n = doc->nodeIndexOf(parser.value(select));
            if (n >= 0) {
                doc->revealNode(n);
                doc->selectNode(n);
            }
        }
    });
    if (!parser.positionalArguments().isEmpty())
        window.openFile(parser.positionalArguments().front());
    else
        window.openExample();
    return app.exec();
}
