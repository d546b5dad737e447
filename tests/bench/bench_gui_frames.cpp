// bench_gui_frames [FRAMES] [--no-100k | --only-100k] — interaction over big graphs in the GUI's own path (Document,
// GraphPane with its GraphScene and GraphView, offscreen Qt platform, a 1366x768 view).
//
// Part 1, frames: llama_deep fully expanded (repeated blocks not folded, every module open); at each
// zoom (the whole graph fitted, below the wheel's floor; the floor kMinZoom; 0.2; 1:1) FRAMES frames of a scripted pan
// and FRAMES of a zoom in/out sequence, each frame a full repaint of the viewport (grab()); median
// and worst frame ms.
// Part 2, scale: deep_stack, llama_deep and the 100,000-node program built in code: open (load or
// build) to the first painted frame (collapsed, as opened), fully expanded (unfolded, expand all) to
// its painted frame, a search typed as in the search field, collapse all (the old items deleted in
// the turns after it), and the longest the GUI thread went
// without its event loop turning (a 5 ms timer's longest gap) over all of it. Not a test: run by hand.
#include "bench_machine.h"
#include "bench_stats.h"
#include "core/io/pt2_writer.h"
#include "core/ir/large_pages.h"
#include "support/shared_fixtures.h"
#include "support/synthetic_program.h"
#include "views/document.h"
#include "views/graph/graph_pane.h"
#include "views/graph/graph_scene.h"
#include "views/graph/graph_view.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QPixmap>
#include <QProcess>
#include <QScrollBar>
#include <QTemporaryDir>
#include <QTimer>

#include <algorithm>
#include <ctime>
#include <cstdio>
#include <functional>
#include <map>
#include <string>
#include <vector>

using namespace irlens;

