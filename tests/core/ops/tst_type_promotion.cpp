// Type promotion and broadcasting tables (torch._prims_common semantics; rows from the reference
// notes' worked examples and from PyTorch's promotion behaviour).

#include "core/ops/type_promotion.h"

#include <QTest>

using namespace irlens::core;

Q_DECLARE_METATYPE(irlens::core::PromotionKind)

namespace {

// "f32[3]" / "f32()" a tensor of rank 1 / 0; "int", "float", "bool", "complex" Python numbers.
PromotionOperand operand(const QString& text) {
    if (text == "int") return PromotionOperand::number(TypeCategory::Integer);
    if (text == "float") return PromotionOperand::number(TypeCategory::Floating);
    if (text == "bool") return PromotionOperand::number(TypeCategory::Bool);
    if (text == "complex") return PromotionOperand::number(TypeCategory::Complex);
    int bracket = text.indexOf(text.contains('[') ? '[' : '(');
    auto dtype = dtypeFromName(text.left(bracket).toStdString());
    return PromotionOperand::tensor(dtype.value_or(ScalarType::Unknown), text.mid(bracket).startsWith("()") ? 0 : 1);
}

std::vector<int64_t> ints(const QString& text) {
    std::vector<int64_t> out;
    for (const auto& p : text.split(',', Qt::SkipEmptyParts)) out.push_back(p.trimmed().toLongLong());
    return out;
}

} // namespace

class TstTypePromotion : public QObject {
    Q_OBJECT
private slots:
    void elementwise_data() {
        QTest::addColumn<QStringList>("operands");
        QTest::addColumn<PromotionKind>("kind");
        QTest::addColumn<QString>("computation");
        QTest::addColumn<QString>("result");
        using K = PromotionKind;
        QTest::addRow("uint8+int8 -> int16") << QStringList{"uint8[3]", "int8[3]"} << K::Default << "int16" << "int16";
        QTest::addRow("float16+bfloat16 -> float32") << QStringList{"float16[3]", "bfloat16[3]"} << K::Default << "float32" << "float32";
        QTest::addRow("int tensor + 2.5 -> default float") << QStringList{"int32[3]", "float"} << K::Default << "float32" << "float32";
        QTest::addRow("0-dim f64 + f32 tensor -> f32") << QStringList{"float64()", "float32[3]"} << K::Default << "float32" << "float32";
        QTest::addRow("int8 + float32") << QStringList{"int8[4]", "float32[4]"} << K::Default << "float32" << "float32";
        QTest::addRow("f16 + 0-dim f32: opmath") << QStringList{"float16[3]", "float32()"} << K::Default << "float32" << "float16";
        QTest::addRow("f16 + f16: opmath") << QStringList{"float16[3]", "float16[3]"} << K::Default << "float32" << "float16";
        QTest::addRow("bf16 no opmath") << QStringList{"bfloat16[3]", "bfloat16[3]"} << K::NoOpmath << "bfloat16" << "bfloat16";
        QTest::addRow("int8 + 0-dim int64") << QStringList{"int8[3]", "int64()"} << K::Default << "int8" << "int8";
        QTest::addRow("bool + python int") << QStringList{"bool[3]", "int"} << K::Default << "int64" << "int64";
        QTest::addRow("bool + True") << QStringList{"bool[3]", "bool"} << K::Default << "bool" << "bool";
        QTest::addRow("f32 + 1j") << QStringList{"float32[3]", "complex"} << K::Default << "complex64" << "complex64";
        QTest::addRow("c64 + 0-dim f64") << QStringList{"complex64[3]", "float64()"} << K::Default << "complex64" << "complex64";
        QTest::addRow("only 0-dim ints + float") << QStringList{"int64()", "float"} << K::Default << "float32" << "float32";
        QTest::addRow("two 0-dim tensors") << QStringList{"float64()", "float32()"} << K::Default << "float64" << "float64";
        QTest::addRow("sigmoid int64") << QStringList{"int64[3]"} << K::IntToFloat << "float32" << "float32";
        QTest::addRow("true div ints") << QStringList{"int64[3]", "int64[3]"} << K::IntToFloat << "float32" << "float32";
        QTest::addRow("int to float keeps f64") << QStringList{"float64[3]"} << K::IntToFloat << "float64" << "float64";
        QTest::addRow("int to float f16 opmath") << QStringList{"float16[3]"} << K::IntToFloat << "float32" << "float16";
        QTest::addRow("eq f16 with 1.0") << QStringList{"float16[3]", "float"} << K::AlwaysBool << "float32" << "bool";
        QTest::addRow("lt int8 int16") << QStringList{"int8[3]", "int16[3]"} << K::AlwaysBool << "int16" << "bool";
        QTest::addRow("abs complex64") << QStringList{"complex64[3]"} << K::ComplexToFloat << "complex64" << "float32";
        QTest::addRow("abs complex32") << QStringList{"complex32[3]"} << K::ComplexToFloat << "complex64" << "float16";
        QTest::addRow("abs float16") << QStringList{"float16[3]"} << K::ComplexToFloat << "float32" << "float16";
        QTest::addRow("pow bool bool") << QStringList{"bool[3]", "bool[3]"} << K::BoolToLong << "int64" << "int64";
        QTest::addRow("pow f16 int") << QStringList{"float16[3]", "int"} << K::BoolToLong << "float32" << "float16";
        QTest::addRow("where a/b no opmath") << QStringList{"float16[3]", "float"} << K::NoOpmath << "float16" << "float16";
        QTest::addRow("uint8 + int64 0-dim + 2") << QStringList{"uint8[3]", "int64()", "int"} << K::Default << "uint8" << "uint8";
        QTest::addRow("int32 + int64 dims") << QStringList{"int32[3]", "int64[3]"} << K::Default << "int64" << "int64";
        QTest::addRow("f32 + f64 dims") << QStringList{"float32[3]", "float64[3]"} << K::Default << "float64" << "float64";
    }
    void elementwise() {
        QFETCH(QStringList, operands);
        QFETCH(PromotionKind, kind);
        QFETCH(QString, computation);
        QFETCH(QString, result);
        std::vector<PromotionOperand> ops;
        for (const auto& o : operands) ops.push_back(operand(o));
        auto r = elementwiseDtypes(ops, kind);
        QVERIFY2(r.isOk(), r.error().c_str());
        QCOMPARE(QString::fromStdString(dtypeName(r->computation)), computation);
        QCOMPARE(QString::fromStdString(dtypeName(r->result)), result);
    }

