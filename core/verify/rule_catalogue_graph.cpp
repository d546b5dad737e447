// The graph half of the rule catalogue. Passages in quotes are the Export IR specification's words
// (docs: "torch.export IR Specification"); the others name the check in torch/_export/verifier.py, in
// torch/_prims/__init__.py or the section of the .pt2 format guide (../shared/reference/pt2-format.md).
#include "core/verify/rule_catalogue.h"

namespace irlens::core::detail {

namespace {

// EIR-S*: the graph as a program: targets, placeholders, the output, definitions before uses.
std::vector<RuleInfo> structureRules() {
    const Severity E = Severity::Error, I = Severity::Info;
    return {
        {"EIR-S001", "call_function targets are ATen/custom op overloads, higher-order or symbolic ops",
         "IR spec, call_function; verifier.py _check_valid_op", E,
         "A call_function node calls an operator: an op overload (ATen or a registered custom op), a higher-order "
         "operator such as cond, or one of the builtin operations on symbolic sizes. An arbitrary Python callable is "
         "neither serializable nor something a backend can run, so Export IR refuses it.",
         "\"In FX graph, a call_function can refer to any callable, in Export IR, we restrict it to only a select "
         "subset of ATen operators, custom operators, and control flow operators.\" (call_function, difference 1)",
         "a node whose target is the Python function os.system instead of torch.ops.<ns>.<op>.<overload>",
         "call the operator overload the function stands for, or register the function as a custom op and call that"},
        {"EIR-S002", "targets name an op overload, not an overload packet", "IR spec, call_function (OpOverload); format guide 7", E,
         "An operator is one schema: torch.ops.aten.sub.Tensor, not the packet torch.ops.aten.sub that groups every "
         "overload of sub. With a packet the schema is ambiguous, so neither the arguments nor the val can be checked, "
         "and verifier.py accepts only OpOverload and HigherOrderOperator targets.",
         "\"Operator: is a functional callable with a predefined schema.\" (call_function, definitions)",
         "a node calling torch.ops.aten.relu (the packet) instead of torch.ops.aten.relu.default",
         "name the overload the arguments select, e.g. torch.ops.aten.relu.default or torch.ops.aten.sub.Tensor"},
        {"EIR-S003", "placeholders come first: no node redefines a placeholder", "IR spec, placeholder; verifier.py", E,
         "Placeholders are the graph's inputs and open the node list. The serialized graph keeps them in its inputs "
         "list, so a node that defines a placeholder's name is a placeholder after a call_function, which the spec "
         "forbids.",
         "\"Placeholder nodes must be the first N nodes in the nodes list of a graph. N can be zero.\" (placeholder)",
         "the node relu whose output is named x, the name of the user input",
         "give the node's output a name of its own; the graph inputs keep theirs"},
        {"EIR-S004", "exactly one output, last: it returns only defined values", "IR spec, output; format guide 5.4", E,
         "The output node ends the graph and returns its results; in a .pt2 it is the graph's outputs list. Every "
         "name it returns must be a placeholder or a node's output, or the caller receives nothing.",
         "\"There is one and only one output node, and it will always be the last node of the graph.\" (output)",
         "a graph whose outputs list returns 'nope', which no node defines",
         "return a value the graph computes, and name the same value in the output spec"},
        {"EIR-S005", "every value is defined before it is used", "IR spec, Graph (topological order)", E,
         "The node list is in topological order: a node reads only placeholders and the outputs of nodes before it. "
         "FX turns the list into straight-line Python, which cannot read a value computed later.",
         "\"An Export IR Graph is a PyTorch program represented in the form of a DAG (directed acyclic graph).\" (Graph)",
         "two nodes swapped, so that add reads relu before relu is computed",
         "order the nodes topologically: producers before consumers"},
        {"EIR-S006", "no dangling names: every value read is defined", "IR spec, Graph; format guide 5.4/5.5", E,
         "Edges are references to nodes: each name a node reads must be a placeholder or a node of the same graph. "
         "A name nothing defines is an edge to nowhere, and loaders fail on it.",
         "\"edges of this graph consist of references between nodes.\" (Graph)",
         "a node reading 'ghost', which no placeholder or node defines",
         "define the value as a graph input or an earlier node's output, or correct the name"},
        {"EIR-S007", "no value is defined twice", "format guide 5.4 (one name per value)", E,
         "Each value has one name and one producer; FX keeps node names unique within a graph. A name defined twice "
         "makes every later reference ambiguous, and tensor_values can hold only one val for it.",
         "\"name: str # name of node\" (Node schema): the name identifies the node's value",
         "a node bad defining 'relu', which the node relu already defines",
         "give each value a unique name"},
        {"EIR-S008", "no node uses its own output", "IR spec, Graph (DAG)", E,
         "A node reading its own output is a cycle of one: the value is needed before it exists, so no order of the "
         "nodes can run it. FX would print it as an argument referring to the node being defined.",
         "\"An Export IR Graph is a PyTorch program represented in the form of a DAG (directed acyclic graph).\" (Graph)",
         "the node bad computing relu of 'bad'",
         "read the value from the node that produced it before this one"},
        {"EIR-S009", "no cycles through the nodes", "IR spec, Graph (DAG)", E,
         "Following the edges from a node never leads back to it; a cycle has no order in which to run its nodes. "
         "Repetition belongs inside a higher-order op, not in the edges.",
         "\"An Export IR Graph is a PyTorch program represented in the form of a DAG (directed acyclic graph).\" (Graph)",
         "node a reads b while node b reads a",
         "break the cycle; express a loop with a higher-order op such as while_loop or map"},
        {"EIR-S010", "get_attr only refers to submodules (HOP subgraphs)", "IR spec, get_attr; format guide 10", E,
         "Parameters and buffers are lifted to placeholders, so the only attributes a graph reads are submodules: the "
         "branches of cond, the body of map. Only a higher-order op takes one, and the submodule must be there.",
         "\"in Export IR this is restricted to readign only submodules as all parameters/buffers will be passed in as "
         "inputs to the graph module.\" (call_function, difference 3)",
         "aten.relu called with a subgraph argument sub_graph_0",
         "pass tensors to ordinary ops; wrap control flow in a higher-order op with its subgraph serialized inline"},
        {"EIR-S011", "the op is known (its schema can be checked)", "op registry (reference tables)", I,
         "irlens checks arguments, vals and decompositions against the schemas in its op tables (Core ATen, prims, "
         "the training ops). An ATen op outside them is legal Export IR, but nothing about its call is checked; this "
         "note says so instead of passing it in silence.",
         "\"Operator: is a functional callable with a predefined schema.\" (call_function, definitions)",
         "a node calling torch.ops.aten.frobnicate.default, which no table knows",
         "none needed; add the op's schema to the tables if its calls should be checked"},
        {"EIR-S012", "cond: operands match each branch's inputs; branches return the same number of values",
         "IR spec, Control flow (cond); format guide 10", E,
         "cond(pred, true_graph, false_graph, operands) runs one of two subgraphs on the same operands, so each branch "
         "takes exactly the operands as its placeholders and both return the same number of values with the same metas.",
         "\"cond(y, true_fn, false_fn, [x])\" with both branches taking x (get_attr, example)",
         "a cond passing one operand while its false branch takes two placeholders",
         "make both branches take the operands list, in order, and return alike"},
        {"EIR-S013", "targets are operator names: dot-separated identifiers (torch.ops.<ns>.<op>.<overload>)",
         "IR spec, call_function (OpOverload); format guide 7", E,
         "A target is an operator's qualified name, each part a Python identifier. Anything else is not a name a "
         "loader resolves, and may be a string crafted for a tool that prints it or looks it up.",
         "\"the string torch.op.aten.add.Tensor represents the callable object that is actually stored in the target "
         "field\" (Node, FX text format)",
         "a target 'torch.ops.aten.../../etc/passwd'",
         "the file is damaged or crafted; export the program again"},
        {"EIR-S014", "a node passes each named argument once",
         "IR spec, call_function (args/kwargs bind the schema once); format guide 5.5 (NamedArgument)", E,
         "A call binds each schema argument at most once. A NamedArgument repeated in a node's inputs is kept only "
         "once by the loader, so the call means something other than what the file records.",
         "\"kwargs: Dict[str, object]\" (Node schema): one value per argument name",
         "aten.add.Tensor with alpha passed twice",
         "pass each schema argument once"},
    };
}

// EIR-T*: what a tensor meta may hold.
std::vector<RuleInfo> tensorRules() {
    const Severity E = Severity::Error;
    return {
        {"EIR-T001", "tensor metas carry a torch dtype", "format guide 5.6 and 5.7 (TensorMeta.dtype, ScalarType)", E,
         "A val is a FakeTensor, and its dtype is one of torch's dtypes; the serialized ScalarType code must be one "
         "the format defines, or no loader can rebuild the tensor.",
         "\"The dtype field represents the dtype of the output of that node.\" (FakeTensor)",
         "a tensor_values entry with dtype code 255",
         "the file is damaged or crafted; export the program again"},
        {"EIR-T002", "tensor sizes are non-negative and their element and byte counts fit in int64",
         "IR spec, Node metadata (val is a FakeTensor); format guide 5.6 (TensorMeta.sizes)", E,
         "Sizes are non-negative integers or SymInts, and a tensor is addressable: its element count and byte size fit "
         "in int64. Sizes beyond that make an engine that allocates by them overflow.",
         "\"The size field of FakeTensor is a list of integers or SymInts.\" (FakeTensor)",
         "a val with eight dimensions of 1e9 elements each",
         "the file is damaged or crafted; export the program again"},
        {"EIR-T003", "strides and storage offset are non-negative and address no byte beyond int64",
         "IR spec, Node metadata (val is a FakeTensor); format guide 5.6 (TensorMeta.strides)", E,
         "The val's strides are those of the tensor the op produced; torch.export records no negative strides, and "
         "the last byte they address must fit in int64.",
         "\"A FakeTensor is an object that contains the metadata of a tensor.\" (FakeTensor)",
         "a val with stride -1 in dimension 0",
         "the file is damaged or crafted; export the program again"},
    };
}

// EIR-D*, EIR-P*: what the dialect allows (functional, Core ATen) and what prims require.
std::vector<RuleInfo> dialectRules() {
    const Severity E = Severity::Error, W = Severity::Warning;
    return {
        {"EIR-D001", "functional: no in-place overloads (training IR may keep them)",
         "IR spec, functional; verifier.py (is_mutable)", E,
         "Export IR is functional: an operator does not change its inputs. In-place ops (relu_, add_) become their "
         "out-of-place forms, and a mutated buffer is returned and written back through a BUFFER_MUTATION output. "
         "The training IR (verifiers [\"TRAINING\"]) may keep them until run_decompositions().",
         "\"Non-mutating: The operator does not mutate the value of its input (for tensors, this includes both "
         "metadata and data).\" (call_function, definitions)",
         "aten.relu_.default in a program marked ATEN",
         "call the functional variant (aten.relu.default) and return mutated buffers as BUFFER_MUTATION outputs"},
        {"EIR-D002", "functional: no out= overloads", "IR spec, functional", E,
         "An out= overload writes its result into a tensor the caller passes, which mutates an input. Export IR calls "
         "the functional overload and uses the value it returns.",
         "\"No side effects: The operator does not mutate states that are visible from outside\" (call_function, "
         "definitions)",
         "aten.add.out with out=relu",
         "call the functional overload (aten.add.Tensor) and use its result"},
        {"EIR-D003", "Core ATen: targets are tagged core (ATen programs, decomposition output)",
         "IR spec, Core ATen opset; core_aten_ops.tsv", W,
         "After run_decompositions() an ATen program calls only the Core ATen operators (those tagged core), the opset "
         "a backend implements. Other ATen ops (linear, t, sum.default ...) decompose into them. Training IR programs "
         "may hold them; decomposition output and verify --core-aten may not.",
         "\"we restrict it to only a select subset of ATen operators, custom operators, and control flow operators\" "
         "(call_function, difference 1)",
         "aten.linear.default in a program marked ATEN",
         "decompose it (run_decompositions, or irlens-cli decompose --to core) into Core ATen ops"},
        {"EIR-D004", "Core ATen only: every non-aten target is named (custom op)",
         "IR spec, call_function (custom operators); verify --core-aten", W,
         "Core ATen is an opset of aten operators. Ops of other namespaces (quantized_decomposed, prims, a user "
         "library) are custom operators: the spec allows them, but a program holding one is not Core ATen only, since a "
         "backend needs its kernel too. When Core ATen only is asked for, each such call is named, never passed in "
         "silence.",
         "\"a select subset of ATen operators, custom operators, and control flow operators\" (call_function, difference 1)",
         "verify --core-aten on a program calling torch.ops.quantized_decomposed.quantize_per_tensor.default",
         "keep it if the consumer implements the op (a custom op); otherwise decompose it into Core ATen ops"},
        {"EIR-P001", "prims: operands share one dtype (no implicit type promotion)",
         "IR spec, FakeTensor (no implicit type promotions); torch/_prims _prim_elementwise_meta", E,
         "Prims are the bottom level, where nothing is implicit: an elementwise prim's tensor operands have one dtype. "
         "A mix (int8 with float32) is made explicit with prims.convert_element_type first; the prims meta functions "
         "refuse it, so such a graph cannot be traced again.",
         "\"There are no implicit type promotions in Edge IR.\" (FakeTensor); _prim_elementwise_meta calls "
         "check_same_dtype on the operands",
         "prims.add.default of an int8 tensor and a float32 tensor",
         "convert the operand explicitly first (prims.convert_element_type to the common dtype)"},
        {"EIR-P002", "prims: operands share one shape (no implicit broadcasting)",
         "torch/_prims _prim_elementwise_meta (check_same_shape); prims_ops.tsv", E,
         "An elementwise prim takes operands of one shape; broadcasting is explicit, with prims.broadcast_in_dim. Only a "
         "CPU scalar tensor (rank 0) is exempt, as in the prims meta functions.",
         "_prim_elementwise_meta calls check_same_shape(..., allow_cpu_scalar_tensors=True); prims table: \"prims do NOT "
         "promote: inputs must already share dtype, shape and device\"",
         "prims.gt.default of a [2, 8] tensor and an [8] tensor",
         "broadcast the smaller operand first (prims.broadcast_in_dim to [2, 8], broadcast_dimensions [1])"},
    };
}

} // namespace

std::vector<RuleInfo> graphRuleCatalogue() {
    std::vector<RuleInfo> rules = structureRules();
    for (auto part : {tensorRules(), dialectRules()}) rules.insert(rules.end(), part.begin(), part.end());
    return rules;
}


} // namespace irlens::core::detail
