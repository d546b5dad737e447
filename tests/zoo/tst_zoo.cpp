// The zoo the tests run on without ../shared: every program written with the project's writer reads back as
// built (nodes, targets, weights, sample inputs), and the committed PyTorch references in tests/zoo/references/
// belong to it: their inputs are the archive's sample inputs bit for bit and their intermediates name its nodes.
#include "core/exec/inputs.h"
#include "core/exec/plan.h"
#include "core/io/pt2_reader.h"
#include "core/io/tensor_file.h"
#include "support/zoo_files.h"

#include <QTest>

#include <cstring>
#include <set>

using namespace irlens::core;
using namespace irlens::core::exec;

namespace {

const irlens::testing::zoo::ZooProgram* zooProgram(const std::string& name) {
    for (const auto& z : irlens::testing::zoo::programs())
        if (z.name == name) return &z;
    return nullptr;
}

} // namespace

class TstZoo : public QObject {
    Q_OBJECT
private slots:
    void everyProgramHasReferences() {
        QVERIFY(irlens::testing::zoo::programs().size() >= 8);
        for (const auto& z : irlens::testing::zoo::programs())
            QVERIFY2(std::filesystem::exists(irlens::testing::zooReferencesDir() / z.name / "manifest.json"),
                     (std::string(z.name) + ": no references; run tests/zoo/make_references.py (see its header)").c_str());
    }

    void readsBackAsBuilt_data() {
        QTest::addColumn<QString>("name");
        for (const auto& name : irlens::testing::zooNames()) QTest::addRow("%s", name.c_str()) << QString::fromStdString(name);
    }
    void readsBackAsBuilt() {
        QFETCH(QString, name);
        const auto* z = zooProgram(name.toStdString());
        QVERIFY(z);
        const ProgramPtr built = z->make();
        auto loaded = loadPt2((irlens::testing::zooDir() / z->name / "model.pt2").string());
        QVERIFY2(loaded.isOk(), loaded.error().c_str());
        const Program& read = **loaded;
        QCOMPARE(read.graph.nodes.size(), built->graph.nodes.size());
        for (size_t k = 0; k < read.graph.nodes.size(); ++k) {
            QCOMPARE(QString::fromStdString(read.graph.nodes[k].name), QString::fromStdString(built->graph.nodes[k].name));
            QCOMPARE(read.graph.nodes[k].target.full, built->graph.nodes[k].target.full);
        }
        QCOMPARE(read.weights.size(), built->weights.size());
        QCOMPARE(read.constants.size(), built->constants.size());
        QVERIFY(read.hasSampleInputs);
        QCOMPARE(read.sampleArgs.size(), built->sampleArgs.size());
    }

    void referencesBelongToTheProgram_data() { readsBackAsBuilt_data(); }
    void referencesBelongToTheProgram() {
        QFETCH(QString, name);
        const auto dir = irlens::testing::zooDir() / name.toStdString();
        auto program = loadPt2((dir / "model.pt2").string());
        QVERIFY2(program.isOk(), program.error().c_str());
        auto plan = ExecutionPlan::compile(*program);
        QVERIFY2(plan.isOk(), plan.error().c_str());
        auto expected = loadExpected((dir / "model.expected").string());
        QVERIFY2(expected.isOk(), expected.error().c_str());
        QVERIFY(!expected->main.outputs.empty());
        auto samples = sampleInputs(**plan);
        QVERIFY2(samples.isOk(), samples.error().c_str());
        QCOMPARE(expected->main.inputs.size(), samples->size());
        for (size_t k = 0; k < samples->size(); ++k) {
            const Tensor& a = (*samples)[k].tensor;
            const Tensor& e = expected->main.inputs[k].tensor;
            QCOMPARE(e.sizes(), a.sizes());
            QCOMPARE(e.dtype(), a.dtype());
            QVERIFY2(std::memcmp(a.raw(), e.raw(), static_cast<size_t>(a.nbytes())) == 0,
                     qPrintable(QString("input %1 differs from the archive's sample input: make the references again").arg(k)));
        }
        auto intermediates = readTensorFile((dir / "model.expected" / "intermediates.safetensors").string());
        QVERIFY2(intermediates.isOk(), intermediates.error().c_str());
        std::set<std::string> values;
        for (const auto& n : (*program)->graph.nodes)
            for (const auto& o : n.outputs) {
                if (o.kind == ArgKind::Tensor) values.insert(o.s);
                for (const auto& e : o.list) values.insert(e.s);
            }
        QVERIFY(!intermediates->entries.empty());
        for (const auto& e : intermediates->entries)
            QVERIFY2(values.count(e.name), qPrintable(QString::fromStdString(e.name) + " is no value of the program"));
    }
};

QTEST_GUILESS_MAIN(TstZoo)
#include "tst_zoo.moc"
