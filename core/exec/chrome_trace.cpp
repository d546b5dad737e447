#include "core/exec/chrome_trace.h"

#include "core/exec/measured_run.h"
#include "core/exec/memory_timeline.h"
#include "core/exec/roofline.h"
#include "core/exec/source_lines.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <map>
#include <set>

namespace irlens::core::exec {

namespace {

using nlohmann::json;

// Trace Event Format timestamps are microseconds.
double us(int64_t ns) { return static_cast<double>(ns) / 1000.0; }

// A stretch of one worker's time spent on one node: the node's own slice, or parts of it another
// worker ran (kernels/util/parts.h).
struct Slice {
    int thread = 0;
    int64_t startNs = 0;
    int64_t endNs = 0;
};

// How far inside a slice a flow event sits, so it binds to that slice and not to the one before or
// after it on the same track (a worker's slices touch: each starts where the previous ended), with
// room for readers that round microseconds to whole nanoseconds either way.
int64_t insideBy(const Slice& t) { return std::min<int64_t>((t.endNs - t.startNs) / 2, 100); }

// Per node, the parts other workers ran: each worker's consecutive parts of a node as one slice when
// less than a microsecond apart and no node of that worker ended between them (the worker went
// from one part straight to the next).
std::vector<std::vector<Slice>> partSlices(const std::vector<NodeTiming>& run, std::vector<PartTiming> parts) {
    std::map<int, std::vector<int64_t>> nodeEnds; // per worker, sorted
    for (const NodeTiming& t : run)
        if (t.node >= 0) nodeEnds[t.thread].push_back(t.endNs);
    for (auto& [thread, ends] : nodeEnds) std::sort(ends.begin(), ends.end());
    auto nodeEndsWithin = [&](int thread, int64_t from, int64_t to) {
        const auto it = nodeEnds.find(thread);
        if (it == nodeEnds.end()) return false;
        const auto next = std::upper_bound(it->second.begin(), it->second.end(), from);
        return next != it->second.end() && *next <= to;
    };
    std::sort(parts.begin(), parts.end(), [](const PartTiming& a, const PartTiming& b) {
        return a.thread != b.thread ? a.thread < b.thread : a.startNs < b.startNs;
    });
    std::vector<std::vector<Slice>> out(run.size());
    const PartTiming* previous = nullptr;
    for (const PartTiming& p : parts) {
        if (p.node < 0 || static_cast<size_t>(p.node) >= out.size()) continue;
        auto& slices = out[static_cast<size_t>(p.node)];
        if (previous && previous->node == p.node && previous->thread == p.thread && p.startNs - slices.back().endNs < 1000 &&
            !nodeEndsWithin(p.thread, slices.back().endNs, p.startNs))
            slices.back().endNs = std::max(slices.back().endNs, p.endNs);
        else
            slices.push_back({p.thread, p.startNs, p.endNs});
        previous = &p;
    }
    return out;
}

// The types of a node's tensor arguments in schema order (list elements in place).
std::vector<int> argumentSlotsOf(const PlanNode& pn) {
    std::vector<int> slots;
    for (const PlanArg& a : pn.args) {
        if (a.source == PlanArg::Source::Slot) slots.push_back(a.slot);
        if (a.source == PlanArg::Source::List)
            for (const auto& [slot, literal] : a.elements) slots.push_back(slot);
    }
    return slots;
}

json typesOf(const PlanGraph& g, const std::vector<int>& slots) {
    json types = json::array();
    for (int s : slots) {
        if (s < 0) continue;
        if (const TensorMeta* m = g.graph->tensorMeta(g.slotNames[static_cast<size_t>(s)])) types.push_back(m->shortString());
    }
    return types;
}

std::vector<int> outputSlotsOf(const PlanNode& pn) {
    std::vector<int> slots;
    for (const auto& list : pn.outputSlots) slots.insert(slots.end(), list.begin(), list.end());
    return slots;
}

json sliceArgs(const PlanGraph& g, const PlanNode& pn, const NodeTiming& t, const Roofline* roofline) {
    json args = {{"op", pn.node->target.shortName()}, {"module", pn.modulePath}, {"bytes", t.bytes}};
    if (const StackFrame* f = selfFrame(pn.node->meta.frames)) args["source"] = f->file + ":" + std::to_string(f->line);
    args["inputs"] = typesOf(g, argumentSlotsOf(pn));
    args["outputs"] = typesOf(g, outputSlotsOf(pn));
    if (t.flops > 0) args["gflops"] = t.endNs > t.startNs ? t.flops / static_cast<double>(t.endNs - t.startNs) : 0.0;
    if (const NodeRoof* r = roofline ? roofline->find(pn.index) : nullptr; r && r->movesData()) {
        args["roof_percent"] = 100.0 * r->share;
        args["bound"] = r->computeBound ? "compute" : "memory";
        args["flop_per_byte"] = r->intensity;
        args["bytes_moved"] = r->bytes;
    }
    return args;
}

// One "s"/"f" pair per producer, consumer and worker where the consumer, or a part of it, ran on
// another worker than the producer: from inside the producer's slice to inside the consumer's first
// slice on that worker.
void addFlows(const PlanGraph& g, const std::vector<NodeTiming>& run, const std::vector<std::vector<Slice>>& parts, json& events) {
    std::vector<int> producer(g.slotNames.size(), -1);
    for (const PlanNode& pn : g.nodes)
        for (int s : outputSlotsOf(pn))
            if (s >= 0) producer[static_cast<size_t>(s)] = pn.index;
    int64_t id = 0;
    for (const PlanNode& consumer : g.nodes) {
        const NodeTiming& c = run[static_cast<size_t>(consumer.index)];
        if (c.node < 0) continue;
        // where the consumer ran: its own slice, then its parts on other workers
        std::vector<Slice> ranOn{{c.thread, c.startNs, c.endNs}};
        for (const Slice& part : parts[static_cast<size_t>(consumer.index)])
            if (std::none_of(ranOn.begin(), ranOn.end(), [&](const Slice& r) { return r.thread == part.thread; })) ranOn.push_back(part);
        std::set<int> linked;
        for (int s : consumer.inputSlots) {
            const int p = producer[static_cast<size_t>(s)];
            if (p < 0 || run[static_cast<size_t>(p)].node < 0 || !linked.insert(p).second) continue;
            const NodeTiming& f = run[static_cast<size_t>(p)];
            const Slice from{f.thread, f.startNs, f.endNs};
            const std::string& value = g.slotNames[static_cast<size_t>(s)];
            for (const Slice& to : ranOn) {
                if (to.thread == from.thread) continue;
                ++id;
                events.push_back({{"name", value}, {"cat", kTraceFlowCategory}, {"ph", "s"}, {"id", id}, {"pid", 1}, {"tid", from.thread},
                                  {"ts", us(from.endNs - insideBy(from))}});
                events.push_back({{"name", value}, {"cat", kTraceFlowCategory}, {"ph", "f"}, {"bp", "e"}, {"id", id}, {"pid", 1},
                                  {"tid", to.thread}, {"ts", us(to.startNs + insideBy(to))}});
            }
        }
    }
}

// The memory timeline's curve as a counter: each node's high point at its start, and what stays
// live after the last node at the run's end.
void addMemoryCounter(const ExecutionPlan& plan, const Profile& profile, const std::vector<NodeTiming>& run, json& events) {
    const MemoryTimeline memory = memoryTimeline(plan, measureRun(plan, profile));
    int64_t end = 0;
    for (const MemoryStep& step : memory.steps) {
        const NodeTiming& t = run[static_cast<size_t>(step.node)];
        end = std::max(end, t.endNs);
        events.push_back({{"name", kTraceMemoryCounter}, {"ph", "C"}, {"pid", 1}, {"tid", 0}, {"ts", us(t.startNs)},
                          {"args", {{kTraceLiveBytes, step.total()}}}});
    }
    if (memory.steps.empty()) return;
    const MemoryStep& last = memory.steps.back();
    events.push_back({{"name", kTraceMemoryCounter}, {"ph", "C"}, {"pid", 1}, {"tid", 0}, {"ts", us(end)},
                      {"args", {{kTraceLiveBytes, last.weights + last.inputs + last.activationsAfter}}}});
}

} // namespace

std::string chromeTrace(const ExecutionPlan& plan, const Profile& profile, const Roofline* roofline) {
    json events = json::array();
    const int median = profile.medianSample();
    const PlanGraph& g = plan.graph();
    if (median >= 0 && profile.sampleRun(median).size() == g.nodes.size()) {
        const std::vector<NodeTiming> run = profile.sampleRun(median);
        std::set<int> threads;
        for (const NodeTiming& t : run) {
            if (t.node < 0) continue;
            const PlanNode& pn = g.nodes[static_cast<size_t>(t.node)];
            events.push_back({{"name", pn.node->name}, {"cat", pn.node->target.shortName()}, {"ph", "X"}, {"ts", us(t.startNs)},
                              {"dur", us(t.endNs - t.startNs)}, {"pid", 1}, {"tid", t.thread}, {"args", sliceArgs(g, pn, t, roofline)}});
            threads.insert(t.thread);
        }
        const std::vector<std::vector<Slice>> parts = partSlices(run, profile.sampleParts(median));
        for (const PlanNode& pn : g.nodes)
            for (const Slice& part : parts[static_cast<size_t>(pn.index)]) {
                events.push_back({{"name", pn.node->name}, {"cat", pn.node->target.shortName()}, {"ph", "X"}, {"ts", us(part.startNs)},
                                  {"dur", us(part.endNs - part.startNs)}, {"pid", 1}, {"tid", part.thread},
                                  {"args", {{"part_of", pn.node->name}, {"op", pn.node->target.shortName()}}}});
                threads.insert(part.thread);
            }
        addFlows(g, run, parts, events);
        addMemoryCounter(plan, profile, run, events);
        events.push_back({{"name", "process_name"}, {"ph", "M"}, {"pid", 1}, {"args", {{"name", "irlens engine"}}}});
        for (int tid : threads)
            events.push_back({{"name", "thread_name"}, {"ph", "M"}, {"pid", 1}, {"tid", tid}, {"args", {{"name", "worker " + std::to_string(tid)}}}});
    }
    return json{{"traceEvents", events}, {"displayTimeUnit", "ms"}}.dump();
}

} // namespace irlens::core::exec
