// core/teach without a window: the lessons verify clean and decompose as the tour says, every
// exercise is flagged by the verifier at one place and judged against that finding, every tour stop
// can be done on its program (and a wrong attempt is refused), and "Explain this program" names what
// is special about each program (owned ones always, the shared fixtures when present).
#include "core/decomp/decomp_session.h"
#include "core/ir/example_program.h"
#include "core/io/pt2_reader.h"
#include "core/teach/exercise_programs.h"
#include "core/teach/exercises.h"
#include "core/teach/explain.h"
#include "core/teach/lesson_programs.h"
#include "core/teach/tour.h"
#include "core/verify/verifier.h"
#include "support/shared_fixtures.h"
#include "support/view_programs.h"
#include "support/zoo_files.h"

#include <QTest>

#include <set>

using namespace irlens::core;
using namespace irlens::core::teach;

namespace {

std::string findingsText(const std::vector<Diagnostic>& found) {
    std::string out;
    for (const auto& d : found) out += formatDiagnostic(d) + "\n";
    return out;
}

// The sentences of one topic, joined.
std::string topic(const std::vector<ExplainSentence>& sentences, const std::string& name) {
    std::string out;
    for (const auto& s : sentences)
        if (s.topic == name) out += s.text + "\n";
    return out;
}

bool links(const std::vector<ExplainSentence>& sentences, const std::string& name, const std::string& target) {
    for (const auto& s : sentences)
        if (s.topic == name)
            for (const auto& l : s.links)
                if (l.target == target) return true;
    return false;
}

// Every link's words are in its sentence (in backquotes) and every node or input it names exists.
void checkLinks(const Program& p, const std::vector<ExplainSentence>& sentences) {
    std::set<std::string> names;
    for (const auto& n : p.graph.nodes) names.insert("node:" + n.name);
    for (const auto& in : p.graph.inputs) {
        std::vector<std::string> v;
        in.collectValueNames(v);
        for (const auto& n : v) names.insert("in:" + n);
    }
    for (const auto& s : sentences)
        for (const auto& l : s.links) {
            QVERIFY2(s.text.find("`" + l.text + "`") != std::string::npos, (s.text + " / " + l.text).c_str());
            if (l.target.rfind("node:", 0) == 0 || l.target.rfind("in:", 0) == 0)
                QVERIFY2(names.count(l.target), (s.text + " / " + l.target).c_str());
        }
}

ProgramPtr loadShared(const std::string& name) {
    auto r = loadPt2(irlens::testing::fixture(irlens::testing::programFolder(name) + "/model.pt2").string());
    return r.isOk() ? *r : nullptr;
}

// A state in which `stop`'s task is done on `p`, found by trying every node and placeholder.
std::optional<TourState> solvedState(const TourStop& stop, const Program& p) {
    TourState s;
    s.program = &p;
    for (const auto& n : p.graph.nodes) {
        s.selectedNode = n.name;
        if (checkStop(stop, s).done) return s;
    }
    s.selectedNode.clear();
    for (const auto& in : p.graph.inputs) {
        std::vector<std::string> v;
        in.collectValueNames(v);
        if (v.empty()) continue;
        s.selectedItem = "in:" + v.front();
        if (checkStop(stop, s).done) return s;
    }
    return std::nullopt;
}

} // namespace

class TstTeach : public QObject {
    Q_OBJECT
private slots:
    void lessonsVerifyClean();
    void lessonsDecomposeAsTheTourSays();
    void exerciseBasesAreClean();
    void exercises_data();
    void exercises();
    void exerciseCatalogue();
    void tourStops();
    void tourAnswers();
    void explainOwnedPrograms();
    void explainSharedFixtures_data();
    void explainSharedFixtures();
};

void TstTeach::lessonsVerifyClean() {
    for (const char* name : {"example", "cond", "buffer", "dynamic"}) {
        ProgramPtr p = makeLesson(name);
        QVERIFY2(p, name);
        const auto found = verify(*p);
        const auto counts = countDiagnostics(found);
        QVERIFY2(counts.errors == 0 && counts.warnings == 0, (std::string(name) + "\n" + findingsText(found)).c_str());
        // the dynamic lesson's in-place relu_ is the one note the tour's verifier stop points at
        if (std::string(name) == "dynamic") {
            QCOMPARE(found.size(), size_t(1));
            QCOMPARE(found[0].ruleId, std::string("EIR-D001"));
            QCOMPARE(found[0].node, std::string("relu_"));
        } else {
            QVERIFY2(found.empty(), (std::string(name) + "\n" + findingsText(found)).c_str());
        }
    }
    QVERIFY(!makeLesson("nope"));
}

