// Item models: each passes QAbstractItemModelTester; their content checked on real programs.
#include "core/ir/example_program.h"
#include "support/zoo_files.h"
#include "support/gui_test_util.h"
#include "views/document.h"
#include "views/graph/graph_navigation.h"
#include "views/inspect/module_tree_model.h"
#include "views/inspect/node_info.h"
#include "views/inspect/node_inspector_model.h"
#include "views/inspect/table_models.h"
#include "views/inspect/tensor_stats.h"

#include <QAbstractItemModelTester>
#include <QTemporaryFile>
#include <QTest>

#include <algorithm>
#include <cmath>
#include <set>

using namespace irlens;
using namespace irlens::views;
using irlens::testing::fixture;

class TstItemModels : public QObject {
    Q_OBJECT
private slots:
    void modelsPassTester_data();
    void modelsPassTester();
    void inspectorShowsConvolution();
    void inspectorLinksAndSource();
    void inspectorInTheSpecsWords();
    void placeholderSelected();
    void outputNodeWalksTheSignature();
    void signatureAndRanges();
    void weightsStatistics();
    void tensorStatsStrided();
};

namespace {

QModelIndex childByKey(const QAbstractItemModel& m, const QModelIndex& parent, const QString& key) {
    for (int r = 0; r < m.rowCount(parent); ++r)
        if (m.index(r, 0, parent).data().toString() == key) return m.index(r, 0, parent);
    return {};
}

int firstNodeWithOp(const core::Graph& g, const std::string& op) {
    for (size_t k = 0; k < g.nodes.size(); ++k)
        if (g.nodes[k].target.op() == op) return static_cast<int>(k);
    return -1;
}

} // namespace

void TstItemModels::modelsPassTester_data() {
    QTest::addColumn<QString>("path");
    QTest::addRow("example") << QString();
    for (const auto& rel : testing::zooProgramFiles()) QTest::addRow("%s", rel.c_str()) << QString::fromStdString(rel);
    testing::writeViewPrograms();
    QTest::addRow("zoo/resnet_like") << "zoo/resnet_like/model.pt2";
    QTest::addRow("dynamic_mlp") << "generated/dynamic_mlp/model.pt2";
    QTest::addRow("cond_branch") << "generated/cond_branch/model.pt2";
    QTest::addRow("zoo/decoder_like_training") << "zoo/decoder_like_training/model.pt2";
}

void TstItemModels::modelsPassTester() {
    QFETCH(QString, path);
    Document doc;
    ModuleTreeModel modules(&doc);
    SignatureModel signature(&doc);
    RangeConstraintsModel ranges(&doc);
    DiagnosticsModel diagnostics(&doc);
    WeightsModel weights(&doc);
    NodeInspectorModel inspector(&doc);
    const auto mode = QAbstractItemModelTester::FailureReportingMode::QtTest;
    QAbstractItemModelTester t1(&modules, mode), t2(&signature, mode), t3(&ranges, mode), t4(&diagnostics, mode),
        t5(&weights, mode), t6(&inspector, mode);
    if (path.isEmpty()) {
        doc.setProgram(core::makeExampleProgram(), "example");
        QVERIFY(testing::waitForLayout(doc));
    } else {
        IRLENS_REQUIRE_FIXTURE(path);
        QVERIFY(testing::openAndWait(doc, fixture(path.toStdString())).isEmpty());
    }
    QTRY_VERIFY(!doc.verifierSummary().contains("verifying")); // diagnostics arrive (model reset under the tester)
    QCOMPARE(diagnostics.rowCount(), static_cast<int>(doc.diagnostics().size()));
    // walk every node through the inspector (model resets under the tester)
    for (int n = 0; n < static_cast<int>(doc.graph()->nodes.size()); n += 3) doc.selectNode(n);
    // module tree mirrors the module hierarchy
    const auto& tree = *doc.scope().tree;
    QCOMPARE(modules.rowCount(), static_cast<int>(tree.module(0).children.size()));
    for (int m = 1; m < tree.size(); ++m) {
        QModelIndex idx = modules.indexOfModule(m);
        QVERIFY(idx.isValid());
        QCOMPARE(idx.data(ModuleTreeModel::ModuleIndexRole).toInt(), m);
        QCOMPARE(idx.siblingAtColumn(2).data().toInt(), tree.module(m).totalNodes);
    }
    // read every weight row (statistics included)
    for (int r = 0; r < weights.rowCount(); ++r)
        for (int c = 0; c < weights.columnCount(); ++c) weights.index(r, c).data();
}

