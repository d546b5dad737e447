#pragma once
// The graph signature (what each graph input and output is), range constraints and the module call graph.

#include "core/ir/argument.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace irlens::core {

enum class InputKind { UserInput, Parameter, Buffer, TensorConstant, CustomObj, Token, ConstantInput };
enum class OutputKind {
    UserOutput, LossOutput, BufferMutation, ParameterMutation, GradientToParameter,
    GradientToUserInput, UserInputMutation, Token
};
const char* inputKindName(InputKind k);   // "USER_INPUT", "PARAMETER", ... as torch prints them
const char* outputKindName(OutputKind k); // "USER_OUTPUT", "BUFFER_MUTATION", ...

struct InputSpec {
    InputKind kind = InputKind::UserInput;
    Argument arg;                    // the graph input it describes (for ConstantInput: the value)
    std::string target;              // parameter_name / buffer_name / tensor_constant_name / custom_obj_name
    std::optional<bool> persistent;  // buffers (absent in 2.2-era files)
    std::string name;                // ConstantInput: the input name
    bool operator==(const InputSpec&) const = default;
};

struct OutputSpec {
    OutputKind kind = OutputKind::UserOutput;
    Argument arg;
    std::string target; // buffer_name / parameter_name / user_input_name
    bool operator==(const OutputSpec&) const = default;
};

struct GraphSignature {
    std::vector<InputSpec> inputSpecs;
    std::vector<OutputSpec> outputSpecs;
    bool operator==(const GraphSignature&) const = default;
};

struct RangeConstraint {
    std::optional<int64_t> minVal; // nullopt = unbounded
    std::optional<int64_t> maxVal;
    bool operator==(const RangeConstraint&) const = default;
};

struct ModuleCallSignature {
    std::vector<Argument> inputs;
    std::vector<Argument> outputs;
    std::string inSpec;  // JSON text as stored
    std::string outSpec;
    std::optional<std::vector<std::string>> forwardArgNames;
    bool operator==(const ModuleCallSignature&) const = default;
};

struct ModuleCallEntry {
    std::string fqn;
    std::optional<ModuleCallSignature> signature;
    bool operator==(const ModuleCallEntry&) const = default;
};

} // namespace irlens::core
