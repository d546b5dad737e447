#include "core/verify/diagnostic.h"

namespace irlens::core {

const char* severityName(Severity s) {
    switch (s) {
    case Severity::Error: return "error";
    case Severity::Warning: return "warning";
    case Severity::Info: return "info";
    }
    return "?";
}

std::string formatDiagnostic(const Diagnostic& d) {
    std::string where = d.graph.empty() ? d.node : d.graph + (d.node.empty() ? "" : ":" + d.node);
    std::string out = std::string(severityName(d.severity)) + " " + d.ruleId;
    if (!where.empty()) out += " [" + where + "]";
    out += ": " + d.message;
    if (!d.fix.empty()) out += " (fix: " + d.fix + ")";
    return out;
}

const std::vector<RuleInfo>& verifierRules() {
    // Spec references: the Export IR specification (torch.export docs, "IR Spec"), the checks of
    // torch/_export/verifier.py, and sections of the .pt2 format guide (../shared/reference/pt2-format.md).
    static const std::vector<RuleInfo> rules = {
        {"EIR-S001", "call_function targets are ATen/custom op overloads, higher-order or symbolic ops",
         "IR spec, call_function; verifier.py _check_valid_op", Severity::Error},
        {"EIR-S002", "targets name an op overload, not an overload packet",
         "IR spec, call_function (OpOverload); format guide 7", Severity::Error},
        {"EIR-S003", "placeholders come first: no node redefines a placeholder",
         "IR spec, placeholder; verifier.py (placeholder after non-placeholder)", Severity::Error},
        {"EIR-S004", "exactly one output, last: it returns only defined values",
         "IR spec, output; format guide 5.4", Severity::Error},
        {"EIR-S005", "every value is defined before it is used", "IR spec, Graph (topological order)", Severity::Error},
        {"EIR-S006", "no dangling names: every value read is defined", "format guide 5.4/5.5", Severity::Error},
        {"EIR-S007", "no value is defined twice", "format guide 5.4 (one name per value)", Severity::Error},
        {"EIR-S008", "no node uses its own output", "IR spec, Graph (DAG)", Severity::Error},
        {"EIR-S009", "no cycles through the nodes", "IR spec, Graph (DAG)", Severity::Error},
        {"EIR-S010", "get_attr only refers to submodules (HOP subgraphs)",
         "IR spec, get_attr; format guide 10", Severity::Error},
        {"EIR-S011", "the op is known (its schema can be checked)", "op registry (reference tables)", Severity::Info},
        {"EIR-S012", "cond: operands match each branch's inputs; branches return the same number of values",
         "IR spec, Control flow (cond); format guide 10", Severity::Error},
        {"EIR-S013", "targets are operator names: dot-separated identifiers (torch.ops.<ns>.<op>.<overload>)",
         "IR spec, call_function (OpOverload); format guide 7", Severity::Error},
        {"EIR-S014", "a node passes each named argument once", "IR spec, call_function (args/kwargs bind the schema "
         "once); format guide 5.5 (NamedArgument)", Severity::Error},
        {"EIR-T001", "tensor metas carry a torch dtype", "format guide 5.6 and 5.7 (TensorMeta.dtype, ScalarType)",
         Severity::Error},
        {"EIR-T002", "tensor sizes are non-negative and their element and byte counts fit in int64",
         "IR spec, Node metadata (val is a FakeTensor); format guide 5.6 (TensorMeta.sizes)", Severity::Error},
        {"EIR-T003", "strides and storage offset are non-negative and address no byte beyond int64",
         "IR spec, Node metadata (val is a FakeTensor); format guide 5.6 (TensorMeta.strides)", Severity::Error},
        {"EIR-D001", "functional: no in-place overloads (training IR may keep them)",
         "IR spec, functional; verifier.py (is_mutable)", Severity::Error},
        {"EIR-D002", "functional: no out= overloads", "IR spec, functional", Severity::Error},
        {"EIR-D003", "Core ATen: targets are tagged core (ATen programs, decomposition output)",
         "IR spec, Core ATen opset; core_aten_ops.tsv", Severity::Warning},
        {"EIR-M001", "node meta has stack_trace", "IR spec, Node metadata (stack_trace)", Severity::Warning},
        {"EIR-M002", "node meta has val for every output", "IR spec, Node metadata (val); format guide 5.4", Severity::Error},
        {"EIR-M003", "node meta has nn_module_stack", "IR spec, Node metadata (nn_module_stack)", Severity::Warning},
        {"EIR-M004", "node meta has source_fn_stack", "IR spec, Node metadata (source_fn_stack)", Severity::Warning},
        {"EIR-M005", "val is shaped like the op's return (tensor / tuple / list / SymInt / None)",
         "IR spec, Node metadata (val); format guide 5.5 (outputs)", Severity::Error},
        {"EIR-M006", "val agrees with the op's meta function (dtype, sizes, strides)",
         "IR spec, Node metadata (val is the FakeTensor the op's meta function returns)", Severity::Warning},
        {"EIR-G001", "one input spec per placeholder, naming it", "IR spec, ExportGraphSignature; format guide 6", Severity::Error},
        {"EIR-G002", "one output spec per returned value, naming it", "IR spec, ExportGraphSignature; format guide 6", Severity::Error},
        {"EIR-G003", "inputs ordered: parameters, buffers, constants before user inputs",
         "IR spec, ExportGraphSignature (input order)", Severity::Error},
        {"EIR-G004", "outputs ordered: mutations before user outputs",
         "IR spec, ExportGraphSignature (output order); format guide 6", Severity::Error},
        {"EIR-G005", "parameter/buffer/constant targets exist in the state dict or constants",
         "IR spec, ExportedProgram state_dict/constants; format guide 6", Severity::Error},
        {"EIR-G006", "mutation outputs name an input buffer / parameter / user input",
         "IR spec, ExportGraphSignature (buffers_to_mutate)", Severity::Error},
        {"EIR-G007", "sample inputs match the user inputs (count, dtype, static sizes)",
         "ExportedProgram.example_inputs; format guide 3.1 (sample inputs)", Severity::Warning},
        {"EIR-Y001", "every free symbol in a shape has a range constraint",
         "IR spec, range_constraints; format guide 8 and 11", Severity::Error},
        {"EIR-Y002", "range constraints are ranges: min <= max", "IR spec, range_constraints (ValueRanges); format guide 8",
         Severity::Error},
    };
    return rules;
}

const RuleInfo* findRule(const std::string& id) {
    for (const auto& r : verifierRules())
        if (id == r.id) return &r;
    return nullptr;
}

} // namespace irlens::core