void TstItemModels::inspectorShowsConvolution() {
    testing::zooDir();
    Document doc;
    NodeInspectorModel inspector(&doc);
    QVERIFY(testing::openAndWait(doc, fixture("zoo/conv_attention/model.pt2")).isEmpty());
    const int conv = firstNodeWithOp(*doc.graph(), "convolution");
    QVERIFY(conv >= 0);
    doc.selectNode(conv);
    const QString name = QString::fromStdString(doc.graph()->nodes[static_cast<size_t>(conv)].name);
    // the stem convolution: 1x3x16x16 -> 16 channels at 16x16
    QModelIndex outs = childByKey(inspector, {}, "Outputs");
    QVERIFY(outs.isValid());
    QModelIndex out = inspector.index(0, 0, outs);
    QCOMPARE(out.siblingAtColumn(1).data().toString(), QString("f32[1, 16, 16, 16]"));
    QCOMPARE(childByKey(inspector, out, "strides").siblingAtColumn(1).data().toString(), QString("[4096, 256, 16, 1]"));
    QCOMPARE(childByKey(inspector, out, "device").siblingAtColumn(1).data().toString(), QString("cpu"));
    QModelIndex node = childByKey(inspector, {}, "Node");
    QCOMPARE(childByKey(inspector, node, "name").siblingAtColumn(1).data().toString(), name);
    QCOMPARE(childByKey(inspector, node, "overload").siblingAtColumn(1).data().toString(), QString("default"));
    QVERIFY(childByKey(inspector, node, "op level").siblingAtColumn(1).data().toString().startsWith("core ATen"));
    QCOMPARE(childByKey(inspector, node, "opcode").siblingAtColumn(1).data().toString(), QString("call_function"));
    QVERIFY(childByKey(inspector, node, "schema").siblingAtColumn(1).data().toString().startsWith("aten::convolution(Tensor input"));
    // the stack trace as frames: the last one is the model's conv call
    QModelIndex st = childByKey(inspector, {}, "Stack trace");
    QVERIFY(st.isValid());
    const int frames = inspector.rowCount(st);
    QCOMPARE(frames, static_cast<int>(doc.graph()->nodes[static_cast<size_t>(conv)].meta.frames.size()));
    QVERIFY(frames > 0);
    const auto& lastFrame = doc.graph()->nodes[static_cast<size_t>(conv)].meta.frames.back();
    QCOMPARE(inspector.index(frames - 1, 0, st).data().toString(),
             QString("%1:%2").arg(QString::fromStdString(lastFrame.file)).arg(lastFrame.line));
    QVERIFY(QString::fromStdString(lastFrame.code).contains("conv"));
    // module stack breadcrumb ends in the stem's conv
    QCOMPARE(childByKey(inspector, {}, "Module stack").siblingAtColumn(1).data().toString(), QString::fromUtf8("stem › conv"));
    // the argument "input" links to the graph input (no producer node), "weight" to the parameter
    QModelIndex args = childByKey(inspector, {}, "args");
    QCOMPARE(childByKey(inspector, args, "weight").data(InfoTreeModel::LinkRole).toString(), QString("node:p_stem_conv_weight"));
}

