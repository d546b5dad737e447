// The main window: starts on the bundled example, exports, FX text selection sync, status bar.
#include "support/cli_runner.h"
#include "support/gui_test_util.h"
#include "views/inspect/fx_text_pane.h"
#include "views/graph/graph_pane.h"
#include "views/graph/graph_scene.h"
#include "views/graph/graph_items.h"
#include "views/graph/graph_view.h"
#include "views/inspect/node_inspector_model.h"
#include "views/main_window.h"
#include "views/report_export.h"
#include "views/run/run_controller.h"
#include "views/start/start_page.h"
#include "core/io/pt2_writer.h"
#include "views/teach/spec_reference.h"
#include "views/inspect/table_pane.h"
#include "core/ops/op_registry.h"
#include "core/verify/diagnostic.h"
#include "core/ir/example_program.h"
#include "core/ir/fx_names.h"

#include <QAction>
#include <QDockWidget>
#include <QMenuBar>
#include <QStandardItemModel>
#include <QTextBrowser>
#include <QImage>
#include <QLabel>
#include <QStatusBar>
#include <QTemporaryDir>
#include <QTabWidget>
#include <QTextBlock>
#include <QSignalSpy>
#include <QApplication>
#include <QListWidget>
#include <QSettings>
#include <QTimer>
#include <QTest>

using namespace irlens;
using namespace irlens::views;

class TstMainWindow : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void opensExampleWithoutFile();
    void exports();
    void fxTextSyncsSelection();
    void fxCodeAndTableSelect();
    void drawAsFxGraphToggle();
    void repeatedBlocksFolded();
    void clickSelectsPlaceholder();
    void specReference();
    void checkMetasFromTheMenu();
    void openFileFromDisk();
    void badFileReportsError();
    void startPageWithoutProgram();
    void commandLineCalls();
};

void TstMainWindow::initTestCase() {
    QCoreApplication::setOrganizationName("irlens-tests");
    QCoreApplication::setApplicationName("tst_main_window");
}

void TstMainWindow::opensExampleWithoutFile() {
    MainWindow w;
    w.openExample();
    QVERIFY(testing::waitForLayout(*w.document()));
    QCOMPARE(w.graphPane()->scene()->opItemCount(), static_cast<int>(w.document()->program()->graph.nodes.size()));
    QVERIFY(w.findChildren<QDockWidget*>().size() >= 6);
    QTRY_VERIFY(!w.document()->verifierSummary().contains("verifying"));
    // the status bar names the container, the schema and the node count, and the verifier's summary
    QString status;
    for (auto* l : w.statusBar()->findChildren<QLabel*>()) status += l->text() + "|";
    QVERIFY2(status.contains("built in code"), qPrintable(status));
    QVERIFY2(status.contains(QString("%1 nodes").arg(w.document()->program()->graph.nodes.size())), qPrintable(status));
    QVERIFY2(status.contains("verifier: 0 errors"), qPrintable(status));
}

