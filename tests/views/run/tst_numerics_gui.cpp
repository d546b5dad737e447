// Numeric debugging in the window: Run › Inputs… (refusals, the choice remembered per file, runs use
// it), File › Export values… (disabled until there are values, the CLI's dump), Run › Compare with
// reference values… (the Numerics dock, its first divergence, the tolerance field, the error overlay,
// clicking a row), the Node pane's statistics side by side, and the marker on the node that makes the
// first NaN. Programs built with the project's builder; tiny_gpt against PyTorch's own values when
// ../shared is present.
// engine headers (oneTBB) before Qt's
#include "core/compare/numeric_run.h"
#include "core/io/pt2_writer.h"
#include "core/io/tensor_file.h"

#include "support/gui_test_util.h"
#include "support/numeric_programs.h"
#include "views/document.h"
#include "views/graph/graph_items.h"
#include "views/graph/graph_pane.h"
#include "views/graph/graph_scene.h"
#include "views/graph/graph_view.h"
#include "views/run/heatmap_overlay.h"
#include "views/graph/numeric_overlay.h"
#include "views/inspect/table_pane.h"
#include "views/inspect/value_stats_view.h"
#include "views/main_window.h"
#include "views/run/inputs_dialog.h"
#include "views/run/numerics_controller.h"
#include "views/run/numerics_dock.h"
#include "views/run/numerics_model.h"
#include "views/run/run_controller.h"
#include "views/run/step_controller.h"
#include "views/settings_writer.h"

#include <QAbstractItemModelTester>
#include <QAction>
#include <QApplication>
#include <QDialogButtonBox>
#include <QDockWidget>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>
#include <QTreeView>

#include <cstring>

using namespace irlens;
using namespace irlens::views;

namespace {

// Shows `program` in a window and waits for its layout.
bool showProgram(MainWindow& w, core::ProgramPtr program, const QString& title) {
    w.resize(1366, 768);
    w.document()->setProgram(std::move(program), title);
    return testing::waitForLayout(*w.document());
}

// Runs the program on screen (Run › Run) and waits for the result.
bool runAndWait(MainWindow& w) {
    QSignalSpy finished(w.document(), &Document::runFinished);
    QSignalSpy failed(w.runController(), &RunController::runFailed);
    w.runController()->runAction()->trigger();
    QElapsedTimer t;
    t.start();
    while (t.elapsed() < 60000 && finished.isEmpty() && failed.isEmpty()) QTest::qWait(10);
    return !finished.isEmpty() && w.document()->runResult();
}

bool compareAndWait(MainWindow& w, const QString& reference) {
    QSignalSpy finished(w.document(), &Document::runFinished);
    w.numericsController()->compareWith(reference);
    QElapsedTimer t;
    t.start();
    while (t.elapsed() < 60000 && finished.isEmpty()) QTest::qWait(10);
    return !finished.isEmpty();
}

// Runs the program on screen and exports its own values to `path` (File › Export values…).
bool runAndExport(MainWindow& w, const QString& path) {
    if (!runAndWait(w)) return false;
    QSignalSpy exported(w.numericsController(), &NumericsController::exported);
    w.numericsController()->exportValues(path);
    return exported.wait(30000) || exported.count() == 1;
}

// The reference values of `from` with `edit` applied to the named tensors (as copies), written to `to`.
void writeEdited(const std::string& from, const std::string& to,
                 const std::function<bool(const std::string&, core::TensorData&)>& edit) {
    auto file = core::readTensorFile(from);
    QVERIFY2(file, file.error().c_str());
    std::vector<std::pair<std::string, core::TensorData>> tensors;
    for (const auto& e : file->entries) {
        if (e.value.kind != core::Value::Kind::Tensor) continue;
        core::TensorData t = e.value.tensor;
        auto bytes = t.contiguousBytes();
        t.storage = core::Storage::fromBytes(std::move(bytes));
        t.storageOffset = 0;
        t.strides.assign(t.sizes.size(), 1);
        for (size_t d = t.sizes.size(); d-- > 1;) t.strides[d - 1] = t.strides[d] * t.sizes[d];
        if (edit(e.name, t)) tensors.emplace_back(e.name, std::move(t));
    }
    QVERIFY(core::writeSafetensors(to, tensors).isOk());
}

// Multiplies every element of a float32 tensor (contiguous, owned) by `factor`.
void scale(core::TensorData& t, float factor) {
    auto* p = const_cast<float*>(reinterpret_cast<const float*>(t.dataPtr()));
    for (int64_t k = 0; k < t.numel(); ++k) p[k] *= factor;
}

core::TensorData floatTensor(std::vector<int64_t> sizes, core::ScalarType dtype) {
    int64_t n = 1;
    for (int64_t s : sizes) n *= s;
    core::TensorData t;
    t.dtype = dtype;
    t.sizes = sizes;
    t.strides.assign(sizes.size(), 1);
    for (size_t d = sizes.size(); d-- > 1;) t.strides[d - 1] = t.strides[d] * sizes[d];
    t.storage = core::Storage::fromBytes(std::vector<std::byte>(static_cast<size_t>(n) * core::elementSize(dtype), std::byte{0}));
    return t;
}

int rowOf(NumericsModel* m, const char* value) { return m->rowOfValue(QString::fromLatin1(value)); }
QString cell(NumericsModel* m, int row, int column) { return m->index(row, column).data().toString(); }

} // namespace

