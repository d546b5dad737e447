// Op families (the graph's colours) read from the op registry: PyTorch's tags, irlens's layer tags,
// schema aliasing and elementwise semantics; every op of every shared program gets a real family.

#include "core/io/pt2_reader.h"
#include "core/ops/op_family.h"
#include "core/ops/op_registry.h"
#include "support/shared_fixtures.h"
#include "support/zoo_files.h"

#include <QTest>

#include <map>
#include <set>

using namespace irlens::core;

class TstOpFamily : public QObject {
    Q_OBJECT
private slots:
    void familyOf_data() {
        QTest::addColumn<QString>("target");
        QTest::addColumn<QString>("family");
        const std::pair<const char*, const char*> rows[] = {
            {"torch.ops.aten.convolution.default", "linear"},
            {"torch.ops.aten.addmm.default", "linear"},
            {"torch.ops.aten.linear.default", "linear"},
            {"torch.ops.aten._native_batch_norm_legit_no_training.default", "normalization"},
            {"torch.ops.aten.native_layer_norm.default", "normalization"},
            {"torch.ops.aten.relu.default", "activation"},
            {"torch.ops.aten.relu_.default", "activation"},        // in-place twin
            {"torch.ops.aten.hardtanh_.default", "activation"},
            {"torch.ops.aten._softmax.default", "activation"},
            {"torch.ops.aten.add.Tensor", "elementwise"},
            {"torch.ops.aten.where.self", "elementwise"},
            {"torch.ops.aten.masked_fill.Scalar", "elementwise"},  // training op, elementwise by its reference
            {"torch.ops.aten.sum.dim_IntList", "reduction"},       // PyTorch's reduction tag
            {"torch.ops.aten.max_pool2d_with_indices.default", "reduction"},
            {"torch.ops.aten.view.default", "view"},               // Tensor(a) return
            {"torch.ops.aten.permute.default", "view"},
            {"torch.ops.aten.slice.Tensor", "view"},
            {"torch.ops.aten._unsafe_view.default", "view"},
            {"torch.ops.aten.cat.default", "data movement"},
            {"torch.ops.aten.embedding.default", "data movement"},
            {"torch.ops.aten.full.default", "data movement"},
            {"torch.ops.prims.add.default", "prims"},
            {"torch.ops.higher_order.cond", "higher-order"},
            {"torch.ops.aten.sym_size.int", "symbolic"},
            {"_operator.mul", "symbolic"},
            {"torch.ops.aten.no_such_op.default", "other"},
            {"torch.ops.mylib.custom.default", "other"},
        };
        for (const auto& [t, f] : rows) QTest::addRow("%s", t) << QString(t) << QString(f);
    }
    void familyOf() {
        QFETCH(QString, target);
        QFETCH(QString, family);
        QCOMPARE(QString(opFamilyName(opFamilyOf(Target::parse(target.toStdString())))), family);
    }

    // The graph keeps its colours: no op of a shared program falls to "other", and the big families show up.
    void everyFixtureOpHasAFamily() {
        std::set<std::string> other;
        std::map<OpFamily, int> seen;
        for (const auto& rel : irlens::testing::programFixtures()) {
            auto p = loadPt2(irlens::testing::fixture(rel).string());
            if (!p) continue; // unreadable files are the reader tests' business
            for (const Node& n : (*p)->graph.nodes) {
                const OpFamily f = opFamilyOf(n.target);
                ++seen[f];
                if (f == OpFamily::Other) other.insert(n.target.full + " in " + rel);
            }
        }
        QStringList names;
        for (const auto& o : other) names << QString::fromStdString(o);
        QVERIFY2(other.empty(), qPrintable(names.join(", ")));
        for (OpFamily f : {OpFamily::Linear, OpFamily::Normalization, OpFamily::Activation, OpFamily::Elementwise,
                           OpFamily::Reduction, OpFamily::View, OpFamily::DataMovement, OpFamily::HigherOrder})
            QVERIFY2(seen[f] > 0, opFamilyName(f));
    }
};

QTEST_MAIN(TstOpFamily)
#include "tst_op_family.moc"
