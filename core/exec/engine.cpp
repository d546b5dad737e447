#include "core/exec/engine.h"
#include "core/exec/engine_internal.h"

#include <tbb/task_arena.h>
#include <tbb/task_group.h>

#include <array>
#include <chrono>
#include <cmath>
#include <dlfcn.h>
#include <thread>

#if defined(__x86_64__)
#include <cpuid.h>
#include <x86intrin.h>
#endif

namespace irlens::core::exec {

namespace engine_detail {

int64_t nowNs(Clock::time_point start) {
    return std::chrono::duration_cast<std::chrono::nanoseconds>(Clock::now() - start).count();
}

void initRun(GraphRun& run) {
    const size_t n = run.g.slotNames.size();
    run.slots.assign(n, EValue());
    run.remaining.reset(new std::atomic<int>[n]);
    for (size_t k = 0; k < n; ++k) run.remaining[k].store(run.g.useCounts[k], std::memory_order_relaxed);
    run.pending.reset(new std::atomic<int>[run.g.nodes.size()]);
    for (size_t k = 0; k < run.g.nodes.size(); ++k) run.pending[k].store(run.g.nodes[k].predecessorCount, std::memory_order_relaxed);
}

} // namespace engine_detail

namespace {

using engine_detail::bindInputs;
using engine_detail::Clock;
using engine_detail::collectOutputs;
using engine_detail::execNode;
using engine_detail::GraphRun;
using engine_detail::initRun;
using engine_detail::nowNs;
using engine_detail::RunShared;
using engine_detail::WorkerClock;

// Profiling reads the time once per node. The CPU's time-stamp counter costs a fraction of a
// clock_gettime call; when it is invariant (constant rate, runs in sleep states) node times are
// taken in ticks and scaled to the run's steady-clock wall time at its end.
bool invariantTsc() {
#if defined(__x86_64__)
    static const bool ok = [] {
        unsigned a = 0, b = 0, c = 0, d = 0;
        return __get_cpuid(0x80000007, &a, &b, &c, &d) && (d & (1u << 8)) != 0;
    }();
    return ok;
#else
    return false;
#endif
}

int64_t ticksSince(int64_t origin, Clock::time_point start, bool tsc) {
#if defined(__x86_64__)
    if (tsc) return static_cast<int64_t>(__rdtsc()) - origin;
#endif
    return nowNs(start) - origin;
}

std::string nodeLabel(const PlanNode& pn) { return "node '" + pn.node->name + "' (" + pn.node->target.shortName() + ")"; }

WorkerClock startClock(const RunShared& shared) {
    WorkerClock c;
    if (shared.observer) {
        c.boundary = ticksSince(shared.tick0, shared.start, shared.tsc);
        const int idx = tbb::this_task_arena::current_thread_index();
        c.thread = idx < 0 ? 0 : idx;
        if (shared.queueWait) shared.queueWait->addCallingThread();
    }
    return c;
}

Status runGraphSerial(GraphRun& run, RunShared& shared, bool topLevel, WorkerClock& clock);

// Whether the node may start: the run has not failed or been cancelled, and the node has a kernel.
bool mayStart(const PlanNode& pn, RunShared& shared) {
    if (shared.failed.load(std::memory_order_relaxed)) return false;
    if (shared.cancelled()) {
        shared.fail(Status::error("cancelled before " + nodeLabel(pn)));
        return false;
    }
    if (!pn.kernel) {
        shared.fail(Status::error(nodeLabel(pn) + ": no kernel for " + pn.key));
        return false;
    }
    return true;
}

// A node's arguments as the kernel sees them: literals and slots by pointer, lists assembled here
// (`assembled` is reserved up front, so pointers into it stay valid). Up to eight are kept in place,
// which is every node of the models here but a few `cat`s: no heap block per node for them.
struct BoundArgs {
    static constexpr size_t kInline = 8;
    std::vector<EValue> assembled;
    std::array<BoundValue, kInline> inlineBound;
    std::vector<BoundValue> heapBound;
    size_t count = 0;
    BoundValue* bound = inlineBound.data();
    std::span<const BoundValue> view() const { return {bound, count}; }

