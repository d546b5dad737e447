#include "core/teach/exercises.h"

#include "core/teach/exercise_programs.h"

#include <algorithm>
#include <utility>

namespace irlens::core::teach {

using drill::MlpOptions;

namespace {

const char* const kFind = "One thing in this program breaks the Export IR spec. Find it and mark it: select the node, "
                          "placeholder or output at fault and press Mark.";

/// Appends exercises in the order the learner meets them.
class ExerciseList {
public:
    void add(std::string id, std::string title, std::string rule, std::string brief, std::string hint, std::function<Program()> make) {
        all_.push_back({std::move(id), std::move(title), std::move(rule), std::move(brief), std::move(hint), std::move(make)});
    }
    std::vector<Exercise> take() { return std::move(all_); }

private:
    std::vector<Exercise> all_;
};

// First contact: what a program's dialect promises (functional ATEN, Core ATen, prims without
// promotion or broadcasting), with a node's val and the signature's order on the way.
void addDialectExercises(ExerciseList& list) {
    list.add("inplace_in_aten", "An in-place op in an ATEN program", "EIR-D001",
        std::string("The status bar says ATEN: a functional dialect. ") + kFind,
        "Functional means every op returns a new value. An in-place op changes its input instead; its name ends in '_'.",
        [] {
            MlpOptions o;
            o.act = "torch.ops.aten.relu_.default";
            o.actName = "relu_";
            return drill::mlpProgram(o);
        });
    list.add("missing_val", "A node without meta['val']", "EIR-M002", kFind,
        "Every value a node outputs records a FakeTensor in meta['val']: select nodes and read the Node pane's Outputs.",
        [] {
            Program p = drill::mlpProgram();
            p.graph.tensorValues.erase("relu");
            return p;
        });
    list.add("inputs_out_of_order", "A graph signature out of order", "EIR-G003", kFind,
        "The placeholders follow the signature: parameters, then buffers, then constants, then user inputs. Read the "
        "Signature pane from the top.",
        [] {
            MlpOptions o;
            o.userInputBeforeFc2Bias = true;
            return drill::mlpProgram(o);
        });
    list.add("training_op_in_core", "A training-IR op in a Core ATen program", "EIR-D003",
        std::string("This program says ATEN: every op should be in the Core ATen opset. ") + kFind,
        "Core ATen ops carry the 'core' tag (the Node pane's op level says 'core ATen'). Look for an op the training IR "
        "keeps whole, which run_decompositions() would have split.",
        [] {
            MlpOptions o;
            o.fc2AsLinear = true;
            return drill::mlpProgram(o);
        });
    list.add("prims_promotion", "A prim that promotes a dtype", "EIR-P001",
        std::string("This program is at the Prims level. ") + kFind,
        "Prims never promote: both operands of an elementwise prim have one dtype, and a dtype change is an explicit "
        "prims.convert_element_type. Compare the operands' dtypes.",
        [] { return drill::primsProgram(true, false); });
    list.add("prims_broadcast", "A prim that broadcasts", "EIR-P002", std::string("This program is at the Prims level. ") + kFind,
        "Prims never broadcast: both operands of an elementwise prim have one shape, and a broadcast is an explicit "
        "prims.broadcast_in_dim. Compare the operands' shapes.",
        [] { return drill::primsProgram(false, true); });
}

// The signature and mutations: sample inputs against their ranges, buffer writes returned with
// their specs and in their place.
void addSignatureExercises(ExerciseList& list) {
    list.add("sample_out_of_range", "A sample input outside its range", "EIR-G010",
        std::string("The batch is dynamic (symbol s0, see Range constraints). ") + kFind,
        "A range constraint bounds a symbol; the sample inputs the program carries must satisfy it. Which input's size "
        "is s0, and what size does its sample have?",
        [] {
            MlpOptions o;
            o.batch = SymInt::expression("Symbol('s0', integer=True, positive=True)", 2);
            ProgramBuilder b = drill::mlp(o);
            b.rangeConstraint("s0", 4, 16);
            b.userOutput("addmm_1");
            return b.buildUnchecked();
        });
    list.add("buffer_write_lost", "A mutated buffer not returned", "EIR-G011",
        std::string("A training-IR program with a call counter buffer. ") + kFind,
        "A buffer written in place must come back as a BUFFER_MUTATION output, or the update is lost when the program "
        "runs functionally. Which node writes a buffer?",
        [] { return drill::counterProgram(true); });
    list.add("dropped_mutation_spec", "A returned mutation without its output spec", "EIR-G011", kFind,
        "Every value the output node returns needs an output spec naming its kind. Compare the output node's values with "
        "the Signature pane's outputs.",
        [] {
            Program p = drill::counterProgram(false);
            p.signature.outputSpecs.erase(p.signature.outputSpecs.begin());
            return p;
        });
    list.add("mutation_after_output", "Outputs out of order", "EIR-G004", kFind,
        "The output node returns mutations first (buffer, parameter, user-input mutations), then the user outputs. "
        "Read the Signature pane's outputs in order.",
        [] { return drill::counterProgram(false, true); });
}

// The graph's structure: targets, topological order, references, higher-order ops' arity.
void addStructureExercises(ExerciseList& list) {
    list.add("overload_packet", "An overload packet as a target", "EIR-S002", kFind,
        "A call_function's target is one op overload, torch.ops.<ns>.<op>.<overload>. Read each node's target in the "
        "Node pane.",
        [] {
            Program p = drill::mlpProgram();
            for (Node& n : p.graph.nodes)
                if (n.name == "relu") n.target = Target::parse("torch.ops.aten.relu");
            return p;
        });
    list.add("use_before_def", "A value used before it is defined", "EIR-S005", kFind,
        "The node list is in topological order: a node reads only placeholders and nodes before it. The FX text lists "
        "the nodes in order.",
        [] {
            Program p = drill::mlpProgram();
            auto relu = std::find_if(p.graph.nodes.begin(), p.graph.nodes.end(), [](const Node& n) { return n.name == "relu"; });
            std::rotate(p.graph.nodes.begin(), relu, relu + 1); // relu first, before the addmm it reads
            return p;
        });
    list.add("dangling_name", "A name nothing defines", "EIR-S006", kFind,
        "Edges are references to nodes: every name a node reads is a placeholder or an earlier node's output. Read the "
        "args in the Node pane or the FX text.",
        [] {
            Program p = drill::mlpProgram();
            for (Node& n : p.graph.nodes)
                if (n.name == "addmm_1") n.inputs[1].arg = Argument::tensor("relu_1");
            return p;
        });
    list.add("cond_arity", "cond branches that disagree", "EIR-S012", kFind,
        "cond passes its operands to both branches: each branch takes exactly as many inputs as there are operands. "
        "Double-click the cond node to see a branch.",
        [] { return drill::condProgram(2); });
}

// State and metadata: the state dict behind the parameters, and what export records on each node.
void addStateExercises(ExerciseList& list) {
    list.add("missing_weight", "A parameter the state dict does not hold", "EIR-G005", kFind,
        "Each parameter placeholder names its state_dict target. The Weights pane lists the tensors the program holds.",
        [] {
            Program p = drill::mlpProgram();
            p.weights["fc2.weights"] = p.weights.at("fc2.weight");
            p.weights.erase("fc2.weight");
            return p;
        });
    list.add("state_shape", "A parameter whose val is not its tensor", "EIR-G009", kFind,
        "A lifted parameter's meta['val'] describes the tensor the state dict holds for it. Compare the Signature's "
        "values with the Weights pane's shapes.",
        [] {
            Program p = drill::mlpProgram();
            p.weights["fc1.bias"] = makeSeededTensor({6}, 72, 0.35f);
            return p;
        });
    list.add("no_stack_trace", "A node without its stack_trace", "EIR-M001", kFind,
        "Export records where each node came from: stack_trace, nn_module_stack and source_fn_stack. The Node pane shows "
        "them for the selected node.",
        [] {
            Program p = drill::mlpProgram();
            for (Node& n : p.graph.nodes)
                if (n.name == "permute_1") {
                    n.meta.raw.erase("stack_trace");
                    n.meta.parseFromRaw();
                }
            return p;
        });
    list.add("placeholder_without_val", "A placeholder without meta['val']", "EIR-G008", kFind,
        "Placeholders record a val too: the FakeTensor the graph expects for that input. Select the inputs one by one.",
        [] {
            Program p = drill::mlpProgram();
            p.graph.tensorValues.erase("p_fc2_bias");
            return p;
        });
}

std::vector<Exercise> makeExercises() {
    ExerciseList list;
    addDialectExercises(list);
    addSignatureExercises(list);
    addStructureExercises(list);
    addStateExercises(list);
    return list.take();
}

bool definesValue(const Node& node, const std::string& value) {
    const auto names = node.outputNames();
    return std::find(names.begin(), names.end(), value) != names.end();
}

std::string kindHint(Mark::Kind fault, Mark::Kind marked) {
    if (fault == marked) return {};
    switch (fault) {
    case Mark::Kind::Node: return "The fault is in a node (an op box), not in a placeholder or the output. ";
    case Mark::Kind::Input: return "The fault is in a placeholder (a graph input: its pill or chip, or its Signature row). ";
    case Mark::Kind::Output: return "The fault is in the output node (the red pill) and what it returns. ";
    }
    return {};
}

} // namespace

std::string Mark::describe() const {
    switch (kind) {
    case Kind::Node: return "node '" + name + "'";
    case Kind::Input: return "input '" + name + "'";
    case Kind::Output: return "the output node";
    }
    return {};
}

const std::vector<Exercise>& exercises() {
    static const std::vector<Exercise> all = makeExercises();
    return all;
}

const Exercise* findExercise(const std::string& id) {
    for (const auto& e : exercises())
        if (e.id == id) return &e;
    return nullptr;
}

Mark markOf(const Program& program, const Diagnostic& finding) {
    const std::string& at = finding.node;
    if (at.empty() || at == "output") return {Mark::Kind::Output, ""};
    for (const auto& n : program.graph.nodes)
        if (n.name == at || definesValue(n, at)) return {Mark::Kind::Node, n.name};
    for (const auto& in : program.graph.inputs) {
        std::vector<std::string> names;
        in.collectValueNames(names);
        if (std::find(names.begin(), names.end(), at) != names.end()) return {Mark::Kind::Input, at};
    }
    return {Mark::Kind::Output, ""}; // a returned value nothing defines
}

const Diagnostic* findingFor(const Exercise& exercise, const std::vector<Diagnostic>& findings) {
    for (const auto& d : findings)
        if (d.ruleId == exercise.ruleId && d.graph.empty()) return &d;
    return nullptr;
}

MarkVerdict judgeMark(const Exercise& exercise, const Program& program, const std::vector<Diagnostic>& findings,
                      const Mark& mark) {
    const Diagnostic* finding = findingFor(exercise, findings);
    if (!finding) return {false, "The verifier finds nothing of rule " + exercise.ruleId + " in this program."};
    const Mark fault = markOf(program, *finding);
    if (fault == mark) return {true, finding->message};
    return {false, "Not " + mark.describe() + ". " + kindHint(fault.kind, mark.kind) + exercise.hint};
}

} // namespace irlens::core::teach