class TstNumericsGui : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void nanProducerIsMarkedAndLinked();
    void inputsRefusedChosenAndRemembered();
    void exportValuesAfterARunOrAStep();
    void compareShowsTheFirstDivergence();
    void mismatchesAreListed();
    void stepShowsStatistics();
    void tinyGptAgainstPyTorch();
};

void TstNumericsGui::initTestCase() {
    QCoreApplication::setOrganizationName("irlens-tests");
    QCoreApplication::setApplicationName("tst_numerics_gui");
    QSettings().clear();
    QSettings().setValue("run/warmup", 0);
    QSettings().setValue("run/repeat", 1);
}

// A run of a program whose middle (div: 0/0) makes a NaN: the div box is marked, not the later add
// and relu that carry it; the Profile summary names it with a link that selects it.
void TstNumericsGui::nanProducerIsMarkedAndLinked() {
    MainWindow w;
    QVERIFY(showProgram(w, testing::makeNanInTheMiddle(), "nan_middle"));
    Document* doc = w.document();
    QVERIFY(runAndWait(w));
    auto numerics = doc->numerics();
    QVERIFY(numerics);
    QCOMPARE(numerics->nonFinite.carriers, 2);
    const int div = doc->nodeIndexOf("div");
    NumericOverlay* overlay = w.numericsController()->overlay();
    QCOMPARE(overlay->markedNode(), div);
    QVERIFY(overlay->marker() && overlay->marker()->parentItem() == w.graphPane()->scene()->itemForNode(div));
    QVERIFY(overlay->marker()->toolTip().contains("16 NaN"));
    QLabel* summary = w.runController()->summaryLabel();
    QVERIFY2(summary->text().contains("first NaN made by") && summary->text().contains("href=\"node:div\""), qPrintable(summary->text()));
    QVERIFY(summary->text().contains("models.py:22"));
    doc->selectNode(-1);
    Q_EMIT summary->linkActivated("node:div");
    QCOMPARE(doc->selectedNode(), div);
    if (qEnvironmentVariableIsSet("IRLENS_SHOT_DIR")) { // to look at the marker and the summary line
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        w.raiseDock("profile");
        QTest::qWait(300);
        w.grab().save(qEnvironmentVariable("IRLENS_SHOT_DIR") + "/nan-marker.png");
    }
    // the Node pane: the NaN counted, the finite statistics of nothing
    ValueStatsView* stats = w.valueStatsView();
    QCOMPARE(stats->valueNames(), QStringList{"div"});
    QVERIFY2(stats->statsLabel()->text().contains("<td>NaN, +inf, −inf</td><td align=right>&nbsp;16, 0, 0</td>"), qPrintable(stats->statsLabel()->text()));
    // a program without NaN: no marker, nothing in the summary
    QVERIFY(showProgram(w, testing::makeNumericMlp(), "mlp"));
    QCOMPARE(overlay->markedNode(), -1);
    QVERIFY(runAndWait(w));
    QCOMPARE(overlay->markedNode(), -1);
    QVERIFY(!summary->text().contains("NaN"));
}

