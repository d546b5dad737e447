// engine headers (oneTBB) before Qt's: see run_snapshot.h
#include "core/exec/chrome_trace.h"
#include "core/exec/critical_path.h"
#include "views/qstring_util.h"
#include "core/exec/measured_run.h"
#include "core/exec/memory_timeline.h"
#include "core/exec/profile.h"
#include "core/exec/roofline.h"
#include "core/exec/run_files.h"
#include "core/exec/schedule_model.h"
#include "core/exec/source_lines.h"
#include "core/exec/what_if.h"

#include "views/run/run_analysis.h"

#include <QObject>

#include <algorithm>
#include <optional>

namespace irlens::views {

using namespace irlens::core::exec;

// Everything the docks show first is computed here, on the run's worker: replaying the sampled runs
// for the prediction takes tens of milliseconds on deep_stack, too long for the GUI thread.
struct RunAnalysis {
    std::shared_ptr<const ExecutionPlan> plan;
    Profile profile;                   // of `plan`'s measured runs
    MeasuredRun run;
    MemoryTimeline memory;
    LineProfile lines;
    int64_t wallNs = 0;
    MemorySummary memorySummary;
    PathSummary basePath;
    LineSummary lineSummary;
    RooflineSummary roofline;
    std::optional<Roofline> roofs;     // the run against this machine's roofs, when they are known
};

namespace {
MemorySummary summarizeMemory(const RunAnalysis& a);
PathSummary predictPath(const RunAnalysis& a, const QString& selector, double factor);
LineSummary summarizeLines(const RunAnalysis& a);
RooflineSummary summarizeRoofline(RunAnalysis& a);
} // namespace

RunAnalysisPtr analyseRun(std::shared_ptr<const ExecutionPlan> plan, Profile profile) {
    auto a = std::make_shared<RunAnalysis>();
    a->plan = std::move(plan);
    a->profile = std::move(profile);
    a->run = measureRun(*a->plan, a->profile);
    a->memory = memoryTimeline(*a->plan, a->run);
    a->lines = lineProfile(*a->plan, a->run.nodeNs);
    a->wallNs = a->run.medianWallNs;
    a->memorySummary = summarizeMemory(*a);
    a->basePath = predictPath(*a, {}, 1.0);
    a->lineSummary = summarizeLines(*a);
    a->roofline = summarizeRoofline(*a);
    return a;
}

MemorySummary memoryOf(const RunAnalysis& a) { return a.memorySummary; }

PathSummary criticalPathOf(const RunAnalysis& a, const QString& selector, double factor) {
    return selector.trimmed().isEmpty() ? a.basePath : predictPath(a, selector, factor);
}

LineSummary linesOf(const RunAnalysis& a) { return a.lineSummary; }

RooflineSummary rooflineOf(const RunAnalysis& a) { return a.roofline; }

std::string runFileText(const RunAnalysis& a, RunFile file) {
    switch (file) {
    case RunFile::Profile: return a.profile.csv();
    case RunFile::Trace: return chromeTrace(*a.plan, a.profile, a.roofs ? &*a.roofs : nullptr);
    case RunFile::MemoryCurve: return memoryCurveCsv(*a.plan, a.memory);
    case RunFile::CriticalPath: return criticalPathCsv(*a.plan, a.run);
    }
    return {};
}

const RoofPoint* RooflineSummary::find(int node) const {
    auto it = std::lower_bound(points.begin(), points.end(), node, [](const RoofPoint& p, int n) { return p.node < n; });
    return it != points.end() && it->node == node ? &*it : nullptr;
}

namespace {
QString nodeName(const ExecutionPlan& plan, int node) {
    return node >= 0 && node < static_cast<int>(plan.graph().nodes.size()) ? q(plan.graph().nodes[static_cast<size_t>(node)].node->name) : QString();
}
} // namespace

namespace {

MemorySummary summarizeMemory(const RunAnalysis& a) {
    MemorySummary m;
    for (const MemoryStep& s : a.memory.steps)
        m.curve.push_back({s.node, nodeName(*a.plan, s.node), s.weights, s.inputs, s.activations, s.workspace});
    m.peak = a.memory.peakStep;
    m.peakBytes = a.memory.peakBytes;
    for (const LiveTensor& t : a.memory.liveAtPeak)
        m.liveAtPeak.push_back({q(t.name), QString::fromUtf8(memoryKindName(t.kind)), q(t.type), q(t.producerName), q(t.modulePath),
                                t.lastUser < 0 ? QObject::tr("(held to the end)") : q(t.lastUserName), t.producer, t.bytes});
    m.intermediateBytes = a.memory.intermediateBytes;
    m.allocatedBytes = a.memory.allocatedBytes;
    m.runPeakBytes = a.memory.runPeakBytes();
    m.measuredPeakBytes = a.memory.measuredPeakBytes;
    return m;
}

PathSummary predictPath(const RunAnalysis& a, const QString& selector, double factor) {
    PathSummary p;
    p.measuredWallNs = a.wallNs;
    p.threads = a.run.threads;
    std::vector<WhatIfSpec> specs;
    if (!selector.trimmed().isEmpty()) {
        if (factor < 0) {
            p.error = QObject::tr("a speed-up factor is 0 (free) or more");
            return p;
        }
        specs.push_back({selector.trimmed().toStdString(), factor});
    }
    auto w = whatIf(*a.plan, a.run, specs);
    if (!w) {
        p.error = q(w.status().message());
        return p;
    }
    const CriticalPath& path = specs.empty() ? w->baselinePath : w->path;
    const std::vector<int64_t>& times = specs.empty() ? a.run.nodeNs : w->nodeNs;
    for (int n : path.nodes) {
        p.nodes.push_back(a.plan->graph().nodes[static_cast<size_t>(n)].index);
        p.nodeNs.push_back(std::max<int64_t>(0, times[static_cast<size_t>(n)]));
    }
    p.lengthNs = path.lengthNs;
    p.predictedWallNs = specs.empty() ? w->baseline.wallNs : w->predicted.wallNs;
    p.scaledNodes = w->scaledNodes;
    return p;
}

QString rooflineWarning(const MachineRoofs& m) {
    QString warning = q(m.cacheNote);
    if (m.busyWhenMeasured())
        warning += (warning.isEmpty() ? "" : "; ") + QObject::tr("measured on a busy machine (load average %1 on %2 CPUs): the roofs are likely low")
                                                          .arg(m.loadAverage, 0, 'f', 1).arg(m.cpus);
    return warning;
}

// Keeps the core roofline in `a` too: the trace's slices give their share of the roof from it.
RooflineSummary summarizeRoofline(RunAnalysis& a) {
    RooflineSummary s;
    s.threads = a.run.threads;
    auto roofs = machineRoofs(a.run.threads);
    if (!roofs) {
        s.error = q(roofs.status().message());
        return s;
    }
    s.peakGflops = roofs->peakGflops;
    s.bandwidthGBs = roofs->bandwidthGBs;
    s.cpu = q(roofs->cpu);
    s.origin = roofs->fromCache ? QObject::tr("cached, measured %1").arg(q(roofs->measuredAt))
                                : QObject::tr("measured now in %1 s").arg(roofs->measureSeconds, 0, 'f', 2);
    s.warning = rooflineWarning(*roofs);
    s.nearRoofThreshold = kNearRoofShare;
    a.roofs = roofline(*a.plan, a.run, *roofs);
    const Roofline& r = *a.roofs;
    s.totalNs = r.totalNs;
    s.nearRoofNs = r.nearRoofNs;
    for (const NodeRoof& n : r.nodes) {
        const core::Node& node = *a.plan->graph().nodes[static_cast<size_t>(n.node)].node;
        s.points.push_back({n.node, q(node.name), q(node.target.shortName()), core::opFamilyOf(node.target), n.ns, n.flops, n.bytes,
                            n.intensity, n.attainableGflops, n.achievedGflops, n.roofNs, n.share, n.computeBound});
    }
    return s;
}

LineSummary summarizeLines(const RunAnalysis& a) {
    LineSummary s;
    for (const SourceLine& l : a.lines.lines)
        s.rows.push_back({q(l.file), l.line, q(l.function), q(l.code), l.inLibrary, l.selfNs, l.inclusiveNs, l.selfNodes, l.nodes});
    s.tracedNs = a.lines.tracedNs;
    s.untracedNs = a.lines.untracedNs;
    s.tracedNodes = a.lines.tracedNodes;
    s.untracedNodes = a.lines.untracedNodes;
    return s;
}

} // namespace

} // namespace irlens::views
