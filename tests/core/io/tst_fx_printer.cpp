// FX text and signature printers against golden files: the builder programs and the zoo always, the shared
// fixtures when ../shared is present. IRLENS_UPDATE_GOLDEN=1 rewrites the files (review the diff before committing).
#include "core/io/fx_printer.h"
#include "core/ir/fx_names.h"
#include "core/io/pt2_reader.h"
#include "core/io/signature_printer.h"
#include "core/ir/builder.h"
#include "core/ops/op_registry.h"
#include "support/shared_fixtures.h"
#include "support/zoo_files.h"
#include "test_programs.h"

#include <algorithm>
#include <QTest>

#include <cctype>
#include <fstream>
#include <sstream>

using namespace irlens::core;

namespace {

FxPrintOptions registryOptions() {
    FxPrintOptions o;
    o.schemaLookup = [](const Target& t) -> const OpSchema* {
        const OpInfo* info = OpRegistry::instance().find(t);
        return info ? &info->schema : nullptr;
    };
    return o;
}

std::string goldenPath(const std::string& name) { return std::string(IRLENS_SOURCE_DIR) + "/tests/golden/" + name; }

// Compares with the golden file, or writes it when IRLENS_UPDATE_GOLDEN is set.
void compareGolden(const std::string& name, const std::string& actual) {
    const std::string path = goldenPath(name);
    if (qEnvironmentVariableIsSet("IRLENS_UPDATE_GOLDEN")) {
        std::ofstream(path, std::ios::binary) << actual;
        qInfo("wrote %s", path.c_str());
        return;
    }
    std::ifstream in(path, std::ios::binary);
    QVERIFY2(in.good(), ("missing golden file " + path + " (run with IRLENS_UPDATE_GOLDEN=1)").c_str());
    std::stringstream ss;
    ss << in.rdbuf();
    QCOMPARE(QString::fromStdString(actual), QString::fromStdString(ss.str()));
}

// The builder program called `name`; nullptr when no program has that name (a row naming a renamed or
// removed program then fails instead of passing with nothing checked).
ProgramPtr goldenProgram(const std::string& name) {
    for (const auto& [n, make] : irlens::testing::goldenPrograms())
        if (n == name) return make();
    return nullptr;
}

#define FETCH_GOLDEN_PROGRAM(var, name)                                                          \
    const ProgramPtr var = goldenProgram(name);                                                  \
    QVERIFY2(var, qPrintable("no builder program named " + QString::fromStdString(name)))

// The generated programs the zoo has no twin of (support/zoo_files.h): the legacy archive, training IR.
const char* const kFixtureGoldens[][2] = {
    {"generated/tiny_mlp/model.legacy.pt2", "tiny_mlp.legacy"},
    {"generated/transformer_layer/model.training.pt2", "transformer_layer.training"},
};

// Every value the signature names is a node ("%name :") of the FX text: the two never name one value two ways.
void assertSignatureNamesFxNodes(const Program& p) {
    const std::string fx = printFxGraph(p, registryOptions());
    std::istringstream lines(printSignature(p));
    for (std::string line; std::getline(lines, line);) {
        const auto colon = line.find(": ");
        if (line.empty() || line[0] == '#' || colon == std::string::npos) continue;
        const std::string name = line.substr(0, colon);
        if (name == "None" || std::isdigit(static_cast<unsigned char>(name[0]))) continue; // a literal output
        QVERIFY2(fx.find("\n    %" + name + " : ") != std::string::npos, ("signature names '" + name + "', no FX node").c_str());
    }
}

} // namespace

