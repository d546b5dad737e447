// Comparing two programs: structural matching of independent exports, matching through a
// decomposition's old -> new map, the per-module summary, numeric divergence and the scale cases.

#include "core/compare/divergence.h"
#include "core/compare/program_match.h"
#include "core/decomp/decomp_session.h"
#include "core/io/pt2_reader.h"
#include "core/io/pt2_writer.h"
#include "core/ir/builder.h"
#include "support/shared_fixtures.h"
#include "support/view_programs.h"
#include "support/zoo_files.h"
#include "support/synthetic_program.h"

#include <QElapsedTimer>
#include <QTemporaryDir>
#include <functional>
#include <QTest>

#include <algorithm>

using namespace irlens::core;

namespace {

/// A shared fixture or an owned program's file, "zoo/..." (nullptr when it cannot be read: the caller's QVERIFY says which).
ProgramPtr load(const std::string& relative) {
    if (relative.rfind("zoo/", 0) == 0) irlens::testing::writeViewPrograms();
    auto p = loadPt2(irlens::testing::fixture(relative).string());
    if (!p) qWarning("cannot load %s: %s", relative.c_str(), p.error().c_str());
    return p ? *p : nullptr;
}

std::string moduleOf(const Node& n) {
    return n.meta.moduleStack && !n.meta.moduleStack->empty() ? n.meta.moduleStack->back().path : std::string();
}

bool startsWith(const std::string& s, const std::string& prefix) { return s.rfind(prefix, 0) == 0; }

/// `program` with one node's target replaced, rebuilt through the ProgramBuilder (which checks it).
ProgramPtr withTarget(const Program& program, const std::string& nodeName, const std::string& target) {
    ProgramBuilder b(program.modelName + "_edit");
    b.program() = program;
    b.graph().graph() = program.graph;
    for (auto& n : b.graph().graph().nodes)
        if (n.name == nodeName) n.target = Target::parse(target);
    auto built = b.build();
    if (!built) qFatal("rebuilding: %s", built.error().c_str());
    return *built;
}

double medianMs(const std::function<void()>& job, int runs) {
    std::vector<double> ms;
    for (int k = 0; k < runs; ++k) {
        QElapsedTimer t;
        t.start();
        job();
        ms.push_back(static_cast<double>(t.nsecsElapsed()) / 1e6);
    }
    std::sort(ms.begin(), ms.end());
    return ms[ms.size() / 2];
}

} // namespace

class TstCompare : public QObject {
    Q_OBJECT
private slots:
    void identicalBuiltPrograms() {
        auto m = matchStructurally(irlens::testing::makeBlockStack(6), irlens::testing::makeBlockStack(6));
        QVERIFY2(m.identical(), m.summary().c_str());
        QCOMPARE(m.count(MatchKind::Same), size_t(19));
    }

    void insertedBlockShiftsNothing() {
        // Five blocks against six: the sixth block's three nodes are added, every other node is the same
        // (the head reads block 5's output instead of block 4's: same structure, same node).
        auto m = matchStructurally(irlens::testing::makeBlockStack(5), irlens::testing::makeBlockStack(6));
        QCOMPARE(m.count(MatchKind::Added), size_t(3));
        QCOMPARE(m.count(MatchKind::Same), size_t(16));
        QCOMPARE(m.count(MatchKind::Changed) + m.count(MatchKind::Removed), size_t(0));
        for (int d : m.differences())
            QVERIFY(startsWith(moduleOf(m.right->graph.nodes[static_cast<size_t>(m.pairs[static_cast<size_t>(d)].right[0])]), "layers.5"));
        // the added block's parameter is in the module summary
        auto mod = std::find_if(m.modules.begin(), m.modules.end(), [](const ModuleDiff& d) { return d.path == "layers.5.fc"; });
        QVERIFY(mod != m.modules.end());
        QCOMPARE(mod->params.size(), size_t(1));
        QVERIFY(mod->params[0].left.empty());
        QCOMPARE(QString::fromStdString(mod->params[0].right), QString("f32[16, 16]"));
    }

    void swappedOpIsOneChange() {
        auto left = irlens::testing::makeBlockStack(4);
        auto right = withTarget(*left, "relu_2", "torch.ops.aten.sigmoid.default");
        auto m = matchStructurally(left, right);
        QCOMPARE(m.differences().size(), size_t(1));
        const NodePair& p = m.pairs[static_cast<size_t>(m.differences()[0])];
        QCOMPARE(p.kind, MatchKind::Changed);
        QCOMPARE(p.changes, unsigned(ChangeTarget));
        QCOMPARE(QString::fromStdString(m.leftName(p)), QString("relu_2"));
        QCOMPARE(QString::fromStdString(m.rightNames(p)), QString("relu_2"));
    }

