#pragma once
// Op families: the colour key shared by the graph, tables and exports. A family is read from what the
// op registry knows of the op (its IR level, PyTorch's tags, irlens's layer tags, its schema's
// aliasing, the elementwise semantics), not from lists of names kept here.

#include "core/ir/program.h"

namespace irlens::core {

struct OpInfo;

enum class OpFamily {
    Linear,        // tag "linear": convolution, matmul, linear, addmm, bmm, attention
    Normalization, // tag "normalization": batch/layer/group/RMS norm
    Activation,    // tag "activation": relu, gelu, sigmoid, softmax, dropout ...
    Elementwise,   // PyTorch's "pointwise" tag or an elementwise reference: add, mul, div, where ...
    Reduction,     // PyTorch's "reduction" tag or irlens's "pooling": sum, mean, amax, max_pool2d ...
    View,          // the schema returns an alias of an input (view, permute, expand, slice ...) or tag "view"
    DataMovement,  // any other ATen op: cat, index, gather, copy, embedding, creation ...
    Prims,         // prims.*
    HigherOrder,   // cond, map, while_loop ...
    Symbolic,      // sym_size, operator.mul on SymInts
    Other,         // ops irlens has no schema for, unknown targets
};

OpFamily opFamilyOf(const Target& target);
/// The family of a registry entry (an in-place twin shares its functional op's family).
OpFamily opFamilyOf(const OpInfo& op);
const char* opFamilyName(OpFamily family); // "linear", "normalization", ...
/// A fill colour for light backgrounds, as 0xRRGGBB (views pick a darker variant on dark themes).
unsigned opFamilyColor(OpFamily family);

} // namespace irlens::core
