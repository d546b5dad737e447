#include "core/exec/profile.h"

#include "core/exec/chrome_trace.h"

#include <algorithm>
#include <cstdio>
#include <limits>
#include <map>
#include <nlohmann/json.hpp>

namespace irlens::core::exec {

std::vector<int64_t> Profile::lastRunNs() const {
    std::vector<int64_t> ns(m_last.size(), -1);
    for (size_t k = 0; k < m_last.size(); ++k)
        if (m_last[k].node >= 0) ns[k] = m_last[k].endNs - m_last[k].startNs;
    return ns;
}

int64_t medianOf(std::vector<int64_t> v) {
    if (v.empty()) return 0;
    std::sort(v.begin(), v.end());
    size_t n = v.size();
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

namespace {
// Node timings kept in all (samples x nodes): bounds the memory of a program run many times.
constexpr size_t kMaxSampledTimings = size_t(1) << 22;
constexpr int kMaxSamples = 256;
} // namespace

void Profile::onRunStart(const ExecutionPlan& plan, int threads) {
    const size_t n = plan.graph().nodes.size();
    if (m_plan != &plan || m_nodeCount != n) { // another plan: its runs do not line up with ours
        m_samples.clear();
        m_sampleWall.clear();
        m_sampleParts.clear();
        m_wall.clear();
        m_queued.clear();
        m_last.clear();
        m_calls.assign(n, 0);
        m_min.assign(n, std::numeric_limits<int64_t>::max());
        m_max.assign(n, 0);
        m_peak = 0;
        m_capacity = static_cast<int>(std::clamp<size_t>(kMaxSampledTimings / std::max<size_t>(1, n), 16, kMaxSamples));
        m_samples.reserve(static_cast<size_t>(m_capacity) * n); // once: no copies while samples accumulate
    }
    m_plan = &plan;
    m_nodeCount = n;
    m_threads = threads;
    m_current.assign(n, NodeTiming{-1}); // same size every run: no allocation after the first
    m_currentParts.clear();
    m_currentQueued = -1;
    m_open = true;
}

void Profile::onParts(const std::vector<PartTiming>& parts) {
    if (m_open) m_currentParts = parts;
}

NodeTiming* Profile::timingSlots() { return m_open ? m_current.data() : nullptr; }

void Profile::onNode(const NodeTiming& t) {
    // Each node runs once per run, so each worker writes its own element: no lock needed.
    if (m_open && t.node >= 0 && static_cast<size_t>(t.node) < m_nodeCount) m_current[static_cast<size_t>(t.node)] = t;
}

Profile::Queued Profile::queued() const {
    Queued q;
    if (m_wall.empty() || m_queued.size() != m_wall.size()) return q;
    for (int64_t ns : m_queued) {
        if (ns < 0) return q;
        q.totalNs += ns;
    }
    q.measured = true;
    q.slowestRunNs = m_queued[static_cast<size_t>(std::max_element(m_wall.begin(), m_wall.end()) - m_wall.begin())];
    return q;
}

void Profile::onRunQueued(int64_t queuedNs) {
    if (m_open) m_currentQueued = queuedNs;
}

void Profile::onRunEnd(int64_t wallNs, int64_t peakBytes) {
    if (!m_open) return;
    m_open = false;
    const size_t run = m_wall.size();
    m_wall.push_back(wallNs);
    m_queued.push_back(m_currentQueued);
    m_currentQueued = -1;
    m_peak = std::max(m_peak, peakBytes);
    for (size_t k = 0; k < m_nodeCount; ++k) {
        const NodeTiming& t = m_current[k];
        if (t.node < 0) continue;
        ++m_calls[k];
        m_min[k] = std::min(m_min[k], t.endNs - t.startNs);
        m_max[k] = std::max(m_max[k], t.endNs - t.startNs);
    }
    // reservoir sampling: run r replaces a random sample with probability capacity / (r + 1)
    size_t slot = run;
    if (run >= static_cast<size_t>(m_capacity)) {
        m_rng ^= m_rng << 13;
        m_rng ^= m_rng >> 7;
        m_rng ^= m_rng << 17;
        slot = static_cast<size_t>(m_rng % (run + 1));
    }
    if (slot == m_sampleWall.size()) {
        m_samples.insert(m_samples.end(), m_current.begin(), m_current.end());
        m_sampleWall.push_back(wallNs);
        m_sampleParts.push_back(m_currentParts);
    } else if (slot < m_sampleWall.size()) {
        std::copy(m_current.begin(), m_current.end(), m_samples.begin() + static_cast<std::ptrdiff_t>(slot * m_nodeCount));
        m_sampleWall[slot] = wallNs;
        m_sampleParts[slot] = m_currentParts;
    }
    m_last.swap(m_current);
}

int64_t Profile::medianWallNs() const { return medianOf(m_wall); }

std::vector<NodeTiming> Profile::sampleRun(int k) const {
    const NodeTiming* b = sample(static_cast<size_t>(k));
    return std::vector<NodeTiming>(b, b + m_nodeCount);
}

int Profile::medianSample() const {
    if (m_sampleWall.empty()) return -1;
    std::vector<size_t> order(m_sampleWall.size());
    for (size_t k = 0; k < order.size(); ++k) order[k] = k;
    std::sort(order.begin(), order.end(), [&](size_t a, size_t b) { return m_sampleWall[a] < m_sampleWall[b]; });
    return static_cast<int>(order[order.size() / 2]);
}

std::vector<NodeProfile> Profile::nodes() const {
    std::vector<NodeProfile> out;
    if (!m_plan || m_sampleWall.empty()) return out;
    const auto& pnodes = m_plan->graph().nodes;
    std::vector<int64_t> d;
    for (size_t k = 0; k < pnodes.size() && k < m_nodeCount; ++k) {
        d.clear();
        NodeProfile p;
        for (size_t r = 0; r < m_sampleWall.size(); ++r) {
            const NodeTiming& t = sample(r)[k];
            if (t.node < 0) continue;
            d.push_back(t.endNs - t.startNs);
            p.bytes = t.bytes;
            p.flops = t.flops;
        }
        if (d.empty()) continue;
        p.node = static_cast<int>(k);
        p.name = pnodes[k].node->name;
        p.op = pnodes[k].node->target.shortName();
        p.modulePath = pnodes[k].modulePath;
        p.calls = m_calls[k];
        p.minNs = m_min[k];
        p.maxNs = m_max[k];
        p.medianNs = medianOf(d);
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
    return m_plan ? chromeTrace(*m_plan, *this) : nlohmann::json{{"traceEvents", nlohmann::json::array()}, {"displayTimeUnit", "ms"}}.dump();
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