namespace {

double msOf(const QElapsedTimer& t) { return static_cast<double>(t.nsecsElapsed()) / 1e6; }

struct LoopGapClock {
    static qint64 threadCpuUs() {
        timespec ts{};
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
        return static_cast<qint64>(ts.tv_sec) * 1000000 + ts.tv_nsec / 1000;
    }
};

/// The application, timing each event the GUI thread delivers at the outermost level (not the ones
/// delivered inside another's processEvents): the longest per step, with what received it, so a long
/// step is named instead of guessed ("GraphScene via QTimer: Timer").
class TimedApplication : public QApplication {
public:
    using QApplication::QApplication;
    bool notify(QObject* receiver, QEvent* event) override {
        if (m_depth++ > 0 || !m_step) {
            const bool r = QApplication::notify(receiver, event);
            --m_depth;
            return r;
        }
        const qint64 cpu0 = LoopGapClock::threadCpuUs();
        const char* what = receiver->metaObject()->className();
        const char* owner = receiver->parent() ? receiver->parent()->metaObject()->className() : "";
        const int type = event->type();
        const bool r = QApplication::notify(receiver, event);
        const qint64 us = LoopGapClock::threadCpuUs() - cpu0;
        --m_depth;
        std::string name = std::string(what) + (*owner ? std::string(" in ") + owner : "") + ", event " + std::to_string(type);
        Longest& l = m_longest[m_step];
        if (us > l.us) l = {us, name};
        auto& w = m_window[name];
        w.first += us;
        ++w.second;
        return r;
    }
    /// The loop gap's timer ticked after a gap of `gapMs`: when it is the step's longest, keep what
    /// the events in it were (total CPU and count per receiver, largest first).
    void gapEnded(qint64 gapMs) {
        if (m_step && gapMs > m_worstGap[m_step].first) {
            std::vector<std::pair<qint64, std::string>> parts;
            for (const auto& [name, w] : m_window)
                parts.push_back({w.first, name + " x" + std::to_string(w.second)});
            std::sort(parts.rbegin(), parts.rend());
            std::string out;
            for (size_t i = 0; i < parts.size() && i < 4; ++i)
                out += (i ? ", " : "") + std::to_string(parts[i].first / 1000) + " ms " + parts[i].second;
            m_worstGap[m_step] = {gapMs, out};
        }
        m_window.clear();
    }
    /// What the longest gap of each step was made of.
    std::string worstGaps() const {
        std::string out;
        for (const auto& [step, g] : m_worstGap)
            out += (out.empty() ? "" : "; ") + step + " " + std::to_string(g.first) + " ms: " + g.second;
        return out;
    }
    void setStep(const char* step) { m_step = step; }
    void reset() {
        m_longest.clear();
        m_worstGap.clear();
        m_window.clear();
    }
    /// "expand all 350 ms (GraphScene via QTimer, event 1)" for each step.
    std::string longest() const {
        std::string out;
        for (const auto& [step, l] : m_longest)
            out += (out.empty() ? "" : "; ") + step + " " + std::to_string(l.us / 1000) + " ms (" + l.what + ")";
        return out;
    }

private:
    struct Longest {
        qint64 us = 0;
        std::string what;
    };
    int m_depth = 0;
    const char* m_step = nullptr;
    std::map<std::string, Longest> m_longest;
    std::map<std::string, std::pair<qint64, qint64>> m_window; // receiver: CPU us, events since the last tick
    std::map<std::string, std::pair<qint64, std::string>> m_worstGap;
};

/// The longest time between two ticks of a 5 ms timer that the GUI thread spent running: how long the
/// event loop stood still for its own work.
class LoopGap : public QObject {
public:
    LoopGap() {
        m_timer.setInterval(5);
        m_timer.setTimerType(Qt::PreciseTimer);
        QObject::connect(&m_timer, &QTimer::timeout, this, [this] { tick(); });
    }
    void start(const char* step) {
        if (!m_timer.isActive()) {
            m_clock.start();
            m_last = 0;
            m_lastCpu = threadCpuMs();
            m_timer.start();
        }
        tick();
        m_step = step;
        if (auto* app = dynamic_cast<TimedApplication*>(QCoreApplication::instance())) app->setStep(step);
    }
    void tick() {
        // the GUI thread's own CPU time in the gap: on a loaded machine a gap is also time the thread
        // waited for a core, which is not this program blocking its event loop
        const qint64 now = m_clock.elapsed(), cpu = threadCpuMs();
        const qint64 gap = std::min(now - m_last, cpu - m_lastCpu);
        m_worst = std::max(m_worst, gap);
        m_perStep[m_step] = std::max(m_perStep[m_step], gap);
        m_worstRaw = std::max(m_worstRaw, now - m_last);
        if (auto* app = dynamic_cast<TimedApplication*>(QCoreApplication::instance())) app->gapEnded(gap);
        m_last = now;
        m_lastCpu = cpu;
    }
    static qint64 threadCpuMs() { return LoopGapClock::threadCpuUs() / 1000; }
    /// "open 40, expand all 90, search 60": the longest gap of each step.
    std::string perStep() const {
        std::string out;
        for (const auto& [step, ms] : m_perStep)
            if (!step.empty()) out += (out.empty() ? "" : ", ") + std::string(step) + " " + std::to_string(ms);
        return out;
    }
    void stop() {
        tick();
        m_timer.stop();
        if (auto* app = dynamic_cast<TimedApplication*>(QCoreApplication::instance())) app->setStep(nullptr);
    }
    qint64 worst() const { return m_worst; }
    qint64 worstRaw() const { return m_worstRaw; }

private:
    QTimer m_timer;
    QElapsedTimer m_clock;
    qint64 m_last = 0, m_lastCpu = 0, m_worst = 0, m_worstRaw = 0;
    const char* m_step = "";
    std::map<std::string, qint64> m_perStep;
};

/// Turns the event loop until the document is idle with a layout and the scene holds all its items.
bool settle(views::Document& doc, views::GraphScene& scene, int timeoutMs = 120000) {
    QElapsedTimer t;
    t.start();
    while (t.elapsed() < timeoutMs) {
        QCoreApplication::processEvents(QEventLoop::AllEvents, 5);
        if (doc.program() && doc.layout() && !doc.isBusy() && scene.layout() == doc.layout() && !scene.isBuilding()) return true;
    }
    return false;
}

double frameMs(views::GraphView& view) {
    QElapsedTimer t;
    t.start();
    const QPixmap frame = view.viewport()->grab(); // one full repaint of the viewport
    return msOf(t);
}

struct Frames {
    double median = 0, worst = 0;
};

Frames summary(std::vector<double> ms) {
    if (ms.empty()) return {};
    return {bench::median(ms), *std::max_element(ms.begin(), ms.end())};
}

/// Pans down and right in steps of a fifth of the view, then back: `frames` frames.
Frames pan(views::GraphView& view, int frames) {
    std::vector<double> ms;
    QScrollBar* h = view.horizontalScrollBar();
    QScrollBar* v = view.verticalScrollBar();
    const int dx = std::max(1, view.viewport()->width() / 5), dy = std::max(1, view.viewport()->height() / 5);
    for (int f = 0; f < frames; ++f) {
        const int sign = f < frames / 2 ? 1 : -1;
        h->setValue(h->value() + sign * dx / 3);
        v->setValue(v->value() + sign * dy);
        QCoreApplication::processEvents();
        ms.push_back(frameMs(view));
    }
    return summary(ms);
}

/// Zooms in by 10 % per frame for half the frames, then out again, around the view's centre.
Frames zoom(views::GraphView& view, int frames) {
    std::vector<double> ms;
    for (int f = 0; f < frames; ++f) {
        const double factor = f < frames / 2 ? 1.1 : 1 / 1.1; // scaled as the wheel does, below its floor too
        view.scale(factor, factor);
        QCoreApplication::processEvents();
        ms.push_back(frameMs(view));
    }
    return summary(ms);
}

void frameTable(int frames) {
    views::Document doc;
    views::GraphPane pane(&doc);
    pane.resize(1366, 768);
    pane.show();
    views::GraphView& view = *pane.view();
    views::GraphScene& scene = *pane.scene();
    doc.openFile(QString::fromStdString(testing::fixture("generated/llama_deep/model.pt2").string()));
    if (!settle(doc, scene)) return void(std::printf("llama_deep did not open\n"));
    doc.setFoldRepeatedBlocks(false);
    doc.expandAll();
    if (!settle(doc, scene)) return void(std::printf("llama_deep did not expand\n"));
    std::printf("llama_deep fully expanded: %d boxes, %d edges, %d frames; scene %.0f x %.0f; view %d x %d\n\n",
                scene.nodeItemCount(), scene.edgeItemCount(), scene.clusterItemCount(), scene.sceneRect().width(),
                scene.sceneRect().height(), view.viewport()->width(), view.viewport()->height());
    std::printf("| zoom | pan median ms | pan worst ms | zoom median ms | zoom worst ms |\n|---|---|---|---|---|\n");
    // a dense place: the middle of the graph
    const QPointF middle = scene.sceneRect().center();
    const std::vector<std::pair<const char*, std::function<void()>>> levels = {
        {"whole graph fitted", [&] { view.fitInView(scene.sceneRect(), Qt::KeepAspectRatio); }},
        {"0.02 (the view's floor)", [&] { view.setZoom(views::GraphView::kMinZoom); view.centerOn(middle); }},
        {"0.2", [&] { view.setZoom(0.2); view.centerOn(middle); }},
        {"1:1", [&] { view.setZoom(1.0); view.centerOn(middle); }},
    };
    for (const auto& [name, apply] : levels) {
        apply();
        QCoreApplication::processEvents();
        frameMs(view); // warm
        const double z = view.zoom();
        const Frames p = pan(view, frames);
        apply();
        const Frames zz = zoom(view, frames);
        std::printf("| %s (%.4f) | %.1f | %.1f | %.1f | %.1f |\n", name, z, p.median, p.worst, zz.median, zz.worst);
        std::fflush(stdout);
    }
}

/// Open (or show a program built in code), expand everything unfolded, search: the GUI's path, timed.
void scaleRow(const std::string& name, const std::function<void(views::Document&)>& open) {
    views::Document doc;
    views::GraphPane pane(&doc);
    pane.resize(1366, 768);
    pane.show();
    views::GraphScene& scene = *pane.scene();
    if (auto* app = dynamic_cast<TimedApplication*>(QCoreApplication::instance())) app->reset();
    LoopGap gap;
    QElapsedTimer t;
    gap.start("open");
    t.start();
    double loadedMs = 0;
    auto loaded = QObject::connect(&doc, &views::Document::programChanged, [&] { loadedMs = msOf(t); });
    open(doc);
    if (!settle(doc, scene)) return void(std::printf("| %s | did not open |\n", name.c_str()));
    QObject::disconnect(loaded);
    frameMs(*pane.view());
    const double firstMs = msOf(t);
    const int collapsedBoxes = scene.nodeItemCount();
    gap.start("expand all");
    t.restart();
    double laidOutMs = 0;
    auto laidOut = QObject::connect(&doc, &views::Document::layoutReady, [&] { laidOutMs = msOf(t); });
    doc.setFoldRepeatedBlocks(false);
    doc.expandAll();
    if (!settle(doc, scene)) return void(std::printf("| %s | did not expand |\n", name.c_str()));
    QObject::disconnect(laidOut);
    frameMs(*pane.view());
    const double expandMs = msOf(t);
    const int expandedBoxes = scene.nodeItemCount();
    gap.stop(); // the bench's own repaints back to back are no step of the GUI's
    std::vector<double> still; // repaints of the first expanded view, nothing changed
    for (int k = 0; k < 5; ++k) still.push_back(frameMs(*pane.view()));
    const double stillMs = bench::median(still);
    gap.start("search");
    double worstKey = 0, worstCall = 0, firstKey = 0;
    int hits = 0, firstHits = 0;
    const QString query = "softmax";
    for (int k = 1; k <= query.size(); ++k) {
        t.restart();
        hits = pane.search(query.left(k)); // the index query and the scene's emphasis
        worstCall = std::max(worstCall, msOf(t));
        QCoreApplication::processEvents();
        frameMs(*pane.view());
        worstKey = std::max(worstKey, msOf(t));
        if (k == 1) firstKey = msOf(t), firstHits = hits;
    }
    // back to the collapsed drawing: the expanded items are hidden, then deleted over later turns
    gap.start("collapse all");
    doc.collapseAll();
    if (!settle(doc, scene)) return void(std::printf("| %s | did not collapse |\n", name.c_str()));
    for (QElapsedTimer drain; !drain.isValid() || drain.elapsed() < 3000;) {
        if (!drain.isValid()) drain.start();
        QCoreApplication::processEvents(QEventLoop::AllEvents, 5);
    }
    gap.stop();
    std::printf("| %s | %zu | %.0f (loaded at %.0f; %d boxes) | %.0f (laid out at %.0f; %d boxes; a repaint %.1f) | %.0f (search call %.0f; \"s\" %.0f ms, %d hits; "
                "%d hits at the end) | %lld (%s; %lld with the CPU wait) |\n",
                name.c_str(), doc.program()->graph.nodes.size(), firstMs, loadedMs, collapsedBoxes, expandMs, laidOutMs,
                expandedBoxes, stillMs, worstKey, worstCall, firstKey, firstHits, hits, gap.worst(), gap.perStep().c_str(),
                gap.worstRaw());
    if (auto* app = dynamic_cast<TimedApplication*>(QCoreApplication::instance()))
        std::printf("  longest single event per step (GUI thread CPU): %s\n  longest gap per step, its events: %s\n",
                    app->longest().c_str(), app->worstGaps().c_str());
    std::fflush(stdout);
}

void scaleHeader() {
    std::printf("\n| program | nodes | open to first frame ms | fully expanded to frame ms | worst search keystroke ms "
                "(\"s\" .. \"softmax\", with a repaint) | longest GUI-thread step ms |\n|---|---|---|---|---|---|\n");
}

void scaleFixtures() {
    for (const char* name : {"deep_stack", "llama_deep"}) {
        const QString path = QString::fromStdString(testing::fixture(std::string("generated/") + name + "/model.pt2").string());
        scaleRow(name, [path](views::Document& doc) { doc.openFile(path); });
    }
}

} // namespace

