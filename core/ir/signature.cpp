#include "core/ir/signature.h"

namespace irlens::core {

const char* inputKindName(InputKind k) {
    switch (k) {
    case InputKind::UserInput: return "USER_INPUT";
    case InputKind::Parameter: return "PARAMETER";
    case InputKind::Buffer: return "BUFFER";
    case InputKind::TensorConstant: return "CONSTANT_TENSOR";
    case InputKind::CustomObj: return "CUSTOM_OBJ";
    case InputKind::Token: return "TOKEN";
    case InputKind::ConstantInput: return "USER_INPUT";
    }
    return "?";
}

const char* outputKindName(OutputKind k) {
    switch (k) {
    case OutputKind::UserOutput: return "USER_OUTPUT";
    case OutputKind::LossOutput: return "LOSS_OUTPUT";
    case OutputKind::BufferMutation: return "BUFFER_MUTATION";
    case OutputKind::ParameterMutation: return "PARAMETER_MUTATION";
    case OutputKind::GradientToParameter: return "GRADIENT_TO_PARAMETER";
    case OutputKind::GradientToUserInput: return "GRADIENT_TO_USER_INPUT";
    case OutputKind::UserInputMutation: return "USER_INPUT_MUTATION";
    case OutputKind::Token: return "TOKEN";
    }
    return "?";
}

} // namespace irlens::core