    void defaultDtypeFloat64() {
        auto r = elementwiseDtypes({operand("int32[3]"), operand("float")}, PromotionKind::Default, ScalarType::Float64);
        QVERIFY(r.isOk());
        QCOMPARE(r->result, ScalarType::Float64);
        auto c = elementwiseDtypes({operand("int32[3]"), operand("complex")}, PromotionKind::Default, ScalarType::Float64);
        QVERIFY(c.isOk());
        QCOMPARE(c->result, ScalarType::Complex128);
    }

    void promoteTypesErrors() {
        auto r = promoteTypes(ScalarType::UInt16, ScalarType::Int32);
        QVERIFY(!r.isOk());
        QCOMPARE(QString::fromStdString(r.error()),
                 QString("cannot promote uint16 with int32: uint16 is outside the promotion chain of torch._prims_common"));
        QCOMPARE(promoteTypes(ScalarType::UInt16, ScalarType::UInt16).value(), ScalarType::UInt16);
        QCOMPARE(promoteTypes(ScalarType::Complex128, ScalarType::Float16).value(), ScalarType::Complex128);
    }

    void reductions() {
        QCOMPARE(reductionDtypes(ScalarType::Float16, ReductionKind::Same), (PromotedTypes{ScalarType::Float32, ScalarType::Float16}));
        QCOMPARE(reductionDtypes(ScalarType::Complex64, ReductionKind::ComplexToFloat),
                 (PromotedTypes{ScalarType::Complex64, ScalarType::Float32}));
        QCOMPARE(reductionDtypes(ScalarType::Float32, ReductionKind::AlwaysBool).result, ScalarType::Bool);
        QCOMPARE(reductionDtypes(ScalarType::Int32, ReductionKind::Same, ScalarType::Float64).computation, ScalarType::Float64);
        QCOMPARE(sumResultType(ScalarType::Bool, std::nullopt), ScalarType::Int64);
        QCOMPARE(sumResultType(ScalarType::Int32, std::nullopt), ScalarType::Int64);
        QCOMPARE(sumResultType(ScalarType::Int32, ScalarType::Int32), ScalarType::Int32);
        QCOMPARE(sumResultType(ScalarType::BFloat16, std::nullopt), ScalarType::BFloat16);
    }

    void broadcast_data() {
        QTest::addColumn<QString>("a");
        QTest::addColumn<QString>("b");
        QTest::addColumn<QString>("expected"); // shape, or the error message
        QTest::addRow("same") << "4,3" << "4,3" << "[4, 3]";
        QTest::addRow("right aligned") << "4,1" << "3" << "[4, 3]";
        QTest::addRow("scalar tensor") << "" << "2,5" << "[2, 5]";
        QTest::addRow("both stretch") << "8,1,6,1" << "7,1,5" << "[8, 7, 6, 5]";
        QTest::addRow("one vs zero") << "1" << "0" << "[0]";
        QTest::addRow("zero vs zero") << "2,0" << "0" << "[2, 0]";
        QTest::addRow("mismatch") << "4,3" << "2"
                                  << "cannot broadcast dimension -1: size 2 of argument 1 (shape [2]) against 3 (shape so far [4, 3])";
        QTest::addRow("zero vs N") << "0" << "3" << "cannot broadcast dimension -1: size 3 of argument 1 (shape [3]) against 0 (shape so far [0])";
    }
    void broadcast() {
        QFETCH(QString, a);
        QFETCH(QString, b);
        QFETCH(QString, expected);
        auto r = broadcastShapes({literalShape(ints(a)), literalShape(ints(b))});
        QCOMPARE(QString::fromStdString(r.isOk() ? shapeString(*r) : r.error()), expected);
    }

    void broadcastSymbolic() {
        SymInt s0 = SymInt::expression("s0", 4);
        auto r = broadcastShapes({{s0, SymInt::literal(1)}, {SymInt::literal(1), SymInt::literal(5)}});
        QVERIFY(r.isOk());
        QCOMPARE(QString::fromStdString(shapeString(*r)), QString("[s0, 5]"));
        auto same = broadcastShapes({{s0, SymInt::literal(3)}, {SymInt::expression("s0", 4), SymInt::literal(3)}});
        QVERIFY(same.isOk());
        QCOMPARE(QString::fromStdString(shapeString(*same)), QString("[s0, 3]"));
        // A symbol against a literal resolves to the literal (torch guards s0 == 3).
        auto guarded = broadcastShapes({{s0}, {SymInt::literal(3)}});
        QVERIFY(guarded.isOk());
        QCOMPARE(QString::fromStdString(shapeString(*guarded)), QString("[3]"));
    }
};

QTEST_GUILESS_MAIN(TstTypePromotion)
#include "tst_type_promotion.moc"
