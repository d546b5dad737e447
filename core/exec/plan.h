#pragma once
// An ExecutionPlan is compiled once per program: every node's kernel resolved, every value given a
// slot, literal arguments pre-built, dependencies and last uses counted, weights wrapped in place.
// Engine (engine.h) runs it any number of times.

#include "core/exec/kernel_context.h"
#include "core/exec/value.h"
#include "core/ir/program.h"
#include "core/ir/status.h"

#include <map>
#include <memory>
#include <string>
#include <vector>

namespace irlens::core::exec {

struct PlanArg {
    std::string name;                 // schema name ("" for positional HOP arguments)
    enum class Source { Literal, Slot, List } source = Source::Literal;
    int slot = -1;                    // Slot
    EValue::Kind listKind = EValue::Kind::IntList; // List: IntList (sym ints) or TensorList
    std::vector<std::pair<int, EValue>> elements;  // List: (slot or -1, literal)

    /// The value of a Literal argument (None when unset). Held apart from the argument: a value is
    /// several times the size of the rest, most arguments are slots, and every run walks the
    /// arguments of every node (deep_stack's 5,404 nodes).
    const EValue& literal() const { return m_literal ? *m_literal : kNone; }
    void setLiteral(EValue v) { m_literal = std::make_unique<const EValue>(std::move(v)); }

private:
    static const EValue kNone;
    std::unique_ptr<const EValue> m_literal; // stays put when the argument list grows
};

struct PlanGraph;

struct PlanNode {
    int index = 0;                     // position in the graph's node list
    const Node* node = nullptr;
    std::string key;                   // registry key
    KernelFn kernel = nullptr;
    std::vector<PlanArg> args;
    int listArgs = 0;                  // args assembled into a list on every run (Source::List)
    std::vector<std::vector<int>> outputSlots; // per output Argument: its slots (lists flattened; -1 = unused)
    std::vector<ArgKind> outputKinds;  // per output Argument: its kind (read per run without touching the Node)
    std::vector<int> inputSlots;       // distinct slots read
    std::vector<int> successors;       // nodes that must wait for this one
    int predecessorCount = 0;
    std::vector<std::shared_ptr<PlanGraph>> subgraphs; // HOP branches
    std::unique_ptr<NodeCache> cache = std::make_unique<NodeCache>();
    std::string modulePath;            // innermost nn_module_stack path ("" when none)
    int flopClass = 0;                 // how the profiler estimates FLOPs (flopClassOf)
    std::vector<bool> outputNeeded;    // per output: read by a later node or a graph output
    int fusedInto = -1;                // folded into that node's kernel (plan_fusion.h); this one passes its input on
    double work = 0;                   // rough cost from the recorded output shapes (see estimateWork), for scheduling
};

/// Rough cost of a node from the graph's tensor meta: output elements, times K for matrix products
/// and C·kernel for convolutions; 0 for views. Decides whether a ready node is worth a task of its own.
double estimateWork(const Graph& graph, const Node& node, int flopClass);

/// Whether estimateWork saw every tensor output's sizes (recorded meta, all static).
bool workKnown(const Graph& graph, const Node& node);

/// FLOP estimate family of an op name (classified once at compile time so profiling stays cheap).
int flopClassOf(const std::string& op);

/// A compiled graph (the top-level one or a HOP branch).
struct PlanGraph {
    const Graph* graph = nullptr;
    std::vector<std::string> slotNames;
    std::vector<PlanNode> nodes;
    std::vector<int> inputSlots;       // one per graph input (-1 for non-tensor/constant inputs)
    std::vector<int> outputSlots;      // one per graph output (-1: literal output)
    std::vector<EValue> outputLiterals;
    std::vector<int> useCounts;        // consumers per slot (graph outputs count one extra, never freed)
    std::vector<int> roots;            // nodes without predecessors
    double totalWork = 0;              // sum of the nodes' work (PlanNode::work); infinity when a node's is unknown
    double maxNodeWork = 0;            // the largest node's work: below the engine's task size, nothing is worth a worker
    double spanWork = 0;               // the work of the longest chain of dependent nodes
    double offChainTaskWork = 0;       // the work of nodes off that chain big enough for a task of their own (kTaskWork)
};

/// Estimated work (PlanNode::work: about one unit per element or multiply-add) from which a ready node is
/// worth a task of its own: handing it to another worker (wake-up, stealing, its inputs crossing caches)
/// costs more than running it where it became ready below it. deep_stack's 5,404 nodes of a few
/// microseconds each run slower on two threads than on one when every ready node is spawned.
inline constexpr double kTaskWork = 1 << 16;

/// How the engine runs a graph on more than one thread.
enum class GraphSchedule {
    /// Every node on the calling thread, no kernel split: no node is worth a second thread (the whole graph
    /// below 2^20 units, or no node at kTaskWork).
    OneThread,
    /// The nodes in graph order on the calling thread, each kernel split over the workers: the graph is one
    /// chain in all but nodes too small to overlap (less than a tenth of its work off its longest chain in
    /// nodes worth a task), as resnet18, mobilenet_v2, the transformers and llama_deep are.
    InOrder,
    /// Ready nodes handed to idle workers as well (engine.cpp, runFrom): branches of real work side by side.
    TaskGraph,
};

/// The schedule the engine takes for `g` on `threads` threads (OneThread for one).
GraphSchedule scheduleFor(const PlanGraph& g, int threads);

/// How a top-level graph input is fed.
struct PlanInput {
    InputKind kind = InputKind::UserInput;
    std::string name;   // graph input value name
    std::string target; // parameter/buffer/constant FQN
    int slot = -1;
    Tensor state;       // parameters, buffers, constants: wrapped in place
    EValue constant;    // ConstantInput / non-tensor constants
};

struct PlanOutput {
    OutputKind kind = OutputKind::UserOutput;
    std::string name;   // value name
    std::string target; // mutated buffer / parameter / user input
    int index = 0;      // position in the graph outputs
};

class ExecutionPlan {
public:
    /// Compiles `program` (kept alive by the plan). Errors name the node whose target has no kernel
    /// or whose argument is malformed; `allowMissingKernels` compiles anyway (they fail at run time).
    /// `fuse` applies the inference rewrites of plan_fusion.h (batch norm folded into convolutions, ...).
    static Result<std::shared_ptr<ExecutionPlan>> compile(ProgramPtr program, bool allowMissingKernels = false, bool fuse = true);