void TstItemModels::inspectorLinksAndSource() {
    // a node reading another node links to it; a frame whose file exists shows the lines around it
    core::Graph g;
    QTemporaryFile src;
    QVERIFY(src.open());
    for (int k = 1; k <= 20; ++k) src.write(QString("line %1\n").arg(k).toUtf8());
    src.flush();
    core::Node a;
    a.name = "a";
    a.target = core::Target::parse("torch.ops.aten.relu.default");
    a.outputs.push_back(core::Argument::tensor("a"));
    core::Node b = a;
    b.name = "b";
    b.outputs = {core::Argument::tensor("b")};
    b.inputs.push_back({"self", core::Argument::tensor("a"), core::ArgumentKind::Positional});
    b.meta.raw["stack_trace"] = "  File \"" + src.fileName().toStdString() + "\", line 10, in forward\n    x = f(x)\n";
    b.meta.parseFromRaw();
    g.nodes = {a, b};
    auto root = buildNodeInfo(g, 1);
    InfoTreeModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.setRoot(std::move(root));
    QCOMPARE(model.findRow("args", "self").data(InfoTreeModel::LinkRole).toString(), QString("node:a"));
    QModelIndex source = model.findRow("Stack trace", "source");
    QVERIFY(source.isValid());
    QCOMPARE(model.rowCount(source), 7); // lines 7..13
    QVERIFY(model.index(3, 1, source).data().toString().contains("line 10"));
    QVERIFY(model.index(3, 1, source).data().toString().startsWith("→"));
    QCOMPARE(sourceAround("/nonexistent/file.py", 3), QString());
}

void TstItemModels::signatureAndRanges() {
    testing::zooDir();
    Document doc;
    SignatureModel signature(&doc);
    RangeConstraintsModel ranges(&doc);
    QVERIFY(testing::openAndWait(doc, fixture("zoo/dynamic_mlp/model.pt2")).isEmpty());
    QCOMPARE(ranges.rowCount(), 1);
    QCOMPARE(ranges.index(0, 0).data().toString(), QString("s0"));
    QCOMPARE(ranges.index(0, 1).data().toString(), QString("1"));
    QCOMPARE(ranges.index(0, 2).data().toString(), QString("16"));

    QVERIFY(testing::openAndWait(doc, fixture("zoo/buffer_mutation/model.pt2")).isEmpty());
    const auto& sig = doc.program()->signature;
    QCOMPARE(signature.rowCount(), static_cast<int>(sig.inputSpecs.size() + sig.outputSpecs.size()));
    int mutations = 0;
    for (int r = 0; r < signature.rowCount(); ++r) {
        if (signature.index(r, 1).data().toString() != "BUFFER_MUTATION") continue;
        ++mutations;
        // linked to the node computing the new value
        const QString link = signature.index(r, 0).data(SignatureModel::LinkRole).toString();
        QVERIFY(link.startsWith("node:"));
        QVERIFY(doc.nodeIndexOf(link.mid(5)) >= 0);
    }
    QCOMPARE(mutations, 2);
}

void TstItemModels::weightsStatistics() {
    testing::zooDir();
    Document doc;
    WeightsModel weights(&doc);
    QVERIFY(testing::openAndWait(doc, fixture("zoo/mlp/model.pt2")).isEmpty());
    const auto& p = *doc.program();
    QCOMPARE(weights.rowCount(), static_cast<int>(p.weights.size()));
    for (int r = 0; r < weights.rowCount(); ++r) {
        const auto& t = p.weights.at(weights.nameAt(r).toStdString());
        // recompute from the raw bytes (contiguous float32 weights)
        QCOMPARE(t.dtype, core::ScalarType::Float32);
        const float* v = reinterpret_cast<const float*>(t.dataPtr());
        double mn = v[0], mx = v[0], sum = 0;
        for (int64_t k = 0; k < t.numel(); ++k) { mn = std::min<double>(mn, v[k]); mx = std::max<double>(mx, v[k]); sum += v[k]; }
        const TensorStats* s = weights.stats(r);
        QVERIFY(s);
        QCOMPARE(s->min, mn);
        QCOMPARE(s->max, mx);
        QVERIFY(std::abs(s->mean - sum / static_cast<double>(t.numel())) < 1e-9);
        QCOMPARE(s->first.front(), static_cast<double>(v[0]));
        int64_t total = 0;
        for (auto h : s->histogram) total += h;
        QCOMPARE(total, t.numel());
        QCOMPARE(weights.index(r, WeightsModel::Bytes).data(WeightsModel::SortRole).toLongLong(), t.numel() * 4);
    }
}

