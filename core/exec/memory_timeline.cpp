#include "core/exec/memory_timeline.h"

#include <algorithm>
#include <limits>

namespace irlens::core::exec {

const char* memoryKindName(MemoryKind kind) {
    switch (kind) {
    case MemoryKind::Weight: return "weight";
    case MemoryKind::Input: return "input";
    case MemoryKind::Activation: return "activation";
    case MemoryKind::Workspace: return "workspace";
    }
    return "?";
}

int64_t slotMetaBytes(const PlanGraph& g, int slot, bool* unknown) {
    constexpr int64_t kMax = std::numeric_limits<int64_t>::max();
    if (slot < 0 || static_cast<size_t>(slot) >= g.slotNames.size() || !g.graph) return 0;
    const TensorMeta* meta = g.graph->tensorMeta(g.slotNames[static_cast<size_t>(slot)]);
    if (!meta) return 0;
    auto sizes = meta->staticSizes();
    if (!sizes) {
        if (unknown) *unknown = true;
        return 0;
    }
    int64_t n = elementSize(meta->dtype);
    for (int64_t s : *sizes) {
        if (s <= 0) return 0;
        if (n > kMax / s) return kMax; // hostile meta saturates instead of overflowing
        n *= s;
    }
    return n;
}

namespace {

struct Storage {
    int slot = -1;         // the value that allocated it
    MemoryKind kind = MemoryKind::Activation;
    int64_t bytes = 0;
    int producer = -1;
    int refs = 0;          // values alive that use it
    int views = 0;
    int lastUser = -1;
    bool live = true;
};

class MemoryReplay {
public:
    MemoryReplay(const ExecutionPlan& plan, const MeasuredRun& run)
        : m_plan(plan), m_g(plan.graph()), m_run(run), m_storageOf(m_g.slotNames.size(), -1), m_remaining(m_g.useCounts) {
        m_out.measured = run.runs > 0;
        m_out.measuredPeakBytes = run.peakBytes;
    }

    MemoryTimeline replay() {
        addGraphInputs();
        for (int node : executionOrder()) step(m_g.nodes[static_cast<size_t>(node)]);
        fillLiveAtPeak();
        return std::move(m_out);
    }

private:
    std::vector<int> executionOrder() const {
        if (!m_run.order.empty()) return m_run.order;
        std::vector<int> order;
        for (const PlanNode& pn : m_g.nodes) order.push_back(pn.index);
        return order;
    }

    int64_t bytesOf(int slot) {
        bool unknown = false;
        const int64_t b = slotMetaBytes(m_g, slot, &unknown);
        m_out.unknownSizes += unknown ? 1 : 0;
        return b;
    }

    bool isTensor(int slot) const {
        return slot >= 0 && m_g.graph && m_g.graph->tensorMeta(m_g.slotNames[static_cast<size_t>(slot)]) != nullptr;
    }

    int newStorage(int slot, MemoryKind kind, int producer) {
        m_storages.push_back(Storage{slot, kind, bytesOf(slot), producer, 1, 0, -1, true});
        m_storageOf[static_cast<size_t>(slot)] = static_cast<int>(m_storages.size()) - 1;
        return m_storageOf[static_cast<size_t>(slot)];
    }

    // Weights and user inputs: live for the whole run (held by the archive and by the caller).
    void addGraphInputs() {
        for (const PlanInput& in : m_plan.inputs()) {
            if (in.slot < 0 || !isTensor(in.slot)) continue;
            const bool user = in.kind == InputKind::UserInput;
            const bool weight = in.kind == InputKind::Parameter || in.kind == InputKind::Buffer || in.kind == InputKind::TensorConstant;
            if (!user && !weight) continue;
            const Storage& s = m_storages[static_cast<size_t>(newStorage(in.slot, user ? MemoryKind::Input : MemoryKind::Weight, -1))];
            (user ? m_out.inputBytes : m_out.weightBytes) += s.bytes;
        }
    }

    // The storage a node's outputs view when it allocated nothing in the measured run: its first tensor
    // argument's. Not for higher-order nodes: their branches allocate, and that is not counted as theirs.
    int viewedStorage(const PlanNode& pn) const {
        const size_t k = static_cast<size_t>(pn.index);
        if (k >= m_run.nodeBytes.size() || m_run.nodeBytes[k] != 0 || !pn.subgraphs.empty()) return -1;
        for (const PlanArg& a : pn.args)
            if (a.source == PlanArg::Source::Slot && m_storageOf[static_cast<size_t>(a.slot)] >= 0) return m_storageOf[static_cast<size_t>(a.slot)];
        return -1;
    }

