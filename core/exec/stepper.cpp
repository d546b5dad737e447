#include "core/exec/stepper.h"

#include "core/exec/engine_internal.h"

#include <algorithm>

namespace irlens::core::exec {

// The same node execution as Engine, one node per call, on the calling thread.
struct Stepper::State {
    RunOptions options;          // one thread, no observer: RunShared refers to it
    engine_detail::RunShared shared;
    engine_detail::GraphRun run;
    explicit State(const PlanGraph& g)
        : shared{options, 1, std::make_shared<AllocTracker>(), engine_detail::Clock::now(), {0}, {false}, nullptr, nullptr, false, 0, {}, {}, 0},
          run{g, {}, nullptr, nullptr} {}
};

Result<std::unique_ptr<Stepper>> Stepper::create(ProgramPtr program, const std::vector<EValue>& userInputs) {
    // no fusion: a node folded into its consumer would have no value of its own to show
    auto plan = ExecutionPlan::compile(std::move(program), false, false);
    if (!plan) return plan.status().withContext("compiling");
    return create(std::shared_ptr<const ExecutionPlan>(*plan), userInputs);
}

Result<std::unique_ptr<Stepper>> Stepper::create(std::shared_ptr<const ExecutionPlan> plan, const std::vector<EValue>& userInputs,
                                                 bool keepValues) {
    if (plan->fusedNodes() > 0) return Status::error("the stepper needs a plan compiled without fusion");
    auto state = std::make_unique<State>(plan->graph());
    state->shared.total = static_cast<int>(plan->graph().nodes.size());
    engine_detail::initRun(state->run);
    IRLENS_TRY(engine_detail::bindInputs(*plan, {}, userInputs, state->run));
    return std::unique_ptr<Stepper>(new Stepper(std::move(plan), std::move(state), keepValues));
}

Stepper::Stepper(std::shared_ptr<const ExecutionPlan> plan, std::unique_ptr<State> state, bool keepValues)
    : m_plan(std::move(plan)), m_state(std::move(state)), m_keepValues(keepValues) {
    const PlanGraph& g = m_plan->graph();
    for (size_t k = 0; k < g.slotNames.size(); ++k) m_slotOf.emplace(g.slotNames[k], static_cast<int>(k));
    if (m_keepValues) m_produced = m_state->run.slots; // the bound inputs; node outputs are added as they run
    m_freedAfter.assign(g.slotNames.size(), -1);
    m_nodeNs.assign(g.nodes.size(), -1);
}

Stepper::~Stepper() = default;

int Stepper::nodeCount() const { return static_cast<int>(m_plan->graph().nodes.size()); }

Status Stepper::step() {
    if (!m_error) return m_error;
    if (finished()) return Status::error("every node has run");
    const PlanNode& pn = m_plan->graph().nodes[static_cast<size_t>(m_next)];
    engine_detail::GraphRun& run = m_state->run;
    engine_detail::WorkerClock clock;
    const auto start = engine_detail::Clock::now();
    if (!engine_detail::execNode(run, pn, m_state->shared, true, clock)) {
        std::lock_guard lock(m_state->shared.errorMutex);
        m_error = m_state->shared.error;
        return m_error;
    }
    m_nodeNs[static_cast<size_t>(m_next)] = engine_detail::nowNs(start);
    if (m_keepValues)
        for (const auto& slots : pn.outputSlots)
            for (int s : slots)
                if (s >= 0) m_produced[static_cast<size_t>(s)] = run.slots[static_cast<size_t>(s)];
    for (int s : pn.inputSlots)
        if (run.slots[static_cast<size_t>(s)].isNone() && m_freedAfter[static_cast<size_t>(s)] < 0) m_freedAfter[static_cast<size_t>(s)] = m_next;
    ++m_next;
    return Status::ok();
}

Status Stepper::runTo(int node, const std::atomic<bool>* cancel) {
    if (node < 0 || node >= nodeCount()) return Status::error("no node " + std::to_string(node) + " in the graph");
    while (m_next <= node) {
        if (cancel && cancel->load(std::memory_order_relaxed)) return Status::error("cancelled before node " + std::to_string(m_next));
        IRLENS_TRY(step());
    }
    return Status::ok();
}

int64_t Stepper::nodeNs(int node) const {
    return node >= 0 && node < nodeCount() ? m_nodeNs[static_cast<size_t>(node)] : -1;
}

int Stepper::slotOf(const std::string& name) const {
    auto it = m_slotOf.find(name);
    return it == m_slotOf.end() ? -1 : it->second;
}

const EValue* Stepper::value(const std::string& name) const {
    const int s = slotOf(name);
    const std::vector<EValue>& values = m_keepValues ? m_produced : m_state->run.slots;
    if (s < 0 || values[static_cast<size_t>(s)].isNone()) return nullptr;
    return &values[static_cast<size_t>(s)];
}

bool Stepper::isLive(const std::string& name) const {
    const int s = slotOf(name);
    return s >= 0 && !m_state->run.slots[static_cast<size_t>(s)].isNone();
}

int Stepper::freedAfter(const std::string& name) const {
    const int s = slotOf(name);
    return s < 0 ? -1 : m_freedAfter[static_cast<size_t>(s)];
}

std::vector<std::string> Stepper::outputsOf(int node) const {
    std::vector<std::string> names;
    if (node < 0 || node >= nodeCount()) return names;
    const PlanGraph& g = m_plan->graph();
    for (const auto& slots : g.nodes[static_cast<size_t>(node)].outputSlots)
        for (int s : slots)
            if (s >= 0) names.push_back(g.slotNames[static_cast<size_t>(s)]);
    return names;
}

Result<RunResult> Stepper::result() const {
    if (!m_error) return m_error;
    if (!finished()) return Status::error(std::to_string(nodeCount() - m_next) + " nodes have not run yet");
    RunResult result;
    for (int64_t ns : m_nodeNs) result.wallNs += std::max<int64_t>(ns, 0);
    result.peakBytes = m_state->shared.tracker->peak.load();
    engine_detail::collectOutputs(*m_plan, m_state->run, result, nullptr);
    return result;
}

} // namespace irlens::core::exec