void TstMainWindow::exports() {
    MainWindow w;
    w.resize(1200, 800);
    w.openExample();
    QVERIFY(testing::waitForLayout(*w.document()));
    QTemporaryDir dir;
    const QString svg = dir.filePath("g.svg"), png = dir.filePath("g.png"), dot = dir.filePath("g.dot");
    QVERIFY(w.exportView(svg));
    QFile f(svg);
    QVERIFY(f.open(QIODevice::ReadOnly));
    const QByteArray svgText = f.readAll();
    QVERIFY(svgText.contains("<svg"));
    QVERIFY(svgText.contains("convolution")); // labels are text, not pixels
    QVERIFY(w.exportView(png));
    QImage img(png);
    QVERIFY(!img.isNull());
    const QRectF scene = w.graphPane()->scene()->sceneRect();
    QCOMPARE(img.width(), qRound(scene.width() * 2));
    QVERIFY(w.exportDot(dot));
    QFile d(dot);
    QVERIFY(d.open(QIODevice::ReadOnly));
    const QByteArray dotText = d.readAll();
    QVERIFY(dotText.startsWith("digraph"));
    for (const auto& n : w.document()->program()->graph.nodes) QVERIFY2(dotText.contains(n.name.c_str()), n.name.c_str());
    // File › Export report…: the HTML report of the program on screen, with its run once it ran
    const QString html = dir.filePath("report.html");
    QCOMPARE(writeDocumentReport(*w.document(), html), QString());
    QFile r(html);
    QVERIFY(r.open(QIODevice::ReadOnly));
    QByteArray report = r.readAll();
    QVERIFY(report.startsWith("<!DOCTYPE html>"));
    for (const auto& n : w.document()->program()->graph.nodes) QVERIFY2(report.contains(("\"n\":\"" + n.name + "\"").c_str()), n.name.c_str());
    QVERIFY(!report.contains("\"run\":{"));
    w.findChild<RunController*>()->run();
    QTRY_VERIFY_WITH_TIMEOUT(w.document()->runResult() != nullptr, 30000);
    QCOMPARE(writeDocumentReport(*w.document(), html), QString());
    r.close();
    QVERIFY(r.open(QIODevice::ReadOnly));
    report = r.readAll();
    QVERIFY(report.contains("\"run\":{"));
    QVERIFY(!writeDocumentReport(*w.document(), dir.filePath("no/such/folder/report.html")).isEmpty());
}

void TstMainWindow::fxTextSyncsSelection() {
    MainWindow w;
    w.openExample();
    QVERIFY(testing::waitForLayout(*w.document()));
    FxTextPane* fx = w.fxPane();
    const auto& g = *w.document()->graph();
    // graph -> text: the selected node's defining line gets the cursor
    const int n = static_cast<int>(g.nodes.size()) / 2;
    w.document()->selectNode(n);
    const QString name = QString::fromStdString(g.nodes[static_cast<size_t>(n)].name);
    QVERIFY(fx->lineOfNode(name) >= 0);
    QCOMPARE(fx->textCursor().blockNumber(), fx->lineOfNode(name));
    QVERIFY(fx->textCursor().block().text().contains("%" + name + " :"));
    // text -> graph: moving the cursor onto another node's line selects that node
    const QString other = QString::fromStdString(g.nodes[2].name);
    QTextCursor c(fx->document()->findBlockByNumber(fx->lineOfNode(other)));
    fx->setTextCursor(c);
    QCOMPARE(w.document()->selectedNode(), 2);
    // placeholders and the output node are FX nodes too: their lines select them, and back
    QTextCursor ph(fx->document()->findBlockByNumber(fx->lineOfNode("x")));
    fx->setTextCursor(ph);
    QCOMPARE(w.document()->selectedItem(), QString("in:x"));
    QTextCursor ret(fx->document()->findBlockByNumber(fx->lineOfNode("return")));
    fx->setTextCursor(ret);
    QCOMPARE(w.document()->selectedItem(), QString("out"));
    w.document()->selectNode(2);
    w.document()->selectItem("in:x");
    QCOMPARE(fx->textCursor().blockNumber(), fx->lineOfNode("x"));
}

