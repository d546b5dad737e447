// The tour's content: the stops in order, each one concept on one program with its task. Texts are
// HTML fragments (the spec's terms in <b>); the checks are in tour_checks.cpp.
#include "core/teach/tour.h"

namespace irlens::core::teach {

namespace {

using C = TourCheck;
using P = TourPane;

const std::vector<TourStop> kStops = {
    {"exported_program", "The ExportedProgram and its parts", "example", P::StatusBar, "",
     "What irlens opened is an <b>ExportedProgram</b>: a graph module (the canvas), its <b>graph signature</b>, the "
     "<b>state dict</b> and constants it lifts, <b>range constraints</b> and the module call graph. The status bar names "
     "where it came from, its schema version and its <b>dialect</b>: the verifier that accepts it.",
     "levels", "IR levels: what each dialect allows", "ExportedProgram",
     "Type the program's dialect, as the status bar shows it, and press Enter.", C::Answer, "dialect",
     "It is one word in capitals after the schema version: TRAINING or ATEN."},

    {"graph", "The Graph and its nodes", "example", P::Graph, "convolution",
     "The <b>Graph</b> is a list of <b>nodes</b> in topological order: each reads only the placeholders and the nodes "
     "before it, so the edges are references between nodes and the whole is a DAG. irlens draws it top to bottom, each "
     "edge labelled with the dtype and shape of its value.",
     "rules:EIR-S005", "Rule EIR-S005: every value is defined before it is used", "Graph",
     "Click the node convolution (outlined) to select it.", C::SelectNode, "convolution",
     "Click inside the outlined box, the first op under the input x."},

    {"opcodes", "The four opcodes", "example", P::NodePane, "in:x",
     "Every node has one of four <b>opcodes</b>: <b>placeholder</b> (an input of the graph), <b>call_function</b> (an op "
     "call), <b>get_attr</b> (a submodule: only the branches of a higher-order op) and <b>output</b> (the one last node, "
     "what the graph returns). The Node pane shows the opcode first.",
     "rules:EIR-S003", "Rule EIR-S003: placeholders come first", "Node: placeholder, call_function, get_attr, output",
     "Select the user input x (the green pill at the top): the Node pane says opcode placeholder.", C::SelectInputOfKind,
     "USER_INPUT", "User inputs are the green pills; parameters and buffers are the small chips on the boxes that read them."},

    {"targets", "Targets and overloads", "example", P::NodePane, "add",
     "A call_function's <b>target</b> is an <b>OpOverload</b>: torch.ops.aten.add.Tensor is namespace aten, op add, "
     "<b>overload</b> Tensor. The overload picks one <b>schema</b> (add.Tensor adds two tensors, add.Scalar a tensor and a "
     "number), so that the arguments and the result can be checked.",
     "rules:EIR-S002", "Rule EIR-S002: targets name an op overload", "call_function: OpOverload targets",
     "Select a node that calls torch.ops.aten.add.Tensor (Ctrl+F searches names and ops).", C::SelectNodeWithTarget,
     "aten::add.Tensor", "The two residual additions call it: the Node pane's target row shows the full name."},

    {"args_kwargs", "args and kwargs", "example", P::FxText, "clone",
     "A node passes each input under the name its schema gives it, as a positional <b>arg</b> or a keyword-only "
     "<b>kwarg</b>. print(ep.graph) writes them as args = (…) and kwargs = {…}: most ATen calls use args only, and "
     "keyword-only parameters such as memory_format go to kwargs.",
     "rules:EIR-S014", "Rule EIR-S014: a node passes each named argument once", "call_function: args and kwargs",
     "Select a node whose kwargs is not empty (the FX text shows kwargs = {...}).", C::SelectNodeWithKwargs, "",
     "Look for a clone in the FX text: its memory_format is keyword-only."},

    {"meta_val", "meta['val'] and FakeTensor", "example", P::NodePane, "max_pool2d_with_indices",
     "Each value records <b>meta['val']</b>: a <b>FakeTensor</b> with the dtype, sizes, strides and device the value "
     "has, without its data. A node with several results records one per output, and the graph's edges are labelled "
     "with them.",
     "rules:EIR-M002", "Rule EIR-M002: node meta has val for every output", "Metadata: val; References: FakeTensor",
     "max_pool2d_with_indices returns values and indices. Type the dtype of its second output (Node pane, Outputs) and "
     "press Enter.", C::Answer, "one of:int64,torch.int64,i64,long",
     "Select the node and read Outputs in the Node pane: the second row is the indices."},

    {"provenance", "nn_module_stack, stack_trace, source_fn_stack", "example", P::NodePane, "addmm_4",
     "Export records where each node came from: <b>stack_trace</b> (the Python lines that made it), "
     "<b>nn_module_stack</b> (the modules it ran in, outermost first) and <b>source_fn_stack</b> (the module or torch "
     "function that was called). irlens groups the graph by module from nn_module_stack.",
     "rules:EIR-M003", "Rule EIR-M003: node meta has nn_module_stack",
     "Metadata: stack_trace, nn_module_stack, source_fn_stack",
     "Select a node that ran inside the module mlp.fc1 (the Modules pane or the frames of the graph help).",
     C::SelectNodeInModule, "mlp.fc1", "The Node pane's Module stack row names the modules; mlp.fc1 is the MLP's first Linear."},

    {"signature", "The graph signature", "example", P::Signature, "",
     "The <b>graph signature</b> says what each placeholder and each returned value is: <b>input kinds</b> (PARAMETER, "
     "BUFFER, CONSTANT_TENSOR, CUSTOM_OBJ, USER_INPUT) and <b>output kinds</b> (USER_OUTPUT, BUFFER_MUTATION, "
     "USER_INPUT_MUTATION, LOSS_OUTPUT …). The inputs come in a fixed order: parameters, buffers, constants, user inputs.",
     "rules:EIR-G003", "Rule EIR-G003: inputs ordered", "ExportedProgram: graph_signature (InputSpec, OutputSpec)",
     "How many parameters does this program lift? Count the PARAMETER rows in the Signature pane, type the number and "
     "press Enter.", C::Answer, "count:PARAMETER",
     "Type PARAMETER into the Signature pane's filter: the rows left are the parameters."},

    {"lifted_state", "Parameters, buffers, constants: lifted state", "example", P::Graph, "_native_batch_norm_legit_no_training",
     "Export <b>lifts</b> the module's state into the graph: each <b>parameter</b>, <b>buffer</b> and tensor "
     "<b>constant</b> becomes a placeholder, fed from the state dict or the constants when the program runs. irlens "
     "draws lifted state as small chips on the boxes that read it: blue parameters, green buffers, lilac constants.",
     "rules:EIR-G005", "Rule EIR-G005: state targets exist in the state dict", "ExportedProgram: state_dict, constants",
     "Select a placeholder that is a buffer: click a green chip (the batch norm's running statistics).",
     C::SelectInputOfKind, "BUFFER",
     "The batch norm box near the top carries the green chips b_stem_bn_running_mean and b_stem_bn_running_var."},

    {"symbolic", "Symbolic shapes", "dynamic", P::NodePane, "linear",
     "A dimension exported as dynamic is a <b>symbol</b> (s0) instead of a number: the input's size is a <b>SymInt</b>, "
     "and every size computed from it is a symbolic expression in meta['val']. One program then serves every batch size "
     "its range allows.",
     "rules:EIR-Y001", "Rule EIR-Y001: every free symbol has a range constraint", "References: SymInt; Metadata: val",
     "A new program, with a dynamic batch. Select a node whose meta['val'] has a symbolic size (edges labelled with s0 "
     "lead to it).", C::SelectSymbolicNode, "", "Every value computed from x carries s0: try the first linear."},

    {"ranges", "Range constraints", "dynamic", P::Ranges, "",
     "Each symbol has a <b>range constraint</b>: the smallest and largest value torch.export proved the program correct "
     "for. The sample inputs must satisfy it, and a runtime may refuse sizes outside it.",
     "rules:EIR-G010", "Rule EIR-G010: sample inputs satisfy the range constraints", "ExportedProgram: range_constraints",
     "Type the largest value s0 may take (the Range constraints pane) and press Enter.", C::Answer, "max:s0",
     "The Range constraints pane lists each symbol with its Min and Max."},

    {"functional", "Functional and non-functional ops", "dynamic", P::Graph, "relu_",
     "Export IR at Core ATen is <b>functional</b>: an op returns new values and never changes its inputs. The <b>training "
     "IR</b> may keep <b>in-place</b> ops (relu_, add_), and run_decompositions() replaces them by their functional "
     "variants; out= overloads are never allowed.",
     "rules:EIR-D001", "Rule EIR-D001: no in-place overloads", "Export IR: functional; torch.export: training IR",
     "Select the node that works in place (its op's name ends in _).", C::SelectInPlaceNode, "",
     "nn.ReLU(inplace=True) becomes aten.relu_: the box between the two linears."},

    {"verifier", "The verifier's rules", "dynamic", P::Diagnostics, "relu_",
     "The spec is a set of <b>verifier rules</b>: irlens checks every program it opens and lists each finding in "
     "Diagnostics with its rule, node and fix. Here the in-place relu_ is a <b>note</b>, not an error: the dialect is "
     "TRAINING, where it is allowed.",
     "rules:EIR-D001", "Rule EIR-D001: no in-place overloads", "torch/_export/verifier.py: the rules of the spec",
     "In the Diagnostics pane, double-click the rule EIR-D001 of the finding to read the rule and its spec passage.",
     C::ShowRule, "EIR-D001", "Diagnostics is a tab of the bottom pane; double-click the cell that says EIR-D001."},

    {"to_core", "Training IR to Core ATen", "dynamic", P::Decomposition, "linear",
     "Decomposition moves a program down the <b>IR levels</b>: the <b>training IR</b> keeps ops as the model called "
     "them, <b>Core ATen</b> is a set of about 190 functional ops every backend knows: linear becomes t and addmm (and t, "
     "a step later, a permute). The Decomposition pane steps one node, one op or all of them and names the rule it used.",
     "levels", "IR levels: training IR, Core ATen, Prims", "IRs: Core ATen IR; ExportedProgram.run_decompositions",
     "Step the node linear down to Core ATen: select it, then press Step in the Decomposition pane.", C::NodeDecomposed,
     "linear", "Select linear in the graph, bring the Decomposition tab to the front and press Step."},

    {"buffer_mutation", "Buffer mutations", "buffer", P::Signature, "add_1",
     "A functional program cannot change a buffer, so it returns the new value instead: a <b>BUFFER_MUTATION</b> output "
     "names the buffer it replaces, and the runtime writes it back after the call. Mutation outputs come before the user "
     "outputs.",
     "rules:EIR-G011", "Rule EIR-G011: written buffers have their BUFFER_MUTATION output",
     "ExportedProgram: graph_signature (OutputKind.BUFFER_MUTATION)",
     "A new program with two buffers. Select the node whose value is written back to the buffer running_mean (the "
     "Signature pane's outputs lead to it).", C::SelectMutationOf, "running_mean",
     "Click the BUFFER_MUTATION row whose target is running_mean in the Signature pane."},

    {"prims", "Prims: promotion and broadcasting made explicit", "buffer", P::Decomposition, "div",
     "At <b>Prims</b> every op is a primitive that neither promotes nor broadcasts: a dtype change is a "
     "<b>prims.convert_element_type</b>, a broadcast a <b>prims.broadcast_in_dim</b>. Here div divides f32 values by the "
     "int64 step count (a promotion) and sub takes the [8] running mean from [4, 8] values (a broadcast).",
     "rules:EIR-P001", "Rule EIR-P001: prims operands share one dtype", "IRs: Prims IR; type promotion and broadcasting",
     "Step the program down to Prims (the Prims button in the Decomposition pane), then select the "
     "prims.convert_element_type that makes div's promotion explicit.",
     C::SelectNodeWithTarget, "prims::convert_element_type.default",
     "The nodes a step made are marked new; the conversion turns the int64 count into f32 just before the prims.div."},

    {"hop_cond", "Higher-order ops and their subgraphs", "cond", P::Graph, "cond",
     "Control flow is a <b>higher-order op</b>: <b>cond</b> takes a predicate, two <b>subgraphs</b> (true_graph_0 and "
     "false_graph_0, the get_attr nodes of the FX graph) and the operands, and runs one branch. Each branch is a graph of "
     "its own, with its own placeholders.",
     "rules:EIR-S012", "Rule EIR-S012: cond's operands match each branch", "Control flow: torch.cond; get_attr",
     "A new program with a cond. Double-click the cond node (the double-bordered box) to open its true branch.",
     C::EnterSubgraph, "cond", "Double-click inside the box with the double border; Backspace comes back up."},
};

} // namespace

const std::vector<TourStop>& tourStops() { return kStops; }

int tourStopIndex(const std::string& id) {
    for (size_t k = 0; k < kStops.size(); ++k)
        if (id == kStops[k].id) return static_cast<int>(k);
    return -1;
}

} // namespace irlens::core::teach
