// The verifier: one broken program per rule (exact rule, severity, node and message), clean on the
// bundled example and on a clean builder program, dialect awareness, and (with ../shared) every fixture.
#include "core/io/dot_export.h"
#include "core/io/fx_printer.h"
#include "core/io/pt2_reader.h"
#include "core/io/signature_printer.h"
#include "core/io/pt2_writer.h"
#include "core/ir/builder.h"
#include "core/ir/example_program.h"
#include "core/verify/verifier.h"
#include "support/shared_fixtures.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

#include <functional>
#include <map>
#include <set>

using namespace irlens::core;

namespace {

TensorMeta f32(const std::vector<int64_t>& sizes) { return makeTensorMeta(ScalarType::Float32, sizes); }

void withMeta(NodeBuilder n) {
    n.stackTrace("  File \"m.py\", line 3, in forward\n    return x\n").module("L__self__", "", "m.M").sourceFn("f", "torch.f");
}

// A clean program the broken variants start from: w (parameter), x -> relu -> add(relu, w).
ProgramBuilder base(const char* dialect = "ATEN") {
    ProgramBuilder b("base");
    b.verifiers({dialect});
    b.parameter("p_w", "w", makeFilledTensor({2, 2}, 1.0f));
    b.userInput("x", f32({2, 2}));
    withMeta(b.call("torch.ops.aten.relu.default", "relu").arg("self", "x").out(f32({2, 2})));
    withMeta(b.call("torch.ops.aten.add.Tensor", "add").arg("self", "relu").arg("other", "p_w").out(f32({2, 2})));
    b.userOutput("add");
    return b;
}

Program withNode(const std::string& target, const std::function<void(NodeBuilder&)>& fill, const char* dialect = "ATEN") {
    ProgramBuilder b = base(dialect);
    NodeBuilder n = b.call(target, "bad");
    fill(n);
    withMeta(n);
    return b.buildUnchecked();
}

struct Case {
    std::function<Program()> make;
    VerifyOptions options;
};

std::map<std::string, Case>& cases() {
    static std::map<std::string, Case> all;
    if (!all.empty()) return all;
    auto add = [&](const std::string& name, std::function<Program()> make, VerifyOptions o = {}) { all[name] = {std::move(make), o}; };
    add("S001 python callable", [] { return withNode("os.system", [](NodeBuilder& n) { n.arg("x", "x").out(f32({2, 2})); }); });
    add("S002 overload packet", [] { return withNode("torch.ops.aten.relu", [](NodeBuilder& n) { n.arg("self", "x").out(f32({2, 2})); }); });
    add("S003 placeholder redefined", [] {
        Program p = base().buildUnchecked();
        p.graph.nodes[0].outputs[0] = Argument::tensor("x");
        p.graph.nodes[1].inputs[0].arg = Argument::tensor("x");
        return p;
    });
    add("S004 output undefined", [] {
        Program p = base().buildUnchecked();
        p.graph.outputs[0] = Argument::tensor("nope");
        p.signature.outputSpecs[0].arg = Argument::tensor("nope");
        return p;
    });
    add("S005 use before def", [] {
        Program p = base().buildUnchecked();
        std::swap(p.graph.nodes[0], p.graph.nodes[1]);
        return p;
    });
    add("S006 dangling", [] { return withNode("torch.ops.aten.relu.default", [](NodeBuilder& n) { n.arg("self", "ghost").out(f32({2, 2})); }); });
    add("S007 defined twice", [] { return withNode("torch.ops.aten.neg.default", [](NodeBuilder& n) { n.arg("self", "x").outNamed("relu", f32({2, 2})); }); });
    add("S008 own output", [] { return withNode("torch.ops.aten.relu.default", [](NodeBuilder& n) { n.arg("self", "bad").out(f32({2, 2})); }); });
    add("S009 cycle", [] {
        ProgramBuilder b = base();
        withMeta(b.call("torch.ops.aten.neg.default", "a").arg("self", "b").out(f32({2, 2})));
        withMeta(b.call("torch.ops.aten.neg.default", "b").arg("self", "a").out(f32({2, 2})));
        return b.buildUnchecked();
    });
    add("S010 subgraph on an op", [] {
        GraphBuilder g;
        g.input("y", f32({2, 2}));
        g.outputTensor("y");
        auto sub = g.build().value();
        return withNode("torch.ops.aten.relu.default", [sub](NodeBuilder& n) {
            n.arg("self", "x").arg("graph", graphArgument("sub_graph_0", sub)).out(f32({2, 2}));
        });
    });
    add("S012 cond branch arity", [] {
        GraphBuilder t;
        t.input("a", f32({2, 2}));
        t.outputTensor("a");
        GraphBuilder f;
        f.input("a", f32({2, 2}));
        f.input("b", f32({2, 2}));
        f.outputTensor("a");
        auto tg = t.build().value();
        auto fg = f.build().value();
        return withNode("torch.ops.higher_order.cond", [tg, fg](NodeBuilder& n) {
            n.arg("", Argument::boolean(true)).arg("", graphArgument("true_graph_0", tg))
                .arg("", graphArgument("false_graph_0", fg)).arg("", Argument::tensors({"x"})).outNamed("getitem", f32({2, 2}));
        });
    });
    add("S006 inside a subgraph", [] {
        GraphBuilder t;
        t.input("a", f32({2, 2}));
        t.call("torch.ops.aten.neg.default", "neg").arg("self", "ghost").out(f32({2, 2}));
        t.outputTensor("neg");
        Graph tg = t.buildUnchecked();
        auto g = std::make_shared<const Graph>(tg);
        return withNode("torch.ops.higher_order.cond", [g](NodeBuilder& n) {
            n.arg("", Argument::boolean(true)).arg("", graphArgument("true_graph_0", g))
                .arg("", graphArgument("false_graph_0", g)).arg("", Argument::tensors({"x"})).outNamed("getitem", f32({2, 2}));
        });
    });
    add("S011 unknown aten op", [] { return withNode("torch.ops.aten.frobnicate.default", [](NodeBuilder& n) { n.arg("self", "x").out(f32({2, 2})); }); });
    add("D001 in-place in ATen", [] { return withNode("torch.ops.aten.relu_.default", [](NodeBuilder& n) { n.arg("self", "x").out(f32({2, 2})); }); });
    add("D001 in-place in training", [] {
        return withNode("torch.ops.aten.relu_.default", [](NodeBuilder& n) { n.arg("self", "x").out(f32({2, 2})); }, "TRAINING");
    });
    add("D002 out overload", [] {
        return withNode("torch.ops.aten.add.out", [](NodeBuilder& n) {
            n.arg("self", "x").arg("other", "x").kwarg("out", Argument::tensor("relu")).out(f32({2, 2}));
        });
    });
    add("D003 training op in ATen", [] {
        return withNode("torch.ops.aten.linear.default", [](NodeBuilder& n) { n.arg("input", "x").arg("weight", "p_w").out(f32({2, 2})); });
    });
    VerifyOptions core;
    core.coreAtenOnly = true;
    add("D003 forced core", [] {
        return withNode("torch.ops.aten.linear.default", [](NodeBuilder& n) { n.arg("input", "x").arg("weight", "p_w").out(f32({2, 2})); }, "TRAINING");
    }, core);
    add("M001 M003 M004 no meta", [] {
        ProgramBuilder b = base();
        b.call("torch.ops.aten.neg.default", "bad").arg("self", "x").out(f32({2, 2}));
        return b.buildUnchecked();
    });
    add("M002 no val", [] {
        Program p = withNode("torch.ops.aten.neg.default", [](NodeBuilder& n) { n.arg("self", "x").out(f32({2, 2})); });
        p.graph.tensorValues.erase("bad");
        return p;
    });
    add("M005 tuple recorded as one", [] {
        return withNode("torch.ops.aten.native_layer_norm.default", [](NodeBuilder& n) {
            n.arg("input", "x").arg("normalized_shape", Argument::ints({2})).arg("weight", Argument::none())
                .arg("bias", Argument::none()).arg("eps", Argument::floating(1e-5)).out(f32({2, 2}));
        });
    });
    VerifyOptions meta;
    meta.checkInferredMeta = true;
    add("M006 val disagrees with meta", [] {
        return withNode("torch.ops.aten.relu.default", [](NodeBuilder& n) { n.arg("self", "x").out(f32({3, 2})); });
    }, meta);
    add("G001 spec names another input", [] {
        Program p = base().buildUnchecked();
        p.signature.inputSpecs[1].arg = Argument::tensor("y");
        return p;
    });
    add("G002 missing output spec", [] {
        Program p = base().buildUnchecked();
        p.signature.outputSpecs.clear();
        return p;
    });
    add("G003 parameter after user input", [] {
        ProgramBuilder b("g3");
        b.verifiers({"ATEN"});
        b.userInput("x", f32({2, 2}));
        b.parameter("p_w", "w", makeFilledTensor({2, 2}, 1.0f));
        withMeta(b.call("torch.ops.aten.add.Tensor", "add").arg("self", "x").arg("other", "p_w").out(f32({2, 2})));
        b.userOutput("add");
        return b.buildUnchecked();
    });
    add("G004 mutation after user output", [] {
        ProgramBuilder b("g4");
        b.verifiers({"ATEN"});
        b.buffer("b_n", "n", makeFilledTensor({2, 2}, 0.0f));
        b.userInput("x", f32({2, 2}));
        withMeta(b.call("torch.ops.aten.add.Tensor", "add").arg("self", "x").arg("other", "b_n").out(f32({2, 2})));
        b.userOutput("add");
        b.bufferMutation("add", "n");
        return b.buildUnchecked();
    });
    add("G005 missing weight", [] {
        Program p = base().buildUnchecked();
        p.weights["other"] = p.weights["w"];
        p.weights.erase("w");
        return p;
    });
    add("G006 mutation of a non-buffer", [] {
        ProgramBuilder b = base();
        b.bufferMutation("relu", "w");
        Program p = b.buildUnchecked();
        std::swap(p.signature.outputSpecs[0], p.signature.outputSpecs[1]);
        std::swap(p.graph.outputs[0], p.graph.outputs[1]);
        return p;
    });
    add("G007 sample input shape", [] {
        ProgramBuilder b = base();
        b.sampleInput(makeFilledTensor({3, 2}, 1.0f));
        return b.buildUnchecked();
    });
    add("Y001 unconstrained symbol", [] {
        ProgramBuilder b("y1");
        b.verifiers({"ATEN"});
        std::vector<SymInt> sizes{SymInt::expression("Symbol('s0', integer=True, positive=True)", 3), SymInt::literal(2)};
        b.userInput("x", makeTensorMeta(ScalarType::Float32, sizes));
        withMeta(b.call("torch.ops.aten.relu.default", "relu").arg("self", "x").out(makeTensorMeta(ScalarType::Float32, sizes)));
        b.userOutput("relu");
        return b.buildUnchecked();
    });
    add("S013 target not an op name", [] {
        return withNode("torch.ops.aten.../../etc/passwd", [](NodeBuilder& n) { n.arg("self", "x").out(f32({2, 2})); });
    });
    add("S014 argument passed twice", [] {
        return withNode("torch.ops.aten.add.Tensor", [](NodeBuilder& n) {
            n.arg("self", "x").arg("other", "x").kwarg("alpha", Argument::integer(1)).kwarg("alpha", Argument::integer(2)).out(f32({2, 2}));
        });
    });
    // A tensor meta no tensor can have, on the node 'bad': `edit` breaks its tensor_values entry.
    auto badMeta = [](std::function<void(TensorMeta&)> edit) {
        return [edit] {
            Program p = withNode("torch.ops.aten.neg.default", [](NodeBuilder& n) { n.arg("self", "x").out(f32({2, 2})); });
            edit(p.graph.tensorValues.at("bad"));
            return p;
        };
    };
    add("T001 dtype code 255", badMeta([](TensorMeta& m) { m.dtype = ScalarType(255); }));
    add("T002 element count overflows", badMeta([](TensorMeta& m) {
        m.sizes.assign(8, SymInt::literal(1'000'000'000));
        m.strides.assign(8, SymInt::literal(1));
    }));
    add("T003 negative stride", badMeta([](TensorMeta& m) { m.strides[0] = SymInt::literal(-1); }));
    add("Y002 min above max", [] {
        ProgramBuilder b = base();
        b.rangeConstraint("s0", 10, 2);
        return b.buildUnchecked();
    });
    return all;
}

QString describe(const std::vector<Diagnostic>& ds) {
    QString s;
    for (const auto& d : ds) s += QString::fromStdString(formatDiagnostic(d)) + "\n";
    return s;
}

} // namespace

class TstVerifier : public QObject {
    Q_OBJECT
private slots:
    void cleanPrograms() {
        auto base = ::base().build();
        QVERIFY2(base.isOk(), base.error().c_str());
        auto ds = verify(*base.value());
        QVERIFY2(ds.empty(), qPrintable(describe(ds)));
        auto example = verify(*makeExampleProgram());
        QVERIFY2(example.empty(), qPrintable(describe(example)));
        // The example is Core ATen all the way: clean even when Core ATen is required.
        VerifyOptions core;
        core.coreAtenOnly = true;
        auto strict = verify(*makeExampleProgram(), core);
        QVERIFY2(strict.empty(), qPrintable(describe(strict)));
    }

    void builderRefusesDanglingNames() {
        ProgramBuilder b = base();
        b.call("torch.ops.aten.neg.default", "bad").arg("self", "ghost").out(f32({2, 2}));
        auto r = b.build();
        QVERIFY(!r.isOk());
        QCOMPARE(QString::fromStdString(r.error()),
                 QString("program 'base': node 'bad' reads 'ghost', which no input or earlier node defines"));
    }

    void rules_data() {
        QTest::addColumn<QString>("caseName");
        QTest::addColumn<QString>("rule");
        QTest::addColumn<QString>("severity");
        QTest::addColumn<QString>("node");
        QTest::addColumn<QString>("message");
        auto row = [](const char* c, const char* rule, const char* sev, const char* node, const char* msg) {
            QTest::addRow("%s", c) << c << rule << sev << node << msg;
        };
        row("S001 python callable", "EIR-S001", "error", "bad",
            "node 'bad' calls 'os.system', which is not an ATen/custom op overload (torch.ops.<ns>.<op>.<overload>), a higher-order op or a symbolic op");
        row("S002 overload packet", "EIR-S002", "error", "bad",
            "node 'bad' calls 'torch.ops.aten.relu', an overload packet; Export IR names one overload");
        row("S003 placeholder redefined", "EIR-S003", "error", "relu",
            "node 'relu' defines 'x', a name already taken by a placeholder (a placeholder after a non-placeholder node)");
        row("S004 output undefined", "EIR-S004", "error", "output", "the graph returns 'nope', which no placeholder or node defines");
        row("S005 use before def", "EIR-S005", "error", "add", "node 'add' reads 'relu' before node 'relu' defines it");
        row("S006 dangling", "EIR-S006", "error", "bad", "node 'bad' reads 'ghost', which no placeholder or node defines");
        row("S007 defined twice", "EIR-S007", "error", "bad", "node 'bad' defines 'relu', which node 'relu' already defines");
        row("S008 own output", "EIR-S008", "error", "bad", "node 'bad' uses its own output 'bad'");
        row("S009 cycle", "EIR-S009", "error", "a", "nodes form a cycle: a -> b -> a (each reads the next one's output)");
        row("S010 subgraph on an op", "EIR-S010", "error", "bad",
            "node 'bad' (aten.relu.default) takes the submodule 'sub_graph_0'; only higher-order ops take subgraphs");
        row("S012 cond branch arity", "EIR-S012", "error", "bad",
            "cond node 'bad' passes 1 operand(s) but its branch 'false_graph_0' takes 2");
        row("S011 unknown aten op", "EIR-S011", "info", "bad",
            "node 'bad' calls 'aten.frobnicate.default', which irlens has no schema for; its arguments and val are not checked against a schema");
        row("D001 in-place in ATen", "EIR-D001", "error", "bad",
            "node 'bad' calls the in-place op 'aten.relu_.default' in a functional (ATen) program");
        row("D001 in-place in training", "EIR-D001", "info", "bad",
            "node 'bad' calls the in-place op 'aten.relu_.default'; allowed at the training IR, removed by run_decompositions()");
        row("D002 out overload", "EIR-D002", "error", "bad",
            "node 'bad' calls the out= overload 'aten.add.out'; Export IR is functional");
        row("D003 training op in ATen", "EIR-D003", "warning", "bad",
            "node 'bad' calls 'aten.linear.default', which is not in the Core ATen opset");
        row("D003 forced core", "EIR-D003", "error", "bad",
            "node 'bad' calls 'aten.linear.default', which is not in the Core ATen opset");
        row("M001 M003 M004 no meta", "EIR-M001", "warning", "bad", "node 'bad' has no stack_trace in its metadata");
        row("M002 no val", "EIR-M002", "error", "bad",
            "node 'bad' defines tensor 'bad' but the graph has no tensor_values entry (val) for it");
        row("M005 tuple recorded as one", "EIR-M005", "error", "bad",
            "node 'bad' (aten.native_layer_norm.default) returns (Tensor, Tensor, Tensor) but records (Tensor)");
        row("M006 val disagrees with meta", "EIR-M006", "warning", "bad",
            "node 'bad' records sizes [3, 2] for 'bad' but its meta function gives [2, 2]");
        row("G001 spec names another input", "EIR-G001", "error", "x",
            "input spec 1 (USER_INPUT) names 'y' but placeholder 1 is 'x'");
        row("G002 missing output spec", "EIR-G002", "error", "output",
            "the signature has 0 output specs but the graph returns 1 values");
        row("G003 parameter after user input", "EIR-G003", "error", "p_w",
            "PARAMETER input 'p_w' comes after the user input 'x'");
        row("G004 mutation after user output", "EIR-G004", "error", "add",
            "BUFFER_MUTATION output 'add' comes after the user output 'add'");
        row("G005 missing weight", "EIR-G005", "error", "p_w",
            "PARAMETER input 'p_w' targets 'w', which is not in the state dict");
        row("G006 mutation of a non-buffer", "EIR-G006", "error", "relu",
            "BUFFER_MUTATION output 'relu' targets 'w', which no buffer input names");
        row("G007 sample input shape", "EIR-G007", "warning", "x",
            "sample input 0 for 'x' is f32[3, 2] but the placeholder is f32[2, 2]");
        row("Y001 unconstrained symbol", "EIR-Y001", "error", "relu",
            "symbol 's0' (in the shape of 'relu') has no range constraint");
        row("S013 target not an op name", "EIR-S013", "error", "bad",
            "node 'bad' names its target 'torch.ops.aten.../../etc/passwd', which is not an operator name (dot-separated "
            "identifiers such as torch.ops.aten.add.Tensor)");
        row("S014 argument passed twice", "EIR-S014", "error", "bad",
            "node 'bad' passes argument 'alpha' 2 times; a call binds each argument once (the others would be dropped silently)");
        row("T001 dtype code 255", "EIR-T001", "error", "bad", "tensor_values['bad']: dtype code 255 is not a torch dtype");
        row("T002 element count overflows", "EIR-T002", "error", "bad",
            "tensor_values['bad']: sizes [1000000000, 1000000000, 1000000000, 1000000000, 1000000000, 1000000000, "
            "1000000000, 1000000000] hold more elements than int64 can count");
        row("T003 negative stride", "EIR-T003", "error", "bad",
            "tensor_values['bad']: stride -1 in dimension 0 of [-1, 1] is negative (torch.export records no negative strides)");
        row("Y002 min above max", "EIR-Y002", "error", "s0",
            "range constraint of 's0' is [10, 2]: its minimum is above its maximum, so no value satisfies it");
    }
    void rules() {
        QFETCH(QString, caseName);
        QFETCH(QString, rule);
        const Case& c = cases().at(caseName.toStdString());
        auto ds = verify(c.make(), c.options);
        const Diagnostic* found = nullptr;
        for (const auto& d : ds)
            if (QString::fromStdString(d.ruleId) == rule) found = found ? found : &d;
        QVERIFY2(found, qPrintable("no " + rule + " finding; got:\n" + describe(ds)));
        QTEST(QString(severityName(found->severity)), "severity");
        QTEST(QString::fromStdString(found->node), "node");
        QTEST(QString::fromStdString(found->message), "message");
        QVERIFY(!found->fix.empty());
        QVERIFY2(findRule(found->ruleId), "every reported rule is in the table");
    }

    void subgraphFindingsNameTheirGraph() {
        auto ds = verify(cases().at("S006 inside a subgraph").make());
        QCOMPARE(int(ds.size()), 2); // the same broken branch is used twice
        QCOMPARE(QString::fromStdString(ds[0].graph), QString("bad.true_graph_0"));
        QCOMPARE(QString::fromStdString(ds[1].graph), QString("bad.false_graph_0"));
        QCOMPARE(QString::fromStdString(formatDiagnostic(ds[0])),
                 QString("error EIR-S006 [bad.true_graph_0:neg]: node 'neg' reads 'ghost', which no placeholder or node defines "
                         "(fix: define 'ghost' as a graph input or an earlier node's output, or fix the name)"));
    }

    void metaRulesTogether() {
        auto ds = verify(cases().at("M001 M003 M004 no meta").make());
        QStringList ids;
        for (const auto& d : ds) ids << QString::fromStdString(d.ruleId);
        QCOMPARE(ids, (QStringList{"EIR-M001", "EIR-M003", "EIR-M004"}));
    }

    void ruleTable() {
        const auto& rules = verifierRules();
        QVERIFY(rules.size() >= 25);
        std::set<std::string> ids;
        for (const auto& r : rules) {
            QVERIFY2(ids.insert(r.id).second, r.id);
            QVERIFY(std::string(r.title).size() > 10);
            QVERIFY(std::string(r.specRef).size() > 5);
        }
        // every rule has a broken program in this test
        std::set<std::string> covered;
        for (auto& [name, c] : cases())
            for (const auto& d : verify(c.make(), c.options)) covered.insert(d.ruleId);
        for (const auto& r : rules) QVERIFY2(covered.count(r.id), r.id);
    }

    void cliExitCodes_data() {
        QTest::addColumn<QString>("caseName");
        QTest::addColumn<int>("exitCode");
        QTest::addColumn<int>("errors");
        QTest::addRow("clean") << "" << 0 << 0;
        QTest::addRow("in-place op in ATen") << "D001 in-place in ATen" << 1 << 1;
        QTest::addRow("warnings only") << "D003 training op in ATen" << 0 << 0;
    }
    void cliExitCodes() {
        QFETCH(QString, caseName);
        const QString cli = QString(IRLENS_BINARY_DIR) + "/app/irlens-cli";
        if (!QFile::exists(cli)) QSKIP("irlens-cli not built");
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const std::string path = dir.filePath("p.pt2").toStdString();
        Program p = caseName.isEmpty() ? base().buildUnchecked() : cases().at(caseName.toStdString()).make();
        Status saved = savePt2(p, path);
        QVERIFY2(saved.isOk(), saved.message().c_str());
        QProcess proc;
        proc.start(cli, {"verify", QString::fromStdString(path), "--json"});
        QVERIFY(proc.waitForFinished(30000));
        QTEST(proc.exitCode(), "exitCode");
        auto json = QJsonDocument::fromJson(proc.readAllStandardOutput()).object();
        QTEST(json.value("errors").toInt(), "errors");
    }

    // Random damage to the example (swapped, dropped and renamed nodes, lost metas and specs): the verifier
    // and the printers must stay calm, and a structural break must be reported as an error.
    void randomDamage() {
        const Program clean = *makeExampleProgram();
        uint64_t state = 12345;
        auto next = [&](uint64_t n) {
            state = state * 6364136223846793005ull + 1442695040888963407ull;
            return static_cast<size_t>((state >> 33) % n);
        };
        int structural = 0;
        for (int round = 0; round < 300; ++round) {
            Program p = clean;
            auto& nodes = p.graph.nodes;
            bool breaksStructure = false;
            switch (round % 6) {
            case 0: std::swap(nodes[next(nodes.size())], nodes[next(nodes.size())]); break;
            case 1: nodes.erase(nodes.begin() + static_cast<long>(next(nodes.size()))); breaksStructure = true; break;
            case 2: nodes[next(nodes.size())].outputs.clear(); breaksStructure = true; break;
            case 3: p.graph.tensorValues.erase(std::next(p.graph.tensorValues.begin(), static_cast<long>(next(p.graph.tensorValues.size())))); break;
            case 4: p.signature.inputSpecs.erase(p.signature.inputSpecs.begin() + static_cast<long>(next(p.signature.inputSpecs.size()))); breaksStructure = true; break;
            case 5: nodes[next(nodes.size())].inputs.clear(); break;
            }
            auto ds = verify(p);
            if (breaksStructure) {
                QVERIFY2(countDiagnostics(ds).errors > 0, qPrintable(QString("round %1 found no error").arg(round)));
                ++structural;
            }
            QVERIFY(!printFxGraph(p).empty());
            QVERIFY(!exportDot(p).empty());
            QVERIFY(!printSignature(p).empty());
        }
        QCOMPARE(structural, 150);
    }

    void diagnosticsAreBounded() {
        ProgramBuilder b = base();
        for (int k = 0; k < 100; ++k) b.call("torch.ops.aten.neg.default", "n" + std::to_string(k)).arg("self", "ghost").out(f32({2}));
        VerifyOptions o;
        o.maxDiagnostics = 10;
        QCOMPARE(int(verify(b.buildUnchecked(), o).size()), 10);
    }

    void fixtures_data() {
        QTest::addColumn<QString>("file");
        QTest::addColumn<bool>("mustBeErrorFree");
        for (const char* f : irlens::testing::kGeneratedFixtures) QTest::addRow("%s", f) << QString("generated/%1/model.pt2").arg(f) << true;
        for (const char* f : {"tiny_mlp", "mobilenet_v2", "transformer_layer", "tiny_gpt"})
            QTest::addRow("%s.training", f) << QString("generated/%1/model.training.pt2").arg(f) << true;
        QTest::addRow("tiny_mlp.legacy") << "generated/tiny_mlp/model.legacy.pt2" << true;
        QTest::addRow("real executorch") << "real/executorch-linear-pt2archive" << false;
        QTest::addRow("real hades") << "real/hades-pid-dann-legacy-schema2" << false;
        QTest::addRow("real tensorrt 7.3") << "real/tensorrt-add-legacy-schema7/trt-schema7.3.ep" << false;
        QTest::addRow("real tensorrt 7.4") << "real/tensorrt-add-legacy-schema7/trt-schema7.4.ep" << false;
    }
    void fixtures() {
        IRLENS_REQUIRE_SHARED();
        QFETCH(QString, file);
        QFETCH(bool, mustBeErrorFree);
        auto path = irlens::testing::fixture(file.toStdString());
        if (std::filesystem::is_directory(path)) { // real fixtures: a folder holding one .pt2
            for (const auto& e : std::filesystem::directory_iterator(path))
                if (e.path().extension() == ".pt2" || e.path().extension() == ".ep") { path = e.path(); break; }
        }
        QVERIFY2(std::filesystem::is_regular_file(path), path.c_str());
        auto loaded = loadPt2(path.string());
        QVERIFY2(loaded.isOk(), loaded.error().c_str());
        VerifyOptions options;
        options.checkInferredMeta = true; // reported below (EIR-M006 is a warning), not asserted
        QElapsedTimer timer;
        timer.start();
        auto ds = verify(*loaded.value(), options);
        const qint64 verifyUs = timer.nsecsElapsed() / 1000;
        auto counts = countDiagnostics(ds);
        std::map<std::string, int> byRule;
        for (const auto& d : ds) ++byRule[d.ruleId + " " + severityName(d.severity)];
        QString summary;
        for (const auto& [k, v] : byRule) summary += QString(" %1 x%2").arg(QString::fromStdString(k)).arg(v);
        qInfo("%s: %zu nodes verified in %lld us: %zu error(s), %zu warning(s), %zu info;%s", qPrintable(file),
              loaded.value()->graph.nodes.size(), verifyUs, counts.errors, counts.warnings, counts.infos, qPrintable(summary));
        if (mustBeErrorFree) QVERIFY2(counts.errors == 0, qPrintable(describe(ds)));
    }
};

QTEST_GUILESS_MAIN(TstVerifier)
#include "tst_verifier.moc"