// Run › Inputs…: a file of the wrong dtype is refused with the core's one line and the dialog stays
// open; a good one is taken, remembered for the file (a new window on the same file has it), used
// by the run, and named in the Profile summary.
void TstNumericsGui::inputsRefusedChosenAndRemembered() {
    QTemporaryDir dir;
    const std::string pt2 = dir.filePath("mlp.pt2").toStdString();
    QVERIFY(core::savePt2(*testing::makeNumericMlp(), pt2).isOk());
    const QString good = dir.filePath("x.npy"), bad = dir.filePath("x64.npy");
    core::TensorData x = core::makeFilledTensor({1, 16}, 0.5f);
    QVERIFY(core::writeNpy(good.toStdString(), x).isOk());
    QVERIFY(core::writeNpy(bad.toStdString(), floatTensor({1, 16}, core::ScalarType::Float64)).isOk());
    {
        MainWindow w;
        QCOMPARE(testing::openAndWait(*w.document(), pt2), QString());
        QString refusal, dialogPathsAfterRefusal;
        bool closedAfterGood = false;
        QTimer::singleShot(0, [&] {
            auto* dialog = qobject_cast<InputsDialog*>(QApplication::activeModalWidget());
            if (!dialog) return;
            dialog->setPaths({bad});
            dialog->findChild<QDialogButtonBox*>()->button(QDialogButtonBox::Ok)->click();
            refusal = dialog->errorLabel()->text();
            dialogPathsAfterRefusal = dialog->paths().join(",");
            dialog->setPaths({good});
            dialog->findChild<QDialogButtonBox*>()->button(QDialogButtonBox::Ok)->click();
            closedAfterGood = !dialog->isVisible();
        });
        w.numericsController()->inputsAction()->trigger();
        QCOMPARE(refusal, QString("input 'x': given f64[1, 16], the program expects f32[1, 16]"));
        QCOMPARE(dialogPathsAfterRefusal, bad);
        QVERIFY(closedAfterGood);
        QCOMPARE(w.document()->inputFiles(), QStringList{good});
        QVERIFY(runAndWait(w));
        QVERIFY2(w.runController()->summaryLabel()->text().contains("inputs: " + good), qPrintable(w.runController()->summaryLabel()->text()));
        // the run used them: x is the input value, so add = relu(mm) + 0.5 is at least 0.5 everywhere
        auto numerics = w.document()->numerics();
        const auto add = std::find_if(numerics->values.begin(), numerics->values.end(), [](const core::ValueRecord& v) { return v.name == "add"; });
        QVERIFY(add != numerics->values.end() && add->stats);
        QVERIFY2(add->stats->min >= 0.5 - 1e-6, qPrintable(QString::number(add->stats->min)));
        QVERIFY(QString::fromStdString(numerics->inputsFrom).contains("x.npy"));
    }
    waitForSettingWrites();
    MainWindow again;
    QCOMPARE(testing::openAndWait(*again.document(), pt2), QString());
    QCOMPARE(again.document()->inputFiles(), QStringList{good});
    // refused by the API too, and nothing changes
    QCOMPARE(again.numericsController()->chooseInputs({bad}), QString("input 'x': given f64[1, 16], the program expects f32[1, 16]"));
    QCOMPARE(again.document()->inputFiles(), QStringList{good});
    QCOMPARE(again.numericsController()->chooseInputs({}), QString());
    QVERIFY(again.document()->inputFiles().isEmpty());
}

