#pragma once
// Op families: the colour key shared by the graph, tables and exports.

#include "core/ir/program.h"

namespace irlens::core {

enum class OpFamily {
    Linear,        // convolution, matmul, linear, addmm, bmm
    Normalization, // batch/layer/group norm
    Activation,    // relu, gelu, sigmoid, softmax ...
    Elementwise,   // add, mul, div, where ...
    Reduction,     // sum, mean, amax ...
    View,          // view, reshape, permute, expand, t ...
    DataMovement,  // cat, slice, index, gather, copy, embedding ...
    Prims,         // prims.*
    HigherOrder,   // cond, map, while_loop ...
    Symbolic,      // sym_size, operator.mul on SymInts
    Other,
};

OpFamily opFamilyOf(const Target& target);
const char* opFamilyName(OpFamily family); // "linear", "normalization", ...
/// A fill colour for light backgrounds, as 0xRRGGBB (views pick a darker variant on dark themes).
unsigned opFamilyColor(OpFamily family);

} // namespace irlens::core