void TstTeach::lessonsDecomposeAsTheTourSays() {
    // to_core: linear (symbolic batch) steps to Core ATen
    DecompSession dynamic(makeDynamicLesson());
    auto step = dynamic.stepNode("linear", DecompStage::ToCore);
    QVERIFY2(step.isOk(), step.isOk() ? "" : step.error().c_str());
    std::set<std::string> ops;
    for (const auto& n : dynamic.current()->graph.nodes) ops.insert(n.target.key());
    QVERIFY(ops.count("aten::addmm.default"));
    QVERIFY(!ops.count("aten::linear.default") || dynamic.current()->graph.nodes.size() > 3);
    // prims: div of f32 by the int64 step count makes the promotion explicit, sub of [4, 8] and [8]
    // the broadcast
    DecompSession buffer(makeBufferLesson());
    step = buffer.stepToLevel(IrLevel::Prims);
    QVERIFY2(step.isOk(), step.isOk() ? "" : step.error().c_str());
    ops.clear();
    for (const auto& n : buffer.current()->graph.nodes) ops.insert(n.target.key());
    QVERIFY(ops.count("prims::convert_element_type.default"));
    QVERIFY(ops.count("prims::broadcast_in_dim.default"));
    QVERIFY(ops.count("prims::div.default"));
    QVERIFY(countDiagnostics(verify(*buffer.current())).errors == 0);
}

void TstTeach::exerciseBasesAreClean() {
    // what the exercises break is clean before the break: the one edit is the only fault
    const Program bases[] = {drill::mlpProgram(), drill::counterProgram(false), drill::primsProgram(false, false),
                             drill::condProgram(1)};
    for (const Program& p : bases) {
        const auto found = verify(p);
        QVERIFY2(found.empty(), findingsText(found).c_str());
    }
}

void TstTeach::exercises_data() {
    QTest::addColumn<QString>("id");
    for (const auto& e : teach::exercises()) QTest::addRow("%s", e.id.c_str()) << QString::fromStdString(e.id);
}

void TstTeach::exercises() {
    QFETCH(QString, id);
    const Exercise* e = findExercise(id.toStdString());
    QVERIFY(e);
    const Program p = e->make();
    const auto found = verify(p);
    const Diagnostic* finding = findingFor(*e, found);
    QVERIFY2(finding, ("the verifier does not flag " + e->ruleId + ":\n" + findingsText(found)).c_str());
    const Mark fault = markOf(p, *finding);
    // one thing wrong: every finding that names a place names the same one
    for (const auto& d : found)
        QVERIFY2(markOf(p, d) == fault, ("two places at fault:\n" + findingsText(found)).c_str());
    const MarkVerdict right = judgeMark(*e, p, found, fault);
    QVERIFY2(right.right, right.feedback.c_str());
    QCOMPARE(right.feedback, finding->message);
    // a wrong mark of each kind is refused with the exercise's hint
    std::vector<Mark> wrong{{Mark::Kind::Output, ""}};
    for (const auto& n : p.graph.nodes) wrong.push_back({Mark::Kind::Node, n.name});
    for (const auto& in : p.graph.inputs) {
        std::vector<std::string> v;
        in.collectValueNames(v);
        if (!v.empty()) wrong.push_back({Mark::Kind::Input, v.front()});
    }
    int refused = 0;
    for (const Mark& m : wrong) {
        if (m == fault) continue;
        const MarkVerdict v = judgeMark(*e, p, found, m);
        QVERIFY2(!v.right, m.describe().c_str());
        QVERIFY2(v.feedback.find(e->hint) != std::string::npos && v.feedback.find(m.describe()) != std::string::npos,
                 v.feedback.c_str());
        ++refused;
    }
    QVERIFY(refused >= 3);
}

