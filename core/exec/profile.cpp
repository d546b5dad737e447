#include "core/exec/profile.h"

#include <algorithm>
#include <cstdio>
#include <map>
#include <nlohmann/json.hpp>

namespace irlens::core::exec {

int64_t medianOf(std::vector<int64_t> v) {
    if (v.empty()) return 0;
    std::sort(v.begin(), v.end());
    size_t n = v.size();
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

void Profile::onRunStart(const ExecutionPlan& plan, int threads) {
    m_plan = &plan;
    m_threads = threads;
    m_current.assign(plan.graph().nodes.size(), NodeTiming{-1});
}

void Profile::onNode(const NodeTiming& t) {
    // Each node runs once per run, so each worker writes its own element: no lock needed.
    if (t.node >= 0 && static_cast<size_t>(t.node) < m_current.size()) m_current[static_cast<size_t>(t.node)] = t;
}

void Profile::onRunEnd(int64_t wallNs, int64_t peakBytes) {
    m_runs.push_back(std::move(m_current));
    m_current.clear();
    m_wall.push_back(wallNs);
    m_peak = std::max(m_peak, peakBytes);
}

int64_t Profile::medianWallNs() const { return medianOf(m_wall); }

std::vector<NodeProfile> Profile::nodes() const {
    std::vector<NodeProfile> out;
    if (!m_plan || m_runs.empty()) return out;
    const auto& pnodes = m_plan->graph().nodes;
    for (size_t k = 0; k < pnodes.size(); ++k) {
        std::vector<int64_t> d;
        NodeProfile p;
        for (const auto& run : m_runs) {
            if (k >= run.size() || run[k].node < 0) continue;
            d.push_back(run[k].endNs - run[k].startNs);
            p.bytes = run[k].bytes;
            p.flops = run[k].flops;
        }
        if (d.empty()) continue;
        p.node = static_cast<int>(k);
        p.name = pnodes[k].node->name;
        p.op = pnodes[k].node->target.shortName();
        p.modulePath = pnodes[k].modulePath;
        p.calls = static_cast<int>(d.size());
        p.minNs = *std::min_element(d.begin(), d.end());
        p.maxNs = *std::max_element(d.begin(), d.end());
        p.medianNs = medianOf(std::move(d));
        out.push_back(std::move(p));
    }
    return out;
}

namespace {
std::vector<GroupProfile> groupBy(const std::vector<NodeProfile>& nodes, bool byOp) {
    std::map<std::string, GroupProfile> groups;
    for (const auto& n : nodes) {
        auto& g = groups[byOp ? n.op : n.modulePath];
        g.key = byOp ? n.op : n.modulePath;
        g.selfNs += n.medianNs;
        g.flops += n.flops;
        g.calls += 1;
    }
    std::vector<GroupProfile> out;
    for (auto& [k, g] : groups) out.push_back(g);
    std::sort(out.begin(), out.end(), [](const auto& a, const auto& b) { return a.selfNs > b.selfNs; });
    return out;
}
} // namespace

std::vector<GroupProfile> Profile::byOp() const { return groupBy(nodes(), true); }
std::vector<GroupProfile> Profile::byModule() const { return groupBy(nodes(), false); }

std::string Profile::chromeTraceJson() const {
    nlohmann::json events = nlohmann::json::array();
    if (m_plan && !m_runs.empty()) {
        // the run with the median wall time
        std::vector<size_t> order(m_runs.size());
        for (size_t k = 0; k < order.size(); ++k) order[k] = k;
        std::sort(order.begin(), order.end(), [&](size_t a, size_t b) { return m_wall[a] < m_wall[b]; });
        const auto& run = m_runs[order[order.size() / 2]];
        const auto& pnodes = m_plan->graph().nodes;
        std::map<int, bool> threads;
        for (const auto& t : run) {
            if (t.node < 0) continue;
            const auto& pn = pnodes[static_cast<size_t>(t.node)];
            nlohmann::json args = {{"op", pn.node->target.shortName()}, {"module", pn.modulePath}, {"bytes", t.bytes}};
            if (t.flops > 0) args["gflops"] = t.endNs > t.startNs ? t.flops / static_cast<double>(t.endNs - t.startNs) : 0.0;
            events.push_back({{"name", pn.node->name}, {"cat", pn.node->target.shortName()}, {"ph", "X"},
                              {"ts", static_cast<double>(t.startNs) / 1000.0},
                              {"dur", static_cast<double>(t.endNs - t.startNs) / 1000.0}, {"pid", 1}, {"tid", t.thread},
                              {"args", args}});
            threads[t.thread] = true;
        }
        events.push_back({{"name", "process_name"}, {"ph", "M"}, {"pid", 1}, {"args", {{"name", "irlens engine"}}}});
        for (const auto& [tid, unused] : threads)
            events.push_back({{"name", "thread_name"}, {"ph", "M"}, {"pid", 1}, {"tid", tid},
                              {"args", {{"name", "worker " + std::to_string(tid)}}}});
    }
    nlohmann::json doc = {{"traceEvents", events}, {"displayTimeUnit", "ms"}};
    return doc.dump();
}

std::string Profile::csv() const {
    std::string out = "node,op,module,median_us,min_us,max_us,bytes,flops,gflops\n";
    char buf[256];
    for (const auto& n : nodes()) {
        std::snprintf(buf, sizeof buf, ",%.3f,%.3f,%.3f,%lld,%.0f,%.3f\n", n.medianNs / 1000.0, n.minNs / 1000.0, n.maxNs / 1000.0,
                      static_cast<long long>(n.bytes), n.flops, n.gflops());
        out += n.name + "," + n.op + ",\"" + n.modulePath + "\"" + buf;
    }
    return out;
}

} // namespace irlens::core::exec