    // Gives each tensor output of `pn` its storage; returns the bytes newly allocated.
    int64_t allocateOutputs(const PlanNode& pn) {
        const int viewed = viewedStorage(pn);
        int64_t fresh = 0;
        for (const auto& slots : pn.outputSlots)
            for (int s : slots) {
                if (!isTensor(s)) continue;
                if (viewed >= 0) {
                    m_out.intermediateBytes += bytesOf(s);
                    m_storageOf[static_cast<size_t>(s)] = viewed;
                    ++m_storages[static_cast<size_t>(viewed)].refs;
                    ++m_storages[static_cast<size_t>(viewed)].views;
                    continue;
                }
                const Storage& st = m_storages[static_cast<size_t>(newStorage(s, MemoryKind::Activation, pn.index))];
                fresh += st.bytes;
                m_out.intermediateBytes += st.bytes;
            }
        m_activations += fresh;
        m_out.allocatedBytes += fresh;
        return fresh;
    }

    // A value is gone: its storage is freed with the last value using it (weights and inputs stay).
    void release(int slot, int node) {
        const int id = m_storageOf[static_cast<size_t>(slot)];
        if (id < 0) return;
        Storage& st = m_storages[static_cast<size_t>(id)];
        if (--st.refs > 0 || st.kind != MemoryKind::Activation) return;
        st.live = false;
        st.lastUser = node;
        m_activations -= st.bytes;
    }

    void step(const PlanNode& pn) {
        const int64_t fresh = allocateOutputs(pn);
        const size_t k = static_cast<size_t>(pn.index);
        const int64_t measured = k < m_run.nodeBytes.size() ? m_run.nodeBytes[k] : -1;
        MemoryStep st{pn.index, m_out.weightBytes, m_out.inputBytes, m_activations, std::max<int64_t>(0, measured - fresh), 0};
        if (m_out.peakStep < 0 || st.total() > m_out.peakBytes) {
            m_out.peakStep = static_cast<int>(m_out.steps.size());
            m_out.peakBytes = st.total();
            m_peakLive.clear();
            for (size_t id = 0; id < m_storages.size(); ++id)
                if (m_storages[id].live) m_peakLive.push_back(id);
        }
        for (int s : pn.inputSlots)
            if (--m_remaining[static_cast<size_t>(s)] == 0) release(s, pn.index);
        for (const auto& slots : pn.outputSlots)
            for (int s : slots)
                if (s >= 0 && m_g.useCounts[static_cast<size_t>(s)] == 0) release(s, pn.index); // never read
        st.activationsAfter = m_activations;
        m_out.steps.push_back(st);
    }

    LiveTensor describe(const Storage& st) const {
        LiveTensor t;
        const std::string& name = m_g.slotNames[static_cast<size_t>(st.slot)];
        t.name = name;
        t.kind = st.kind;
        t.bytes = st.bytes;
        if (const TensorMeta* meta = m_g.graph->tensorMeta(name)) t.type = meta->shortString();
        t.producer = st.producer;
        if (st.producer >= 0) {
            const PlanNode& pn = m_g.nodes[static_cast<size_t>(st.producer)];
            t.producerName = pn.node->name;
            t.modulePath = pn.modulePath;
        }
        t.lastUser = st.lastUser;
        if (st.lastUser >= 0) t.lastUserName = m_g.nodes[static_cast<size_t>(st.lastUser)].node->name;
        t.views = st.views;
        return t;
    }

    void fillLiveAtPeak() {
        if (m_out.peakStep < 0) return;
        for (size_t id : m_peakLive) m_out.liveAtPeak.push_back(describe(m_storages[id]));
        const MemoryStep& peak = m_out.steps[static_cast<size_t>(m_out.peakStep)];
        if (peak.workspace > 0) {
            const PlanNode& pn = m_g.nodes[static_cast<size_t>(peak.node)];
            m_out.liveAtPeak.push_back(LiveTensor{"workspace of " + pn.node->name, MemoryKind::Workspace, peak.workspace, "",
                                                  pn.index, pn.node->name, pn.modulePath, pn.index, pn.node->name, 0});
        }
        std::stable_sort(m_out.liveAtPeak.begin(), m_out.liveAtPeak.end(),
                         [](const LiveTensor& a, const LiveTensor& b) { return a.bytes > b.bytes; });
    }

    const ExecutionPlan& m_plan;
    const PlanGraph& m_g;
    const MeasuredRun& m_run;
    std::vector<Storage> m_storages;
    std::vector<int> m_storageOf;   // per slot: its storage, -1 none
    std::vector<int> m_remaining;   // per slot: readers still to run
    int64_t m_activations = 0;
    std::vector<size_t> m_peakLive; // storages live at the peak so far
    MemoryTimeline m_out;
};

} // namespace

MemoryTimeline memoryTimeline(const ExecutionPlan& plan, const MeasuredRun& run) { return MemoryReplay(plan, run).replay(); }

} // namespace irlens::core::exec