    const Program& program() const { return *m_program; }
    const PlanGraph& graph() const { return *m_graph; }
    const std::vector<PlanInput>& inputs() const { return m_inputs; }
    const std::vector<PlanOutput>& outputs() const { return m_outputs; }
    /// User inputs in order (indices into inputs()).
    const std::vector<int>& userInputs() const { return m_userInputs; }
    /// Targets without a kernel ("aten::foo.default" -> node names).
    const std::map<std::string, std::vector<std::string>>& missingKernels() const { return m_missing; }
    /// Sum of the static sizes of all intermediate tensors recorded in the graph meta (0 if unknown).
    int64_t metaIntermediateBytes() const { return m_metaBytes; }
    /// Nodes whose work fusion moved into another node's kernel (PlanNode::fusedInto).
    int fusedNodes() const { return m_fused; }

private:
    ProgramPtr m_program;
    std::shared_ptr<PlanGraph> m_graph;
    std::vector<PlanInput> m_inputs;
    std::vector<PlanOutput> m_outputs;
    std::vector<int> m_userInputs;
    std::map<std::string, std::vector<std::string>> m_missing;
    int64_t m_metaBytes = 0;
    int m_fused = 0;
};

/// Compiles one graph; `missing` collects targets without kernels. Used for HOP branches too.
Result<std::shared_ptr<PlanGraph>> compileGraph(const Graph& graph, std::map<std::string, std::vector<std::string>>& missing,
                                                int depth = 0);

} // namespace irlens::core::exec
