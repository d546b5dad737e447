#include "core/exec/plan.h"

#include "core/exec/kernel_registry.h"
#include "core/exec/plan_fusion.h"
#include "core/ops/tensor_meta_check.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <set>
#include <unordered_map>

namespace irlens::core::exec {

const EValue PlanArg::kNone{};

namespace {

constexpr int kMaxGraphDepth = 16;

struct GraphCompiler {
    PlanGraph& g;
    std::map<std::string, std::vector<std::string>>& missing;
    int depth;
    std::unordered_map<std::string, int> slotOf;

    int define(const std::string& name) {
        auto [it, inserted] = slotOf.emplace(name, static_cast<int>(g.slotNames.size()));
        if (inserted) g.slotNames.push_back(name);
        return it->second;
    }

    Result<int> use(const std::string& name, const Node& node) {
        auto it = slotOf.find(name);
        if (it == slotOf.end())
            return Status::error("node '" + node.name + "' (" + node.target.shortName() + ") reads '" + name +
                                 "', which no input or earlier node defines");
        return it->second;
    }

    // Converts one serialized argument to its runtime binding.
    Status bind(const Argument& a, const Node& node, PlanNode& pn, PlanArg& out) {
        using K = ArgKind;
        auto literal = [&](EValue v) { out.source = PlanArg::Source::Literal; out.setLiteral(std::move(v)); };
        switch (a.kind) {
        case K::None: literal(EValue::none()); return Status::ok();
        case K::Tensor:
        case K::OptionalTensor:
            if (a.s.empty()) { literal(EValue::none()); return Status::ok(); }
            {
                auto s = use(a.s, node);
                if (!s) return s.status();
                out.source = PlanArg::Source::Slot;
                out.slot = *s;
            }
            return Status::ok();
        case K::Tensors:
        case K::OptionalTensors:
            out.source = PlanArg::Source::List;
            out.listKind = EValue::Kind::TensorList;
            for (const auto& e : a.list) {
                if (e.kind == K::None || e.s.empty()) { out.elements.emplace_back(-1, EValue::none()); continue; }
                auto s = use(e.s, node);
                if (!s) return s.status();
                out.elements.emplace_back(*s, EValue());
            }
            return Status::ok();
        case K::Int: case K::ScalarType: case K::MemoryFormat: case K::Layout:
            literal(EValue::fromInt(a.i)); return Status::ok();
        case K::Float: literal(EValue::fromDouble(a.f)); return Status::ok();
        case K::Bool: literal(EValue::fromBool(a.b)); return Status::ok();
        case K::String: { EValue v; v.kind = EValue::Kind::String; v.s = a.s; literal(v); return Status::ok(); }
        case K::Ints: {
            std::vector<int64_t> xs;
            for (const auto& e : a.list) xs.push_back(e.i);
            literal(EValue::fromInts(std::move(xs)));
            return Status::ok();
        }
        case K::Floats: {
            EValue v; v.kind = EValue::Kind::DoubleList;
            for (const auto& e : a.list) v.doubles.push_back(e.f);
            literal(v);
            return Status::ok();
        }
        case K::Bools: {
            EValue v; v.kind = EValue::Kind::BoolList;
            for (const auto& e : a.list) v.bools.push_back(e.b);
            literal(v);
            return Status::ok();
        }
        case K::SymInt: case K::SymBool: case K::SymFloat:
            if (a.isName) {
                auto s = use(a.s, node);
                if (!s) return s.status();
                out.source = PlanArg::Source::Slot;
                out.slot = *s;
            } else if (a.kind == K::SymInt) literal(EValue::fromInt(a.i));
            else if (a.kind == K::SymBool) literal(EValue::fromBool(a.b));
            else literal(EValue::fromDouble(a.f));
            return Status::ok();
        case K::SymInts: {
            bool allLiteral = std::all_of(a.list.begin(), a.list.end(), [](const Argument& e) { return !e.isName; });
            if (allLiteral) {
                std::vector<int64_t> xs;
                for (const auto& e : a.list) xs.push_back(e.i);
                literal(EValue::fromInts(std::move(xs)));
                return Status::ok();
            }
            out.source = PlanArg::Source::List;
            out.listKind = EValue::Kind::IntList;
            for (const auto& e : a.list) {
                if (!e.isName) { out.elements.emplace_back(-1, EValue::fromInt(e.i)); continue; }
                auto s = use(e.s, node);
                if (!s) return s.status();
                out.elements.emplace_back(*s, EValue());
            }
            return Status::ok();
        }
        case K::Device: { EValue v; v.kind = EValue::Kind::Device; v.s = a.device().toString(); literal(v); return Status::ok(); }
        case K::Graph: {
            if (!a.graph()) return Status::error("node '" + node.name + "': subgraph '" + a.s + "' has no graph");
            if (depth + 1 > kMaxGraphDepth) return Status::error("node '" + node.name + "': subgraphs nested too deeply");
            auto sub = compileGraph(*a.graph(), missing, depth + 1);
            if (!sub) return sub.status().withContext("in subgraph '" + a.s + "' of node '" + node.name + "'");
            EValue v; v.kind = EValue::Kind::Graph; v.i = static_cast<int64_t>(pn.subgraphs.size()); v.s = a.s;
            pn.subgraphs.push_back(*sub);
            literal(v);
            return Status::ok();
        }
        default:
            literal(EValue::none());
            return Status::ok();
        }
    }