    void identicalFixture_data() {
        QTest::addColumn<QString>("file");
        QTest::addColumn<int>("nodes");
        QTest::addRow("zoo/gpt_block") << "zoo/gpt_block/model.pt2" << int(irlens::testing::zoo::gptBlock()->graph.nodes.size());
        QTest::addRow("zoo/decoder_like") << "zoo/decoder_like/model.pt2" << int(irlens::testing::owned::decoderStack()->graph.nodes.size());
    }
    void identicalFixture() {
        QFETCH(QString, file);
        QFETCH(int, nodes);
        IRLENS_REQUIRE_FIXTURE(file);
        auto m = matchStructurally(load(file.toStdString()), load(file.toStdString()));
        QVERIFY2(m.identical(), m.summary().c_str());
        QCOMPARE(m.count(MatchKind::Same), size_t(nodes));
    }

    // An edited copy as tiny_gpt_edit is of tiny_gpt: the 4-block decoder stack against the same stack grown to
    // five blocks with block 2's SiLU made a GELU.
    void editedDecoderStack() {
        const ProgramPtr left = irlens::testing::owned::decoderStack(4), grown = irlens::testing::owned::decoderStack(5);
        std::string silu;
        for (const auto& n : grown->graph.nodes)
            if (n.target.op() == "silu" && moduleOf(n) == "layers.2.mlp") silu = n.name;
        QVERIFY(!silu.empty());
        auto m = matchStructurally(left, withTarget(*grown, silu, "torch.ops.aten.gelu.default"));
        QCOMPARE(m.count(MatchKind::Changed), size_t(1));
        QCOMPARE(m.count(MatchKind::Removed), size_t(0));
        QCOMPARE(m.count(MatchKind::Same), left->graph.nodes.size() - 1); // every other node of the stack
        QCOMPARE(m.count(MatchKind::Added), grown->graph.nodes.size() - left->graph.nodes.size()); // the fifth block
        for (int d : m.differences()) {
            const NodePair& p = m.pairs[static_cast<size_t>(d)];
            const Node& r = m.right->graph.nodes[static_cast<size_t>(p.right.at(0))];
            if (p.kind == MatchKind::Added) {
                QVERIFY2(startsWith(moduleOf(r), "layers.4"), r.name.c_str());
                continue;
            }
            const Node& l = m.left->graph.nodes[static_cast<size_t>(p.left)];
            QCOMPARE(QString::fromStdString(moduleOf(l)), QString("layers.2.mlp"));
            QCOMPARE(QString::fromStdString(l.target.shortName()), QString("aten.silu.default"));
            QCOMPARE(QString::fromStdString(r.target.shortName()), QString("aten.gelu.default"));
            QVERIFY(p.changes & ChangeTarget);
            QVERIFY(!(p.changes & (ChangeShape | ChangeDtype)));
        }
        QVERIFY(std::any_of(m.modules.begin(), m.modules.end(), [](const ModuleDiff& d) { return d.path == "layers.4" && !d.onLeft; }));
    }

    void throughPrimsDecomposition() {
        irlens::testing::zooDir();
        DecompSessionOptions options;
        options.verify = false;
        DecompSession session(load("zoo/gpt_block/model.pt2"), options);
        auto step = session.stepToLevel(IrLevel::Prims);
        QVERIFY2(step.isOk(), step.error().c_str());
        auto m = matchDecomposition(session);
        QCOMPARE(m.method, ProgramMatch::Method::Decomposition);
        const auto map = composeReplacements(session);
        QVERIFY(!map.empty());
        for (size_t l = 0; l < m.left->graph.nodes.size(); ++l) {
            const NodePair& p = m.pairs[static_cast<size_t>(m.leftPair[l])];
            const std::string& name = m.left->graph.nodes[l].name;
            auto it = map.find(name);
            if (it == map.end()) {
                QVERIFY2(p.kind == MatchKind::Same, name.c_str()); // untouched: the node itself
                QCOMPARE(QString::fromStdString(m.rightNames(p)), QString::fromStdString(name));
                continue;
            }
            // replaced: paired with exactly the nodes the session says replaced it
            QCOMPARE(p.right.size(), it->second.size());
            for (size_t k = 0; k < p.right.size(); ++k)
                QCOMPARE(m.right->graph.nodes[static_cast<size_t>(p.right[k])].name, it->second[k]);
            if (!p.right.empty()) QCOMPARE(p.kind, MatchKind::Changed);
        }
        QCOMPARE(m.count(MatchKind::Added), size_t(0)); // every node on the prims side replaces an original one
    }

    void numericDivergenceNamesTheActivation() {
        IRLENS_REQUIRE_SHARED();
        auto m = matchStructurally(load("generated/tiny_gpt/model.pt2"), load("generated/tiny_gpt_edit/model.pt2"));
        DivergenceOptions options;
        options.expectedDir = irlens::testing::fixture("generated/tiny_gpt/model.expected").string();
        auto d = findDivergence(m, options);
        QVERIFY2(d.isOk(), d.error().c_str());
        const ValueComparison* first = d->firstDivergent();
        QVERIFY2(first, d->summary(m).c_str());
        const Node& l = m.left->graph.nodes[static_cast<size_t>(m.pairs[static_cast<size_t>(first->pair)].left)];
        QCOMPARE(QString::fromStdString(moduleOf(l)), QString("blocks.2.act"));
        QCOMPARE(QString::fromStdString(l.target.shortName()), QString("aten.gelu.default"));
        QVERIFY(first->relative > 1e-2);
        // everything before it agrees exactly (same weights, same kernels, one thread)
        for (int k = 0; k < d->first; ++k) QCOMPARE(d->compared[static_cast<size_t>(k)].maxAbs, 0.0);
        QVERIFY(d->first > 100);
        // the path into it: ... blocks.2.ln2 -> blocks.2.fc (addmm) -> view, all agreeing
        QVERIFY(d->agreeingPath.size() >= 3);
        const NodePair& before = m.pairs[static_cast<size_t>(d->agreeingPath.back())];
        QVERIFY(startsWith(moduleOf(m.left->graph.nodes[static_cast<size_t>(before.left)]), "blocks.2.fc"));
        QVERIFY(!d->outputsAgree);
    }