void TstTeach::exerciseCatalogue() {
    const auto& all = teach::exercises();
    QVERIFY(all.size() >= 15);
    std::set<std::string> ids, rules;
    for (const auto& e : all) {
        QVERIFY2(ids.insert(e.id).second, e.id.c_str());
        QVERIFY2(findRule(e.ruleId), e.ruleId.c_str());
        QVERIFY(!e.title.empty() && !e.brief.empty() && e.hint.size() > 40);
        rules.insert(e.ruleId);
    }
    QVERIFY2(rules.size() >= 15, "at least 15 different rules taught");
    // the kinds the issue names are among them
    for (const char* rule : {"EIR-D001", "EIR-M002", "EIR-G003", "EIR-D003", "EIR-P001", "EIR-G010", "EIR-G011"})
        QVERIFY2(rules.count(rule), rule);
    // a program the verifier does not flag has no answer: every mark is refused
    Exercise clean = all.front();
    clean.make = [] { return drill::mlpProgram(); };
    const Program p = clean.make();
    const MarkVerdict v = judgeMark(clean, p, verify(p), {Mark::Kind::Node, "relu"});
    QVERIFY(!v.right);
}

void TstTeach::tourStops() {
    const auto& stops = teach::tourStops();
    QVERIFY(stops.size() >= 12 && stops.size() <= 20);
    std::set<std::string> ids;
    for (const TourStop& stop : stops) {
        QVERIFY2(ids.insert(stop.id).second, stop.id);
        QCOMPARE(tourStopIndex(stop.id), static_cast<int>(ids.size()) - 1);
        ProgramPtr p = makeLesson(stop.program);
        QVERIFY2(p, stop.id);
        const std::string text = stop.text;
        QVERIFY2(text.find("<b>") != std::string::npos, stop.id);
        const std::string link = stop.link;
        QVERIFY2(link == "levels" || link == "ops" || (link.rfind("rules:", 0) == 0 && findRule(link.substr(6))), stop.id);
        const std::string focus = stop.focus;
        if (!focus.empty() && focus.rfind("in:", 0) != 0) {
            bool found = false;
            for (const auto& n : p->graph.nodes) found |= n.name == focus;
            QVERIFY2(found, stop.id);
        }
        // nothing is done before the learner acts
        TourState fresh;
        fresh.program = p.get();
        QVERIFY2(!checkStop(stop, fresh).done || stop.check == TourCheck::NodeDecomposed, stop.id);
        switch (stop.check) {
        case TourCheck::Answer:
        case TourCheck::EnterSubgraph:
        case TourCheck::ShowRule:
        case TourCheck::NodeDecomposed:
            break;
        case TourCheck::SelectNodeWithTarget:
            if (std::string(stop.arg).rfind("prims::", 0) == 0) break; // needs a step first (lessonsDecompose…)
            [[fallthrough]];
        default: {
            auto solved = solvedState(stop, *p);
            QVERIFY2(solved, stop.id);
            // a wrong attempt: a node that does not fit is refused with the stop's hint
            TourState wrong;
            wrong.program = p.get();
            for (const auto& n : p->graph.nodes) {
                wrong.selectedNode = n.name;
                if (!checkStop(stop, wrong).done) break;
            }
            if (checkStop(stop, wrong).done) { // every node fits: a placeholder is the wrong answer
                wrong.selectedNode.clear();
                wrong.selectedItem = "in:" + p->graph.inputs.front().s;
            }
            const TourVerdict v = checkStop(stop, wrong);
            QVERIFY2(!v.done && v.feedback.find(stop.hint) != std::string::npos, stop.id);
        }
        }
    }
    // the structural checks
    const TourStop& hop = stops[static_cast<size_t>(tourStopIndex("hop_cond"))];
    TourState in;
    in.subgraphOf = "cond";
    QVERIFY(checkStop(hop, in).done);
    const TourStop& rule = stops[static_cast<size_t>(tourStopIndex("verifier"))];
    in.ruleShown = "EIR-D001";
    QVERIFY(checkStop(rule, in).done);
    const TourStop& toCore = stops[static_cast<size_t>(tourStopIndex("to_core"))];
    DecompSession session(makeDynamicLesson());
    QVERIFY(session.stepNode("linear", DecompStage::ToCore).isOk());
    in.program = session.current().get();
    QVERIFY(checkStop(toCore, in).done);
}

