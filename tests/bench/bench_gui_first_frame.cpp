// bench_gui_first_frame [RUNS] [--no-dot] [FILE.pt2 ...] — time to the first interactive frame (load + layout +
// scene built + the view painted once) for every generated fixture, or for the files named, median over RUNS
// runs (offscreen Qt platform). For deep_stack, side by side with the FxGraphDrawer route: `irlens-cli dot
// FILE` (the flat graph as DOT) then `dot -Tsvg` on it. Not a test: run by hand on an idle machine.
#include "bench_stats.h"
#include "core/ir/large_pages.h"
#include "support/shared_fixtures.h"
#include "views/document.h"
#include "views/graph/graph_scene.h"
#include "views/graph/graph_view.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QPixmap>
#include <QProcess>
#include <QTemporaryDir>
#include <QThread>

#include <algorithm>
#include <string>
#include <cstdio>
#include <vector>

using namespace irlens;

namespace {

using bench::median;

struct Frame {
    double ms = -1;
    int boxes = 0;
    int nodes = 0;
};

// One cold open in a fresh Document (no layout cache), until the first frame is painted.
Frame firstFrame(const QString& path) {
    views::Document doc;
    views::GraphScene scene(&doc);
    views::GraphView view(&doc, &scene);
    view.resize(1400, 900);
    Frame f;
    bool failed = false;
    QObject::connect(&doc, &views::Document::loadFailed, [&](const QString& m) {
        std::fprintf(stderr, "%s: %s\n", qPrintable(path), qPrintable(m));
        failed = true;
    });
    QElapsedTimer t;
    t.start();
    doc.openFile(path);
    while (!failed && !(doc.program() && doc.layout() && !doc.isBusy())) QCoreApplication::processEvents(QEventLoop::WaitForMoreEvents, 5);
    if (failed) return f;
    QPixmap frame = view.grab(); // paints every visible item once
    f.ms = static_cast<double>(t.nsecsElapsed()) / 1e6;
    f.boxes = scene.nodeItemCount();
    f.nodes = static_cast<int>(doc.program()->graph.nodes.size());
    return f;
}

double runProcess(const QString& program, const QStringList& args, int timeoutMs, bool* timedOut) {
    QProcess p;
    QElapsedTimer t;
    t.start();
    p.start(program, args);
    *timedOut = false;
    if (!p.waitForFinished(timeoutMs)) {
        *timedOut = true;
        p.kill();
        p.waitForFinished();
        return timeoutMs;
    }
    if (p.exitCode() != 0) std::fprintf(stderr, "%s failed: %s\n", qPrintable(program), p.readAllStandardError().constData());
    return static_cast<double>(t.nsecsElapsed()) / 1e6;
}

} // namespace

int main(int argc, char** argv) {
    irlens::core::preferLargePages(); // as the executables do
    qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    int runs = 3;
    bool skipDot = false; // the dot route takes minutes
    QStringList files;
    for (int k = 1; k < argc; ++k) {
        const std::string a = argv[k];
        if (a == "--no-dot") skipDot = true;
        else if (a.size() > 4 && a.substr(a.size() - 4) == ".pt2") files << QString::fromStdString(a);
        else runs = std::max(1, std::atoi(a.c_str()));
    }
    if (!files.isEmpty()) {
        std::printf("first interactive frame (load + layout + scene + first paint), median [min-max] of %d, threads: %d\n\n",
                    runs, QThread::idealThreadCount());
        for (const QString& path : files) {
            std::vector<double> ms;
            Frame last;
            for (int r = 0; r < runs && (last = firstFrame(path)).ms >= 0; ++r) ms.push_back(last.ms);
            const auto t = bench::spread(ms);
            std::printf("%s: %d nodes, %d boxes, %.0f [%.0f-%.0f] ms\n", qPrintable(path), last.nodes, last.boxes, t.median, t.min, t.max);
        }
        return 0;
    }
    if (!testing::haveShared()) {
        std::printf("../shared/fixtures not found (set IRLENS_SHARED_DIR)\n");
        return 0;
    }
    std::printf("first interactive frame (load + layout + scene + first paint), median of %d, threads: %d\n\n", runs,
                QThread::idealThreadCount());
    std::printf("%-20s %7s %7s %12s\n", "fixture", "nodes", "boxes", "first frame");
    double deepMs = -1;
    for (const char* name : testing::kGeneratedFixtures) {
        const QString path = QString::fromStdString(testing::fixture(std::string("generated/") + name + "/model.pt2").string());
        std::vector<double> ms;
        Frame last;
        for (int r = 0; r < runs; ++r) {
            last = firstFrame(path);
            if (last.ms < 0) break;
            ms.push_back(last.ms);
        }
        const double m = ms.empty() ? -1 : median(ms);
        std::printf("%-20s %7d %7d %9.1f ms\n", name, last.nodes, last.boxes, m);
        std::fflush(stdout);
        if (std::string(name) == "deep_stack") deepMs = m;
    }

    if (skipDot) return 0;
    // the FxGraphDrawer route on deep_stack: flat DOT of every node and placeholder, then dot -Tsvg
    QTemporaryDir tmp;
    const QString deep = QString::fromStdString(testing::fixture("generated/deep_stack/model.pt2").string());
    const QString cli = QString(IRLENS_BINARY_DIR) + "/app/irlens-cli";
    const QString dotFile = tmp.filePath("deep_stack.dot"), svgFile = tmp.filePath("deep_stack.svg");
    bool timedOut = false;
    const double exportMs = runProcess(cli, {"dot", deep, "-o", dotFile}, 60000, &timedOut);
    const int limitMs = 600000;
    const double dotMs = runProcess("dot", {"-Tsvg", dotFile, "-o", svgFile}, limitMs, &timedOut);
    std::printf("\ndeep_stack, FxGraphDrawer route: irlens-cli dot %.0f ms + dot -Tsvg %s%.1f s\n", exportMs,
                timedOut ? "> " : "", dotMs / 1000);
    if (deepMs > 0)
        std::printf("deep_stack first frame %.1f ms: %s%.0fx faster\n", deepMs, timedOut ? "> " : "", (exportMs + dotMs) / deepMs);
    return 0;
}