    void noDivergenceAgainstItself_data() { identicalFixture_data(); }
    void noDivergenceAgainstItself() {
        QFETCH(QString, file);
        QFETCH(int, nodes);
        IRLENS_REQUIRE_FIXTURE(file);
        auto m = matchStructurally(load(file.toStdString()), load(file.toStdString()));
        auto d = findDivergence(m);
        QVERIFY2(d.isOk(), d.error().c_str());
        QVERIFY2(!d->firstDivergent(), d->summary(m).c_str());
        QCOMPARE(d->compared.size(), size_t(nodes));
        QVERIFY(d->outputsAgree);
    }

    void legacyAgainstArchive_data() {
        // the generated pair of one model, and every legacy file against its own conversion to the
        // PT2 archive layout (written by the project's writer, read back)
        QTest::addColumn<QString>("legacy");
        QTest::addColumn<QString>("archive");
        QTest::addRow("tiny_mlp") << "generated/tiny_mlp/model.legacy.pt2" << "generated/tiny_mlp/model.pt2";
        for (const char* legacy : {"generated/tiny_mlp/model.legacy.pt2", "real/hades-pid-dann-legacy-schema2/exported_program.pt2",
                                   "real/tensorrt-add-legacy-schema7/trt-schema7.3.ep", "real/tensorrt-add-legacy-schema7/trt-schema7.4.ep"})
            QTest::addRow("%s converted", legacy) << legacy << "";
    }
    void legacyAgainstArchive() {
        IRLENS_REQUIRE_SHARED();
        QFETCH(QString, legacy);
        QFETCH(QString, archive);
        ProgramPtr old = load(legacy.toStdString());
        QVERIFY(old);
        QVERIFY(old->container == ContainerKind::LegacyZip);
        ProgramPtr fresh;
        QTemporaryDir dir;
        if (archive.isEmpty()) {
            const std::string out = dir.filePath("converted.pt2").toStdString();
            Status saved = savePt2(*old, out);
            QVERIFY2(saved.isOk(), saved.message().c_str());
            auto reread = loadPt2(out);
            QVERIFY2(reread.isOk(), reread.error().c_str());
            fresh = *reread;
        } else {
            fresh = load(archive.toStdString());
        }
        QVERIFY(fresh && fresh->container == ContainerKind::Pt2Archive);
        auto m = matchStructurally(old, fresh);
        QVERIFY2(m.identical(), m.summary().c_str());
        QCOMPARE(m.count(MatchKind::Same), m.left->graph.nodes.size());
    }

    void scaleDeepStackOneBlockEdited() {
        irlens::testing::zooDir();
        auto deep = load("zoo/deep_residual_stack/model.pt2"); // 240 blocks, 1,682 nodes
        QVERIFY(deep);
        std::string gelu;
        for (const auto& n : deep->graph.nodes)
            if (n.target.op() == "gelu" && moduleOf(n) == "layers.100") gelu = n.name;
        QVERIFY(!gelu.empty());
        auto edited = withTarget(*deep, gelu, "torch.ops.aten.silu.default");
        ProgramMatch m;
        const double ms = medianMs([&] { m = matchStructurally(deep, edited); }, 5);
        qInfo("deep residual stack vs one block edited: %.1f ms (median of 5)", ms);
        QCOMPARE(m.differences().size(), size_t(1));
        QCOMPARE(QString::fromStdString(m.leftName(m.pairs[static_cast<size_t>(m.differences()[0])])), QString::fromStdString(gelu));
        QVERIFY2(ms < 1000, qPrintable(QString("%1 ms").arg(ms)));
    }

    void scaleDeepDecoderStackAgainstItself() {
        auto a = load("zoo/deep_decoder_like/model.pt2"), b = load("zoo/deep_decoder_like/model.pt2"); // 240 blocks, 6,002 nodes
        QVERIFY(a && b);
        ProgramMatch m;
        const double ms = medianMs([&] { m = matchStructurally(a, b); }, 3);
        qInfo("deep decoder stack vs itself: %.1f ms (median of 3)", ms);
        QVERIFY2(m.identical(), m.summary().c_str());
        QVERIFY2(ms < 2000, qPrintable(QString("%1 ms").arg(ms)));
    }
};

QTEST_GUILESS_MAIN(TstCompare)
#include "tst_compare.moc"