void TstTeach::tourAnswers() {
    ProgramPtr example = makeExampleProgram();
    ProgramPtr dynamic = makeDynamicLesson();
    auto stop = [](const char* id) { return teach::tourStops()[static_cast<size_t>(tourStopIndex(id))]; };
    TourState s;
    s.program = example.get();
    s.answer = "aten";
    QVERIFY(checkStop(stop("exported_program"), s).done);
    s.answer = "TRAINING";
    TourVerdict v = checkStop(stop("exported_program"), s);
    QVERIFY(!v.done && v.feedback.find("\"TRAINING\" is not it") == 0);
    // 18 parameters: conv (2), batch norm (2), q/k/v/out projections (8), norm (2), MLP (4)
    QCOMPARE(expectedAnswers(stop("signature"), *example), std::vector<std::string>{"18"});
    s.answer = " 18 ";
    QVERIFY(checkStop(stop("signature"), s).done);
    s.answer = "torch.int64";
    QVERIFY(checkStop(stop("meta_val"), s).done);
    s.answer = "float32";
    QVERIFY(!checkStop(stop("meta_val"), s).done);
    s.program = dynamic.get();
    s.answer = "64";
    QVERIFY(checkStop(stop("ranges"), s).done);
    s.answer = "2";
    QVERIFY(!checkStop(stop("ranges"), s).done);
}

void TstTeach::explainOwnedPrograms() {
    ProgramPtr example = makeExampleProgram();
    auto e = explainProgram(*example);
    checkLinks(*example, e);
    QVERIFY2(topic(e, "dialect").find("Core ATen (dialect ATEN)") != std::string::npos, explanationText(e).c_str());
    QVERIFY(topic(e, "state").find("18 parameters") != std::string::npos);
    QVERIFY(topic(e, "state").find("3 buffers") != std::string::npos);
    QVERIFY(topic(e, "symbols").find("Every shape is static") != std::string::npos);
    QVERIFY(topic(e, "hops").find("no higher-order op") != std::string::npos);
    QVERIFY(topic(e, "mutations").find("mutates nothing") != std::string::npos);
    QVERIFY(topic(e, "ops").find("Every ATen op it calls is in the Core ATen opset") != std::string::npos);
    QVERIFY2(topic(e, "prims").find("convolution") != std::string::npos, topic(e, "prims").c_str()); // stays: no prim
    QVERIFY(topic(e, "verifier").find("no error, no warning") != std::string::npos);

    ProgramPtr cond = makeCondLesson();
    e = explainProgram(*cond);
    checkLinks(*cond, e);
    const std::string hops = topic(e, "hops");
    QVERIFY2(hops.find("true_graph_0 (relu, mul)") != std::string::npos && hops.find("false_graph_0 (tanh, sub)") != std::string::npos,
             hops.c_str());
    QVERIFY(links(e, "hops", "node:cond") && links(e, "hops", "node:gt") && links(e, "hops", "node:addmm"));

    ProgramPtr buffer = makeBufferLesson();
    e = explainProgram(*buffer);
    checkLinks(*buffer, e);
    const std::string mut = topic(e, "mutations");
    QVERIFY2(mut.find("`add` becomes buffer steps (`b_steps`, BUFFER_MUTATION)") != std::string::npos &&
                 mut.find("`add_1` becomes buffer running_mean (`b_running_mean`, BUFFER_MUTATION)") != std::string::npos,
             mut.c_str());
    QVERIFY(links(e, "mutations", "node:add_1") && links(e, "mutations", "in:b_running_mean"));

    ProgramPtr dynamic = makeDynamicLesson();
    e = explainProgram(*dynamic);
    checkLinks(*dynamic, e);
    const std::string sym = topic(e, "symbols");
    QVERIFY2(sym.find("`s0` is a dynamic dimension: the size of `x` dim 0") != std::string::npos &&
                 sym.find("2 ≤ s0 ≤ 64") != std::string::npos && sym.find("exported with s0 = 4") != std::string::npos,
             sym.c_str());
    QVERIFY(links(e, "symbols", "sym:s0") && links(e, "symbols", "node:linear_1"));
    QVERIFY2(topic(e, "dialect").find("training IR (dialect TRAINING)") != std::string::npos, explanationText(e).c_str());
    QVERIFY2(topic(e, "mutations").find("`relu_` works in place") != std::string::npos, explanationText(e).c_str());
    const std::string ops = topic(e, "ops");
    QVERIFY2(ops.find("aten.linear.default (2 nodes: `linear` and `linear_1`) decomposes as linear -> t + addmm") != std::string::npos,
             ops.c_str());
    QVERIFY2(topic(e, "verifier").find("EIR-D001 on `relu_`") != std::string::npos, explanationText(e).c_str());
}