int main(int argc, char** argv) {
    irlens::core::preferLargePages(); // as the executables do
    if (argc == 3 && std::string(argv[1]) == "--write-100k") { // the child process of the 100k row
        auto saved = core::savePt2(*testing::makeTransformerStack(6250), argv[2]);
        if (!saved.isOk()) std::fprintf(stderr, "%s\n", saved.message().c_str());
        return saved.isOk() ? 0 : 1;
    }
    qputenv("QT_QPA_PLATFORM", "offscreen");
    TimedApplication app(argc, argv);
    const int frames = argc > 1 ? std::max(2, std::atoi(argv[1])) : 40;
    const std::string option = argc > 2 ? argv[2] : "";
    const bool skipBig = option == "--no-100k", only100k = option == "--only-100k";
    std::printf("machine: %s, load average %s\n\n", bench::cpuModel().c_str(), bench::loadAverage().c_str());
    if (testing::haveShared() && !only100k) {
        frameTable(frames);
        scaleHeader();
        scaleFixtures();
    } else if (!testing::haveShared()) {
        std::printf("../shared/fixtures not found (set IRLENS_SHARED_DIR)\n");
    }
    if (!skipBig) {
        if (!testing::haveShared() || only100k) scaleHeader();
        // built and saved by a child process before the clocks start, then opened here as a user opens
        // a file: a process that has just built and freed the program's 600 MB loads it 0.2-0.3 s slower
        QElapsedTimer t;
        t.start();
        QTemporaryDir dir;
        const QString path = dir.filePath("synthetic_100k.pt2");
        if (QProcess::execute(QCoreApplication::applicationFilePath(), {"--write-100k", path}) != 0)
            return std::printf("building and saving the 100k program failed\n"), 1;
        const double buildMs = msOf(t);
        scaleRow("100k built in code (6,250 blocks)", [path](views::Document& doc) { doc.openFile(path); });
        std::printf("\n(the 100k program was built and saved by a child process in %.0f ms before it was opened)\n", buildMs);
    }
    std::printf("\nload average after: %s\n", bench::loadAverage().c_str());
    return 0;
}