void TstItemModels::tensorStatsStrided() {
    // a transposed 2x3 view of [0..5]: C order reads 0,3,1,4,2,5
    std::vector<std::byte> bytes(6 * sizeof(float));
    for (int k = 0; k < 6; ++k) { float f = static_cast<float>(k); std::memcpy(bytes.data() + k * 4, &f, 4); }
    core::TensorData t;
    t.sizes = {3, 2};
    t.strides = {1, 3};
    t.storage = core::Storage::fromBytes(bytes);
    auto s = computeTensorStats(t, 6, 4);
    QVERIFY(s);
    QCOMPARE(s->first, (std::vector<double>{0, 3, 1, 4}));
    QCOMPARE(s->min, 0.0);
    QCOMPARE(s->max, 5.0);
    QCOMPARE(s->mean, 2.5);
    QVERIFY(std::abs(s->std - std::sqrt(17.5 / 6)) < 1e-12);
    t.storage = nullptr;
    QVERIFY(!computeTensorStats(t));
}

// Rows named as the spec names them, each explained on hover; the op's level apart from the
// program's dialect (a non-core op in an ATEN program is "non-core ATen", not "training").
void TstItemModels::inspectorInTheSpecsWords() {
    IRLENS_REQUIRE_SHARED();
    Document doc;
    NodeInspectorModel inspector(&doc);
    QVERIFY(testing::openAndWait(doc, fixture("generated/tiny_gpt/model.pt2")).isEmpty());
    const core::Graph& g = *doc.graph();
    const int view = firstNodeWithOp(g, "_unsafe_view");
    QVERIFY(view >= 0);
    doc.selectNode(view);
    QModelIndex node = childByKey(inspector, {}, "Node");
    QCOMPARE(childByKey(inspector, node, "op level").siblingAtColumn(1).data().toString(), QString("non-core ATen (N)"));
    QCOMPARE(childByKey(inspector, node, "program dialect").siblingAtColumn(1).data().toString(), QString("ATEN"));
    for (const char* key : {"opcode", "target", "op level", "program dialect"})
        QVERIFY2(!childByKey(inspector, node, key).data(Qt::ToolTipRole).toString().isEmpty(), key);
    for (const char* key : {"args", "kwargs", "Outputs", "users", "Stack trace", "Module stack"})
        QVERIFY2(!childByKey(inspector, {}, key).data(Qt::ToolTipRole).toString().isEmpty(), key);
    // users: exactly the nodes reading its output
    const std::vector<int> users = usersOf(g, view);
    QModelIndex u = childByKey(inspector, {}, "users");
    QCOMPARE(inspector.rowCount(u), static_cast<int>(users.size()));
    for (size_t k = 0; k < users.size(); ++k)
        QCOMPARE(inspector.index(static_cast<int>(k), 0, u).data().toString(), QString::fromStdString(g.nodes[users[k]].name));
    // a schema's keyword-only argument goes under kwargs (layer norm's none; softmax's half_to_float is positional)
    const int softmax = firstNodeWithOp(g, "_softmax");
    doc.selectNode(softmax);
    QCOMPARE(inspector.rowCount(childByKey(inspector, {}, "args")), 3);
}

