#pragma once
// Executes a program one top-level node at a time, in graph order, as torch.fx.Interpreter does:
// the environment holds every live value, a value is freed after its last use, and every value a
// node produced stays inspectable afterwards (the debugging view of intermediate values). The same
// kernels and argument binding as Engine (engine_internal.h), on one thread, without the
// plan's fusion rewrites so that every node computes its own value.

#include "core/exec/engine.h"

#include <atomic>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

namespace irlens::core::exec {

class Stepper {
public:
    /// Compiles `program` without fusion and binds the user inputs (signature order). Errors name
    /// the node without a kernel or the input that does not match.
    static Result<std::unique_ptr<Stepper>> create(ProgramPtr program, const std::vector<EValue>& userInputs);
    /// The same on a plan compiled with `fuse` false (pickInputs needs the plan before the inputs).
    /// `keepValues` false keeps no value past its last use: value() then sees only what the environment
    /// holds (a pass reading each node's outputs right after its step holds no more than the engine).
    static Result<std::unique_ptr<Stepper>> create(std::shared_ptr<const ExecutionPlan> plan, const std::vector<EValue>& userInputs,
                                                   bool keepValues = true);
    ~Stepper();
    Stepper(const Stepper&) = delete;
    Stepper& operator=(const Stepper&) = delete;

    const ExecutionPlan& plan() const { return *m_plan; }
    int nodeCount() const;
    /// The node the next step executes (index in the graph's node list), -1 once every node ran.
    int nextNode() const { return finished() ? -1 : m_next; }
    bool finished() const { return m_next >= nodeCount(); }
    bool executed(int node) const { return node >= 0 && node < m_next; }
    /// The error that stopped the stepper (a kernel failure names the node); ok while it can go on.
    const Status& error() const { return m_error; }

    /// Executes the next node. Fails when finished or after an earlier failure.
    Status step();
    /// Executes nodes until `node` has run (nothing to do when it already has). `cancel` is read
    /// between nodes.
    Status runTo(int node, const std::atomic<bool>* cancel = nullptr);
    /// Runs every remaining node.
    Status runToEnd(const std::atomic<bool>* cancel = nullptr) { return runTo(nodeCount() - 1, cancel); }
    /// Wall time of a node's step in ns, -1 when it has not run.
    int64_t nodeNs(int node) const;

    /// A graph value by name: what it held when produced (inputs: when bound), kept after it is
    /// freed (unless created without keepValues); nullptr when it was never produced (not yet run, or
    /// not a value of the top-level graph).
    const EValue* value(const std::string& name) const;
    /// Whether the environment still holds it (false once freed after its last use).
    bool isLive(const std::string& name) const;
    /// The node after which the value was freed, -1 when it is live or was never produced.
    int freedAfter(const std::string& name) const;
    /// Names of the values node `node` produces (its output slots, lists flattened).
    std::vector<std::string> outputsOf(int node) const;

    /// The graph outputs once finished, as Engine::run returns them (wallNs: sum of the steps).
    Result<RunResult> result() const;

private:
    struct State;
    Stepper(std::shared_ptr<const ExecutionPlan> plan, std::unique_ptr<State> state, bool keepValues);
    int slotOf(const std::string& name) const;

    std::shared_ptr<const ExecutionPlan> m_plan;
    std::unique_ptr<State> m_state;
    std::unordered_map<std::string, int> m_slotOf;
    bool m_keepValues = true;
    std::vector<EValue> m_produced;  // per slot: the value when produced, kept after it is freed (keepValues)
    std::vector<int> m_freedAfter;   // per slot: the node whose step freed it, -1 while live
    std::vector<int64_t> m_nodeNs;
    int m_next = 0;
    Status m_error;
};

} // namespace irlens::core::exec
