// irlens-capture's recording and writing (app/python/irlens/recording.py) on a real torch.fx.GraphModule:
// capture_make_fx.py records every node of a make_fx graph with PyTorch (/usr/bin/python3, Debian's
// 1.13), irlens builds the same program with its builder from the graph the script saw, and the run
// compared with the recorded values agrees on every node, in core and through irlens-cli. The
// launcher refuses a PyTorch without torch.export in one line. Skips when PyTorch is not there.
#include "core/compare/numeric_run.h"
#include "core/io/pt2_writer.h"
#include "core/io/tensor_file.h"
#include "support/cli_runner.h"

#include <nlohmann/json.hpp>

#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

#include <fstream>
#include <map>

using namespace irlens::core;

namespace {

const QString kPython = "/usr/bin/python3";

QProcessEnvironment withPythonPath() {
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert("PYTHONPATH", QString(IRLENS_SOURCE_DIR) + "/app/python");
    return env;
}

// Schema argument names of the ops make_fx records for the test's module.
const std::map<std::string, std::vector<std::string>> kArgNames = {
    {"aten.t.default", {"self"}},           {"aten.mm.default", {"self", "mat2"}}, {"aten.relu.default", {"self"}},
    {"aten.mul.Tensor", {"self", "other"}}, {"aten.add.Tensor", {"self", "other"}},
};

TensorMeta metaOfEntry(const TensorFile& f, const std::string& name) {
    const TensorFileEntry* e = f.find(name);
    if (!e) qFatal("no value '%s' recorded", name.c_str());
    return metaOf(e->value.tensor);
}

// The program capture_make_fx.py traced, built with irlens's builder from its graph.json: the
// placeholder a user input, each get_attr a parameter holding the recorded weight.
ProgramPtr buildFromGraph(const nlohmann::json& graph, const TensorFile& x, const TensorFile& weights, const TensorFile& reference) {
    ProgramBuilder b("make_fx_net");
    for (const auto& n : graph["nodes"]) {
        const std::string op = n["op"], name = n["name"], target = n["target"];
        if (op == "placeholder") {
            b.userInput(name, metaOf(x.entries.at(0).value.tensor));
        } else if (op == "get_attr") {
            b.parameter(name, name, weights.find(name)->value.tensor);
        } else {
            auto names = kArgNames.find(target);
            if (names == kArgNames.end()) qFatal("make_fx recorded %s, which this test does not build", target.c_str());
            NodeBuilder node = b.call("torch.ops." + target, name);
            for (size_t k = 0; k < n["args"].size(); ++k) {
                const auto& a = n["args"][k];
                node.arg(names->second.at(k), a.is_string() ? Argument::tensor(a.get<std::string>()) : Argument::floating(a.get<double>()));
            }
            node.out(metaOfEntry(reference, name));
        }
    }
    b.userOutput(graph["output"]);
    auto built = b.build();
    if (!built) qFatal("%s", built.error().c_str());
    return *built;
}

} // namespace

class TstCapture : public QObject {
    Q_OBJECT
private slots:
    void recordedValuesMatchIrlensOnEveryNode();
};

void TstCapture::recordedValuesMatchIrlensOnEveryNode() {
    QTemporaryDir dir;
    QProcess python;
    python.setProcessEnvironment(withPythonPath());
    python.start(kPython, {QString(IRLENS_SOURCE_DIR) + "/tests/app/python/capture_make_fx.py", dir.path()});
    if (!python.waitForStarted(10000)) QSKIP("/usr/bin/python3 is not there (install python3-torch to run this test)");
    QVERIFY(python.waitForFinished(300000));
    const QString err = QString::fromUtf8(python.readAllStandardError());
    if (python.exitCode() == 3) QSKIP(qPrintable("PyTorch is not importable by /usr/bin/python3 (install python3-torch): " + err));
    QVERIFY2(python.exitCode() == 0, qPrintable(err));

    const std::string d = dir.path().toStdString();
    std::ifstream graphFile(d + "/graph.json");
    const nlohmann::json graph = nlohmann::json::parse(graphFile);
    auto x = readTensorFile(d + "/x.pt");
    auto weights = readTensorFile(d + "/weights.safetensors");
    auto reference = readTensorFile(d + "/reference.safetensors");
    QVERIFY2(x && weights && reference, "reading what the script wrote");
    QCOMPARE(reference->metadata.at("format"), std::string("irlens-values/1"));
    std::vector<std::string> recorded;
    for (const auto& e : reference->entries) recorded.push_back(e.name);
    QCOMPARE(recorded, graph["recorded"].get<std::vector<std::string>>()); // in execution order
    QCOMPARE(recorded.size(), size_t(7));

    const ProgramPtr program = buildFromGraph(graph, *x, *weights, *reference);
    NumericRunOptions options;
    options.inputs.inputPaths = {d + "/x.pt"};
    options.reference = d + "/reference.safetensors";
    auto run = runNumerics(program, options);
    QVERIFY2(run, run.error().c_str());
    QVERIFY2(run->firstDivergent < 0, run->verdict(*program).c_str());
    QCOMPARE(run->count(ValueCheck::Agree), size_t(7));
    QVERIFY(run->referenceOnly.empty());
    // the same values as a torch.save dict and as a folder of NumPy files
    for (const char* other : {"/reference.pt", "/reference_npy"}) {
        options.reference = d + other;
        auto again = runNumerics(program, options);
        QVERIFY2(again, again.error().c_str());
        QVERIFY2(again->firstDivergent < 0 && again->count(ValueCheck::Agree) == 7, other);
    }

    // the second line of the workflow, through the command line
    QVERIFY(savePt2(*program, d + "/net.pt2"));
    const auto cli = irlens::testing::runCli(
        {"run", dir.path() + "/net.pt2", "--inputs", dir.path() + "/x.pt", "--reference", dir.path() + "/reference.safetensors"});
    QVERIFY2(cli.code == 0, qPrintable(cli.out + cli.err));
    QVERIFY2(cli.out.contains("verdict   all 7 compared values agree with the reference"), qPrintable(cli.out));

    // the launcher, on the Python that has this PyTorch
    QProcess launcher;
    launcher.start(kPython, {QString(IRLENS_BINARY_DIR) + "/app/irlens-capture", dir.path() + "/net.pt2", "--inputs", dir.path() + "/x.pt",
                             "-o", dir.path() + "/captured.safetensors"});
    QVERIFY(launcher.waitForFinished(300000));
    const QString launched = QString::fromUtf8(launcher.readAllStandardError()) + QString::fromUtf8(launcher.readAllStandardOutput());
    if (launched.contains("this is PyTorch 1.")) {
        QCOMPARE(launcher.exitCode(), 2);
        QVERIFY2(launched.startsWith("irlens-capture: needs PyTorch 2.1 or later (torch.export.load); this is PyTorch 1."), qPrintable(launched));
        return;
    }
    // PyTorch 2.1 or later: the .pt2 irlens wrote, captured by torch.export.load and ep.module()
    QVERIFY2(launcher.exitCode() == 0, qPrintable(launched));
    options.reference = d + "/captured.safetensors";
    auto again = runNumerics(program, options);
    QVERIFY2(again && again->firstDivergent < 0 && again->count(ValueCheck::Agree) >= 6, again ? again->verdict(*program).c_str() : again.error().c_str());
}

QTEST_GUILESS_MAIN(TstCapture)
#include "tst_capture.moc"
