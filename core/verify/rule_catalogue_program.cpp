// The program half of the rule catalogue: node metadata, the graph signature and the state, sample
// inputs and symbols. Passages in quotes are the Export IR specification's words; the others name the
// check in torch/_export/verifier.py or the section of the .pt2 format guide.
#include "core/verify/rule_catalogue.h"

namespace irlens::core::detail {
namespace {

std::vector<RuleInfo> metadataRules() {
    const Severity E = Severity::Error, W = Severity::Warning;
    return {
        {"EIR-M001", "node meta has stack_trace", "IR spec, Node metadata (stack_trace)", W,
         "Every call_function node carries the Python stack trace of the line that produced it, so a node can be traced "
         "back to the model's source.",
         "\"node.meta[\"stack_trace\"] is a string containing the Python stack trace referencing the original Python "
         "source code.\" (call_function, metadata)",
         "a node added by a pass that did not copy the metadata of the node it replaced",
         "export with the source available, or copy the replaced node's meta when transforming the graph"},
        {"EIR-M002", "node meta has val for every output", "IR spec, Node metadata (val); format guide 5.4", E,
         "val describes what the node produced: a FakeTensor, a SymInt, a list of them or None. In a .pt2 it is the "
         "tensor_values (or sym_*_values) entry under the output's name; without it nothing downstream knows the "
         "value's dtype or shape.",
         "\"node.meta[\"val\"] describes the output of running the operation. It can be of type <symint>, <FakeTensor>, "
         "a List[Union[FakeTensor, SymInt]], or None.\" (call_function, metadata)",
         "a node whose output 'bad' has no tensor_values entry",
         "record the output's FakeTensor meta (dtype, sizes, strides, device) under its name"},
        {"EIR-M003", "node meta has nn_module_stack", "IR spec, Node metadata (nn_module_stack)", W,
         "nn_module_stack names the modules the node was called from, outermost first; it is what groups the graph by "
         "module.",
         "\"node.meta[\"nn_module_stack\"] describes the \"stacktrace\" of the torch.nn.Module from which the node "
         "came\" (call_function, metadata)",
         "a node added by a pass that did not copy nn_module_stack",
         "keep nn_module_stack when transforming the graph (copy the meta of the node you replace)"},
        {"EIR-M004", "node meta has source_fn_stack", "IR spec, Node metadata (source_fn_stack)", W,
         "source_fn_stack names the torch function or leaf module the node was called from before decomposition, so "
         "the ops of one nn.Linear can be told from those of another.",
         "\"node.meta[\"source_fn_stack\"] contains the torch function or the leaf torch.nn.Module class this node was "
         "called from before decomposition.\" (call_function, metadata)",
         "a node added by a pass that did not copy source_fn_stack",
         "keep source_fn_stack when transforming the graph (copy the meta of the node you replace)"},
        {"EIR-M005", "val is shaped like the op's return (tensor / tuple / list / SymInt / None)",
         "IR spec, Node metadata (val); format guide 5.5 (outputs)", E,
         "val mirrors the schema's return: one FakeTensor for a Tensor, a tuple for a tuple, a SymInt for an int "
         "computed at run time. A node recording one tensor for a three-tensor return loses two of its outputs.",
         "\"If the operator in node.target returns an n-tuple of Tensors, then node.meta['val'] is an n-tuple of "
         "FakeTensors describing each tensor.\" (FakeTensor)",
         "aten.native_layer_norm.default recording a single tensor output",
         "record one output per schema return (unused elements still get a name)"},
        {"EIR-M006", "val agrees with the op's meta function (dtype, sizes, strides)",
         "IR spec, Node metadata (val is the FakeTensor the op's meta function returns)", W,
         "val is what the op's meta function returns for the node's inputs. Re-running the meta functions on the "
         "recorded input metas must give the recorded outputs; a disagreement means the val or an input was edited, "
         "or the meta function differs. Run on demand: it costs a pass of shape inference.",
         "\"If the operator in node.target returns a Tensor, then node.meta['val'] is a FakeTensor describing that "
         "tensor.\" (FakeTensor)",
         "aten.relu.default of a [2, 2] input recording a [3, 2] output",
         "export again, or correct the recorded tensor_values entry"},
    };
}

std::vector<RuleInfo> signatureRules() {
    const Severity E = Severity::Error;
    return {
        {"EIR-G001", "one input spec per placeholder, naming it", "IR spec, ExportGraphSignature; format guide 6", E,
         "Parameters and buffers are lifted to graph inputs, and the signature says what each input is. So there is one "
         "input spec per placeholder, in order, naming it; verifier.py checks both the count and the names.",
         "\"Instead of storing parameters and buffers as attributes of the graph, they are lifted as inputs to the "
         "graph. The graph_signature is utilized to keep track of additional information on these parameters and "
         "buffers.\" (ExportedProgram)",
         "input spec 1 naming 'y' while placeholder 1 is 'x'",
         "write one input spec per graph input, in the same order, naming it"},
        {"EIR-G002", "one output spec per returned value, naming it", "IR spec, ExportGraphSignature; format guide 6", E,
         "Each value the graph returns is a mutation written back or a user output, and the signature says which. "
         "verifier.py refuses a graph whose output count differs from the signature's.",
         "verifier.py: \"Number of output nodes ... is different Than the number of outputs specified by the graph "
         "signature\"",
         "a graph returning one value with no output spec at all",
         "write one output spec per returned value, in the same order"},
        {"EIR-G003", "inputs ordered: parameters, buffers, constants before user inputs",
         "IR spec, ExportGraphSignature (input order)", E,
         "torch.export lifts the state to the leading placeholders: parameters, then buffers, tensor constants and "
         "custom objects, then the user's inputs. Consumers that feed the state by position rely on it.",
         "serialize.py canonicalize ranks parameter, buffer, tensor_constant and custom_obj inputs before user_input",
         "a parameter placeholder after the user input x",
         "list parameters, buffers, constants and custom objects before user inputs"},
        {"EIR-G004", "outputs ordered: mutations before user outputs",
         "IR spec, ExportGraphSignature (output order); format guide 6", E,
         "The graph returns the new values of mutated buffers and inputs first, then the user outputs; verifier.py reads "
         "the leading outputs as the mutations.",
         "verifier.py: mutate_nodes = output_nodes[num_tokens:end]; user_output_nodes = output_nodes[end:...]",
         "a BUFFER_MUTATION output listed after a USER_OUTPUT",
         "list mutation outputs before user outputs"},
        {"EIR-G005", "parameter/buffer/constant targets exist in the state dict or constants",
         "IR spec, ExportedProgram state_dict/constants; format guide 6", E,
         "A lifted input names the state it is fed from: a parameter or persistent buffer in the state dict, a "
         "non-persistent buffer or tensor constant in the constants. verifier.py refuses a target that is not there.",
         "\"state_dict ... Data structure containing the parameters and buffers.\" (ExportedProgram)",
         "a PARAMETER input targeting 'w' while the state dict holds only 'other'",
         "store the tensor under the spec's target, or fix the target name"},
        {"EIR-G006", "mutation outputs name an input buffer / parameter / user input",
         "IR spec, ExportGraphSignature (buffers_to_mutate)", E,
         "A BUFFER_MUTATION output writes its value back into a buffer, so its target must be a buffer the program "
         "takes as input (likewise parameters and user inputs).",
         "verifier.py: \"Buffer output {} does not point to a buffer that exists.\"",
         "a BUFFER_MUTATION output targeting 'w', which is a parameter",
         "name a buffer input of the program in the mutation's target"},
        {"EIR-G007", "sample inputs match the user inputs (count, dtype, static sizes)",
         "ExportedProgram.example_inputs; format guide 3.1 (sample inputs)", Severity::Warning,
         "The sample inputs are the example torch.export traced with; they are what irlens runs. One per user input, "
         "of the placeholder's dtype and static sizes, or a run proves nothing about the program.",
         "\"The val field in this case represents the input shape/dtype that the graph is expected to receive for this "
         "input parameter.\" (placeholder, metadata)",
         "a [3, 2] sample for a placeholder recorded as f32[2, 2]",
         "store a sample of the placeholder's dtype and shape"},
    };
}

std::vector<RuleInfo> stateRules() {
    const Severity E = Severity::Error;
    return {
        {"EIR-G008", "every placeholder has a val of the kind its input spec names",
         "IR spec, placeholder (metadata); verifier.py (_check_val, tensor arguments)", E,
         "A placeholder has a val like any node: the FakeTensor (or SymInt) the graph expects for that input. Lifted "
         "state (parameters, buffers, tensor constants) is always a tensor; verifier.py refuses a parameter that is not "
         "a tensor argument and a placeholder without val.",
         "\"Placeholder nodes also have meta['val'], like call_function nodes. The val field in this case represents "
         "the input shape/dtype that the graph is expected to receive for this input parameter.\" (placeholder)",
         "the user input x with no tensor_values entry",
         "record the input's FakeTensor in tensor_values under its name (a SymInt in sym_int_values)"},
        {"EIR-G009", "parameter/buffer/constant vals match the tensors the program holds (dtype, shape)",
         "IR spec, placeholder (metadata); ExportedProgram state_dict", E,
         "The val of a lifted input describes the tensor fed to it, which is the one in the state dict or constants: "
         "same dtype, same sizes. Otherwise every meta downstream describes a tensor the program does not have.",
         "\"The val field in this case represents the input shape/dtype that the graph is expected to receive for this "
         "input parameter.\" (placeholder)",
         "a parameter recorded as f32[2, 2] whose state dict tensor is f32[3, 2]",
         "export again, or store a tensor of the recorded dtype and shape under the target"},
        {"EIR-G010", "sample inputs satisfy the range constraints (one value per symbol)",
         "IR spec, ExportedProgram (range_constraints)", Severity::Warning,
         "A dynamic dimension is a symbol with a range. The example torch.export traced with gave each symbol one value "
         "inside its range; a stored sample outside it, or giving one symbol two values, is not an input this program "
         "was exported for.",
         "\"range_constraints ... This attribute maps the symbolic shapes to their lower/upper ranges.\" (ExportedProgram)",
         "a sample of batch 1 for a dimension s0 constrained to [2, 8]",
         "store samples inside the ranges, agreeing on every shared symbol"},
        {"EIR-G011", "buffers the graph writes have their BUFFER_MUTATION output (one per buffer)",
         "IR spec, ExportGraphSignature (buffers_to_mutate); functional", E,
         "A functional graph never writes a buffer: it returns the new value, and a BUFFER_MUTATION output names the "
         "buffer that receives it. Detectable: an in-place write to a buffer placeholder with no such output, an output "
         "without a spec among the mutation outputs (the entry was dropped), two outputs for one buffer. Not detectable: "
         "an entry relabelled USER_OUTPUT, or dropped together with its graph output (the new value is then dead code).",
         "\"graph_signature ... specifies the parameters and buffer names used and mutated within the graph.\" "
         "(ExportedProgram)",
         "a signature that lost the BUFFER_MUTATION entry of 'add' while the graph still returns it first",
         "add the BUFFER_MUTATION output spec naming the new value and the buffer it updates"},
        {"EIR-Y001", "every free symbol in a shape has a range constraint", "IR spec, range_constraints; format guide 8 and 11", E,
         "A symbol in a shape (s0, u3) is a size known only at run time; range_constraints gives the values it may take. "
         "A symbol without one has no recorded bounds, so nothing can check an input against it.",
         "\"This attribute maps the symbolic shapes to their lower/upper ranges.\" (ExportedProgram, range_constraints)",
         "a user input of shape [s0, 2] and no range for s0",
         "add range_constraints['s0'] = {min_val, max_val}; export records one per dynamic dimension"},
        {"EIR-Y002", "range constraints are ranges: min <= max", "IR spec, range_constraints (ValueRanges); format guide 8", E,
         "A range constraint is an interval of allowed values; one whose minimum exceeds its maximum admits no value, "
         "so no input can satisfy the program.",
         "\"This attribute maps the symbolic shapes to their lower/upper ranges.\" (ExportedProgram, range_constraints)",
         "range_constraints['s0'] = [10, 2]",
         "export again; torch.export records min_val <= max_val for every symbol"},
    };
}

} // namespace

std::vector<RuleInfo> programRuleCatalogue() {
    std::vector<RuleInfo> out = metadataRules();
    for (auto part : {signatureRules(), stateRules()}) out.insert(out.end(), part.begin(), part.end());
    return out;
}

} // namespace irlens::core::detail
