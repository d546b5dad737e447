// The verifier: one broken program per rule (exact rule, severity, node and message), clean on the
// bundled example and on a clean builder program, dialect awareness, every zoo program and (with ../shared)
// the fixtures the zoo has no twin of.
#include "core/io/dot_export.h"
#include "core/io/fx_printer.h"
#include "core/io/pt2_reader.h"
#include "core/io/signature_printer.h"
#include "core/io/pt2_writer.h"
#include "core/ir/example_program.h"
#include "core/ir/fx_names.h"
#include "core/verify/verifier.h"
#include "support/shared_fixtures.h"
#include "support/zoo_files.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

#include <cctype>
#include <functional>
#include <map>
#include <set>

using namespace irlens::core;

#include "broken_programs.h"

using namespace irlens::testing;

namespace {

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
            "node 'x_1' (recorded as 'relu') defines 'x', a name already taken by a placeholder (a placeholder after a "
            "non-placeholder node)"); // FX renames the node holding a second 'x'; the message says both names
        row("S004 output undefined", "EIR-S004", "error", "output", "the graph returns 'nope', which no placeholder or node defines");
        row("S005 use before def", "EIR-S005", "error", "add", "node 'add' reads 'relu' before node 'relu' defines it");
        row("S006 dangling", "EIR-S006", "error", "bad", "node 'bad' reads 'ghost', which no placeholder or node defines");
        row("S007 defined twice", "EIR-S007", "error", "bad",
            "node 'relu_1' (recorded as 'bad') defines 'relu', which node 'relu' already defines");
        row("S008 own output", "EIR-S008", "error", "bad", "node 'bad' uses its own output 'bad'");
        row("S009 S005 cycle", "EIR-S009", "error", "a", "nodes form a cycle: a -> b -> a (each reads the next one's output)");
        row("S010 subgraph on an op", "EIR-S010", "error", "bad",
            "node 'bad' (aten.relu.default) takes the submodule 'sub_graph_0'; only higher-order ops take subgraphs");
        row("S012 cond branch arity", "EIR-S012", "error", "bad",
            "cond node 'bad' passes 1 operand(s) but its branch 'false_graph_0' takes 2");
        row("S011 unknown aten op", "EIR-S011", "info", "bad",
            "node 'bad' calls 'aten.frobnicate.default', which irlens has no schema for; its arguments and val are not checked against a schema");
        row("D001 D003 in-place in ATen", "EIR-D001", "error", "bad",
            "node 'bad' calls the in-place op 'aten.relu_.default' in a functional (ATen) program");
        row("D001 in-place in training", "EIR-D001", "info", "bad",
            "node 'bad' calls the in-place op 'aten.relu_.default'; allowed at the training IR, removed by run_decompositions()");
        row("D002 S011 D003 out overload", "EIR-D002", "error", "bad",
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
        row("S014 on a node FX renames", "EIR-S014", "error", "sum",
            "node 'sum_1' (recorded as 'sum') passes argument 'alpha' 2 times; a call binds each argument once (the others would be dropped silently)");
        row("T001 dtype code 255", "EIR-T001", "error", "bad", "tensor_values['bad']: dtype code 255 is not a torch dtype");
        row("T002 element count overflows", "EIR-T002", "error", "bad",
            "tensor_values['bad']: sizes [1000000000, 1000000000, 1000000000, 1000000000, 1000000000, 1000000000, "
            "1000000000, 1000000000] hold more elements than int64 can count");
        row("T003 negative stride", "EIR-T003", "error", "bad",
            "tensor_values['bad']: stride -1 in dimension 0 of [-1, 1] is negative (torch.export records no negative strides)");
        row("Y002 min above max", "EIR-Y002", "error", "s0",
            "range constraint of 's0' is [10, 2]: its minimum is above its maximum, so no value satisfies it");
        row("D004 custom op under core-aten", "EIR-D004", "warning", "bad",
            "node 'bad' calls 'quantized_decomposed.quantize_per_tensor.default', a custom op of namespace "
            "'quantized_decomposed', not an ATen op: the program is not Core ATen only");
        row("P001 prims add of int8 and float32", "EIR-P001", "error", "bad",
            "node 'bad' (prims.add.default) mixes dtypes: self 'x' is f32[2, 2], other 'y' is i8[2, 2]; prims do not promote types");
        row("P002 prims gt of [2, 2] and [2]", "EIR-P002", "error", "bad",
            "node 'bad' (prims.gt.default) mixes shapes: self 'x' is f32[2, 2], other 'y' is f32[2]; prims do not broadcast");
        row("M003 no module stack", "EIR-M003", "warning", "bad", "node 'bad' has no nn_module_stack in its metadata");
        row("M004 no source_fn_stack", "EIR-M004", "warning", "bad", "node 'bad' has no source_fn_stack in its metadata");
        row("G008 placeholder without val", "EIR-G008", "error", "x",
            "placeholder 'x' (USER_INPUT) has no val: tensor_values has no entry for it");
        row("G009 parameter shape differs from the state dict", "EIR-G009", "error", "p_w",
            "PARAMETER 'p_w' (target 'w') is recorded as f32[2, 2] but the program holds f32[3, 2] for 'w'");
        row("G010 sample outside the range", "EIR-G010", "warning", "x",
            "the sample inputs give dimension 0 of 'x' the value 1, outside the range [2, 8] of its symbol 's0'");
        row("G011 dropped BUFFER_MUTATION entry", "EIR-G011", "error", "output",
            "the graph returns 'add' at position 0, among the mutation outputs, but no output spec describes it: a "
            "BUFFER_MUTATION entry was dropped (it is computed from buffer 'n')");
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

    // The other ways a buffer update gets lost (EIR-G011), and what stays quiet.
    void bufferMutations() {
        QVERIFY(verify(bufferProgram().buildUnchecked()).empty()); // recorded properly: clean
        // An in-place write to the buffer with no BUFFER_MUTATION output (training IR keeps in-place ops;
        // EIR-D001 notes the in-place op itself, at info level).
        ProgramBuilder b("inplace");
        b.verifiers({"TRAINING"});
        b.buffer("b_n", "n", makeFilledTensor({2, 2}, 0.0f));
        b.userInput("x", f32({2, 2}));
        withMeta(b.call("torch.ops.aten.add_.Tensor", "add_").arg("self", "b_n").arg("other", "x").out(f32({2, 2})));
        withMeta(b.call("torch.ops.aten.relu.default", "relu").arg("self", "x").out(f32({2, 2})));
        b.userOutput("relu");
        auto ds = verify(b.buildUnchecked());
        const Diagnostic* g11 = nullptr;
        for (const auto& d : ds) g11 = d.ruleId == "EIR-G011" ? &d : g11;
        QVERIFY2(g11, qPrintable(describe(ds)));
        QCOMPARE(QString::fromStdString(g11->message),
                 QString("node 'add_' (aten.add_.Tensor) writes buffer 'b_n' (target 'n') in place, but no BUFFER_MUTATION "
                         "output names 'n': the update is lost when the program runs functionally"));
        // The same write, recorded: no G011.
        b.bufferMutation("add_", "n");
        Program recorded = b.buildUnchecked();
        std::swap(recorded.graph.outputs[0], recorded.graph.outputs[1]);
        std::swap(recorded.signature.outputSpecs[0], recorded.signature.outputSpecs[1]);
        for (const auto& d : verify(recorded)) QVERIFY2(d.ruleId != "EIR-G011", qPrintable(describe({d})));
        // Two BUFFER_MUTATION outputs for one buffer.
        ProgramBuilder twice = bufferProgram();
        Program p = twice.buildUnchecked();
        p.graph.outputs.insert(p.graph.outputs.begin() + 1, Argument::tensor("relu"));
        OutputSpec again = p.signature.outputSpecs[0];
        again.arg = Argument::tensor("relu");
        p.signature.outputSpecs.insert(p.signature.outputSpecs.begin() + 1, again);
        ds = verify(p);
        QCOMPARE(int(ds.size()), 1);
        QCOMPARE(QString::fromStdString(ds[0].message),
                 QString("buffer 'n' has 2 BUFFER_MUTATION outputs ('add', 'relu'); a buffer gets one new value per call, so "
                         "which one is written back is ambiguous"));
        // A spec dropped where nothing says the output was a mutation (no user output after it) stays EIR-G002.
        Program noUser = bufferProgram().buildUnchecked();
        noUser.graph.outputs.pop_back();
        noUser.signature.outputSpecs.clear();
        for (const auto& d : verify(noUser)) QCOMPARE(QString::fromStdString(d.ruleId), QString("EIR-G002"));
    }

    // What the prims' own meta functions allow stays clean: where's bool pred beside float operands, a CPU
    // scalar tensor (rank 0) beside a [2, 2] one.
    void primsAllowedMixes() {
        ProgramBuilder b = base();
        b.userInput("mask", makeTensorMeta(ScalarType::Bool, {2, 2}));
        withMeta(b.call("torch.ops.prims.where.default", "w").arg("pred", "mask").arg("a", "x").arg("b", "p_w").out(f32({2, 2})));
        QVERIFY2(verify(b.buildUnchecked()).empty(), qPrintable(describe(verify(b.buildUnchecked()))));
        Program scalar = primOf("torch.ops.prims.mul.default", f32({}), f32({2, 2}));
        QVERIFY2(verify(scalar).empty(), qPrintable(describe(verify(scalar))));
    }

    // Findings name nodes as the FX text does, and targets as the program holds them.
    void namesAsTheProgramHoldsThem() {
        // A cond node the loader named after its output ("getitem") is "cond" in the FX text.
        Program p = cases().at("S012 cond branch arity").make();
        Node& cond = p.graph.nodes.back();
        cond.name = "getitem";
        cond.hasSerializedName = false;
        auto ds = verify(p);
        QCOMPARE(int(ds.size()), 1);
        QCOMPARE(QString::fromStdString(ds[0].node), QString("getitem")); // the key the GUI selects by
        QCOMPARE(QString::fromStdString(ds[0].message),
                 QString("cond node 'cond' passes 1 operand(s) but its branch 'false_graph_0' takes 2"));
        // An overload packet with no .default overload: reported as the packet it is.
        Program packet = withNode("torch.ops.aten.sub", [](NodeBuilder& n) { n.arg("self", "x").arg("other", "x").out(f32({2, 2})); });
        QStringList messages;
        for (const auto& d : verify(packet)) messages << QString::fromStdString(d.ruleId + ": " + d.message + " / " + d.fix);
        QCOMPARE(messages.size(), 2);
        QVERIFY2(messages[0].startsWith("EIR-S002: node 'bad' calls 'torch.ops.aten.sub', an overload packet"), qPrintable(messages[0]));
        QVERIFY2(messages[0].contains("'aten.sub.Tensor'"), qPrintable(messages[0])); // the fix names real overloads
        QVERIFY2(messages[1].startsWith("EIR-S011: node 'bad' calls the overload packet 'aten.sub';"), qPrintable(messages[1]));
        for (const auto& m : messages) QVERIFY2(!m.contains("sub.default"), qPrintable(m));
    }

    // EIR-M006 has its own entry point (the GUI runs it on demand); it agrees with verify(), and an input the
    // meta function rejects is reported without an empty tensor_values key.
    void inferredMetaEntryPoint() {
        const Case& c = cases().at("M006 val disagrees with meta");
        auto direct = verifyInferredMeta(c.make());
        QCOMPARE(int(direct.size()), 1);
        std::vector<Diagnostic> viaVerify;
        for (const auto& d : verify(c.make(), c.options))
            if (d.ruleId == "EIR-M006") viaVerify.push_back(d);
        QCOMPARE(int(viaVerify.size()), 1);
        QCOMPARE(QString::fromStdString(formatDiagnostic(direct[0])), QString::fromStdString(formatDiagnostic(viaVerify[0])));
        QVERIFY(verifyInferredMeta(base().buildUnchecked()).empty());
        Program rejected = withNode("torch.ops.aten.add.Tensor", [](NodeBuilder& n) {
            n.arg("self", "x").arg("other", "wide").out(f32({2, 2}));
        });
        rejected.graph.inputs.push_back(Argument::tensor("wide"));
        rejected.graph.tensorValues["wide"] = f32({3});
        auto ds = verifyInferredMeta(rejected);
        QCOMPARE(int(ds.size()), 1);
        QVERIFY2(QString::fromStdString(ds[0].message).startsWith("node 'bad' (aten.add.Tensor): its meta function rejects"),
                 ds[0].message.c_str());
        QVERIFY2(ds[0].fix.find("['']") == std::string::npos, ds[0].fix.c_str());
        QVERIFY2(ds[0].fix.find("aten.add.Tensor") != std::string::npos, ds[0].fix.c_str());
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

    // The catalogue the rule browser and `verify --rules` show: every rule says what it asks, where the spec
    // says it, a program that breaks it and the fix.
    void ruleCatalogue() {
        const auto& rules = verifierRules();
        QVERIFY(rules.size() >= 40);
        std::set<std::string> ids;
        for (const auto& r : rules) {
            QVERIFY2(ids.insert(r.id).second, r.id);
            for (const char* text : {r.title, r.specRef, r.explanation, r.passage, r.breakingExample, r.fix})
                QVERIFY2(text && std::string(text).size() > 10, r.id);
            QVERIFY2(std::string(r.explanation).size() > 100, r.id); // a paragraph, not a title again
            QVERIFY2(std::string(r.explanation) != r.title && std::string(r.fix) != r.title, r.id);
            QCOMPARE(findRule(r.id), &r);
        }
    }

    // Every rule has a broken program here that triggers exactly the rules its case is named after: the rule
    // alone, except where the name lists its unavoidable companions ("M001 M003 M004 no meta").
    void everyRuleHasItsBrokenProgram() {
        for (const auto& r : verifierRules()) {
            const std::string id = std::string(r.id).substr(4); // "S001"
            const std::string* found = nullptr;
            for (const auto& [name, c] : cases()) {
                const auto named = rulesNamedBy(name);
                if (!named.count(r.id)) continue;
                if (!found || named.size() < rulesNamedBy(*found).size()) found = &name;
            }
            QVERIFY2(found, ("no broken program for " + std::string(r.id)).c_str());
            const Case& c = cases().at(*found);
            std::set<std::string> fired;
            for (const auto& d : verify(c.make(), c.options)) fired.insert(d.ruleId);
            QVERIFY2(fired == rulesNamedBy(*found),
                     qPrintable(QString::fromStdString(*found) + " triggers:\n" + describe(verify(c.make(), c.options))));
        }
    }

    void cliExitCodes_data() {
        QTest::addColumn<QString>("caseName");
        QTest::addColumn<int>("exitCode");
        QTest::addColumn<int>("errors");
        QTest::addRow("clean") << "" << 0 << 0;
        QTest::addRow("in-place op in ATen") << "D001 D003 in-place in ATen" << 1 << 1;
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

    // `verify --core-aten` names every custom op (here quantized_decomposed) instead of passing it silently;
    // without --core-aten the custom op is legal Export IR and not reported.
    void cliCoreAtenNamesCustomOps() {
        const QString cli = QString(IRLENS_BINARY_DIR) + "/app/irlens-cli";
        if (!QFile::exists(cli)) QSKIP("irlens-cli not built");
        QTemporaryDir dir;
        const std::string path = dir.filePath("q.pt2").toStdString();
        Status saved = savePt2(cases().at("D004 custom op under core-aten").make(), path);
        QVERIFY2(saved.isOk(), saved.message().c_str());
        for (bool coreAten : {true, false}) {
            QProcess proc;
            QStringList args{"verify", QString::fromStdString(path), "--json"};
            if (coreAten) args << "--core-aten";
            proc.start(cli, args);
            QVERIFY(proc.waitForFinished(30000));
            QCOMPARE(proc.exitCode(), 0); // a warning, not an error: the spec allows custom ops
            const auto ds = QJsonDocument::fromJson(proc.readAllStandardOutput()).object().value("diagnostics").toArray();
            QStringList d004;
            for (const auto& v : ds)
                if (v.toObject().value("rule").toString() == "EIR-D004") d004 << v.toObject().value("message").toString();
            QCOMPARE(d004.size(), coreAten ? 1 : 0);
            if (coreAten) QVERIFY(d004[0].contains("'quantized_decomposed.quantize_per_tensor.default'"));
        }
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

    // A node's FX name is made only once a finding needs it, and only for the nodes up to it (a long
    // graph without findings is never named). Here a run of nodes FX renames ("sum" is a builtin: sum_1;
    // the next node's "sum_1" is then taken: sum_2 ...) reaches across the graph, so a label made from
    // too short a prefix, or out of order, shows. Findings early, in the middle and late name their
    // nodes as naming the whole graph does.
    void labelsNamedAsFarAsNeeded() {
        ProgramBuilder b("chain");
        b.verifiers({"TRAINING"});
        std::string prev = b.userInput("x", f32({2}));
        const std::vector<int> renamed = {500, 1800, 3000, 4000, 15000, 19999};
        const std::set<int> readGhost = {10, 1800, 3000, 4000, 15000, 19999};
        for (int k = 0, run = 0; k < 20000; ++k) {
            std::string name = "n_" + std::to_string(k);
            if (std::find(renamed.begin(), renamed.end(), k) != renamed.end()) {
                name = run ? "sum_" + std::to_string(run) : "sum";
                ++run;
            }
            b.call("torch.ops.aten.relu.default", name).arg("self", readGhost.count(k) ? "ghost" : prev).out(f32({2}));
            prev = name;
        }
        b.userOutput(prev);
        const Program p = b.buildUnchecked();
        const std::vector<std::string> fx = fxNodeNames(p.graph);
        QCOMPARE(fx[19999], std::string("sum_6"));
        VerifyOptions o;
        o.checkMetaPresence = false;
        QStringList got, expected;
        for (const auto& d : verify(p, o))
            if (d.ruleId == std::string("EIR-S006")) got << QString::fromStdString(d.message);
        for (int k : readGhost)
            expected << QString::fromStdString("node " + (fx[size_t(k)] == p.graph.nodes[size_t(k)].name ? "'" + fx[size_t(k)] + "'"
                                                           : "'" + fx[size_t(k)] + "' (recorded as '" + p.graph.nodes[size_t(k)].name + "')") +
                                               " reads 'ghost', which no placeholder or node defines");
        QCOMPARE(got, expected);
        QVERIFY(expected[1].contains("'sum_2' (recorded as 'sum_1')"));
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
        for (const auto& f : irlens::testing::zooProgramFiles()) QTest::addRow("%s", f.c_str()) << QString::fromStdString(f) << true;
        // the generated programs the zoo has no twin of (support/zoo_files.h)
        for (const char* f : irlens::testing::kGeneratedFixtures)
            if (!irlens::testing::hasZooTwin(std::string(f) + "/model.pt2"))
                QTest::addRow("%s", f) << QString("generated/%1/model.pt2").arg(f) << true;
        for (const char* f : {"mobilenet_v2", "transformer_layer", "tiny_gpt"})
            if (!irlens::testing::hasZooTwin(std::string(f) + "/model.training.pt2"))
                QTest::addRow("%s.training", f) << QString("generated/%1/model.training.pt2").arg(f) << true;
        QTest::addRow("tiny_mlp.legacy") << "generated/tiny_mlp/model.legacy.pt2" << true;
        QTest::addRow("real executorch") << "real/executorch-linear-pt2archive" << false;
        QTest::addRow("real hades") << "real/hades-pid-dann-legacy-schema2" << false;
        QTest::addRow("real tensorrt 7.3") << "real/tensorrt-add-legacy-schema7/trt-schema7.3.ep" << false;
        QTest::addRow("real tensorrt 7.4") << "real/tensorrt-add-legacy-schema7/trt-schema7.4.ep" << false;
    }
    void fixtures() {
        QFETCH(QString, file);
        QFETCH(bool, mustBeErrorFree);
        if (!file.startsWith("zoo/")) IRLENS_REQUIRE_SHARED();
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
