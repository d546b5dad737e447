// One op key: the "ns::op.overload" string Target::key() makes is the key of the op registry, the
// kernel table, the meta-function table and the decomposition rule table alike.

#include "core/decomp/rules.h"
#include "core/exec/kernel_registry.h"
#include "core/ops/meta.h"
#include "core/ops/op_registry.h"

#include <QTest>

#include <set>
#include <string>

using namespace irlens::core;

namespace {

// "aten::add.Tensor" -> the target a node calling it carries ("torch.ops.aten.add.Tensor").
Target targetOfKey(const std::string& key) {
    const auto colons = key.find("::");
    return Target::parse("torch.ops." + key.substr(0, colons) + "." + key.substr(colons + 2));
}

bool isOpKey(const std::string& key) { return key.rfind("aten::", 0) == 0 || key.rfind("prims::", 0) == 0; }

// The keys a table holds that do not survive the round trip key -> target -> key ("aten::relu" without
// its ".default", a stray separator). Kernels of ops outside the core ATen / prims / training tables
// (aten::clip, aten::conv_transpose1d, ...) are legitimate, so the registry is not asked about them.
QStringList strayKeys(const std::vector<std::string>& keys) {
    QStringList stray;
    for (const auto& key : keys) {
        if (!isOpKey(key) || key.find('<') != std::string::npos) continue; // generic rules: "aten::<elementwise>"
        const Target t = targetOfKey(key);
        if (t.key() != key) stray << QString::fromStdString(key + " (reads back as " + t.key() + ")");
    }
    return stray;
}

std::vector<std::string> ruleKeys() {
    std::vector<std::string> keys;
    for (const DecompRule* r : allRules()) keys.push_back(r->key);
    return keys;
}

} // namespace

class TstOpKey : public QObject {
    Q_OBJECT
private slots:
    void keyOfTarget_data() {
        QTest::addColumn<QString>("target");
        QTest::addColumn<QString>("key");
        QTest::addRow("overload") << "torch.ops.aten.add.Tensor" << "aten::add.Tensor";
        QTest::addRow("default kept") << "torch.ops.aten.relu.default" << "aten::relu.default";
        QTest::addRow("no overload written") << "torch.ops.aten.relu" << "aten::relu.default";
        QTest::addRow("prim") << "torch.ops.prims.convert_element_type.default" << "prims::convert_element_type.default";
        QTest::addRow("higher-order") << "torch.ops.higher_order.cond" << "higher_order::cond";
        QTest::addRow("symbolic") << "_operator.add" << "_operator.add";
    }
    void keyOfTarget() {
        QFETCH(QString, target);
        QFETCH(QString, key);
        QCOMPARE(QString::fromStdString(Target::parse(target.toStdString()).key()), key);
    }

    // Every core ATen and prims entry is found through its node target's key in every table that has it.
    void registryEntriesResolveEverywhere() {
        const auto& kernels = exec::KernelRegistry::instance();
        const auto metaKeys = metaFunctionKeys();
        const std::set<std::string> metaSet(metaKeys.begin(), metaKeys.end());
        int entries = 0, withKernel = 0, withMeta = 0;
        for (const OpInfo& op : OpRegistry::instance().all()) {
            if (op.level != IrLevel::CoreAten && op.level != IrLevel::Prims) continue;
            ++entries;
            const Target t = Target::parse("torch.ops." + op.ns + "." + op.schema.name + "." + op.schema.overload);
            QCOMPARE(QString::fromStdString(t.key()), QString::fromStdString(op.key()));
            QVERIFY2(OpRegistry::instance().find(t) == &op, op.key().c_str());
            QCOMPARE(kernels.find(t) != nullptr, kernels.has(op.key()));
            withKernel += kernels.has(op.key());
            if (metaSet.count(op.key())) {
                QVERIFY2(hasMetaFunction(t), op.key().c_str());
                ++withMeta;
            }
        }
        QVERIFY(entries >= 193); // the core tag's overloads at least
        // the tables really share the key: most core ops have a kernel and a meta function through it
        QVERIFY2(withKernel > entries / 2, qPrintable(QString("%1 of %2 with a kernel").arg(withKernel).arg(entries)));
        QVERIFY2(withMeta > 50, qPrintable(QString("%1 of %2 with a meta function").arg(withMeta).arg(entries)));
    }

    // No table spells a key another way ("aten::relu" without ".default", "aten.relu.default").
    void everyTableUsesTheKey() {
        const QStringList kernels = strayKeys(exec::KernelRegistry::instance().keys());
        QVERIFY2(kernels.isEmpty(), qPrintable("kernels: " + kernels.join(", ")));
        const QStringList meta = strayKeys(metaFunctionKeys());
        QVERIFY2(meta.isEmpty(), qPrintable("meta: " + meta.join(", ")));
        const QStringList rules = strayKeys(ruleKeys());
        QVERIFY2(rules.isEmpty(), qPrintable("rules: " + rules.join(", ")));
    }

    // A node calling a rule's op finds that rule, a kernel's op finds that kernel.
    void nodesFindTheirEntries() {
        for (const DecompRule* r : allRules()) {
            if (!isOpKey(r->key) || r->key.find('<') != std::string::npos) continue;
            Node n;
            n.name = "n";
            n.target = targetOfKey(r->key);
            QVERIFY2(findRule(n, r->stage) == r, r->key.c_str());
        }
        const auto& kernels = exec::KernelRegistry::instance();
        for (const auto& key : kernels.keys())
            if (isOpKey(key)) QVERIFY2(kernels.find(targetOfKey(key)) == kernels.find(key), key.c_str());
    }
};

QTEST_MAIN(TstOpKey)
#include "tst_op_key.moc"