// The Code and Table tabs print when first shown; a line of either selects its node (the table's
// placeholder rows select the placeholder, the last line the output), and a selection moves the cursor.
void TstMainWindow::fxCodeAndTableSelect() {
    MainWindow w;
    w.openExample();
    QVERIFY(testing::waitForLayout(*w.document()));
    w.resize(1200, 800);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    FxTextPane* code = w.fxCodePane();
    FxTextPane* table = w.fxTablePane();
    QCOMPARE(code->lineOfNode("return"), -1); // hidden: not printed yet
    w.fxTabs()->setCurrentWidget(code);
    QTRY_VERIFY(code->lineOfNode("return") >= 0);
    QVERIFY(code->document()->firstBlock().text().startsWith("def forward(self, "));
    const auto& g = *w.document()->graph();
    const auto names = core::fxNodeNames(g);
    const int k = static_cast<int>(g.nodes.size()) / 2;
    const QString name = QString::fromStdString(names[static_cast<size_t>(k)]);
    // code -> graph
    code->setTextCursor(QTextCursor(code->document()->findBlockByNumber(code->lineOfNode(name))));
    QCOMPARE(w.document()->selectedNode(), k);
    QVERIFY(code->textCursor().block().text().startsWith("    " + name + " = "));
    // graph -> code
    w.document()->selectNode(1);
    QCOMPARE(code->textCursor().blockNumber(), code->lineOfNode(QString::fromStdString(names[1])));
    // the table: a placeholder's row, a call's row, the output's row
    w.fxTabs()->setCurrentWidget(table);
    QTRY_VERIFY(table->lineOfNode("x") >= 0);
    QVERIFY(table->document()->firstBlock().text().startsWith("opcode"));
    table->setTextCursor(QTextCursor(table->document()->findBlockByNumber(table->lineOfNode("x"))));
    QCOMPARE(w.document()->selectedItem(), QString("in:x"));
    QVERIFY(table->textCursor().block().text().startsWith("placeholder"));
    table->setTextCursor(QTextCursor(table->document()->findBlockByNumber(table->lineOfNode(name))));
    QCOMPARE(w.document()->selectedNode(), k);
    QVERIFY(table->textCursor().block().text().startsWith("call_function  " + name + " "));
    table->setTextCursor(QTextCursor(table->document()->findBlockByNumber(table->lineOfNode("return"))));
    QCOMPARE(w.document()->selectedItem(), QString("out"));
}

// Graph › Draw as the FX graph has it: each parameter becomes a placeholder box with edges to its
// users (no chip left), clicking one selects that placeholder; off again, the chips come back.
void TstMainWindow::drawAsFxGraphToggle() {
    MainWindow w;
    w.openExample();
    QVERIFY(testing::waitForLayout(*w.document()));
    auto* toggle = w.findChild<QAction*>("fxPlaceholdersAction");
    QVERIFY(toggle && toggle->isCheckable() && !toggle->isChecked());
    auto stateChips = [&w] {
        int n = 0;
        for (const NodeItem* item : w.graphPane()->scene()->nodeItems())
            for (const auto& c : item->item().chips) n += c.kind == core::Chip::Kind::Parameter || c.kind == core::Chip::Kind::Buffer;
        return n;
    };
    const int chipsBefore = stateChips();
    QVERIFY(chipsBefore > 0);
    int params = 0;
    for (const auto& spec : w.document()->program()->signature.inputSpecs) params += spec.kind == core::InputKind::Parameter;
    QSignalSpy laidOut(w.document(), &Document::layoutReady);
    toggle->trigger();
    QVERIFY(laidOut.count() > 0 || laidOut.wait(60000));
    QCOMPARE(stateChips(), 0);
    const NodeItem* param = nullptr;
    int paramBoxes = 0;
    for (const NodeItem* item : w.graphPane()->scene()->nodeItems())
        if (item->item().kind == core::VisibleItem::Kind::Input && item->item().subtitle.rfind("PARAMETER", 0) == 0) {
            ++paramBoxes;
            param = item;
        }
    QCOMPARE(paramBoxes, params);
    const auto& layout = *w.graphPane()->scene()->layout();
    bool hasEdge = false;
    for (const auto& e : layout.graph.edges) hasEdge |= e.from == param->index();
    QVERIFY(hasEdge);
    w.graphPane()->view()->selectAt(param->sceneBoundingRect().center());
    QCOMPARE(w.document()->selectedItem(), QString::fromStdString(param->item().id));
    laidOut.clear();
    toggle->trigger();
    QVERIFY(laidOut.count() > 0 || laidOut.wait(60000));
    QCOMPARE(stateChips(), chipsBefore);
}

