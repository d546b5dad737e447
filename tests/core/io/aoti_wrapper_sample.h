#pragma once
// Kept out of tst_aoti_package.cpp: moc does not follow the raw string literals below.

namespace {

// The statements AOTInductor's code generator writes, as the scanner expects to find them.
inline const char* kWrapper = R"cpp(
AOTInductorModel::AOTInductorModel(...)
    : AOTInductorModelBase(2, 1, 4, device_str, cubin_dir, true) {
    inputs_info_[0].name = "x";
    inputs_info_[1].name = "lengths";
    in_spec_ = R"([1, {"type": "builtins.tuple", "context": "null", "children_spec": [{"type": "builtins.tuple", "context": "null", "children_spec": [{"type": null, "context": null, "children_spec": []}]}, {"type": "builtins.dict", "context": "[\"lengths\"]", "children_spec": [{"type": null, "context": null, "children_spec": []}]}]}])";
    out_spec_ = "[1, {\"type\": \"builtins.list\", \"context\": \"null\", \"children_spec\": [{\"type\": null, \"context\": null, \"children_spec\": []}]}]";
    outputs_info_[0].name = "output0";
}
    int32_t x_expected_dtype = aoti_torch_dtype_bfloat16();
    if (x_size[2] > 512) {
    if (8 != x_size[0]) {
    int32_t lengths_expected_dtype = aoti_torch_dtype_int64();
extern "C"  void cpp_fused_gelu_0(const float* in_ptr0,
extern "C"  void cpp_fused_gelu_0(const float* in_ptr0,
// Compile cmd
// /usr/bin/g++-13 /tmp/a.cpp -D CPU_CAPABILITY_AVX512 -O3
)cpp";

} // namespace