class TstFxPrinter : public QObject {
    Q_OBJECT
private slots:
    void floatRepr_data() {
        QTest::addColumn<double>("value");
        QTest::addColumn<QString>("repr");
        QTest::addRow("eps") << 1e-05 << "1e-05";
        QTest::addRow("tenth") << 0.1 << "0.1";
        QTest::addRow("one") << 1.0 << "1.0";
        QTest::addRow("hundred") << 100.0 << "100.0";
        QTest::addRow("1e-4 stays fixed") << 0.0001 << "0.0001";
        QTest::addRow("1.5e-7") << 1.5e-7 << "1.5e-07";
        QTest::addRow("1e16") << 1e16 << "1e+16";
        QTest::addRow("below 1e16") << 123456789012345.0 << "123456789012345.0";
        QTest::addRow("negative") << -2.5 << "-2.5";
        QTest::addRow("scale") << 0.3535533905932738 << "0.3535533905932738";
        QTest::addRow("third") << 1.0 / 3.0 << "0.3333333333333333";
        QTest::addRow("inf") << std::numeric_limits<double>::infinity() << "inf";
        QTest::addRow("-inf") << -std::numeric_limits<double>::infinity() << "-inf";
        QTest::addRow("nan") << std::numeric_limits<double>::quiet_NaN() << "nan";
        QTest::addRow("-0") << -0.0 << "-0.0";
    }
    void floatRepr() {
        QFETCH(double, value);
        QTEST(QString::fromStdString(pythonFloatRepr(value)), "repr");
    }

    void goldenFx_data() {
        QTest::addColumn<QString>("name");
        for (const auto& [name, make] : irlens::testing::goldenPrograms()) QTest::addRow("%s", name.c_str()) << QString::fromStdString(name);
    }
    void goldenFx() {
        QFETCH(QString, name);
        FETCH_GOLDEN_PROGRAM(program, name.toStdString());
        compareGolden(name.toStdString() + ".fx.txt", printFxGraph(*program, registryOptions()));
    }

    // forward() as GraphModule.code prints it, and print_tabular()'s table, for every builder program.
    void goldenCodeAndTable_data() { goldenFx_data(); }
    void goldenCodeAndTable() {
        QFETCH(QString, name);
        auto joined = [](const std::vector<FxLine>& lines) {
            std::string s;
            for (const auto& l : lines) s += l.text + "\n";
            return s;
        };
        const std::string n = name.toStdString();
        FETCH_GOLDEN_PROGRAM(program, n);
        compareGolden(n + ".code.txt", joined(printFxCode(*program, registryOptions())));
        compareGolden(n + ".tabular.txt", joined(printFxTabular(*program, registryOptions())));
    }

    // Each line of the code and the table names the FX node it stands for, as the FX text does.
    void codeAndTableLinesNameTheirNodes() {
        for (const auto& [n, make] : irlens::testing::goldenPrograms()) {
            auto program = make();
            const auto names = fxNodeNames(program->graph);
            const auto code = printFxCode(*program, registryOptions());
            const auto table = printFxTabular(*program, registryOptions());
            QCOMPARE(code.back().node, std::string("output"));
            QCOMPARE(table.back().node, std::string("output"));
            for (const auto& name : names) {
                auto defines = [&](const FxLine& l) { return l.node == name; };
                QVERIFY2(std::count_if(table.begin(), table.end(), defines) == 1, (n + ": " + name).c_str());
                auto c = std::find_if(code.begin(), code.end(), defines);
                QVERIFY2(c != code.end() && c->text.rfind("    " + name + " = ", 0) == 0, (n + ": " + name).c_str());
            }
            for (const auto& l : table)
                QCOMPARE(l.placeholder, l.text.rfind("placeholder ", 0) == 0);
        }
    }

    // The literal forms that matter: freeing after the last use, operators, reprs in code and table.
    void codeKeyLines() {
        auto lineOf = [](const std::vector<FxLine>& lines, const std::string& node) {
            for (const auto& l : lines)
                if (l.node == node) return l.text;
            return std::string();
        };
        FETCH_GOLDEN_PROGRAM(addAlpha, std::string("add_alpha"));
        QCOMPARE(lineOf(printFxCode(*addAlpha, registryOptions()), "add"),
                 std::string("    add = torch.ops.aten.add.Tensor(x, y, alpha = 2);  x = y = None"));
        FETCH_GOLDEN_PROGRAM(multiOutput, std::string("multi_output"));
        QCOMPARE(lineOf(printFxCode(*multiOutput, registryOptions()), "getitem"), std::string("    getitem = native_layer_norm[0]"));
        FETCH_GOLDEN_PROGRAM(argReprs, std::string("arg_reprs"));
        const auto code = printFxCode(*argReprs, registryOptions());
        QVERIFY(lineOf(code, "gelu").find("approximate = 'tanh'") != std::string::npos);
        QVERIFY(lineOf(code, "_to_copy").find("device = device(type='cpu')") != std::string::npos);
        QVERIFY(lineOf(printFxTabular(*argReprs, registryOptions()), "gelu").find("{'approximate': 'tanh'}") != std::string::npos);
    }

