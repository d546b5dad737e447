// The one-file HTML report (core/report): self-contained, its data complete and read back as the page
// reads it, text from a file never ending the script, repeated blocks folded, a run's times, values
// against a reference and a second program's differences in it; errors name the file.
#include "core/io/pt2_writer.h"
#include "core/io/tensor_file.h"
#include "core/report/report_job.h"
#include "support/gpt_program.h"
#include "support/shared_fixtures.h"

#include <nlohmann/json.hpp>

#include <QTemporaryDir>
#include <QTest>

#include <cstring>

using namespace irlens::core;
using irlens::testing::makeTinyGptLike;

namespace {

const std::string kDataOpen = "<script type=\"application/json\" id=\"irlens-data\">";

// The page's data, as the page's script reads it (JSON.parse of the script element's text).
nlohmann::json dataOf(const std::string& html) {
    const size_t begin = html.find(kDataOpen);
    if (begin == std::string::npos) return {};
    const size_t start = begin + kDataOpen.size();
    const size_t end = html.find("</script>", start);
    return nlohmann::json::parse(html.substr(start, end - start));
}

size_t count(const std::string& text, const std::string& what) {
    size_t n = 0;
    for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + what.size())) ++n;
    return n;
}

int nodeIndex(const nlohmann::json& data, const std::string& name) {
    for (size_t i = 0; i < data["nodes"].size(); ++i)
        if (data["nodes"][i]["n"] == name) return static_cast<int>(i);
    return -1;
}

int moduleIndex(const nlohmann::json& data, const std::string& path) {
    for (size_t i = 0; i < data["modules"].size(); ++i)
        if (data["modules"][i]["p"] == path) return static_cast<int>(i);
    return -1;
}

std::string saved(const QTemporaryDir& dir, const ProgramPtr& program, const std::string& name) {
    const std::string path = dir.path().toStdString() + "/" + name;
    if (!savePt2(*program, path)) qFatal("cannot write %s", path.c_str());
    return path;
}

} // namespace

class TstHtmlReport : public QObject {
    Q_OBJECT
private slots:
    void holdsTheProgramAndLoadsNothing();
    void textFromTheFileCannotEndTheScript();
    void repeatedBlocksAreFolded();
    void runNumericsAndDifferences();
    void errorsNameTheFile();
    void sharedFixtures();
};

void TstHtmlReport::holdsTheProgramAndLoadsNothing() {
    const ProgramPtr program = makeTinyGptLike(2);
    HtmlReportOptions options;
    options.title = "tiny.pt2";
    const std::string html = writeHtmlReport(*program, options);
    QVERIFY(html.starts_with("<!DOCTYPE html>"));
    // nothing to fetch: no external script, style, image or link; the only URL is the SVG namespace
    std::string rest = html;
    for (size_t at; (at = rest.find("http://www.w3.org/2000/svg")) != std::string::npos;) rest.erase(at, 26);
    QCOMPARE(count(rest, "http:"), size_t(0));
    QCOMPARE(count(rest, "https:"), size_t(0));
    QCOMPARE(count(html, "<script src"), size_t(0));
    QCOMPARE(count(html, "<link"), size_t(0));
    QCOMPARE(count(html, "@import"), size_t(0));

    const nlohmann::json data = dataOf(html);
    QCOMPARE(data["title"].get<std::string>(), std::string("tiny.pt2"));
    QCOMPARE(data["nodes"].size(), program->graph.nodes.size());
    const int softmax = nodeIndex(data, "softmax_0");
    QVERIFY(softmax >= 0);
    const auto& node = data["nodes"][static_cast<size_t>(softmax)];
    QCOMPARE(node["t"].get<std::string>(), std::string("torch.ops.aten._softmax.default"));
    QCOMPARE(node["v"].get<std::string>(), std::string("softmax_0: f32[8, 8]"));
    QVERIFY2(node["c"].get<std::string>().find("torch.ops.aten._softmax.default(scores_0, -1, False)") != std::string::npos,
             node["c"].dump().c_str());
    QVERIFY(data["traces"][node["s"].get<size_t>()].get<std::string>().find("gpt.py\", line") != std::string::npos);
    // its module, and the module's place in the tree
    const int attn = node["m"];
    QCOMPARE(data["modules"][static_cast<size_t>(attn)]["p"].get<std::string>(), std::string("blocks.0.attn"));
    QCOMPARE(data["modules"][static_cast<size_t>(attn)]["ty"].get<std::string>(), std::string("models.Attention"));
    QCOMPARE(data["modules"][static_cast<size_t>(attn)]["up"].get<int>(), moduleIndex(data, "blocks.0"));
    // producers: nodes by index, graph inputs as -(input + 1)
    const auto& scores = data["nodes"][static_cast<size_t>(nodeIndex(data, "scores_0"))];
    QVERIFY2(scores["i"] == nlohmann::json({nodeIndex(data, "q_0"), nodeIndex(data, "t_0")}), scores.dump().c_str());
    const auto& q = data["nodes"][static_cast<size_t>(nodeIndex(data, "q_0"))];
    QCOMPARE(q["i"].size(), size_t(2));
    for (int source : q["i"]) {
        QVERIFY(source < 0);
        const auto& input = data["inputs"][static_cast<size_t>(-source - 1)];
        QVERIFY(input["kind"] == "user input" || input["kind"] == "parameter");
    }
    QVERIFY2(data["outputs"] == nlohmann::json({nodeIndex(data, "logits")}), data["outputs"].dump().c_str());
    QVERIFY(data["signature"].get<std::string>().find("blocks.0.attn.wq") != std::string::npos);
    QCOMPARE(data["families"].size(), size_t(11));
    QVERIFY(!data.contains("run") && !data.contains("numerics") && !data.contains("compare"));
}