// A placeholder of lifted state: its InputKind, state_dict target, meta['val'] and users.
void TstItemModels::placeholderSelected() {
    testing::zooDir();
    Document doc;
    NodeInspectorModel inspector(&doc);
    QVERIFY(testing::openAndWait(doc, fixture("zoo/conv_attention/model.pt2")).isEmpty());
    doc.selectItem("in:p_stem_conv_weight");
    QCOMPARE(doc.selectedNode(), -1);
    QModelIndex node = childByKey(inspector, {}, "Node");
    QCOMPARE(childByKey(inspector, node, "opcode").siblingAtColumn(1).data().toString(), QString("placeholder"));
    QCOMPARE(childByKey(inspector, node, "input kind").siblingAtColumn(1).data().toString(), QString("PARAMETER"));
    QCOMPARE(childByKey(inspector, node, "state_dict target").siblingAtColumn(1).data().toString(), QString("stem.conv.weight"));
    QVERIFY(childByKey(inspector, node, "stored").siblingAtColumn(1).data().toString().startsWith("float32[16, 3, 3, 3]"));
    QCOMPARE(childByKey(inspector, {}, "meta['val']").siblingAtColumn(1).data().toString(), QString("f32[16, 3, 3, 3]"));
    QModelIndex users = childByKey(inspector, {}, "users");
    QCOMPARE(inspector.rowCount(users), 1);
    QCOMPARE(inspector.index(0, 0, users).data().toString(), QString("convolution"));
    // a buffer says whether it is persistent; the user input is USER_INPUT
    doc.selectItem("in:b_stem_bn_running_mean");
    QCOMPARE(childByKey(inspector, childByKey(inspector, {}, "Node"), "persistent").siblingAtColumn(1).data().toString(), QString("True"));
    doc.selectItem("in:x");
    QCOMPARE(childByKey(inspector, childByKey(inspector, {}, "Node"), "input kind").siblingAtColumn(1).data().toString(), QString("USER_INPUT"));
    // selecting a node again leaves the placeholder
    doc.selectNode(0);
    QVERIFY(doc.selectedItem().isEmpty());
    QCOMPARE(childByKey(inspector, childByKey(inspector, {}, "Node"), "opcode").siblingAtColumn(1).data().toString(), QString("call_function"));
}

// The output node of buffer_mutation: each position with its OutputKind and target; a mutation's path
// from the buffer's placeholder outlined; the pytree specs as trees with the value names as leaves.
void TstItemModels::outputNodeWalksTheSignature() {
    IRLENS_REQUIRE_SHARED(); // the zoo's programs record no pytree specs
    Document doc;
    NodeInspectorModel inspector(&doc);
    QVERIFY(testing::openAndWait(doc, fixture("generated/buffer_mutation/model.pt2")).isEmpty());
    doc.selectItem("out");
    QModelIndex returns = childByKey(inspector, {}, "returns");
    QCOMPARE(inspector.rowCount(returns), 3);
    QCOMPARE(inspector.index(0, 1, returns).data().toString(), QString("BUFFER_MUTATION"));
    QCOMPARE(inspector.index(2, 1, returns).data().toString(), QString("USER_OUTPUT"));
    QModelIndex first = inspector.index(0, 0, returns);
    QCOMPARE(childByKey(inspector, first, "target").siblingAtColumn(1).data().toString(), QString("steps"));
    const QString link = childByKey(inspector, first, "path").data(InfoTreeModel::LinkRole).toString();
    QVERIFY2(link.startsWith("path:b_steps>"), qPrintable(link));
    QVERIFY(followLink(&doc, link));
    const std::vector<int> path = doc.searchHits();
    QVERIFY(!path.empty());
    // the last node on the path produces the value written back, and every node depends on the buffer
    const std::string written = link.section('>', 1).toStdString();
    const auto outs = doc.graph()->nodes[static_cast<size_t>(path.back())].outputNames();
    QVERIFY(std::find(outs.begin(), outs.end(), written) != outs.end());
    // connected from the placeholder: each node reads the buffer or a value of an earlier node on the path
    std::set<std::string> onPath{"b_steps"};
    for (int n : path) {
        const core::Node& pn = doc.graph()->nodes[static_cast<size_t>(n)];
        std::vector<std::string> read;
        for (const auto& in : pn.inputs) in.arg.collectValueNames(read);
        QVERIFY2(std::any_of(read.begin(), read.end(), [&](const std::string& r) { return onPath.count(r) > 0; }), pn.name.c_str());
        for (const auto& o : pn.outputNames()) onPath.insert(o);
    }
    QVERIFY(nodesBetween(*doc.graph(), written, "b_steps").empty()); // no path backwards
    // in_spec: ((x,), {}) with x as the leaf
    QModelIndex in = childByKey(inspector, {}, "in_spec");
    QVERIFY(in.isValid());
    QModelIndex tuple = inspector.index(0, 0, in);
    QCOMPARE(tuple.data().toString(), QString("tuple"));
    QCOMPARE(inspector.index(0, 0, inspector.index(0, 0, tuple)).data().toString(), QString("x"));
    QVERIFY(childByKey(inspector, {}, "out_spec").isValid());
}

QTEST_MAIN(TstItemModels)
#include "tst_item_models.moc"