// File › Export values… is disabled, saying why, until a run or a step; then it writes every node's
// value, keyed by name, as the CLI's --dump does (read back with the core's reader).
void TstNumericsGui::exportValuesAfterARunOrAStep() {
    MainWindow w;
    QVERIFY(showProgram(w, testing::makeNumericMlp(), "mlp"));
    QAction* exportValues = w.numericsController()->exportAction();
    QVERIFY(!exportValues->isEnabled());
    QVERIFY2(exportValues->toolTip().contains("run the program"), qPrintable(exportValues->toolTip()));
    w.stepController()->stepAction()->trigger(); // one node: mm
    QVERIFY(exportValues->isEnabled());
    QTemporaryDir dir;
    const QString path = dir.filePath("values.safetensors");
    QSignalSpy exported(w.numericsController(), &NumericsController::exported);
    w.numericsController()->exportValues(path);
    QVERIFY(!exportValues->isEnabled()); // while it writes
    QTRY_COMPARE_WITH_TIMEOUT(exported.count(), 1, 30000);
    QCOMPARE(exported.front().at(1).toInt(), 4);
    auto file = core::readTensorFile(path.toStdString());
    QVERIFY2(file, file.error().c_str());
    QStringList names;
    for (const auto& e : file->entries) names << QString::fromStdString(e.name);
    QCOMPARE(names, (QStringList{"mm", "relu", "add", "mm_1"}));
    QCOMPARE(file->metadata.at("format"), std::string("irlens-values/1"));
    QCOMPARE(file->metadata.at("program"), std::string("mlp"));
    // the stepped value and the exported one are the same numbers
    const core::ValueRecord& stepped = w.document()->numerics()->values.front();
    QCOMPARE(stepped.name, std::string("mm"));
    auto mm = core::exec::Tensor::fromTensorData(file->entries.front().value.tensor);
    QVERIFY(mm);
    const core::ValueStats dumped = core::valueStatsOf(*mm, 24);
    QCOMPARE(dumped.min, stepped.stats->min);
    QCOMPARE(dumped.max, stepped.stats->max);
    QCOMPARE(dumped.histogram, stepped.stats->histogram);
    QVERIFY(exportValues->isEnabled());
}