// llama_deep opens with its 128 decoder layers as one box "×128"; selecting a node of layer 57 shows
// layer 57 open with that node selected; Graph › Fold repeated blocks off draws all 128 boxes.
void TstMainWindow::repeatedBlocksFolded() {
    IRLENS_REQUIRE_SHARED();
    MainWindow w;
    QCOMPARE(testing::openAndWait(*w.document(), testing::fixture("generated/llama_deep/model.pt2")), QString());
    auto layerBoxes = [&w](QString* title) {
        int n = 0;
        for (const NodeItem* item : w.graphPane()->scene()->nodeItems())
            if (item->item().kind == core::VisibleItem::Kind::Module && item->item().subtitle.rfind("LlamaBlock", 0) == 0) {
                ++n;
                if (title) *title = QString::fromStdString(item->item().title + " / " + item->item().subtitle);
            }
        return n;
    };
    QString title;
    QCOMPARE(layerBoxes(&title), 1);
    QVERIFY2(title.contains("×128") && title.contains("layers.0 … layers.127"), qPrintable(title));
    const int node = w.document()->nodeIndexOf("_softmax_57");
    QVERIFY(node >= 0);
    QSignalSpy laidOut(w.document(), &Document::layoutReady);
    w.document()->revealNode(node);
    w.document()->selectNode(node);
    QVERIFY(laidOut.count() > 0 || laidOut.wait(60000));
    QVERIFY(testing::waitForLayout(*w.document()));
    NodeItem* shown = w.graphPane()->scene()->itemForNode(node);
    QVERIFY(shown);
    QCOMPARE(shown->item().nodeIndex, node); // layer 57's own box, not layer 0's
    QVERIFY(shown->emphasis() & int(Emphasis::Selected));
    bool noted = false;
    for (const auto& c : w.graphPane()->scene()->layout()->clusters) noted |= c.label.rfind("layers.57 of layers.0 … layers.127 · LlamaBlock ×128", 0) == 0;
    QVERIFY(noted);
    auto* fold = w.findChild<QAction*>("foldRepeatedAction");
    QVERIFY(fold && fold->isChecked());
    laidOut.clear();
    fold->trigger();
    QVERIFY(laidOut.count() > 0 || laidOut.wait(60000));
    QVERIFY(testing::waitForLayout(*w.document()));
    QCOMPARE(layerBoxes(nullptr), 127); // layer 57 stays open
}

// A click on the user input's box, or on a parameter's chip, selects that placeholder of the FX graph:
// it is outlined, and the Node pane shows it in the spec's words.
void TstMainWindow::clickSelectsPlaceholder() {
    MainWindow w;
    w.openExample();
    QVERIFY(testing::waitForLayout(*w.document()));
    GraphView* view = w.graphPane()->view();
    const NodeItem* input = nullptr;
    const NodeItem* withChip = nullptr;
    int chip = -1;
    for (const NodeItem* item : w.graphPane()->scene()->nodeItems()) {
        if (item->item().id == "in:x") input = item;
        for (size_t c = 0; c < item->item().chips.size() && !withChip; ++c)
            if (item->item().chips[c].kind == core::Chip::Kind::Parameter && !item->chipRect(static_cast<int>(c)).isEmpty()) {
                withChip = item;
                chip = static_cast<int>(c);
            }
    }
    QVERIFY(input && withChip);
    view->selectAt(input->sceneBoundingRect().center());
    QCOMPARE(w.document()->selectedItem(), QString("in:x"));
    QVERIFY(input->emphasis() & int(Emphasis::Selected));
    auto opcode = [&w] {
        const QAbstractItemModel* m = w.inspectorModel();
        const QModelIndex node = m->index(0, 0);
        for (int r = 0; r < m->rowCount(node); ++r)
            if (m->index(r, 0, node).data().toString() == "opcode") return m->index(r, 1, node).data().toString();
        return QString();
    };
    QCOMPARE(opcode(), QString("placeholder"));
    view->selectAt(withChip->chipRect(chip).center());
    QCOMPARE(w.document()->selectedItem(), "in:" + QString::fromStdString(withChip->item().chips[static_cast<size_t>(chip)].value));
    QCOMPARE(opcode(), QString("placeholder"));
    // a box of an op: back to call_function
    view->selectAt(w.graphPane()->scene()->itemForNode(0)->sceneBoundingRect().center());
    QVERIFY(w.document()->selectedItem().isEmpty());
    QCOMPARE(opcode(), QString("call_function"));
}