void TstHtmlReport::textFromTheFileCannotEndTheScript() {
    auto program = std::make_shared<Program>(*makeTinyGptLike(1));
    const std::string hostile = "</script><script>document.title='owned'</script><!--";
    program->graph.nodes[0].meta.raw["stack_trace"] = hostile;
    program->graph.nodes[0].meta.parseFromRaw();
    HtmlReportOptions options;
    options.title = "a</title><b>.pt2";
    Diagnostic finding;
    finding.ruleId = "EIR-X";
    finding.node = program->graph.nodes[0].name;
    finding.message = "</script>";
    options.diagnostics = {finding};
    const std::string html = writeHtmlReport(*program, options);
    QCOMPARE(count(html, "</script>"), size_t(2)); // the data's and the code's own
    QCOMPARE(count(html, "<title>"), size_t(1));
    QVERIFY(html.find("a&lt;/title&gt;&lt;b&gt;.pt2") != std::string::npos);
    const nlohmann::json data = dataOf(html);
    QCOMPARE(data["traces"][data["nodes"][0]["s"].get<size_t>()].get<std::string>(), hostile);
    QCOMPARE(data["diagnostics"][0]["msg"].get<std::string>(), std::string("</script>"));
    QCOMPARE(data["diagnostics"][0]["n"].get<std::string>(), program->graph.nodes[0].name);
}

void TstHtmlReport::repeatedBlocksAreFolded() {
    const nlohmann::json data = dataOf(writeHtmlReport(*makeTinyGptLike(4), {}));
    const int first = moduleIndex(data, "blocks.0");
    QVERIFY(first > 0);
    const auto& fold = data["modules"][static_cast<size_t>(first)]["fold"];
    QVERIFY2(fold == nlohmann::json({"blocks.0", "blocks.1", "blocks.2", "blocks.3"}), fold.dump().c_str());
    for (const char* other : {"blocks.1", "blocks.2", "blocks.3"})
        QCOMPARE(data["modules"][static_cast<size_t>(moduleIndex(data, other))]["by"].get<int>(), first);
    QVERIFY(!data["modules"][static_cast<size_t>(moduleIndex(data, "head"))].contains("by"));
}

