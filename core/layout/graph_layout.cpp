#include "core/layout/graph_layout.h"

#include "core/layout/composed_layout.h"
#include "core/layout/graphviz_session.h"
#include "core/layout/svg_writer.h"

#include <pthread.h>
#include <sched.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <ctime>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <exception>
#include <mutex>
#include <string>
#include <unordered_map>

namespace irlens::core {
namespace {

constexpr size_t kGraphvizStack = 64u << 20; // dot recurses once per rank on long chains

/// A PNG is drawn by cairo at 96 dpi and at most 32,767 pixels a side; Graphviz shrinks a bigger
/// drawing to fit, and past a quarter of its size the 9-point text is under 3 pixels: a picture of
/// nothing (a 100,000-box chain came back as an empty file). Such a drawing is refused with a way out.
Status checkBitmapSize(const LayoutResult& layout, const std::string& format) {
    constexpr double kPixelsPerPoint = 96.0 / 72.0, kMaxSide = 32767, kMinScale = 0.25;
    if (format != "png") return Status::ok();
    const double side = std::max(layout.bounds.w, layout.bounds.h) * kPixelsPerPoint;
    if (side * kMinScale <= kMaxSide) return Status::ok();
    const long long percent = std::llround(100 * kMaxSide / side);
    return Status::error("the drawing is " + std::to_string(std::llround(layout.bounds.w)) + " x " +
                         std::to_string(std::llround(layout.bounds.h)) + " points: a PNG (at most 32767 pixels a side) "
                         "would shrink it to " + (percent < 1 ? std::string("under 1") : std::to_string(percent)) +
                         " % and show nothing readable; write .svg, or collapse the modules (--collapse top)");
}

std::timed_mutex& graphvizMutex() {
    static std::timed_mutex m;
    return m;
}

struct JobArg {
    const std::function<void()>* fn;
};

void* jobMain(void* p) {
    auto* arg = static_cast<JobArg*>(p);
    // Layout is background work: on a loaded machine the GUI thread must win the CPU over it.
    setpriority(PRIO_PROCESS, static_cast<id_t>(syscall(SYS_gettid)), 5);
    try {
        (*arg->fn)();
    } catch (...) {
        // nothing may leave core as an exception; the job reports through its own Status
    }
    return nullptr;
}

} // namespace

void runGraphvizJob(const std::function<void()>& fn) { runGraphvizJob(fn, nullptr); }

bool runGraphvizJob(const std::function<void()>& fn, const std::atomic<bool>* cancel) {
    // A running dot cannot be interrupted, but a job still waiting for it can give up: a superseded
    // request (newer collapse state, newer program) then never runs, and frees its worker thread.
    std::unique_lock<std::timed_mutex> lock(graphvizMutex(), std::defer_lock);
    while (!lock.try_lock_for(std::chrono::milliseconds(20)))
        if (cancel && cancel->load()) return false;
    if (cancel && cancel->load()) return false;
    JobArg arg{&fn};
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    pthread_attr_setstacksize(&attr, kGraphvizStack);
    pthread_t thread;
    if (pthread_create(&thread, &attr, &jobMain, &arg) != 0) {
        pthread_attr_destroy(&attr);
        fn(); // no thread available: run here rather than fail
        return true;
    }
    pthread_attr_destroy(&attr);
    // Graphviz cannot be stopped; once nobody wants its result it only runs when the CPU is idle.
    bool demoted = false;
    for (;;) {
        timespec until{};
        clock_gettime(CLOCK_REALTIME, &until);
        until.tv_nsec += 50'000'000;
        if (until.tv_nsec >= 1'000'000'000) {
            until.tv_sec += 1;
            until.tv_nsec -= 1'000'000'000;
        }
        if (pthread_timedjoin_np(thread, nullptr, &until) == 0) break;
        if (!demoted && cancel && cancel->load()) {
            sched_param param{};
            pthread_setschedparam(thread, SCHED_IDLE, &param);
            demoted = true;
        }
    }
    return true;
}

void keepEdgeLabelsOffTitles(LayoutResult& result) {
    constexpr double kTitle = 18;  // the frame's title strip (views draw the title in its top 16 points)
    struct Strip {
        double top, left, right;
    };
    std::vector<Strip> strips;
    strips.reserve(result.clusters.size());
    for (const auto& c : result.clusters) strips.push_back({c.box.y, c.box.x, c.box.x + c.box.w});
    std::sort(strips.begin(), strips.end(), [](const Strip& a, const Strip& b) { return a.top < b.top; });
    for (auto& e : result.edges) {
        if (e.edge < 0 || static_cast<size_t>(e.edge) >= result.graph.edges.size()) continue;
        const std::string& text = result.graph.edges[static_cast<size_t>(e.edge)].label;
        if (text.empty()) continue;
        // the label's box as the views draw it: 12 points tall around labelPos.y, ~5 points a character
        const double left = e.labelPos.x + 3, right = left + static_cast<double>(text.size()) * 5.0 + 8;
        // the edge enters the frame through its title: the label goes just above the frame, in the
        // gap the edge crosses (below the title it would sit on the frame's first box); an outer
        // frame's title may then be hit in turn, so the strips are walked upwards
        auto it = std::upper_bound(strips.begin(), strips.end(), e.labelPos.y + 5,
                                   [](double y, const Strip& s) { return y < s.top; });
        while (it != strips.begin()) {
            --it;
            if (it->top + kTitle <= e.labelPos.y - 7 - kTitle) break; // every strip further up ends above
            if (it->top < e.labelPos.y + 5 && it->top + kTitle > e.labelPos.y - 7 && it->left < right && it->right > left)
                e.labelPos.y = it->top - 6;
        }
    }
}

void linkFrames(LayoutResult& r, const ModuleTree& tree) {
    std::unordered_map<int, int> clusterOfModule;
    for (size_t c = 0; c < r.clusters.size(); ++c) clusterOfModule.emplace(r.clusters[c].module, static_cast<int>(c));
    auto frameOf = [&](int module) { // the innermost cluster at or above `module`
        for (int m = module; m >= 0 && m < tree.size(); m = tree.module(m).parent)
            if (auto it = clusterOfModule.find(m); it != clusterOfModule.end()) return it->second;
        return -1;
    };
    for (auto& c : r.clusters)
        c.parent = c.module >= 0 && c.module < tree.size() ? frameOf(tree.module(c.module).parent) : -1;
    r.itemFrame.resize(r.graph.items.size());
    for (size_t k = 0; k < r.graph.items.size(); ++k) r.itemFrame[k] = frameOf(r.graph.items[k].cluster);
    auto depthOf = [&](int c) { return r.clusters[static_cast<size_t>(c)].depth; };
    auto parentOf = [&](int c) { return r.clusters[static_cast<size_t>(c)].parent; };
    r.edgeFrame.resize(r.graph.edges.size());
    for (size_t k = 0; k < r.graph.edges.size(); ++k) {
        const VisibleEdge& e = r.graph.edges[k];
        int a = r.itemFrame[static_cast<size_t>(e.from)], b = r.itemFrame[static_cast<size_t>(e.to)];
        while (a != b && a >= 0 && b >= 0) {
            if (depthOf(a) >= depthOf(b)) a = parentOf(a);
            else b = parentOf(b);
        }
        r.edgeFrame[k] = a == b ? a : -1;
    }
}

Result<LayoutPtr> layoutVisibleGraph(VisibleGraph graph, const ModuleTree& tree, const LayoutOptions& options) {
    if (options.cancel && options.cancel->load()) return Status::error("layout cancelled");
    if (options.method == LayoutMethod::Composed ||
        (options.method == LayoutMethod::Automatic && graph.items.size() > kComposedLayoutBoxes)) {
        ComposedLayoutOptions composed;
        composed.cancel = options.cancel;
        composed.progress = options.progress;
        return layoutComposed(std::move(graph), tree, composed);
    }
    auto result = std::make_shared<LayoutResult>();
    result->graph = std::move(graph);
    Status status = Status::error("layout did not run");
    if (!runGraphvizJob([&] { status = detail::runDot(*result, tree, nullptr, false, {}, nullptr); }, options.cancel))
        return Status::error("layout cancelled");
    if (!status) return status;
    keepEdgeLabelsOffTitles(*result);
    linkFrames(*result, tree);
    if (options.cancel && options.cancel->load()) return Status::error("layout cancelled");
    return LayoutPtr(std::move(result));
}

Result<LayoutPtr> layoutGraph(const Graph& graph, const GraphSignature* signature, const ModuleTree& tree,
                              const CollapseState& collapse, const LayoutOptions& options) {
    return layoutVisibleGraph(buildVisibleGraph(graph, signature, tree, collapse), tree, options);
}

Result<std::string> renderGraphviz(const Graph& graph, const GraphSignature* signature, const ModuleTree& tree,
                                   const CollapseState& collapse, const std::string& format) {
    LayoutResult result;
    result.graph = buildVisibleGraph(graph, signature, tree, collapse);
    std::string out;
    Status status = Status::error("render did not run");
    if (result.graph.items.size() > kComposedLayoutBoxes) {
        // as the GUI: a big graph is laid out per module, then drawn at those positions
        auto laidOut = layoutComposed(std::move(result.graph), tree);
        if (!laidOut) return laidOut.status();
        if (format == "svg") return writeLayoutSvg(**laidOut, &graph);
        IRLENS_TRY(checkBitmapSize(**laidOut, format));
        runGraphvizJob([&] { status = detail::renderLaidOut(**laidOut, tree, &graph, format, &out); });
        if (!status) return status;
        return out;
    }
    runGraphvizJob([&] { status = detail::runDot(result, tree, &graph, true, format, &out); });
    if (!status) return status;
    return out;
}

} // namespace irlens::core