// Help › Export IR rules lists every verifier rule, each explained (passage, breaking example, fix);
// IR levels compares the levels; Ops lists the 193 core ATen and the prims overloads.
void TstMainWindow::specReference() {
    MainWindow w;
    w.openExample();
    QVERIFY(testing::waitForLayout(*w.document()));
    QAction* rulesAction = nullptr;
    for (QAction* menu : w.menuBar()->actions())
        if (menu->menu())
            for (QAction* a : menu->menu()->actions())
                if (a->text().startsWith("Export IR &rules")) rulesAction = a;
    QVERIFY(rulesAction);
    rulesAction->trigger();
    SpecReferenceDialog* d = w.specReference();
    QVERIFY(d && d->isVisible());
    const auto& rules = core::verifierRules();
    QCOMPARE(d->rulesModel()->rowCount(), static_cast<int>(rules.size()));
    for (const auto& r : rules) {
        QVERIFY(d->showRule(QString::fromUtf8(r.id)));
        const QString text = d->ruleText()->toPlainText();
        QVERIFY2(text.contains(QString::fromUtf8(r.title)) && text.contains("Breaks it:") && text.contains("Fix:"), r.id);
        QVERIFY2(text.size() > 150, r.id); // an explanation, not just headings
    }
    QVERIFY(!d->showRule("EIR-NOPE"));
    // the levels compared, with promotion and broadcasting explicit only in prims
    const QString levels = d->levelsText()->toPlainText();
    QVERIFY(levels.contains("Core ATen") && levels.contains("convert_element_type") && levels.contains("broadcast_in_dim"));
    // every core ATen and prims overload, with a kernel column and a decomposition column
    int core = 0, prims = 0;
    for (const auto& op : core::OpRegistry::instance().all()) {
        core += op.level == core::IrLevel::CoreAten;
        prims += op.level == core::IrLevel::Prims;
    }
    QCOMPARE(core, 193);
    QCOMPARE(d->opsModel()->rowCount(), core + prims);
    const auto add = d->opsModel()->findItems("aten::add.Tensor");
    QCOMPARE(add.size(), 1);
    QCOMPARE(d->opsModel()->item(add.front()->row(), 2)->text(), QString("yes"));
    QVERIFY(!d->opsModel()->item(add.front()->row(), 3)->text().startsWith("stays")); // the elementwise rule lowers it
    const auto conv = d->opsModel()->findItems("aten::convolution.default");
    QCOMPARE(conv.size(), 1);
    QVERIFY(d->opsModel()->item(conv.front()->row(), 3)->text().startsWith("stays"));
    // a diagnostic's rule opens its explanation
    d->hide();
    w.showSpecReference(QString::fromUtf8(rules.front().id));
    QVERIFY(d->isVisible());
    QVERIFY(d->ruleText()->toPlainText().contains(QString::fromUtf8(rules.front().title)));
}

// Graph › Check metas re-infers every val (EIR-M006): the example agrees with its meta functions; a
// copy whose one recorded val has the wrong shape gets exactly that node named.
void TstMainWindow::checkMetasFromTheMenu() {
    MainWindow w;
    auto* action = w.findChild<QAction*>("checkMetaAction");
    QVERIFY(action);
    QSignalSpy checked(w.document(), &Document::metaChecked);
    w.openExample();
    QVERIFY(testing::waitForLayout(*w.document()));
    action->trigger();
    QTRY_COMPARE_WITH_TIMEOUT(checked.count(), 1, 30000);
    QCOMPARE(checked.takeFirst().at(0).toInt(), 0);
    auto broken = std::make_shared<core::Program>(*core::makeExampleProgram());
    const core::Node& victim = broken->graph.nodes[2];
    const std::string value = victim.outputNames().front();
    auto& meta = broken->graph.tensorValues.at(value);
    meta.sizes.push_back(meta.sizes.back()); // one dimension too many
    w.document()->setProgram(broken, "broken");
    QVERIFY(testing::waitForLayout(*w.document()));
    action->trigger();
    QTRY_COMPARE_WITH_TIMEOUT(checked.count(), 1, 30000);
    QVERIFY(checked.takeFirst().at(0).toInt() >= 1);
    bool named = false;
    for (const auto& d : w.document()->diagnostics())
        named = named || (d.rule == "EIR-M006" && d.message.contains(QString::fromStdString(value)));
    QVERIFY(named);
}