// Run › Compare with reference values… against the program's own dump with `add` scaled by 1.02:
// the dock lists every value in execution order with add highlighted as the first divergence, the
// earlier values agree; the overlay colours add by its error; clicking a row selects its node and
// the Node pane shows both values' statistics; a looser tolerance makes every value agree.
void TstNumericsGui::compareShowsTheFirstDivergence() {
    MainWindow w;
    QVERIFY(showProgram(w, testing::makeNumericMlp(), "mlp"));
    Document* doc = w.document();
    NumericsController* nc = w.numericsController();
    QTemporaryDir dir;
    const QString own = dir.filePath("own.safetensors"), scaled = dir.filePath("scaled.safetensors");
    QVERIFY(runAndExport(w, own));
    writeEdited(own.toStdString(), scaled.toStdString(), [](const std::string& name, core::TensorData& t) {
        if (name == "add") scale(t, 1.02f);
        return true;
    });
    QVERIFY(nc->dock()->isHidden());
    // against its own values first: everything agrees, nothing highlighted
    QVERIFY(compareAndWait(w, own));
    NumericsModel* model = nc->pane()->model();
    QAbstractItemModelTester tester(model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QCOMPARE(model->rowCount(), 4);
    QCOMPARE(model->firstDivergentRow(), -1);
    QVERIFY2(nc->pane()->verdictLabel()->text().contains("every compared value agrees"), qPrintable(nc->pane()->verdictLabel()->text()));
    QCOMPARE(cell(model, 0, NumericsModel::NormRel), QString("0"));

    QVERIFY(compareAndWait(w, scaled));
    QVERIFY(!nc->dock()->isHidden());
    auto numerics = doc->numerics();
    QVERIFY(numerics && numerics->compared);
    QCOMPARE(model->rowCount(), 4);
    const int add = rowOf(model, "add");
    QCOMPARE(model->firstDivergentRow(), add);
    QCOMPARE(add, 2); // execution order
    QVERIFY(model->index(add, 0).data(NumericsModel::FirstDivergenceRole).toBool());
    QVERIFY(model->index(add, 0).data(Qt::FontRole).value<QFont>().bold());
    QCOMPARE(cell(model, add, NumericsModel::Check), QString("differ"));
    QCOMPARE(cell(model, rowOf(model, "mm"), NumericsModel::Check), QString("agree"));
    QCOMPARE(cell(model, rowOf(model, "relu"), NumericsModel::Check), QString("agree"));
    // scaled by 1.02: the normwise error is 0.02/1.02 and the SQNR about 34 dB
    const double normRel = model->index(add, NumericsModel::NormRel).data(NumericsModel::SortRole).toDouble();
    QVERIFY2(std::abs(normRel - 0.02 / 1.02) < 1e-4, qPrintable(QString::number(normRel)));
    QCOMPARE(cell(model, add, NumericsModel::Sqnr), QString("34.2"));
    QVERIFY(nc->pane()->verdictLabel()->text().contains("first divergence at <a href=\"node:add\">add</a>"));
    QVERIFY(w.runController()->summaryLabel()->text().contains("first divergence at <a href=\"node:add\">add</a>"));

    // the overlay is on after a comparison: add in its error's colour, mm (no error) at the bottom
    NumericOverlay* overlay = nc->overlay();
    QVERIFY(nc->overlayAction()->isChecked());
    QVERIFY(!overlay->legend()->isHidden());
    QCOMPARE(overlay->colorOfNode(doc->nodeIndexOf("add")), viridis(errorPosition(normRel)));
    QCOMPARE(overlay->colorOfNode(doc->nodeIndexOf("mm")), viridis(0.0));
    QCOMPARE(overlay->coloredCount(), 4);
    nc->overlayAction()->setChecked(false);
    QCOMPARE(overlay->coloredCount(), 0);
    QVERIFY(overlay->legend()->isHidden());
    nc->overlayAction()->setChecked(true);

    // clicking the add row selects add; the Node pane shows both values side by side
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    nc->revealDock();
    QTreeView* view = nc->pane()->table()->view();
    const QModelIndex proxyIndex = nc->pane()->table()->proxy()->mapFromSource(model->index(add, 0));
    view->scrollTo(proxyIndex);
    QTest::mouseClick(view->viewport(), Qt::LeftButton, {}, view->visualRect(proxyIndex).center());
    QCOMPARE(doc->selectedNode(), doc->nodeIndexOf("add"));
    ValueStatsView* stats = w.valueStatsView();
    QVERIFY(stats->isVisible());
    QCOMPARE(stats->valueNames(), QStringList{"add"});
    const QString table = stats->statsLabel()->text();
    QVERIFY2(table.contains("irlens") && table.contains("reference"), qPrintable(table));
    const auto& rec = numerics->values[static_cast<size_t>(add)];
    QVERIFY(rec.stats && rec.referenceStats);
    QVERIFY(std::abs(rec.referenceStats->mean - 1.02 * rec.stats->mean) < 1e-5 * std::max(1.0, std::abs(rec.stats->mean)));
    QCOMPARE(rec.stats->lo, rec.referenceStats->lo); // one range for both histograms
    int64_t inBins = 0;
    for (int64_t c : stats->histograms()->bins(true)) inBins += c;
    QCOMPARE(inBins, rec.referenceStats->elements);
    QVERIFY(!stats->histograms()->bins(false).empty());
    // clicking a box selects its node too, and the pane follows
    GraphView* gv = w.graphPane()->view();
    NodeItem* mmBox = w.graphPane()->scene()->itemForNode(doc->nodeIndexOf("mm"));
    gv->centerOn(mmBox);
    QTest::mouseClick(gv->viewport(), Qt::LeftButton, {}, gv->mapFromScene(mmBox->sceneBoundingRect().center()));
    QCOMPARE(doc->selectedNode(), doc->nodeIndexOf("mm"));
    QCOMPARE(stats->valueNames(), QStringList{"mm"});

    // a tolerance above the error: every value agrees, without running again
    QLineEdit* tolerance = nc->pane()->toleranceField();
    tolerance->setText("0.05");
    Q_EMIT tolerance->editingFinished();
    QCOMPARE(model->firstDivergentRow(), -1);
    QCOMPARE(cell(model, add, NumericsModel::Check), QString("agree"));
    QVERIFY(nc->pane()->verdictLabel()->text().contains("every compared value agrees"));
    QVERIFY(w.raiseDock("numerics"));
}

// A reference that lacks relu, holds a name the program does not make, mm in another shape and mm_1
// in another dtype: each is listed as such, and mm (the first in execution order) is the divergence.
void TstNumericsGui::mismatchesAreListed() {
    MainWindow w;
    QVERIFY(showProgram(w, testing::makeNumericMlp(), "mlp"));
    NumericsController* nc = w.numericsController();
    QTemporaryDir dir;
    const QString own = dir.filePath("own.safetensors"), broken = dir.filePath("broken.safetensors");
    QVERIFY(runAndExport(w, own));
    writeEdited(own.toStdString(), broken.toStdString(), [](const std::string& name, core::TensorData& t) {
        if (name == "relu") return false;
        if (name == "mm") t = floatTensor({2, 8}, core::ScalarType::Float32);
        if (name == "mm_1") t = floatTensor({1, 16}, core::ScalarType::Float64);
        return true;
    });
    { // and a name the program does not make
        auto file = core::readTensorFile(broken.toStdString());
        std::vector<std::pair<std::string, core::TensorData>> tensors;
        for (const auto& e : file->entries) tensors.emplace_back(e.name, e.value.tensor);
        tensors.emplace_back("extra", core::makeFilledTensor({3}, 1.0f));
        const QString withExtra = dir.filePath("extra.safetensors");
        QVERIFY(core::writeSafetensors(withExtra.toStdString(), tensors).isOk());
        QVERIFY(compareAndWait(w, withExtra));
    }
    NumericsModel* model = nc->pane()->model();
    QCOMPARE(model->rowCount(), 5);
    QCOMPARE(cell(model, rowOf(model, "mm"), NumericsModel::Check), QString("shape"));
    QCOMPARE(cell(model, rowOf(model, "mm"), NumericsModel::Shape), QString("f32[1, 16], reference f32[2, 8]"));
    QCOMPARE(cell(model, rowOf(model, "relu"), NumericsModel::Check), QString("missing"));
    QCOMPARE(cell(model, rowOf(model, "add"), NumericsModel::Check), QString("agree"));
    QCOMPARE(cell(model, rowOf(model, "mm_1"), NumericsModel::Check), QString("dtype"));
    QCOMPARE(cell(model, 4, NumericsModel::Value), QString("extra"));
    QCOMPARE(cell(model, 4, NumericsModel::Check), QString("only in the reference"));
    QCOMPARE(model->firstDivergentRow(), rowOf(model, "mm"));
    QVERIFY2(nc->pane()->verdictLabel()->text().contains("1 agree, 0 differ, 1 shape, 1 dtype, 1 missing, 1 only in the reference"),
             qPrintable(nc->pane()->verdictLabel()->text()));
    // an unreadable reference: the run still shows, and the summary says why the values were not compared
    QSignalSpy failed(w.runController(), &RunController::numericsFailed);
    QVERIFY(compareAndWait(w, dir.filePath("none.safetensors")));
    QCOMPARE(failed.count(), 1);
    QVERIFY2(w.runController()->summaryLabel()->text().contains("values not compared: ") &&
                 w.runController()->summaryLabel()->text().contains("none.safetensors"),
             qPrintable(w.runController()->summaryLabel()->text()));
}

// Stepping fills the Node pane's statistics for each node as it runs, without a reference.
void TstNumericsGui::stepShowsStatistics() {
    MainWindow w;
    QVERIFY(showProgram(w, testing::makeNanInTheMiddle(), "nan_middle"));
    Document* doc = w.document();
    ValueStatsView* stats = w.valueStatsView();
    doc->selectNode(doc->nodeIndexOf("mul"));
    QVERIFY(stats->valueNames().isEmpty());
    w.stepController()->runTo(doc->nodeIndexOf("div"));
    QTRY_VERIFY(!w.stepController()->isBusy());
    QCOMPARE(doc->numerics()->values.size(), size_t(3));
    doc->selectNode(doc->nodeIndexOf("mul"));
    QCOMPARE(stats->valueNames(), QStringList{"mul"});
    QVERIFY(!stats->statsLabel()->text().contains("reference"));
    QVERIFY(stats->histograms()->bins(true).empty());
    const core::ValueStats& mul = *doc->numerics()->values.front().stats;
    QCOMPARE(mul.elements, int64_t(16));
    QVERIFY(mul.max > mul.min);
    doc->selectNode(doc->nodeIndexOf("sub"));
    QVERIFY2(stats->statsLabel()->text().contains("<td>max</td><td align=right>&nbsp;0</td>"), qPrintable(stats->statsLabel()->text()));
    doc->selectNode(doc->nodeIndexOf("add")); // not run yet
    QVERIFY(stats->valueNames().isEmpty());
    w.stepController()->restart();
    QVERIFY(!doc->numerics());
}

// tiny_gpt against PyTorch 1.13's value of every node: all agree; with addmm_5 scaled by 1.02 that
// node is the first divergence, highlighted, and coloured at the top of the overlay's values.
void TstNumericsGui::tinyGptAgainstPyTorch() {
    IRLENS_REQUIRE_SHARED();
    const auto dir = testing::fixture("generated/tiny_gpt");
    const auto intermediates = dir / "model.expected/intermediates.safetensors";
    if (!std::filesystem::exists(intermediates)) QSKIP("tiny_gpt has no intermediates.safetensors in this copy of ../shared");
    MainWindow w;
    w.resize(1366, 768);
    QCOMPARE(testing::openAndWait(*w.document(), dir / "model.pt2"), QString());
    NumericsController* nc = w.numericsController();
    QVERIFY(compareAndWait(w, QString::fromStdString(intermediates.string())));
    auto numerics = w.document()->numerics();
    QVERIFY(numerics && numerics->compared);
    QCOMPARE(numerics->firstDivergent, -1);
    QCOMPARE(numerics->count(core::ValueCheck::Agree), size_t(218));
    QTemporaryDir tmp;
    const QString perturbed = tmp.filePath("perturbed.safetensors");
    writeEdited(intermediates.string(), perturbed.toStdString(), [](const std::string& name, core::TensorData& t) {
        if (name == "addmm_5") scale(t, 1.02f);
        return true;
    });
    QVERIFY(compareAndWait(w, perturbed));
    numerics = w.document()->numerics();
    NumericsModel* model = nc->pane()->model();
    const int first = model->firstDivergentRow();
    QCOMPARE(cell(model, first, NumericsModel::Value), QString("addmm_5"));
    // before it, every value agrees or is an unused tuple element the reference lacks (missing, read by no node)
    for (int r = 0; r < first; ++r)
        QVERIFY2(QStringList({"agree", "missing (read by no node)"}).contains(cell(model, r, NumericsModel::Check)),
                 qPrintable(cell(model, r, NumericsModel::Value)));
    QVERIFY(nc->overlay()->coloredCount() > 0);
    // the divergent box is the brightest of the boxes the overlay colours
    const QColor top = nc->overlay()->colorOfNode(w.document()->nodeIndexOf("addmm_5"));
    QVERIFY(top.isValid());
    QCOMPARE(top, viridis(errorPosition(numerics->values[static_cast<size_t>(first)].error.normRel)));
    if (qEnvironmentVariableIsSet("IRLENS_SHOT_DIR")) {
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        w.raiseDock("numerics");
        w.document()->revealNode(w.document()->nodeIndexOf("addmm_5"));
        w.document()->selectNode(w.document()->nodeIndexOf("addmm_5"));
        w.graphPane()->view()->centerOn(w.graphPane()->scene()->itemForNode(w.document()->nodeIndexOf("addmm_5")));
        nc->pane()->table()->view()->scrollTo(nc->pane()->table()->proxy()->mapFromSource(model->index(first, 0)),
                                              QAbstractItemView::PositionAtCenter);
        QTest::qWait(500);
        w.grab().save(qEnvironmentVariable("IRLENS_SHOT_DIR") + "/numerics-tiny_gpt-1366x768.png");
    }
}

QTEST_MAIN(TstNumericsGui)
#include "tst_numerics_gui.moc"