void TstHtmlReport::runNumericsAndDifferences() {
    QTemporaryDir dir;
    const ProgramPtr program = makeTinyGptLike(2);
    const std::string file = saved(dir, program, "gpt.pt2");
    const std::string bigger = saved(dir, makeTinyGptLike(3), "gpt3.pt2");
    // the reference: irlens's own values of the same program, with one value changed by 1 %
    const std::string reference = dir.path().toStdString() + "/ref.safetensors";
    NumericRunOptions dump;
    dump.dumpPath = reference;
    QVERIFY(runNumerics(program, dump));
    auto values = readTensorFile(reference);
    QVERIFY(values);
    std::vector<std::pair<std::string, TensorData>> changed;
    for (const auto& e : values->entries) {
        TensorData t = e.value.tensor;
        if (e.name == "gelu_1") {
            const auto bytes = t.contiguousBytes();
            std::vector<float> v(bytes.size() / sizeof(float));
            std::memcpy(v.data(), bytes.data(), bytes.size());
            for (float& x : v) x *= 1.01f;
            t = makeFloatTensor(t.sizes, v);
        }
        changed.emplace_back(e.name, t);
    }
    QVERIFY(writeSafetensors(reference, changed));

    ReportRequest request;
    request.file = file;
    request.run = true;
    request.repeat = 2;
    request.threads = 1;
    request.reference = reference;
    request.compareWith = bigger;
    auto html = makeHtmlReport(request);
    QVERIFY2(html, html.error().c_str());
    const nlohmann::json data = dataOf(*html);

    const auto& run = data["run"];
    QCOMPARE(run["ns"].size(), program->graph.nodes.size());
    for (const auto& ns : run["ns"]) QVERIFY(ns.get<int64_t>() >= 0); // every node ran and was timed
    QCOMPARE(run["runs"].get<int>(), 2);
    QVERIFY(run["wall"].get<int64_t>() > 0);

    const auto& numerics = data["numerics"];
    const auto& first = numerics["values"][numerics["first"].get<size_t>()];
    QCOMPARE(first["n"].get<std::string>(), std::string("gelu_1"));
    QCOMPARE(first["check"].get<std::string>(), std::string("differ"));
    QCOMPARE(first["node"].get<int>(), nodeIndex(data, "gelu_1"));
    QVERIFY(std::abs(first["rel"].get<double>() - 0.01) < 1e-3);
    QVERIFY(numerics["verdict"].get<std::string>().find("gelu_1") != std::string::npos);

    const auto& compare = data["compare"];
    QCOMPARE(compare["program"]["nodes"].size(), makeTinyGptLike(3)->graph.nodes.size());
    size_t added = 0;
    for (const auto& pair : compare["pairs"]) added += pair["k"] == "added" ? pair["r"].size() : 0;
    QCOMPARE(added, size_t(9)); // the third block
    QCOMPARE(compare["left"].size(), program->graph.nodes.size());
}

void TstHtmlReport::errorsNameTheFile() {
    ReportRequest request;
    request.file = "/nonexistent/model.pt2";
    auto missing = makeHtmlReport(request);
    QVERIFY(!missing);
    QVERIFY2(missing.error().find("/nonexistent/model.pt2") != std::string::npos, missing.error().c_str());

    QTemporaryDir dir;
    request.file = saved(dir, makeTinyGptLike(1), "gpt.pt2");
    request.reference = dir.path().toStdString() + "/none.safetensors";
    auto noReference = makeHtmlReport(request);
    QVERIFY(!noReference);
    QVERIFY2(noReference.error().find("none.safetensors") != std::string::npos, noReference.error().c_str());
    request.reference.clear();
    request.compareWith = dir.path().toStdString() + "/other.pt2";
    auto noOther = makeHtmlReport(request);
    QVERIFY(!noOther);
    QVERIFY2(noOther.error().find("other.pt2") != std::string::npos, noOther.error().c_str());
}

// The shared fixtures' reports: complete, and small enough to attach (resnet18 under 3 MB).
void TstHtmlReport::sharedFixtures() {
    if (!irlens::testing::haveShared()) QSKIP("../shared is absent: the fixture reports are not checked");
    for (const char* name : {"tiny_gpt", "resnet18"}) {
        ReportRequest request;
        request.file = irlens::testing::fixture(std::string("generated/") + name + "/model.pt2").string();
        auto html = makeHtmlReport(request);
        QVERIFY2(html, html.error().c_str());
        QVERIFY2(html->size() < 3u << 20, name);
        auto program = loadPt2(request.file, {.loadWeights = false});
        QCOMPARE(dataOf(*html)["nodes"].size(), (*program)->graph.nodes.size());
    }
}

QTEST_GUILESS_MAIN(TstHtmlReport)
#include "tst_html_report.moc"