void TstMainWindow::openFileFromDisk() {
    testing::zooDir();
    MainWindow w;
    w.openFile(QString::fromStdString(testing::fixture("zoo/gpt_block/model.pt2").string()));
    QVERIFY(testing::waitForLayout(*w.document()));
    QCOMPARE(w.document()->title(), QString("model.pt2"));
    QCOMPARE(w.windowTitle(), QString("model.pt2 — irlens"));
    QCOMPARE(w.graphPane()->scene()->opItemCount(), 31); // every node of the block drawn
}

// Without a program the canvas shows the start page: Run is off and says why; a failed open says what
// failed there; a file that opened is listed with its dialect and node count; the example hides it.
void TstMainWindow::startPageWithoutProgram() {
    QSettings().clear();
    QTemporaryDir dir;
    const QString good = dir.filePath("example.pt2"), bad = dir.filePath("not_a_model.pt2");
    QVERIFY(core::savePt2(*core::makeExampleProgram(), good.toStdString()).isOk());
    QVERIFY(testing::writeFile(bad, "this is not a zip archive"));
    MainWindow w;
    w.resize(1366, 768);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    StartPage* start = w.startPage();
    QVERIFY(start->isVisible());
    QCOMPARE(start->geometry(), w.graphPane()->rect());
    // the empty panes say why they are empty
    auto noteOf = [&w](const char* dock) {
        auto* note = w.dockNamed(dock)->findChild<QLabel*>("emptyNote");
        return note && note->isVisibleTo(w.dockNamed(dock)) ? note->text() : QString();
    };
    QVERIFY2(noteOf("modules").startsWith("No program"), qPrintable(noteOf("modules")));
    QVERIFY2(noteOf("inspector").startsWith("No program"), qPrintable(noteOf("inspector")));
    const auto fxPanes = w.findChildren<FxTextPane*>();
    QVERIFY(!fxPanes.isEmpty());
    for (const FxTextPane* fx : fxPanes) {
        QVERIFY(fx->toPlainText().isEmpty());
        QVERIFY2(fx->placeholderText().startsWith("No program"), qPrintable(fx->placeholderText()));
    }
    QAction* run = w.runController()->runAction();
    QVERIFY(!run->isEnabled());
    QVERIFY2(run->toolTip().contains("open a program first"), qPrintable(run->toolTip()));
    // a file that loads: listed with what it held
    w.openFile(good);
    QVERIFY(testing::waitForLayout(*w.document()));
    QVERIFY(!start->isVisible());
    QVERIFY(run->isEnabled());
    // the example has no symbolic sizes: the Range constraints pane says so
    QVERIFY2(noteOf("ranges").contains("no size in this program is symbolic"), qPrintable(noteOf("ranges")));
    QCOMPARE(noteOf("modules"), QString()); // it has modules
    // a bad file over a program: an error box (closed as a user would once it is up), the program stays
    bool boxShown = false;
    QTimer closer;
    connect(&closer, &QTimer::timeout, [&boxShown] {
        if (QWidget* box = QApplication::activeModalWidget()) {
            boxShown = true;
            box->close();
        }
    });
    closer.start(50);
    const core::ProgramPtr shown = w.document()->program();
    QSignalSpy failedOver(w.document(), &Document::loadFailed);
    w.openFile(bad);
    QTRY_COMPARE(failedOver.count(), 1);
    QVERIFY(boxShown);
    QCOMPARE(w.document()->program(), shown);
    QVERIFY(!start->isVisible());
    // in a new window the start page says why, in place of a box
    boxShown = false;
    MainWindow fresh;
    fresh.resize(1366, 768);
    fresh.show();
    QVERIFY(QTest::qWaitForWindowExposed(&fresh));
    QSignalSpy failed(fresh.document(), &Document::loadFailed);
    fresh.openFile(bad);
    QTRY_COMPARE(failed.count(), 1);
    QTest::qWait(200);
    QVERIFY(!boxShown);
    QVERIFY(fresh.startPage()->isVisible());
    QVERIFY2(fresh.startPage()->messageLabel()->text().startsWith("Could not open not_a_model.pt2: "),
             qPrintable(fresh.startPage()->messageLabel()->text()));
    QListWidget* recent = fresh.startPage()->recentList();
    QCOMPARE(recent->count(), 2); // newest first
    QVERIFY(recent->item(0)->text().startsWith("not_a_model.pt2"));
    const QString expectedNote = QString("ATEN · %1 nodes").arg(w.document()->program()->graph.nodes.size());
    QVERIFY2(recent->item(1)->text().endsWith(expectedNote), qPrintable(recent->item(1)->text()));
    // activating a recent entry opens it
    recent->setCurrentRow(1);
    Q_EMIT recent->itemActivated(recent->item(1));
    QVERIFY(testing::waitForLayout(*fresh.document()));
    QVERIFY(!fresh.startPage()->isVisible());
    QVERIFY(fresh.runController()->runAction()->isEnabled());
}

