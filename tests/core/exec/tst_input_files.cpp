// A run's inputs from the files a user holds (core/exec/input_files.h): every format written by
// PyTorch and NumPy (tests/core/io/tensor_files, and the shared fixtures' inputs saved by
// save_inputs.py) gives the same run as the model.expected/ folder holding the same values; each bad
// input is refused before anything runs, with one line naming the input, what was given and what the
// program expects.
#include "core/exec/engine.h"
#include "core/exec/input_files.h"
#include "core/io/tensor_file.h"
#include "core/exec/inputs.h"
#include "core/io/pt2_reader.h"
#include "support/numeric_programs.h"
#include "support/shared_fixtures.h"
#include "support/zoo_files.h"

#include <QProcess>

#include <QTemporaryDir>
#include <QTest>

#include <cstring>
#include <filesystem>
#include <fstream>

using namespace irlens::core;
using namespace irlens::core::exec;

namespace {

std::string dataFile(const std::string& name) { return (std::filesystem::path(IRLENS_SOURCE_DIR) / "tests/core/io/tensor_files" / name).string(); }

std::shared_ptr<ExecutionPlan> planOf(ProgramPtr program) {
    auto plan = ExecutionPlan::compile(std::move(program));
    if (!plan) qFatal("%s", plan.error().c_str());
    return *plan;
}

// x of make_tensor_files.py, [rows, 16]: element [r, k] = (k - 7.5) / 4 + r
TensorData xRows(int64_t rows, ScalarType dtype = ScalarType::Float32) {
    std::vector<float> v;
    for (int64_t r = 0; r < rows; ++r)
        for (int k = 0; k < 16; ++k) v.push_back((static_cast<float>(k) - 7.5f) / 4 + static_cast<float>(r));
    TensorData t = makeFloatTensor({rows, 16}, v);
    if (dtype == ScalarType::Float64) {
        std::vector<std::byte> wide(v.size() * 8);
        for (size_t k = 0; k < v.size(); ++k) {
            const double d = v[k];
            std::memcpy(wide.data() + k * 8, &d, 8);
        }
        t.dtype = dtype;
        t.storage = Storage::fromBytes(std::move(wide));
    }
    return t;
}

// A model.expected/ folder whose main case's input is x.
std::string writeExpectedFolder(const QString& dir) {
    const TensorData x = xRows(1);
    std::ofstream(dir.toStdString() + "/input_0.bin", std::ios::binary)
        .write(reinterpret_cast<const char*>(x.dataPtr()), static_cast<std::streamsize>(x.numel() * 4));
    std::ofstream(dir.toStdString() + "/manifest.json")
        << R"({"format": "pt2gen-expected/1", "model": "numeric_mlp", "inputs": [{"name": "x", "index": 0, "dtype": "float32",)"
        << R"( "shape": [1, 16], "file": "input_0.bin"}], "outputs": []})";
    return dir.toStdString();
}

std::vector<std::byte> outputBytes(const std::shared_ptr<ExecutionPlan>& plan, const std::vector<EValue>& inputs) {
    Engine engine(plan);
    auto run = engine.run(inputs);
    if (!run) qFatal("%s", run.error().c_str());
    return run->outputs[0].tensor.toTensorData().contiguousBytes();
}

} // namespace

class TstInputFiles : public QObject {
    Q_OBJECT
private slots:
    void everyFormatGivesTheSameRun_data();
    void everyFormatGivesTheSameRun();
    void fixtureInputsInEveryFormat_data();
    void fixtureInputsInEveryFormat();
    void symbolicSizeWithinItsRange();
    void badInputsAreRefusedInOneLine_data();
    void badInputsAreRefusedInOneLine();
};

void TstInputFiles::everyFormatGivesTheSameRun_data() {
    QTest::addColumn<QString>("file");
    QTest::addColumn<QString>("how");
    for (const char* f : {"x.pt", "x_tuple.pt", "x_list.pt", "x.npy", "x_positional.npz"}) QTest::addRow("%s", f) << f << "(by position)";
    for (const char* f : {"x_dict.pt", "x_named.npz", "x_compressed.npz", "x.safetensors"}) QTest::addRow("%s", f) << f << "(by name)";
}

