#pragma once
// Reads what AOTInductor's generated C++ records about the model it compiles, by looking for the few
// statements its code generator always writes (never by compiling or running anything):
//
//   AOTInductorModelBase(3, 2, 0, device_str, ...)      inputs, outputs, constants
//   inputs_info_[0].name = "arg0_1";                    input / output names
//   in_spec_ = "[1, {...pytree json...}]";              the call structure (args, kwargs) and outputs
//   int32_t arg0_1_expected_dtype = aoti_torch_dtype_float32();     checked dtype (when checks are on)
//   if (3 != arg0_1_size[0]) / if (arg0_1_size[1] < 2) / > 4000     checked sizes
//   extern "C"  void cpp_fused_add_mul_0(               generated kernels
//   // Compile cmd \n // g++ ... -D CPU_CAPABILITY_AVX2   compiler and target ISA
//
// The scan is line by line over a bounded view and tolerates anything it does not recognise.

#include "core/io/aoti_package.h"

#include <string_view>

namespace irlens::core::aoti {

/// Adds what `source` records to `model` (names, counts, specs, checks, kernels, compiler).
void scanGeneratedSource(std::string_view source, AotiModel& model);

/// The pytree spec `[1, {"type": ..., "context": ..., "children_spec": [...]}]` as a call structure,
/// leaves named from `leafNames` in order ("*" when they run out): "(arg0_1, arg1_1), {}". "" when
/// the text is not a spec this understands.
std::string describeTreeSpec(std::string_view json, const std::vector<std::string>& leafNames);

/// Deepest nesting of brackets and braces in a JSON text (strings skipped), counted before parsing so
/// that nothing afterwards recurses without bound.
int jsonNesting(std::string_view json);

/// A C string literal's body (what sits between the quotes) unescaped.
std::string unescapeCString(std::string_view body);

} // namespace irlens::core::aoti