void TstMainWindow::badFileReportsError() {
    QTemporaryDir dir;
    const QString path = dir.filePath("not_a_model.pt2");
    QVERIFY(testing::writeFile(path, "this is not a zip archive"));
    Document doc;
    QSignalSpy failed(&doc, &Document::loadFailed);
    doc.openFile(path);
    QTRY_COMPARE(failed.count(), 1);
    QVERIFY(!failed.front().front().toString().isEmpty());
    QVERIFY(!doc.isBusy());
    QVERIFY(!doc.program());
}

QTEST_MAIN(TstMainWindow)
#include "tst_main_window.moc"

// What `irlens --fx-placeholders / --no-fold / --dock` call: the Graph menu's checks follow the
// drawing, a second call changes nothing, and every dock word names a dock the window has.
void TstMainWindow::commandLineCalls() {
    MainWindow w;
    w.resize(1200, 800);
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    w.openExample();
    QVERIFY(testing::waitForLayout(*w.document()));
    auto* fxAction = w.findChild<QAction*>("fxPlaceholdersAction");
    auto* foldAction = w.findChild<QAction*>("foldRepeatedAction");
    QVERIFY(fxAction && foldAction);
    QSignalSpy laidOut(w.document(), &Document::layoutReady);
    w.setFxPlaceholders(true);
    QVERIFY(w.document()->drawFxPlaceholders());
    QVERIFY(fxAction->isChecked());
    QVERIFY(laidOut.count() > 0 || laidOut.wait(60000));
    QVERIFY(testing::waitForLayout(*w.document()));
    laidOut.clear();
    w.setFxPlaceholders(true);
    QTest::qWait(50);
    QCOMPARE(laidOut.count(), 0);
    w.setFxPlaceholders(false);
    QVERIFY(!w.document()->drawFxPlaceholders() && !fxAction->isChecked());
    QVERIFY(w.document()->foldRepeatedBlocks() && foldAction->isChecked());
    w.setFoldRepeated(false);
    QVERIFY(!w.document()->foldRepeatedBlocks() && !foldAction->isChecked());
    w.setFoldRepeated(true);
    QVERIFY(w.document()->foldRepeatedBlocks() && foldAction->isChecked());

    QVERIFY(!MainWindow::dockWords().isEmpty());
    for (const QString& word : MainWindow::dockWords()) {
        QVERIFY2(w.raiseDock(word), qPrintable(word));
        QDockWidget* shown = nullptr;
        for (auto* d : w.findChildren<QDockWidget*>())
            if (d->isVisible() && !d->visibleRegion().isEmpty() && w.dockWidgetArea(d) == Qt::BottomDockWidgetArea) shown = d;
        QVERIFY2(shown && shown->objectName() != "fx", qPrintable(word)); // in front of the FX text it shares the tabs with
    }
    QVERIFY(w.raiseDock("fx")); // any dock by its object name
    QVERIFY(!w.findChild<QDockWidget*>("fx")->visibleRegion().isEmpty());
    QVERIFY(!w.raiseDock("no such dock"));
}