void TstInputFiles::everyFormatGivesTheSameRun() {
    QFETCH(QString, file);
    QFETCH(QString, how);
    QTemporaryDir dir;
    auto plan = planOf(irlens::testing::makeNumericMlp());
    std::string fromExpected, fromFile;
    auto expected = inputsFromFiles(*plan, {writeExpectedFolder(dir.path())}, fromExpected);
    QVERIFY2(expected, expected.error().c_str());
    QCOMPARE(fromExpected, dir.path().toStdString());
    auto given = inputsFromFiles(*plan, {dataFile(file.toStdString())}, fromFile);
    QVERIFY2(given, given.error().c_str());
    QVERIFY2(QString::fromStdString(fromFile).endsWith(file + " " + how), fromFile.c_str());
    QCOMPARE(given->size(), size_t(1));
    QCOMPARE(given->at(0).tensor.toTensorData().contiguousBytes(), expected->at(0).tensor.toTensorData().contiguousBytes());
    const auto out = outputBytes(plan, *given);
    QCOMPARE(out.size(), size_t(64));
    QCOMPARE(out, outputBytes(plan, *expected));
}

void TstInputFiles::fixtureInputsInEveryFormat_data() {
    QTest::addColumn<QString>("name");
    for (const char* name : {"zoo/gpt_block", "zoo/dtype_mix", "zoo/conv_attention", "zoo/dynamic_mlp", "zoo/cond_branch", "tiny_gpt", "dtype_mix",
                             "resnet18", "dynamic_mlp", "cond_branch"})
        QTest::addRow("%s", name) << name;
}

// A fixture's model.expected/ inputs written as .npy and .safetensors here and as .pt and .npz by
// PyTorch and NumPy (save_inputs.py): each set gives the inputs and the outputs the folder gives.
void TstInputFiles::fixtureInputsInEveryFormat() {
    QFETCH(QString, name);
    IRLENS_REQUIRE_FIXTURE(name);
    const std::string dir = irlens::testing::fixture(irlens::testing::programFolder(name.toStdString())).string();
    auto program = loadPt2(dir + "/model.pt2");
    QVERIFY2(program, program.error().c_str());
    auto plan = planOf(*program);
    std::string from;
    auto expected = inputsFromFiles(*plan, {dir + "/model.expected"}, from);
    QVERIFY2(expected, expected.error().c_str());
    QTemporaryDir tmp;
    const std::string t = tmp.path().toStdString();
    std::vector<std::string> npys;
    std::vector<std::pair<std::string, TensorData>> named;
    QStringList pairs{QString(IRLENS_SOURCE_DIR) + "/tests/core/exec/save_inputs.py", tmp.path()};
    for (size_t k = 0; k < expected->size(); ++k) {
        const std::string input = plan->inputs()[static_cast<size_t>(plan->userInputs()[k])].name;
        const TensorData data = expected->at(k).tensor.toTensorData();
        npys.push_back(t + "/" + std::to_string(k) + "_" + input + ".npy");
        QVERIFY(writeNpy(npys.back(), data));
        named.emplace_back(input, data);
        pairs << QString::fromStdString(input + "=" + npys.back());
    }
    QVERIFY(writeSafetensors(t + "/named.safetensors", named));
    std::vector<std::vector<std::string>> sets{npys, {t + "/named.safetensors"}};
    QProcess python;
    python.start("/usr/bin/python3", pairs);
    const bool torch = python.waitForStarted(10000) && python.waitForFinished(120000) && python.exitCode() == 0;
    if (torch)
        for (const char* f : {"/tuple.pt", "/dict.pt", "/named.npz", "/positional.npz"}) sets.push_back({t + f});
    else
        qWarning("no .pt and .npz files: /usr/bin/python3 with torch and numpy did not run (%s)", python.readAllStandardError().constData());
    const auto want = outputBytes(plan, *expected);
    for (const auto& paths : sets) {
        auto given = inputsFromFiles(*plan, paths, from);
        QVERIFY2(given, given.error().c_str());
        QCOMPARE(given->size(), expected->size());
        for (size_t k = 0; k < given->size(); ++k)
            QCOMPARE(given->at(k).tensor.toTensorData().contiguousBytes(), expected->at(k).tensor.toTensorData().contiguousBytes());
        QVERIFY2(outputBytes(plan, *given) == want, from.c_str());
    }
    QCOMPARE(sets.size(), torch ? size_t(6) : size_t(2));
}