    // Order of writes and reads per slot, so that an in-place op runs after the other readers of its input.
    std::vector<int> producer;                   // slot -> node that last wrote it (-1: graph input)
    std::vector<std::vector<int>> readersSinceWrite;
    std::vector<std::vector<int>> preds;          // node -> nodes it must wait for

    void growSlots() {
        producer.resize(g.slotNames.size(), -1);
        readersSinceWrite.resize(g.slotNames.size());
    }

    void defineInputs(const Graph& graph) {
        for (const auto& in : graph.inputs) {
            if ((in.kind == ArgKind::Tensor || in.kind == ArgKind::SymInt || in.kind == ArgKind::SymFloat ||
                 in.kind == ArgKind::SymBool || in.kind == ArgKind::CustomObj) && !in.s.empty() &&
                (in.kind == ArgKind::Tensor || in.kind == ArgKind::CustomObj || in.isName))
                g.inputSlots.push_back(define(in.s));
            else
                g.inputSlots.push_back(-1);
        }
        growSlots();
    }

    // The kernel, cost estimates and argument bindings of one node; its input slots sorted and unique.
    Status bindNode(const Graph& graph, size_t k, PlanNode& pn) {
        const Node& node = graph.nodes[k];
        pn.index = static_cast<int>(k);
        pn.node = &node;
        pn.key = node.target.key();
        pn.kernel = KernelRegistry::instance().find(pn.key);
        if (!pn.kernel) missing[pn.key].push_back(node.name);
        pn.flopClass = flopClassOf(node.target.op());
        pn.work = estimateWork(graph, node, pn.flopClass);
        if (!workKnown(graph, node)) g.totalWork = std::numeric_limits<double>::infinity();
        if (node.meta.moduleStack && !node.meta.moduleStack->empty()) pn.modulePath = node.meta.moduleStack->back().path;
        for (const auto& na : node.inputs) {
            PlanArg pa;
            pa.name = na.name;
            IRLENS_TRY(bind(na.arg, node, pn, pa));
            if (pa.source == PlanArg::Source::Slot) pn.inputSlots.push_back(pa.slot);
            for (const auto& [s, lit] : pa.elements)
                if (s >= 0) pn.inputSlots.push_back(s);
            if (pa.source == PlanArg::Source::List) ++pn.listArgs;
            pn.args.push_back(std::move(pa));
        }
        std::sort(pn.inputSlots.begin(), pn.inputSlots.end());
        pn.inputSlots.erase(std::unique(pn.inputSlots.begin(), pn.inputSlots.end()), pn.inputSlots.end());
        return Status::ok();
    }

