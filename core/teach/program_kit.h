#pragma once
// What the teaching programs (lessons and exercises) share when they are built: metas and the node
// metadata a real export records, so that a clean lesson verifies without a finding and an exercise
// has only the fault it is about. Internal to core/teach.

#include "core/ir/builder.h"

#include <string>
#include <vector>

namespace irlens::core::teach {

inline constexpr const char* kLessonSource = "lessons/models.py";

inline TensorMeta f32Meta(const std::vector<int64_t>& sizes) { return makeTensorMeta(ScalarType::Float32, sizes); }

/// The meta of `weight.t()` for a [rows, cols] weight: [cols, rows] with strides (1, cols).
inline TensorMeta transposedMeta(int64_t rows, int64_t cols) {
    TensorMeta m = f32Meta({cols, rows});
    m.strides = {SymInt::literal(1), SymInt::literal(cols)};
    return m;
}

/// Where a node came from: the module it ran in (path "" for the root), the source line and the
/// torch function that made it. Gives the node the stack_trace, nn_module_stack and source_fn_stack
/// a real export records.
struct Origin {
    std::string module;     // "fc1"
    std::string moduleType; // "torch.nn.modules.linear.Linear"
    int line = 0;
    std::string code;       // "x = self.fc1(x)"
    std::string fn;         // source_fn name: "l__self___fc1", "relu"
};

inline void from(NodeBuilder& n, const std::string& rootType, const Origin& o) {
    n.stackTrace("  File \"" + std::string(kLessonSource) + "\", line " + std::to_string(o.line) + ", in forward\n    " + o.code + "\n");
    n.module("L__self__", "", rootType);
    if (!o.module.empty()) {
        std::string key = "L__self___" + o.module;
        for (char& c : key)
            if (c == '.') c = '_';
        n.module(key, o.module, o.moduleType);
    }
    n.sourceFn(o.fn, o.moduleType.empty() ? "builtin_function_or_method." + o.fn : o.moduleType);
}

} // namespace irlens::core::teach