void TstInputFiles::symbolicSizeWithinItsRange() {
    QTemporaryDir dir;
    auto plan = planOf(irlens::testing::makeNumericMlp(true));
    const std::string path = (dir.path() + "/x3.npy").toStdString();
    QVERIFY(writeNpy(path, xRows(3)));
    std::string from;
    auto given = inputsFromFiles(*plan, {path}, from);
    QVERIFY2(given, given.error().c_str());
    QCOMPARE(outputBytes(plan, *given).size(), size_t(3 * 16 * 4));
}

void TstInputFiles::badInputsAreRefusedInOneLine_data() {
    QTest::addColumn<bool>("dynamic");
    QTest::addColumn<QStringList>("files");  // written below from their names
    QTest::addColumn<QString>("message");    // {dir} stands for the folder they are in
    QTest::addRow("dtype") << false << QStringList{"x_f64.npy"} << "input 'x': given f64[1, 16], the program expects f32[1, 16]";
    QTest::addRow("rank") << false << QStringList{"x_flat.npy"} << "input 'x': given f32[16], the program expects f32[1, 16]";
    QTest::addRow("static size") << false << QStringList{"x_rows2.npy"} << "input 'x': given f32[2, 16], the program expects f32[1, 16]";
    QTest::addRow("outside the range") << true << QStringList{"x_rows9.npy"}
                                       << "input 'x': given f32[9, 16], the program expects f32[s0, 16] with s0 in [1, 8]";
    QTest::addRow("no such name") << false << QStringList{"y.safetensors"}
                                  << "input 'x': no value named 'x' in {dir}/y.safetensors (they hold y)";
    QTest::addRow("a name too many") << false << QStringList{"xz.safetensors"}
                                     << "{dir}/xz.safetensors: 'z' is not an input of the program (its inputs: x)";
    QTest::addRow("two values for one input") << false << QStringList{"x_f64.npy", "x_flat.npy"}
                                              << "2 values in {dir}/x_f64.npy, {dir}/x_flat.npy, the program takes 1 user input (x)";
    QTest::addRow("named and positional") << false << QStringList{"x_flat.npy", "y.safetensors"}
                                          << "the input files mix values by name ({dir}/y.safetensors) and by position ({dir}/x_flat.npy); "
                                             "give one kind";
    QTest::addRow("given twice") << false << QStringList{"xz.safetensors", "x2.safetensors"}
                                 << "'x' is given twice ({dir}/xz.safetensors and {dir}/x2.safetensors)";
    QTest::addRow("not a tensor file") << false << QStringList{"notes.txt"} << "{dir}/notes.txt: not a tensor file";
}

void TstInputFiles::badInputsAreRefusedInOneLine() {
    QFETCH(bool, dynamic);
    QFETCH(QStringList, files);
    QFETCH(QString, message);
    QTemporaryDir dir;
    const std::string d = dir.path().toStdString();
    QVERIFY(writeNpy(d + "/x_f64.npy", xRows(1, ScalarType::Float64)));
    TensorData flat = xRows(1);
    flat.sizes = {16};
    flat.strides = {1};
    QVERIFY(writeNpy(d + "/x_flat.npy", flat));
    QVERIFY(writeNpy(d + "/x_rows2.npy", xRows(2)));
    QVERIFY(writeNpy(d + "/x_rows9.npy", xRows(9)));
    QVERIFY(writeSafetensors(d + "/y.safetensors", {{"y", xRows(1)}}));
    QVERIFY(writeSafetensors(d + "/xz.safetensors", {{"x", xRows(1)}, {"z", xRows(1)}}));
    QVERIFY(writeSafetensors(d + "/x2.safetensors", {{"x", xRows(1)}}));
    std::ofstream(d + "/notes.txt") << "not a tensor";
    std::vector<std::string> paths;
    for (const auto& f : files) paths.push_back(d + "/" + f.toStdString());
    auto plan = planOf(irlens::testing::makeNumericMlp(dynamic));
    std::string from;
    auto given = inputsFromFiles(*plan, paths, from);
    QVERIFY(!given);
    const QString want = QString(message).replace("{dir}", dir.path());
    QVERIFY2(QString::fromStdString(given.error()).startsWith(want), given.error().c_str());
    QVERIFY(given.error().find('\n') == std::string::npos);
}

QTEST_GUILESS_MAIN(TstInputFiles)
#include "tst_input_files.moc"