    // The nodes node k waits for: the producers of its inputs and, for an in-place op (relu_, hardtanh_),
    // which rewrites its first argument, every other reader of that argument since its last write.
    std::vector<int> predecessorsOf(const PlanNode& pn, int k) {
        std::vector<int> p;
        for (int s : pn.inputSlots) {
            if (producer[static_cast<size_t>(s)] >= 0) p.push_back(producer[static_cast<size_t>(s)]);
            readersSinceWrite[static_cast<size_t>(s)].push_back(k);
        }
        const Target& t = pn.node->target;
        bool inplace = t.kind == Target::Kind::Op && !t.op().empty() && t.op().back() == '_' && !pn.args.empty() &&
                       pn.args[0].source == PlanArg::Source::Slot;
        if (inplace) {
            int s = pn.args[0].slot;
            for (int r : readersSinceWrite[static_cast<size_t>(s)])
                if (r != k) p.push_back(r);
            readersSinceWrite[static_cast<size_t>(s)].clear();
            producer[static_cast<size_t>(s)] = k;
        }
        return p;
    }

    void defineOutputs(PlanNode& pn, int k) {
        for (const auto& o : pn.node->outputs) {
            std::vector<int> slots;
            if ((o.kind == ArgKind::Tensor || o.kind == ArgKind::SymInt || o.kind == ArgKind::SymBool ||
                 o.kind == ArgKind::SymFloat || o.kind == ArgKind::OptionalTensor) && !o.s.empty()) {
                slots.push_back(define(o.s));
            } else if (o.kind == ArgKind::Tensors || o.kind == ArgKind::OptionalTensors || o.kind == ArgKind::SymInts) {
                for (const auto& e : o.list) slots.push_back(e.s.empty() ? -1 : define(e.s));
            } else {
                slots.push_back(-1);
            }
            growSlots();
            for (int s : slots)
                if (s >= 0) { producer[static_cast<size_t>(s)] = k; readersSinceWrite[static_cast<size_t>(s)].clear(); }
            pn.outputSlots.push_back(std::move(slots));
        }
    }

    Status compileNodes(const Graph& graph) {
        g.nodes.reserve(graph.nodes.size());
        for (size_t k = 0; k < graph.nodes.size(); ++k) {
            PlanNode pn;
            IRLENS_TRY(bindNode(graph, k, pn));
            std::vector<int> p = predecessorsOf(pn, static_cast<int>(k));
            defineOutputs(pn, static_cast<int>(k));
            std::sort(p.begin(), p.end());
            p.erase(std::unique(p.begin(), p.end()), p.end());
            preds.push_back(std::move(p));
            g.nodes.push_back(std::move(pn));
        }
        return Status::ok();
    }

    void linkNodes() {
        // the most work on a chain ending at node k, and its node before k (nodes are in graph order)
        std::vector<double> chainTo(g.nodes.size(), 0.0);
        std::vector<int> chainFrom(g.nodes.size(), -1);
        int chainEnd = -1;
        for (size_t k = 0; k < g.nodes.size(); ++k) {
            g.nodes[k].predecessorCount = static_cast<int>(preds[k].size());
            for (int q : preds[k]) {
                g.nodes[static_cast<size_t>(q)].successors.push_back(static_cast<int>(k));
                if (chainFrom[k] < 0 || chainTo[static_cast<size_t>(q)] > chainTo[static_cast<size_t>(chainFrom[k])]) chainFrom[k] = q;
            }
            if (preds[k].empty()) g.roots.push_back(static_cast<int>(k));
            chainTo[k] = (chainFrom[k] >= 0 ? chainTo[static_cast<size_t>(chainFrom[k])] : 0.0) + g.nodes[k].work;
            if (chainEnd < 0 || chainTo[k] > chainTo[static_cast<size_t>(chainEnd)]) chainEnd = static_cast<int>(k);
            g.totalWork += g.nodes[k].work;
            g.maxNodeWork = std::max(g.maxNodeWork, g.nodes[k].work);
        }
        std::vector<char> onChain(g.nodes.size(), 0);
        for (int k = chainEnd; k >= 0; k = chainFrom[static_cast<size_t>(k)]) onChain[static_cast<size_t>(k)] = 1;
        g.spanWork = chainEnd >= 0 ? chainTo[static_cast<size_t>(chainEnd)] : 0.0;
        for (size_t k = 0; k < g.nodes.size(); ++k)
            if (!onChain[k] && g.nodes[k].work >= kTaskWork) g.offChainTaskWork += g.nodes[k].work;
    }