    BoundArgs() = default;
    BoundArgs(const BoundArgs&) = delete; // `bound` may point into this object
    BoundArgs& operator=(const BoundArgs&) = delete;
};

EValue assembleList(const GraphRun& run, const PlanArg& a) {
    EValue v;
    v.kind = a.listKind;
    for (const auto& [slot, lit] : a.elements) {
        const EValue& e = slot >= 0 ? run.slots[static_cast<size_t>(slot)] : lit;
        if (a.listKind == EValue::Kind::TensorList) v.tensors.push_back(e.isTensor() ? e.tensor : Tensor());
        else v.ints.push_back(e.isTensor() && e.tensor.numel() == 1 ? static_cast<int64_t>(e.tensor.at(0)) : e.toInt());
    }
    return v;
}

void bindArguments(const GraphRun& run, const PlanNode& pn, BoundArgs& out) {
    // bound values point into `assembled`, so it must not grow: room for the list arguments only
    // (most nodes have none, and an EValue is large enough that reserving one per argument showed)
    if (pn.listArgs > 0) out.assembled.reserve(static_cast<size_t>(pn.listArgs));
    if (pn.args.size() > BoundArgs::kInline) {
        out.heapBound.resize(pn.args.size());
        out.bound = out.heapBound.data();
    }
    for (const auto& a : pn.args) {
        BoundValue b;
        b.name = &a.name;
        switch (a.source) {
        case PlanArg::Source::Literal: b.value = &a.literal(); break;
        case PlanArg::Source::Slot: b.value = &run.slots[static_cast<size_t>(a.slot)]; break;
        case PlanArg::Source::List:
            out.assembled.push_back(assembleList(run, a));
            b.value = &out.assembled.back();
            break;
        }
        out.bound[out.count++] = b;
    }
}

// Runs subgraph `index` of a higher-order node serially on the calling worker (kernels call it).
std::vector<EValue> runSubgraph(const PlanNode& pn, RunShared& shared, int64_t index, const std::vector<EValue>& inputs) {
    if (index < 0 || static_cast<size_t>(index) >= pn.subgraphs.size()) kernelFail("no subgraph " + std::to_string(index));
    const PlanGraph& sg = *pn.subgraphs[static_cast<size_t>(index)];
    GraphRun sub{sg, {}, nullptr, nullptr};
    initRun(sub);
    if (inputs.size() != sg.inputSlots.size())
        kernelFail("subgraph expects " + std::to_string(sg.inputSlots.size()) + " inputs, got " + std::to_string(inputs.size()));
    for (size_t k = 0; k < inputs.size(); ++k)
        if (sg.inputSlots[k] >= 0) sub.slots[static_cast<size_t>(sg.inputSlots[k])] = inputs[k];
    WorkerClock unused;
    Status s = runGraphSerial(sub, shared, false, unused);
    if (!s) kernelFail(s.message());
    std::vector<EValue> result;
    for (size_t k = 0; k < sg.outputSlots.size(); ++k)
        result.push_back(sg.outputSlots[k] >= 0 ? sub.slots[static_cast<size_t>(sg.outputSlots[k])] : sg.outputLiterals[k]);
    return result;
}

// Calls the kernel; what it throws becomes the run's error, naming the node.
bool callKernel(const PlanNode& pn, KernelContext& ctx, RunShared& shared) {
    try {
        pn.kernel(ctx);
        return true;
    } catch (const KernelError& e) {
        shared.fail(Status::error(nodeLabel(pn) + ": " + e.what()));
    } catch (const std::bad_alloc&) {
        shared.fail(Status::error(nodeLabel(pn) + ": out of memory"));
    } catch (const std::exception& e) {
        shared.fail(Status::error(nodeLabel(pn) + ": " + e.what()));
    } catch (...) {
        shared.fail(Status::error(nodeLabel(pn) + ": unknown error in kernel"));
    }
    return false;
}

// Shapes repeat run after run: the FLOP estimate is made once per output size, not on every profiled run.
double cachedFlops(const PlanNode& pn, std::span<const BoundValue> bound, const std::vector<EValue>& outs) {
    const int64_t key = !outs.empty() && outs[0].isTensor() ? outs[0].tensor.numel() : -2;
    if (pn.cache->flopsForNumel.load(std::memory_order_relaxed) == key) return pn.cache->flops.load(std::memory_order_relaxed);
    const double flops = estimateFlops(pn, bound, outs);
    pn.cache->flops.store(flops, std::memory_order_relaxed);
    pn.cache->flopsForNumel.store(key, std::memory_order_relaxed);
    return flops;
}

// Element `e` of a list-valued output `k`, or None when the kernel did not produce it.
EValue listElement(std::vector<EValue>& outs, size_t k, size_t e, bool perElement) {
    if (perElement) return e < outs.size() ? outs[e] : EValue();
    if (k < outs.size() && outs[k].kind == EValue::Kind::TensorList && e < outs[k].tensors.size()) return EValue::fromTensor(outs[k].tensors[e]);
    if (k < outs.size() && outs[k].kind == EValue::Kind::IntList && e < outs[k].ints.size()) return EValue::fromInt(outs[k].ints[e]);
    return EValue();
}

// Maps kernel outputs onto slots. A node whose single serialized output is a list receives either
// one list value or one value per element (HOPs).
bool mapOutputs(GraphRun& run, const PlanNode& pn, std::vector<EValue>& outs, RunShared& shared) {
    for (size_t k = 0; k < pn.outputSlots.size(); ++k) {
        const auto& slots = pn.outputSlots[k];
        const ArgKind kind = pn.outputKinds[k];
        if (slots.size() == 1 && kind != ArgKind::Tensors && kind != ArgKind::OptionalTensors && kind != ArgKind::SymInts) {
            if (slots[0] < 0) continue;
            if (k >= outs.size() || outs[k].isNone()) {
                shared.fail(Status::error(nodeLabel(pn) + ": kernel produced no output " + std::to_string(k)));
                return false;
            }
            run.slots[static_cast<size_t>(slots[0])] = std::move(outs[k]);
            continue;
        }
        const bool perElement = pn.outputSlots.size() == 1 &&
                                (outs.size() > 1 || (outs.size() == 1 && outs[0].kind != EValue::Kind::TensorList && outs[0].kind != EValue::Kind::IntList));
        for (size_t e = 0; e < slots.size(); ++e) {
            if (slots[e] < 0) continue;
            EValue v = listElement(outs, k, e, perElement);
            if (v.isNone()) {
                shared.fail(Status::error(nodeLabel(pn) + ": kernel produced no element " + std::to_string(e) + " of output " + std::to_string(k)));
                return false;
            }
            run.slots[static_cast<size_t>(slots[e])] = std::move(v);
        }
    }
    return true;
}

// Adds `delta` to one of the run's counters and returns the new value; a plain load and store when
// one thread keeps the books (a locked instruction per input and per node showed in deep_stack's profile).
int addTo(std::atomic<int>& n, int delta, bool oneThread) {
    if (!oneThread) return n.fetch_add(delta, std::memory_order_acq_rel) + delta;
    const int value = n.load(std::memory_order_relaxed) + delta;
    n.store(value, std::memory_order_relaxed);
    return value;
}

// Drops every input value this node was the last user of.
void releaseInputs(GraphRun& run, const PlanNode& pn, bool oneThread) {
    for (int s : pn.inputSlots)
        if (addTo(run.remaining[static_cast<size_t>(s)], -1, oneThread) == 0) run.slots[static_cast<size_t>(s)].reset();
}

// One clock read per node: this node's end is where the next node on this worker starts.
void recordTiming(const PlanNode& pn, RunShared& shared, WorkerClock& clock, int64_t bytes, double flops) {
    const int64_t end = ticksSince(shared.tick0, shared.start, shared.tsc);
    shared.timings[pn.index] = NodeTiming{pn.index, clock.boundary, end, clock.thread, bytes, flops};
    clock.boundary = end;
}

} // namespace

namespace engine_detail {

// Executes one node: binds its arguments, calls its kernel (which may run subgraphs), maps the
// outputs onto slots, releases inputs and records progress and timing. False when the run must stop.
bool execNode(GraphRun& run, const PlanNode& pn, RunShared& shared, bool topLevel, WorkerClock& clock) {
    if (!mayStart(pn, shared)) return false;
    BoundArgs args;
    bindArguments(run, pn, args);
    std::vector<EValue> outs;
    // Every node may split over all workers; TBB's stealing balances the pieces of nodes that run at
    // once. The split must not depend on what else runs at that moment: it keys the oneDNN
    // primitives a node keeps (softmax, GELU and convolution slices), so a split by the count of the
    // nodes running would rebuild them whenever it changed (resnet18 at 2 threads: about 40
    // convolutions per 100 runs), and a GEMM starting while a 1 us view runs elsewhere would not split.
    outs.reserve(pn.outputSlots.size());
    KernelContext ctx(*pn.node, args.view(), outs, shared.threads, shared.tracker, pn.cache.get());
    if (topLevel) ctx.setNeededOutputs(&pn.outputNeeded); // subgraph outputs feed the HOP: all needed
    if (!pn.subgraphs.empty())
        ctx.runSubgraph = [&pn, &shared](int64_t index, const std::vector<EValue>& inputs) { return runSubgraph(pn, shared, index, inputs); };
    const PartScope parts(topLevel ? shared.parts : nullptr, pn.index); // the node's parts on other workers, for the trace
    if (!callKernel(pn, ctx, shared)) return false;
    ExecObserver* obs = topLevel ? shared.observer : nullptr;
    const double flops = obs ? cachedFlops(pn, ctx.boundArgs(), outs) : 0.0;
    if (!mapOutputs(run, pn, outs, shared)) return false;
    const bool oneThread = shared.oneThreadBooks || !topLevel; // a subgraph runs on one worker
    releaseInputs(run, pn, oneThread);
    if (topLevel) {
        const int d = addTo(shared.done, 1, oneThread);
        if (shared.options.progress) shared.options.progress(d, shared.total);
    }
    if (obs) recordTiming(pn, shared, clock, ctx.bytesAllocated(), flops);
    return true;
}

} // namespace engine_detail

namespace {

Status runGraphSerial(GraphRun& run, RunShared& shared, bool topLevel, WorkerClock& clock) {
    const auto& nodes = run.g.nodes;
    for (size_t k = 0; k < nodes.size(); ++k) {
        // the next node's arguments, a block of their own, are its first read: ask for them while
        // this one runs (in deep_stack's profile that miss was a fifth of execNode's own time)
        if (k + 1 < nodes.size()) __builtin_prefetch(nodes[k + 1].args.data());
        if (!execNode(run, nodes[k], shared, topLevel, clock)) break;
    }
    if (shared.failed.load()) {
        std::lock_guard lock(shared.errorMutex);
        return shared.error;
    }
    return Status::ok();
}

void spawnNode(tbb::task_group& tg, GraphRun& run, int index, RunShared& shared);

// kTaskWork and the choice of schedule (plan.h, scheduleFor): a graph with no node worth a second
// worker runs on the calling thread; deep_stack's 5,404 nodes on [1, 8, 16] tensors, whose trace at two
// threads has no node on the worker, took 6.4 and 9.1 ms on two threads against 5.3 and 7.8 on one in
// two idle runs of bench_engine when they went through the task graph.

// Runs node `index`, then keeps going inline with its ready successors; ready successors with
// enough work are spawned for idle workers, cheap ones stay queued on this worker. The calling
// thread starts with the first root, so a chain never waits on a worker that may not be scheduled.
void runFrom(tbb::task_group& tg, GraphRun& run, int index, RunShared& shared) {
    WorkerClock clock = startClock(shared);
    std::vector<int> local;
    while (index >= 0) {
        const PlanNode& pn = run.g.nodes[static_cast<size_t>(index)];
        if (!execNode(run, pn, shared, true, clock)) return;
        index = -1;
        for (int s : pn.successors) {
            if (run.pending[static_cast<size_t>(s)].fetch_sub(1, std::memory_order_acq_rel) == 1) {
                if (index < 0) index = s;
                else if (run.g.nodes[static_cast<size_t>(s)].work >= kTaskWork) spawnNode(tg, run, s, shared);
                else local.push_back(s);
            }
        }
        if (index < 0 && !local.empty()) {
            index = local.back();
            local.pop_back();
        }
    }
}

void spawnNode(tbb::task_group& tg, GraphRun& run, int index, RunShared& shared) {
    tg.run([&tg, &run, index, &shared] { runFrom(tg, run, index, shared); });
}

} // namespace

int Engine::hardwareThreads() {
    unsigned n = std::thread::hardware_concurrency();
    return n == 0 ? 1 : static_cast<int>(n);
}

void setLibraryThreads(int threads) {
    // oneDNN's CPU runtime is OpenMP in this build; the runtime is already loaded with it, so look
    // the setter up instead of linking OpenMP into every target.
    using SetFn = void (*)(int);
    static SetFn fn = reinterpret_cast<SetFn>(dlsym(RTLD_DEFAULT, "omp_set_num_threads"));
    thread_local int current = -1;
    if (fn && current != threads) {
        fn(threads);
        current = threads;
    }
}

Engine::Engine(std::shared_ptr<const ExecutionPlan> plan) : m_plan(std::move(plan)) {}

Engine::~Engine() = default;

namespace {

// A user input must match the recorded meta: a tensor of that dtype, rank and static sizes.
Status checkUserInput(const ExecutionPlan& plan, const PlanInput& in, const EValue& v) {
    const TensorMeta* meta = plan.program().graph.tensorMeta(in.name);
    if (!meta) return Status::ok();
    if (!v.isTensor()) return Status::error("user input '" + in.name + "' should be a tensor " + meta->shortString() + ", got " + v.describe());
    if (v.tensor.dtype() != meta->dtype)
        return Status::error("user input '" + in.name + "' should be " + dtypeName(meta->dtype) + ", got " + v.tensor.shapeString());
    if (v.tensor.dim() != static_cast<int64_t>(meta->sizes.size()))
        return Status::error("user input '" + in.name + "' should have rank " + std::to_string(meta->sizes.size()) + " (" +
                             meta->shortString() + "), got " + v.tensor.shapeString());
    for (size_t d = 0; d < meta->sizes.size(); ++d)
        if (meta->sizes[d].isStatic() && meta->sizes[d].value != v.tensor.size(static_cast<int64_t>(d)))
            return Status::error("user input '" + in.name + "' should be " + meta->shortString() + ", got " + v.tensor.shapeString());
    return Status::ok();
}

} // namespace

namespace engine_detail {

// Fills the input slots: user inputs in order, parameters and buffers from `state` (else the archive's).
Status bindInputs(const ExecutionPlan& plan, const std::map<std::string, Tensor>& state, const std::vector<EValue>& userInputs,
                  GraphRun& run) {
    if (userInputs.size() != plan.userInputs().size())
        return Status::error("the program takes " + std::to_string(plan.userInputs().size()) + " user inputs, " +
                             std::to_string(userInputs.size()) + " given");
    size_t nextUser = 0;
    for (const auto& in : plan.inputs()) {
        if (in.slot < 0) {
            if (in.kind == InputKind::UserInput) ++nextUser;
            continue;
        }
        EValue v;
        switch (in.kind) {
        case InputKind::UserInput: v = userInputs[nextUser++]; break;
        case InputKind::Parameter: case InputKind::Buffer: case InputKind::TensorConstant: {
            auto it = state.find(in.target);
            v = EValue::fromTensor(it != state.end() ? it->second : in.state);
            break;
        }
        default: v = in.constant; break;
        }
        if (in.kind == InputKind::UserInput) IRLENS_TRY(checkUserInput(plan, in, v));
        run.slots[static_cast<size_t>(in.slot)] = std::move(v);
    }
    return Status::ok();
}

} // namespace engine_detail

namespace {

// The engine's arena for `threads` workers, made or remade for that count.
tbb::task_arena& arenaFor(std::unique_ptr<tbb::task_arena>& arena, int& arenaThreads, int threads) {
    if (!arena || arenaThreads != threads) {
        arena = std::make_unique<tbb::task_arena>(threads);
        arenaThreads = threads;
    }
    return *arena;
}

// Runs every node on `shared.threads` workers of the arena, ready nodes handed to idle workers.
Status runParallel(GraphRun& run, RunShared& shared, std::unique_ptr<tbb::task_arena>& arena, int& arenaThreads) {
    arenaFor(arena, arenaThreads, shared.threads).execute([&] {
        tbb::task_group tg;
        for (size_t k = 1; k < run.g.roots.size(); ++k) spawnNode(tg, run, run.g.roots[k], shared);
        if (!run.g.roots.empty()) runFrom(tg, run, run.g.roots[0], shared);
        tg.wait();
    });
    if (shared.failed.load()) return shared.error;
    if (shared.done.load() != shared.total)
        return Status::error("the graph has a dependency cycle: " + std::to_string(shared.total - shared.done.load()) + " nodes never became ready");
    return Status::ok();
}

// Runs the nodes in graph order on the calling thread inside `arena`, each kernel splitting its node
// over the arena's workers: no node waits for a worker to pick it up, and none runs beside another.
Status runInOrder(GraphRun& run, RunShared& shared, std::unique_ptr<tbb::task_arena>& arena, int& arenaThreads) {
    Status status;
    arenaFor(arena, arenaThreads, shared.threads).execute([&] {
        WorkerClock clock = startClock(shared);
        status = runGraphSerial(run, shared, true, clock);
    });
    return status;
}

// Hands the node timings and the workers' parts to the observer in ns: ticks scaled by the run's wall
// time (a no-op when ticks are ns already).
void deliverTimings(ExecObserver& observer, std::vector<NodeTiming>& timings, PartLog& partLog, const RunShared& shared,
                    int64_t endTicks, int64_t wallNs) {
    const double scale = shared.tsc && endTicks > 0 ? static_cast<double>(wallNs) / static_cast<double>(endTicks) : 1.0;
    auto ns = [scale](int64_t ticks) { return std::llround(static_cast<double>(ticks) * scale); };
    NodeTiming* slots = observer.timingSlots();
    for (NodeTiming& t : timings) {
        if (t.node < 0) continue;
        t.startNs = ns(t.startNs);
        t.endNs = ns(t.endNs);
        if (slots) slots[t.node] = t;
        else observer.onNode(t);
    }
    std::vector<PartTiming>& parts = partLog.gathered();
    for (PartTiming& p : parts) {
        p.startNs = ns(p.startNs);
        p.endNs = ns(p.endNs);
    }
    observer.onParts(parts);
}

} // namespace

namespace engine_detail {

// The graph outputs in order; with `state`, buffer and parameter mutations are written back into it.
void collectOutputs(const ExecutionPlan& plan, const GraphRun& run, RunResult& result, std::map<std::string, Tensor>* state) {
    const PlanGraph& g = plan.graph();
    for (size_t k = 0; k < g.outputSlots.size(); ++k) {
        EValue v = g.outputSlots[k] >= 0 ? run.slots[static_cast<size_t>(g.outputSlots[k])] : g.outputLiterals[k];
        result.outputs.push_back(v);
        const PlanOutput& spec = plan.outputs()[k];
        result.specs.push_back(spec);
        if (spec.kind == OutputKind::UserOutput || spec.kind == OutputKind::LossOutput) result.userOutputs.push_back(static_cast<int>(k));
        if (state && (spec.kind == OutputKind::BufferMutation || spec.kind == OutputKind::ParameterMutation) && v.isTensor())
            (*state)[spec.target] = v.tensor;
    }
}

} // namespace engine_detail

Result<RunResult> compileAndRun(ProgramPtr program, const std::vector<EValue>& inputs, int threads) {
    auto plan = ExecutionPlan::compile(std::move(program));
    if (!plan) return plan.status().withContext("compiling");
    Engine engine(*plan);
    RunOptions options;
    options.threads = threads;
    auto run = engine.run(inputs, options);
    if (!run) return run.status().withContext("running");
    return run;
}

Result<RunResult> Engine::run(const std::vector<EValue>& userInputs, const RunOptions& options) {
    const ExecutionPlan& plan = *m_plan;
    RunShared shared{options, 1, nullptr, {}, {0}, {false}, nullptr, nullptr, false, 0, {}, {}, 0};
    shared.threads = options.threads > 0 ? options.threads : hardwareThreads();
    shared.tracker = m_tracker;
    m_tracker->peak.store(m_tracker->live.load());
    const int64_t liveBefore = m_tracker->live.load();
    shared.total = static_cast<int>(plan.graph().nodes.size());

    GraphRun run{plan.graph(), {}, nullptr, nullptr};
    initRun(run);
    IRLENS_TRY(bindInputs(plan, m_state, userInputs, run));

    if (options.observer) {
        options.observer->onRunStart(plan, shared.threads);
        shared.observer = options.observer;
        m_timings.assign(plan.graph().nodes.size(), NodeTiming{-1});
        shared.timings = m_timings.data();
        shared.tsc = invariantTsc();
        m_parts.start(shared.threads, [](const void* run) {
            const auto* r = static_cast<const RunShared*>(run);
            return ticksSince(r->tick0, r->start, r->tsc);
        }, &shared, &m_queueWait);
        shared.parts = &m_parts;
        // the threads join as they run a task or a part: one that joins during a run counts from the next
        m_queueWait.addCallingThread();
        shared.queueWait = &m_queueWait;
        m_queueWait.mark(); // outside the timed interval: a pread per thread
    }
    shared.start = Clock::now();
#if defined(__x86_64__)
    if (shared.tsc) shared.tick0 = static_cast<int64_t>(__rdtsc());
#endif
    setLibraryThreads(1); // TBB owns the parallelism; kernels split work themselves
    Status status;
    const GraphSchedule schedule = scheduleFor(plan.graph(), shared.threads);
    shared.oneThreadBooks = schedule != GraphSchedule::TaskGraph;
    switch (schedule) {
    case GraphSchedule::OneThread: {
        WorkerClock clock; // the run's start, on the calling thread
        const int asked = shared.threads;
        shared.threads = 1; // and the kernels split nothing either
        status = runGraphSerial(run, shared, true, clock);
        shared.threads = asked;
        break;
    }
    case GraphSchedule::InOrder: status = runInOrder(run, shared, m_arena, m_arenaThreads); break;
    case GraphSchedule::TaskGraph: status = runParallel(run, shared, m_arena, m_arenaThreads); break;
    }
    RunResult result;
    const int64_t endTicks = shared.observer ? ticksSince(shared.tick0, shared.start, shared.tsc) : 0;
    result.wallNs = nowNs(shared.start);
    if (options.observer) deliverTimings(*options.observer, m_timings, m_parts, shared, endTicks, result.wallNs);
    result.peakBytes = shared.tracker->peak.load() - liveBefore; // outputs of earlier runs still held are not this run's
    result.threads = shared.threads;
    if (options.observer && RunQueueWait::available()) {
        result.queuedNs = m_queueWait.waitedSinceMark();
        options.observer->onRunQueued(result.queuedNs);
    }
    if (options.observer) options.observer->onRunEnd(result.wallNs, result.peakBytes);
    if (!status) return status;
    collectOutputs(plan, run, result, options.stateful ? &m_state : nullptr);
    return result;
}

} // namespace irlens::core::exec