    void goldenSignature_data() { goldenFx_data(); }
    void goldenSignature() {
        QFETCH(QString, name);
        FETCH_GOLDEN_PROGRAM(program, name.toStdString());
        compareGolden(name.toStdString() + ".signature.txt", printSignature(*program));
    }

    // The lines that matter most, asserted directly so a wrong golden update cannot hide them.
    void keyLines_data() {
        QTest::addColumn<QString>("program");
        QTest::addColumn<QString>("line");
        QTest::addRow("kwarg alpha") << "add_alpha"
            << "%add : [num_users=1] = call_function[target=torch.ops.aten.add.Tensor](args = (%x, %y), kwargs = {alpha: 2})";
        QTest::addRow("float scalar") << "add_alpha"
            << "%mul_1 : [num_users=1] = call_function[target=torch.ops.aten.mul.Tensor](args = (%mul, 1e-05), kwargs = {})";
        QTest::addRow("placeholder") << "add_alpha" << "%p_scale : [num_users=1] = placeholder[target=p_scale]";
        QTest::addRow("return") << "add_alpha" << "return (add_1, mul_1)";
        QTest::addRow("getitem") << "multi_output"
            << "%getitem : [num_users=1] = call_function[target=operator.getitem](args = (%native_layer_norm, 0), kwargs = {})";
        QTest::addRow("unused getitem") << "multi_output"
            << "%native_layer_norm_unused_1 : [num_users=0] = call_function[target=operator.getitem](args = (%native_layer_norm, 1), kwargs = {})";
        QTest::addRow("list getitem") << "multi_output"
            << "%getitem_2 : [num_users=1] = call_function[target=operator.getitem](args = (%split, 1), kwargs = {})";
        QTest::addRow("get_attr") << "cond" << "%true_graph_0 : [num_users=1] = get_attr[target=true_graph_0]";
        QTest::addRow("cond call") << "cond"
            << "%cond : [num_users=1] = call_function[target=torch.ops.higher_order.cond](args = (%gt, %true_graph_0, %false_graph_0, [%x]), kwargs = {})";
        QTest::addRow("sym_size") << "dynamic"
            << "%sym_size_int : [num_users=1] = call_function[target=torch.ops.aten.sym_size.int](args = (%x, 0), kwargs = {})";
        QTest::addRow("operator") << "dynamic"
            << "%mul : [num_users=1] = call_function[target=operator.mul](args = (%sym_size_int, 2), kwargs = {})";
        QTest::addRow("sym list") << "dynamic"
            << "%view : [num_users=1] = call_function[target=torch.ops.aten.view.default](args = (%x, [%mul, 2]), kwargs = {})";
        QTest::addRow("dtype device") << "arg_reprs"
            << "%_to_copy : [num_users=1] = call_function[target=torch.ops.aten._to_copy.default](args = (%x,), kwargs = "
               "{dtype: torch.float16, layout: torch.strided, device: cpu, memory_format: torch.preserve_format})";
        QTest::addRow("builtin renamed") << "arg_reprs"
            << "%slice_1 : [num_users=1] = call_function[target=torch.ops.aten.slice.Tensor](args = (%x, 1, 0, 4), kwargs = {})";
        QTest::addRow("string unquoted") << "arg_reprs"
            << "%gelu : [num_users=1] = call_function[target=torch.ops.aten.gelu.default](args = (%slice_1,), kwargs = {approximate: tanh})";
        QTest::addRow("unknown kind by schema") << "arg_reprs"
            << "%max_pool2d_with_indices : [num_users=2] = call_function[target=torch.ops.aten.max_pool2d_with_indices.default]"
               "(args = (%gelu, [1, 2]), kwargs = {stride: [1, 2], ceil_mode: True})";
        QTest::addRow("None and negative") << "arg_reprs"
            << "%clamp : [num_users=1] = call_function[target=torch.ops.aten.clamp.default](args = (%getitem, -2.5, None), kwargs = {})";
        QTest::addRow("constant input") << "arg_reprs" << "%alpha : [num_users=0] = placeholder[target=alpha]";
        QTest::addRow("example bn") << "example"
            << "%getitem : [num_users=1] = call_function[target=operator.getitem](args = (%_native_batch_norm_legit_no_training, 0), kwargs = {})";
        QTest::addRow("example clone") << "example"
            << "%clone : [num_users=1] = call_function[target=torch.ops.aten.clone.default](args = (%permute,), kwargs = {memory_format: torch.contiguous_format})";
    }
    void keyLines() {
        QFETCH(QString, program);
        QFETCH(QString, line);
        FETCH_GOLDEN_PROGRAM(built, program.toStdString());
        const QString text = QString::fromStdString(printFxGraph(*built, registryOptions()));
        QVERIFY2(text.contains("\n    " + line + "\n"), qPrintable("missing line: " + line + "\nin:\n" + text));
    }