    // Readers per slot (a graph output counts once, so it is never released during the run), and which
    // outputs of each node anyone reads.
    void countUses(const Graph& graph) {
        g.useCounts.assign(g.slotNames.size(), 0);
        for (const auto& pn : g.nodes)
            for (int s : pn.inputSlots) ++g.useCounts[static_cast<size_t>(s)];
        for (const auto& o : graph.outputs)
            if ((o.kind == ArgKind::Tensor || o.isName) && !o.s.empty())
                if (auto it = slotOf.find(o.s); it != slotOf.end()) ++g.useCounts[static_cast<size_t>(it->second)];
        for (auto& pn : g.nodes) {
            for (const auto& out : pn.node->outputs) pn.outputKinds.push_back(out.kind);
            for (const auto& slots : pn.outputSlots) {
                bool needed = false;
                for (int s : slots) needed = needed || (s >= 0 && g.useCounts[static_cast<size_t>(s)] > 0);
                pn.outputNeeded.push_back(needed);
            }
        }
    }

    Status bindGraphOutputs(const Graph& graph) {
        for (const auto& o : graph.outputs) {
            int slot = -1;
            EValue lit;
            if ((o.kind == ArgKind::Tensor || o.isName) && !o.s.empty()) {
                auto it = slotOf.find(o.s);
                if (it == slotOf.end()) return Status::error("graph output '" + o.s + "' is never defined");
                slot = it->second;
            } else if (o.kind == ArgKind::Int || o.kind == ArgKind::SymInt) {
                lit = EValue::fromInt(o.i);
            } else if (o.kind == ArgKind::Float || o.kind == ArgKind::SymFloat) {
                lit = EValue::fromDouble(o.f);
            } else if (o.kind == ArgKind::Bool || o.kind == ArgKind::SymBool) {
                lit = EValue::fromBool(o.b);
            }
            g.outputSlots.push_back(slot);
            g.outputLiterals.push_back(lit);
        }
        return Status::ok();
    }

