#pragma once
// Memory over a run: the bytes live after each node, in the order the nodes ran, split into weights,
// user inputs, activations and kernel workspace; the peak, the tensors live at it, and what freeing
// values after their last reader saved.
//
// How it is counted, and how far to trust it:
// - Sizes come from the graph's tensor meta (TensorMeta), not from the values of the run; values
//   with symbolic sizes count 0 bytes (`unknownSizes`).
// - Weights (parameters, buffers, constants) are viewed in place in the archive and user inputs are
//   held by the caller: both live for the whole run. The engine allocates neither, so its measured
//   peak (RunResult::peakBytes) compares with activations + workspace (`runPeakBytes()`).
// - A node allocates its outputs when it runs; a value is released after its last reader (graph
//   outputs never are), as the engine's use counts do. Storage is freed when its last value goes.
// - Views: a node whose kernel allocated no bytes in the measured run (views, aliases, nodes that
//   fusion reduced to passing their input on, in-place ops) does not own its outputs: they share the
//   storage of the node's first tensor argument and keep it alive. Higher-order nodes (cond, map)
//   allocate inside their branches, which their own count does not see: they own their outputs.
// - Workspace: bytes a kernel allocated beyond the outputs it owns (NodeTiming::bytes minus their
//   meta size), live only while the node runs. It is measured through the kernel's allocator, so
//   scratch memory a library keeps to itself (oneDNN's scratchpad, cached reordered weights) is not
//   in it. Without a measured run there is no workspace and no view detection (`measured` false).
// - The order is the measured run's start order; with several threads, nodes that overlapped are
//   counted one after the other, so the real peak can be a little higher.

#include "core/exec/measured_run.h"
#include "core/exec/plan.h"

#include <cstdint>
#include <string>
#include <vector>

namespace irlens::core::exec {

enum class MemoryKind { Weight, Input, Activation, Workspace };

/// "weight", "input", "activation", "workspace".
const char* memoryKindName(MemoryKind kind);

/// One node of the run, at its high point: its outputs allocated, its workspace in use, the values
/// it reads not yet released.
struct MemoryStep {
    int node = -1;
    int64_t weights = 0;
    int64_t inputs = 0;
    int64_t activations = 0;
    int64_t workspace = 0;
    int64_t activationsAfter = 0;  // once the node released the values it was the last reader of
    int64_t total() const { return weights + inputs + activations + workspace; }
};

/// A block of memory live at the peak: a tensor's storage (shared by its views), or a kernel's workspace.
struct LiveTensor {
    std::string name;          // the value that owns the storage; "workspace of NODE" for workspace
    MemoryKind kind = MemoryKind::Activation;
    int64_t bytes = 0;
    std::string type;          // dtype and shape from the meta, "f32[1, 64, 56, 56]" ("" for workspace)
    int producer = -1;         // node that made it (-1 for weights and inputs)
    std::string producerName;
    std::string modulePath;    // of the producer (innermost nn_module_stack path)
    int lastUser = -1;         // node whose release freed it; -1: held to the end of the run
    std::string lastUserName;  // "" when held to the end
    int views = 0;             // other values sharing the storage
};

struct MemoryTimeline {
    std::vector<MemoryStep> steps;     // one per node that ran, in execution order
    int peakStep = -1;                 // index into steps (-1: no node ran)
    int64_t peakBytes = 0;             // steps[peakStep].total()
    std::vector<LiveTensor> liveAtPeak;// largest first; their bytes add up to peakBytes
    int64_t weightBytes = 0;
    int64_t inputBytes = 0;
    /// Every node output's meta size added up, views included: what keeping every intermediate value
    /// would take if each had its own storage.
    int64_t intermediateBytes = 0;
    /// Storage the run's nodes allocated, added up (views share, so they add nothing): what a run
    /// that never freed would hold. Less the peak's activations: what releasing after the last use saved.
    int64_t allocatedBytes = 0;
    int64_t measuredPeakBytes = 0;     // the engine's measured peak (MeasuredRun::peakBytes)
    bool measured = false;             // built with a measured run (workspace and views known)
    int unknownSizes = 0;              // values whose meta sizes are symbolic, counted as 0
    /// Activations + workspace at the peak: what the engine allocates there, to set beside measuredPeakBytes.
    int64_t runPeakBytes() const { return peakStep < 0 ? 0 : steps[static_cast<size_t>(peakStep)].activations + steps[static_cast<size_t>(peakStep)].workspace; }
};

/// The memory timeline of `plan` run as `run` measured (see the file comment). With an empty `run`
/// (runs == 0) the nodes are taken in graph order, every output owns its storage and there is no workspace.
MemoryTimeline memoryTimeline(const ExecutionPlan& plan, const MeasuredRun& run);

/// Bytes of value `slot` of `g` from its tensor meta; 0 (and `unknown` set) when its sizes are
/// symbolic, 0 for values that are no tensors.
int64_t slotMetaBytes(const PlanGraph& g, int slot, bool* unknown = nullptr);

} // namespace irlens::core::exec
