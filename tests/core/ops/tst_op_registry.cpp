// The op registry: schema parsing, the bundled tables, IR levels of real targets.

#include "core/ops/op_registry.h"

#include <QTest>

#include <fstream>
#include <string>

using namespace irlens::core;

namespace {

// Data rows (not comments, not the header) of a bundled table, read from the source tree.
int tableRows(const char* file) {
    std::ifstream in(std::string(IRLENS_SOURCE_DIR) + "/resources/ops/" + file);
    std::string line;
    int rows = -1; // the header row
    while (std::getline(in, line))
        if (!line.empty() && line[0] != '#') ++rows;
    return rows;
}

QString describe(const SchemaArg& a) {
    QStringList parts{QString::fromStdString(a.type)};
    if (!a.name.empty()) parts << QString::fromStdString(a.name) + (a.defaultValue ? "=" + QString::fromStdString(*a.defaultValue) : "");
    if (a.kwargOnly) parts << "[kw]";
    if (a.mutates) parts << "[mut]";
    return parts.join(' ');
}

} // namespace

class TstOpRegistry : public QObject {
    Q_OBJECT
private slots:
    void parseSchema_data() {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("name");
        QTest::addColumn<QString>("overload");
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QStringList>("returns");
        QTest::addRow("add.Tensor") << "add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor" << "add" << "Tensor"
                                    << QStringList{"Tensor self", "Tensor other", "Scalar alpha=1 [kw]"} << QStringList{"Tensor"};
        QTest::addRow("default overload") << "relu(Tensor self) -> Tensor" << "relu" << "default" << QStringList{"Tensor self"}
                                          << QStringList{"Tensor"};
        QTest::addRow("list defaults with commas")
            << "max_pool2d_with_indices(Tensor self, int[2] kernel_size, int[2] stride=[], int[2] padding=0, int[2] dilation=1, bool ceil_mode=False) -> (Tensor, Tensor)"
            << "max_pool2d_with_indices" << "default"
            << QStringList{"Tensor self", "int[2] kernel_size", "int[2] stride=[]", "int[2] padding=0", "int[2] dilation=1", "bool ceil_mode=False"}
            << QStringList{"Tensor", "Tensor"};
        QTest::addRow("alias set with spaces")
            << "split_with_sizes(Tensor(a -> *) self, SymInt[] split_sizes, int dim=0) -> Tensor(a)[]" << "split_with_sizes" << "default"
            << QStringList{"Tensor(a -> *) self", "SymInt[] split_sizes", "int dim=0"} << QStringList{"Tensor(a)[]"};
        QTest::addRow("quoted default") << "gelu(Tensor self, *, str approximate='none') -> Tensor" << "gelu" << "default"
                                        << QStringList{"Tensor self", "str approximate='none' [kw]"} << QStringList{"Tensor"};
        QTest::addRow("in-place") << "hardtanh_(Tensor(a!) self, Scalar min_val=-1, Scalar max_val=1) -> Tensor(a!)" << "hardtanh_"
                                  << "default" << QStringList{"Tensor(a!) self [mut]", "Scalar min_val=-1", "Scalar max_val=1"}
                                  << QStringList{"Tensor(a!) [mut]"};
        QTest::addRow("named returns") << "_sink_tokens(Tensor[] tokens) -> ()" << "_sink_tokens" << "default"
                                       << QStringList{"Tensor[] tokens"} << QStringList{};
        QTest::addRow("named tuple returns")
            << "svd(Tensor A, *, bool full_matrices) -> (Tensor U, Tensor S, Tensor Vh)" << "svd" << "default"
            << QStringList{"Tensor A", "bool full_matrices [kw]"} << QStringList{"Tensor U", "Tensor S", "Tensor Vh"};
        QTest::addRow("namespace prefix") << "aten::view(Tensor(a) self, SymInt[] size) -> Tensor(a)" << "view" << "default"
                                          << QStringList{"Tensor(a) self", "SymInt[] size"} << QStringList{"Tensor(a)"};
        QTest::addRow("optional list") << "sum.dim_IntList(Tensor self, int[1]? dim, bool keepdim=False, *, ScalarType? dtype=None) -> Tensor"
                                       << "sum" << "dim_IntList"
                                       << QStringList{"Tensor self", "int[1]? dim", "bool keepdim=False", "ScalarType? dtype=None [kw]"}
                                       << QStringList{"Tensor"};
    }
    void parseSchema() {
        QFETCH(QString, text);
        QFETCH(QString, name);
        QFETCH(QString, overload);
        QFETCH(QStringList, args);
        QFETCH(QStringList, returns);
        auto s = parseSchemaDetailed(text.toStdString());
        QVERIFY2(s.isOk(), s.error().c_str());
        QCOMPARE(QString::fromStdString(s->name), name);
        QCOMPARE(QString::fromStdString(s->overload), overload);
        QStringList gotArgs, gotRets;
        for (const auto& a : s->args) gotArgs << describe(a);
        for (const auto& r : s->returns) gotRets << describe(r);
        QCOMPARE(gotArgs, args);
        QCOMPARE(gotRets, returns);
    }