    Status run(const Graph& graph) {
        g.graph = &graph;
        defineInputs(graph);
        IRLENS_TRY(compileNodes(graph));
        linkNodes();
        countUses(graph);
        return bindGraphOutputs(graph);
    }
};

} // namespace

Result<std::shared_ptr<PlanGraph>> compileGraph(const Graph& graph, std::map<std::string, std::vector<std::string>>& missing,
                                                int depth) {
    auto g = std::make_shared<PlanGraph>();
    GraphCompiler c{*g, missing, depth, {}, {}, {}, {}};
    IRLENS_TRY(c.run(graph));
    return g;
}

Result<std::shared_ptr<ExecutionPlan>> ExecutionPlan::compile(ProgramPtr program, bool allowMissingKernels, bool fuse) {
    if (!program) return Status::error("no program to compile");
    auto plan = std::shared_ptr<ExecutionPlan>(new ExecutionPlan());
    plan->m_program = program;
    auto g = compileGraph(program->graph, plan->m_missing);
    if (!g) return g.status();
    plan->m_graph = *g;
    const Graph& graph = program->graph;

    const auto& specs = program->signature.inputSpecs;
    // Signature input specs and graph inputs correspond one to one, in order.
    for (size_t k = 0; k < graph.inputs.size(); ++k) {
        PlanInput in;
        in.slot = plan->m_graph->inputSlots[k];
        in.name = graph.inputs[k].s;
        if (k < specs.size()) {
            const InputSpec& spec = specs[k];
            in.kind = spec.kind;
            in.target = spec.target;
            if (spec.kind == InputKind::Parameter || spec.kind == InputKind::Buffer || spec.kind == InputKind::TensorConstant) {
                const TensorData* td = program->stateTensorFor(spec);
                if (!td)
                    return Status::error("input '" + in.name + "' needs " + std::string(inputKindName(spec.kind)) + " '" +
                                         spec.target + "', which the archive does not hold");
                auto t = Tensor::fromTensorData(*td);
                if (!t) return t.status().withContext(std::string(inputKindName(spec.kind)) + " '" + spec.target + "'");
                in.state = *t;
            } else if (spec.kind == InputKind::ConstantInput) {
                const Argument& a = spec.arg;
                if (a.kind == ArgKind::Int) in.constant = EValue::fromInt(a.i);
                else if (a.kind == ArgKind::Float) in.constant = EValue::fromDouble(a.f);
                else if (a.kind == ArgKind::Bool) in.constant = EValue::fromBool(a.b);
            } else if (spec.kind == InputKind::CustomObj) {
                return Status::error("input '" + in.name + "' is a custom object ('" + spec.target +
                                     "'): TorchBind objects cannot be executed");
            }
        }
        if (in.kind == InputKind::UserInput) plan->m_userInputs.push_back(static_cast<int>(plan->m_inputs.size()));
        plan->m_inputs.push_back(std::move(in));
    }
    const auto& outSpecs = program->signature.outputSpecs;
    std::set<std::string> mutated;
    for (size_t k = 0; k < graph.outputs.size(); ++k) {
        PlanOutput o;
        o.index = static_cast<int>(k);
        o.name = graph.outputs[k].s;
        if (k < outSpecs.size()) {
            o.kind = outSpecs[k].kind;
            o.target = outSpecs[k].target;
        }
        if (o.kind == OutputKind::BufferMutation || o.kind == OutputKind::ParameterMutation) mutated.insert(o.target);
        plan->m_outputs.push_back(o);
    }
    if (fuse) plan->m_fused = fuseForInference(*plan->m_graph, plan->m_inputs, mutated);
    for (const auto& [name, meta] : graph.tensorValues) {
        // A meta no tensor can have (sizes [10^9] * 8) is refused before anything is sized from it.
        if (auto problem = checkTensorMeta(meta))
            return Status::error("value '" + name + "': " + problem->message + " (" + problem->ruleId + ")");
        auto sizes = meta.staticSizes();
        if (!sizes) continue;
        int64_t n = elementSize(meta.dtype);
        for (auto s : *sizes) n *= s;
        plan->m_metaBytes += n;
    }
    if (!allowMissingKernels && !plan->m_missing.empty()) {
        const auto& [key, nodes] = *plan->m_missing.begin();
        return Status::error("node '" + nodes.front() + "': no kernel for " + key +
                             (plan->m_missing.size() > 1 ? " (and " + std::to_string(plan->m_missing.size() - 1) + " more ops)" : ""));
    }
    return plan;
}


// Below this estimated work a whole graph runs on the calling thread even when more threads are asked
// for: entering the arena and waking a worker cost more than a second worker can save. tiny_mlp (about
// 1e5 units) takes 0.020-0.026 ms on two threads against 0.017-0.021 ms on one.
constexpr double kSerialRunWork = 1 << 20;

// The share of a graph's work that must lie off its longest chain, in nodes worth a task, for handing
// ready nodes to other workers to pay. Below it the handing costs more than the overlap saves: at two
// threads, four alternations of 30 runs each (bench_engine --no-torch), graph order with split kernels
// against the task graph, medians of the four: llama_deep (29 % of its work off its chain, in nodes far
// below kTaskWork) 14.5 against 17.6 ms, resnet18 (1 %) 12.5 against 13.5, tiny_gpt (0 %) 1.01 against
// 1.13, transformer_layer (0 %) 2.65 against 2.76.
constexpr double kOverlapShare = 0.1;

GraphSchedule scheduleFor(const PlanGraph& g, int threads) {
    if (threads <= 1 || g.totalWork < kSerialRunWork || g.maxNodeWork < kTaskWork) return GraphSchedule::OneThread;
    if (std::isfinite(g.totalWork) && g.offChainTaskWork < kOverlapShare * g.totalWork) return GraphSchedule::InOrder;
    return GraphSchedule::TaskGraph;
}

} // namespace irlens::core::exec