    void withoutSchemaKindDecides() {
        // With no schema at all, a keyword argument still makes a kwarg and a positional one an arg.
        auto p = irlens::testing::programAddAlpha();
        QString text = QString::fromStdString(printFxGraph(*p));
        QVERIFY(text.contains("args = (%x, %y), kwargs = {alpha: 2})"));
    }

    // The signature names each value as the FX text names the node holding it: an output "sum" lives in the
    // FX node "sum_1" (FX does not shadow the builtin), so the signature says "sum_1" too.
    void signatureNamesLikeTheFxText() {
        ProgramBuilder b("sum");
        b.userInput("x", makeTensorMeta(ScalarType::Float32, std::vector<int64_t>{2, 3}));
        b.call("torch.ops.aten.sum.default", "sum").arg("self", "x").out(makeTensorMeta(ScalarType::Float32, std::vector<int64_t>{}));
        b.userOutput("sum");
        auto p = b.build();
        QVERIFY2(p.isOk(), p.error().c_str());
        const QString fx = QString::fromStdString(printFxGraph(**p, registryOptions()));
        QVERIFY2(fx.contains("\n    return (sum_1,)\n"), qPrintable(fx));
        QCOMPARE(QString::fromStdString(printSignature(**p)), QString("\n# inputs\nx: USER_INPUT\n\n# outputs\nsum_1: USER_OUTPUT\n"));
        for (const auto& [name, make] : irlens::testing::goldenPrograms()) assertSignatureNamesFxNodes(*make());
    }

    void fixtures_data() {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QString>("golden");
        for (const auto& name : irlens::testing::zooNames())
            QTest::addRow("zoo/%s", name.c_str()) << QString::fromStdString("zoo/" + name + "/model.pt2") << QString::fromStdString("zoo_" + name);
        for (const auto& f : kFixtureGoldens) QTest::addRow("%s", f[1]) << f[0] << f[1];
    }
    void fixtures() {
        QFETCH(QString, file);
        QFETCH(QString, golden);
        IRLENS_REQUIRE_FIXTURE(file);
        irlens::testing::zooDir();
        LoadOptions options;
        options.loadWeights = false;
        auto loaded = loadPt2(irlens::testing::fixture(file.toStdString()).string(), options);
        QVERIFY2(loaded.isOk(), loaded.error().c_str());
        compareGolden("fixtures/" + golden.toStdString() + ".fx.txt", printFxGraph(*loaded.value(), registryOptions()));
        compareGolden("fixtures/" + golden.toStdString() + ".signature.txt", printSignature(*loaded.value()));
        assertSignatureNamesFxNodes(*loaded.value());
    }
};

QTEST_GUILESS_MAIN(TstFxPrinter)
#include "tst_fx_printer.moc"