    void parseSchemaErrors_data() {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("message");
        QTest::addRow("no parens") << "relu -> Tensor" << "missing '(' after the op name in 'relu -> Tensor'";
        QTest::addRow("no arrow") << "relu(Tensor self)" << "missing '->' after the arguments in 'relu(Tensor self)'";
        QTest::addRow("unbalanced") << "relu(Tensor self -> Tensor" << "unbalanced parentheses in 'relu(Tensor self -> Tensor'";
        QTest::addRow("nameless arg") << "relu(Tensor) -> Tensor"
                                      << "in schema 'relu(Tensor) -> Tensor': argument 'Tensor' has no name";
        QTest::addRow("bad op name") << "re lu(Tensor self) -> Tensor" << "op name 're lu' is not an identifier";
        QTest::addRow("empty return") << "relu(Tensor self) ->" << "missing return type in 'relu(Tensor self) ->'";
    }
    void parseSchemaErrors() {
        QFETCH(QString, text);
        QFETCH(QString, message);
        auto s = parseSchemaDetailed(text.toStdString());
        QVERIFY(!s.isOk());
        QCOMPARE(QString::fromStdString(s.error()), message);
        QVERIFY(!irlens::core::parseSchema(text.toStdString()).has_value());
    }

    void tablesComplete() {
        const auto& reg = OpRegistry::instance();
        QCOMPARE(reg.coreOverloadCount(), size_t(193));
        QCOMPARE(tableRows("core_aten_ops.tsv"), 193);
        int prims = 0;
        for (const auto& op : reg.all())
            if (op.ns == "prims") ++prims;
        QCOMPARE(prims, tableRows("prims_ops.tsv"));
        QCOMPARE(prims, 128);
    }

    void levels_data() {
        QTest::addColumn<QString>("target");
        QTest::addColumn<QString>("level");
        QTest::addColumn<bool>("known"); // a schema is registered
        QTest::addRow("core addmm") << "torch.ops.aten.addmm.default" << "core ATen" << true;
        QTest::addRow("core add.Tensor") << "torch.ops.aten.add.Tensor" << "core ATen" << true;
        QTest::addRow("core view") << "torch.ops.aten.view.default" << "core ATen" << true;
        QTest::addRow("core bn eval") << "torch.ops.aten._native_batch_norm_legit_no_training.default" << "core ATen" << true;
        QTest::addRow("linear") << "torch.ops.aten.linear.default" << "training" << true;
        QTest::addRow("conv2d") << "torch.ops.aten.conv2d.default" << "training" << true;
        QTest::addRow("t") << "torch.ops.aten.t.default" << "training" << true;
        QTest::addRow("split.Tensor") << "torch.ops.aten.split.Tensor" << "training" << true;
        QTest::addRow("relu_ (synthesized)") << "torch.ops.aten.relu_.default" << "training" << true;
        QTest::addRow("add_.Tensor") << "torch.ops.aten.add_.Tensor" << "training" << true;
        QTest::addRow("hardtanh_") << "torch.ops.aten.hardtanh_.default" << "training" << true;
        QTest::addRow("sdpa") << "torch.ops.aten.scaled_dot_product_attention.default" << "training" << true;
        QTest::addRow("unknown aten") << "torch.ops.aten.frobnicate.default" << "training" << false;
        QTest::addRow("prim") << "torch.ops.prims.convert_element_type.default" << "prims" << true;
        QTest::addRow("prim broadcast") << "torch.ops.prims.broadcast_in_dim.default" << "prims" << true;
        QTest::addRow("sym_size") << "torch.ops.aten.sym_size.int" << "symbolic" << true;
        QTest::addRow("getitem") << "_operator.getitem" << "symbolic" << false;
        QTest::addRow("cond") << "torch.ops.higher_order.cond" << "higher-order" << false;
        QTest::addRow("custom op") << "torch.ops.mylib.custom_op.default" << "custom" << false;
        QTest::addRow("extension") << "#mylib:fancy" << "custom" << false;
        QTest::addRow("garbage") << "lambda" << "unknown" << false;
    }
    void levels() {
        QFETCH(QString, target);
        QFETCH(QString, level);
        QFETCH(bool, known);
        const auto& reg = OpRegistry::instance();
        Target t = Target::parse(target.toStdString());
        QCOMPARE(QString(irLevelName(reg.levelOf(t))), level);
        QCOMPARE(reg.find(t) != nullptr, known);
    }

    void inplaceVariantSchema() {
        const OpInfo* op = OpRegistry::instance().find("aten", "add_", "Tensor");
        QVERIFY(op);
        QCOMPARE(QString::fromStdString(op->schema.text),
                 QString("add_.Tensor(Tensor(a!) self, Tensor other, *, Scalar alpha=1) -> Tensor(a!)"));
        QVERIFY(op->schema.isInplace());
        QVERIFY(!op->schema.isOut());
        const OpInfo* relu = OpRegistry::instance().find("aten", "relu", "default");
        QVERIFY(relu && !relu->schema.isInplace());
    }

    void primColumns() {
        const OpInfo* eq = OpRegistry::instance().find("prims", "eq", "default");
        QVERIFY(eq);
        QCOMPARE(QString::fromStdString(eq->primTypePromotion), QString("ALWAYS_BOOL"));
        QCOMPARE(QString::fromStdString(eq->primKind), QString("elementwise_binary"));
        const OpInfo* bid = OpRegistry::instance().find("prims", "broadcast_in_dim", "default");
        QVERIFY(bid);
        QCOMPARE(QString::fromStdString(bid->primReturnType), QString("VIEW"));
        QCOMPARE(bid->schema.args.size(), size_t(3));
        QCOMPARE(QString::fromStdString(bid->schema.args[2].name), QString("broadcast_dimensions"));
    }
};

QTEST_GUILESS_MAIN(TstOpRegistry)
#include "tst_op_registry.moc"