void TstTeach::explainSharedFixtures_data() {
    QTest::addColumn<QString>("name");
    QTest::addColumn<QString>("topic");
    QTest::addColumn<QStringList>("says");
    QTest::addColumn<QString>("link");
    // what is special about each program, in the sentences about it
    QTest::addRow("zoo/gpt_block") << "zoo/gpt_block" << "inputs" << QStringList{"1 user input: `tokens` (i64[1, 8])"} << "in:tokens";
    QTest::addRow("zoo/gpt_block prims") << "zoo/gpt_block" << "prims" << QStringList{"`embedding`: gathers have no prim"} << "node:embedding";
    QTest::addRow("zoo/conv_attention prims") << "zoo/conv_attention" << "prims" << QStringList{"stay ATen calls", "`convolution`"}
                                              << "node:convolution";
    QTest::addRow("zoo/cond_branch") << "zoo/cond_branch" << "hops"
                                     << QStringList{"true_graph_0 (relu, mul)", "false_graph_0 (sigmoid, sub)", "predicate `gt`"} << "node:cond";
    QTest::addRow("zoo/buffer_mutation") << "zoo/buffer_mutation" << "mutations"
                                         << QStringList{"`add` becomes buffer steps (`b_steps`, BUFFER_MUTATION)",
                                                        "`add_1` becomes buffer average (`b_average`, BUFFER_MUTATION)"}
                                         << "node:add_1";
    QTest::addRow("zoo/dynamic_mlp") << "zoo/dynamic_mlp" << "symbols"
                                     << QStringList{"`s0` is a dynamic dimension: the size of `x` dim 0", "`sym_size_int`"} << "sym:s0";
    irlens::testing::writeViewPrograms();
    // the ResNet-like net: 10 batch norms (weight, bias; running mean, var, batches tracked), 10 convs, the fc's weight and bias
    QTest::addRow("zoo/resnet_like") << "zoo/resnet_like" << "state" << QStringList{"32 parameters", "30 buffers", "`b_bn1_running_mean`"}
                                     << "in:p_conv1_weight";
    QTest::addRow("resnet18 ops") << "resnet18" << "ops" << QStringList{"aten.t.default (1 node: `t`) decomposes as t -> permute([1, 0])"} << "node:t";
    QTest::addRow("zoo/resnet_like prims") << "zoo/resnet_like" << "prims" << QStringList{"stay ATen calls", "`convolution`"} << "node:convolution";
    QTest::addRow("zoo/decoder_like") << "zoo/decoder_like" << "inputs" << QStringList{"1 user input: `x` (f32[8, 16])"} << "in:x";
    QTest::addRow("tiny_gpt ops") << "tiny_gpt" << "ops" << QStringList{"aten.masked_fill.Scalar (4 nodes", "decomposes as masked_fill -> full + where"} << "node:masked_fill";
    QTest::addRow("tiny_gpt prims") << "tiny_gpt" << "prims" << QStringList{"`embedding`: gathers have no prim"} << "node:embedding";
    QTest::addRow("cond_branch") << "cond_branch" << "hops" << QStringList{"true_graph_0 (relu, mul)", "false_graph_0 (sigmoid, sub)", "predicate `gt`"}
                                 << "node:cond";
    QTest::addRow("buffer_mutation") << "buffer_mutation" << "mutations" << QStringList{"`add` becomes buffer steps (`b_steps`, BUFFER_MUTATION)",
                                                                   "`add_1` becomes buffer ema (`b_ema`, BUFFER_MUTATION)"} << "node:add_1";
    QTest::addRow("dynamic_mlp") << "dynamic_mlp" << "symbols" << QStringList{"`s0` is a dynamic dimension: the size of `x` dim 0",
                                                             "s0 ≥ 2 with no upper bound", "`sym_size_int`"} << "sym:s0";
}

void TstTeach::explainSharedFixtures() {
    QFETCH(QString, name);
    IRLENS_REQUIRE_FIXTURE(name);
    QFETCH(QString, topic);
    QFETCH(QStringList, says);
    QFETCH(QString, link);
    ProgramPtr p = loadShared(name.section(' ', 0, 0).toStdString());
    QVERIFY(p);
    const auto e = explainProgram(*p);
    checkLinks(*p, e);
    const std::string text = ::topic(e, topic.toStdString());
    for (const QString& s : says) QVERIFY2(text.find(s.toStdString()) != std::string::npos, (s.toStdString() + " in\n" + explanationText(e)).c_str());
    if (!link.isEmpty()) QVERIFY2(links(e, topic.toStdString(), link.toStdString()), (link.toStdString() + " in\n" + text).c_str());
}

QTEST_APPLESS_MAIN(TstTeach)
#include "tst_teach.moc"
