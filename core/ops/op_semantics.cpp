#include "core/ops/op_semantics.h"

#include <unordered_map>

namespace irlens::core {

namespace {

using K = PromotionKind;

std::unordered_map<std::string, ElementwiseInfo> buildAten() {
    std::unordered_map<std::string, ElementwiseInfo> t;
    auto unary = [&](const std::string& op, K kind, const std::string& prim) {
        t[op + ".default"] = {kind, {"self"}, prim, "torch._refs." + op};
    };
    for (const char* op : {"exp", "expm1", "log", "log10", "log1p", "log2", "sin", "sinh", "cos", "cosh", "tan", "tanh",
                           "asin", "acos", "atan", "asinh", "acosh", "atanh", "rsqrt", "sqrt", "reciprocal", "erf"})
        unary(op, K::IntToFloat, op);
    unary("sigmoid", K::IntToFloat, "");
    unary("silu", K::IntToFloat, "");
    for (const char* op : {"ceil", "floor", "round", "trunc", "sign", "neg", "bitwise_not"}) unary(op, K::Default, op);
    unary("relu", K::Default, "");
    unary("gelu", K::Default, "");
    unary("hardtanh", K::Default, "");
    unary("leaky_relu", K::Default, "");
    unary("elu", K::Default, "");
    unary("hardswish", K::Default, "");
    unary("hardsigmoid", K::Default, "");
    unary("relu6", K::Default, "");
    unary("abs", K::ComplexToFloat, "abs");
    unary("isnan", K::AlwaysBool, "");
    unary("isinf", K::AlwaysBool, "");
    unary("logical_not", K::AlwaysBool, "");
    auto binary = [&](const std::string& op, const std::string& ov, K kind, const std::string& prim) {
        t[op + "." + ov] = {kind, {"self", "other"}, prim, "torch._refs." + op};
    };
    for (const char* ov : {"Tensor", "Scalar"}) {
        binary("add", ov, K::Default, "add");
        binary("sub", ov, K::Default, "sub");
        binary("mul", ov, K::Default, "mul");
        binary("div", ov, K::IntToFloat, "div");
        binary("eq", ov, K::AlwaysBool, "eq");
        binary("ne", ov, K::AlwaysBool, "ne");
        binary("lt", ov, K::AlwaysBool, "lt");
        binary("le", ov, K::AlwaysBool, "le");
        binary("gt", ov, K::AlwaysBool, "gt");
        binary("ge", ov, K::AlwaysBool, "ge");
        binary("bitwise_and", ov, K::Default, "bitwise_and");
        binary("bitwise_or", ov, K::Default, "bitwise_or");
        binary("bitwise_xor", ov, K::Default, "bitwise_xor");
        binary("fmod", ov, K::Default, "fmod");
        binary("remainder", ov, K::Default, "remainder");
    }
    binary("div", "Tensor_mode", K::Default, "div");
    binary("div", "Scalar_mode", K::Default, "div");
    binary("rsub", "Tensor", K::Default, "sub");
    binary("rsub", "Scalar", K::Default, "sub");
    binary("maximum", "default", K::Default, "maximum");
    binary("minimum", "default", K::Default, "minimum");
    binary("atan2", "default", K::IntToFloat, "atan2");
    binary("logical_and", "default", K::AlwaysBool, "");
    binary("logical_or", "default", K::AlwaysBool, "");
    binary("logical_xor", "default", K::AlwaysBool, "");
    t["pow.Tensor_Tensor"] = {K::BoolToLong, {"self", "exponent"}, "pow", "torch._refs.pow"};
    t["pow.Tensor_Scalar"] = {K::BoolToLong, {"self", "exponent"}, "pow", "torch._refs.pow"};
    t["pow.Scalar"] = {K::BoolToLong, {"self", "exponent"}, "pow", "torch._refs.pow"};
    t["where.self"] = {K::NoOpmath, {"self", "other"}, "where", "torch._refs.where"};
    t["clamp.default"] = {K::Default, {"self", "min", "max"}, "", "torch._refs.clamp"};
    t["clamp.Tensor"] = {K::Default, {"self", "min", "max"}, "", "torch._refs.clamp"};
    t["clamp_min.default"] = {K::Default, {"self", "min"}, "", "torch._refs.clamp_min"};
    t["clamp_max.default"] = {K::Default, {"self", "max"}, "", "torch._refs.clamp_max"};
    return t;
}

std::unordered_map<std::string, ElementwiseInfo> buildPrims() {
    std::unordered_map<std::string, ElementwiseInfo> t;
    for (const char* p : {"add", "sub", "mul", "div", "maximum", "minimum", "pow", "atan2", "fmod", "remainder",
                          "bitwise_and", "bitwise_or", "bitwise_xor", "neg", "exp", "expm1", "log", "log1p", "log2",
                          "log10", "sin", "cos", "tan", "sinh", "cosh", "tanh", "asin", "acos", "atan", "asinh",
                          "acosh", "atanh", "rsqrt", "sqrt", "reciprocal", "erf", "ceil", "floor", "round", "trunc",
                          "sign", "bitwise_not", "fill", "where"})
        t[p] = {K::Default, {}, p, "torch._prims." + std::string(p)};
    for (const char* p : {"eq", "ne", "lt", "le", "gt", "ge", "isfinite", "signbit"})
        t[p] = {K::AlwaysBool, {}, p, "torch._prims." + std::string(p)};
    for (const char* p : {"abs", "real", "imag"}) t[p] = {K::ComplexToFloat, {}, p, "torch._prims." + std::string(p)};
    return t;
}

} // namespace

const ElementwiseInfo* elementwiseInfo(const std::string& op, const std::string& overload) {
    static const auto table = buildAten();
    auto it = table.find(op + "." + (overload.empty() ? "default" : overload));
    return it == table.end() ? nullptr : &it->second;
}

const ElementwiseInfo* elementwisePrimInfo(const std::string& prim) {
    static const auto table = buildPrims();
    auto it = table.find(prim);
    return it == table.end() ? nullptr : &it->second;
}

} // namespace irlens::core
