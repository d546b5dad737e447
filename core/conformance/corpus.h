#pragma once
// The op conformance corpus (tests/conformance/corpus): calls recorded from PyTorch with its answers.
// The corpus is a folder of parts (corpus/opinfo, corpus/backward, ...), each made by one generator:
// `index.json` lists the cases (one per line), `data.bin` holds every tensor's bytes (little-endian).
// An input tensor is stored as its storage span with PyTorch's strides, so non-contiguous and
// broadcast (stride 0) inputs come back as they were; an output is stored as its values in C order
// with the dtype, shape and strides PyTorch reported.

#include "core/exec/tensor.h"
#include "core/ir/program.h"
#include "core/ir/status.h"

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace irlens::core::conformance {

struct TensorRecord {
    ScalarType dtype = ScalarType::Float32;
    exec::Shape shape;
    exec::Shape strides;
    int64_t count = 0;   // elements stored: the storage span (inputs) or numel (outputs)
    int64_t offset = 0;  // byte offset in data.bin
};

struct ArgRecord {
    std::string name;
    bool keyword = false;
    enum class Kind { Literal, Tensor, TensorList } kind = Kind::Literal;
    Argument literal;                               // Literal (None, numbers, lists, dtypes, strings)
    std::vector<std::optional<TensorRecord>> tensors; // Tensor (one) or TensorList (nullopt = None)
};

struct CaseRecord {
    std::string op;      // "aten::add.Tensor", "prims::mul.default"
    std::string dtype;   // the dtype of its first tensor: "float32", "int8", ...
    int index = 0;       // position among the cases of (op, dtype)
    std::string source;  // the OpInfo sample or edge set it came from
    std::vector<ArgRecord> args;
    std::vector<TensorRecord> outputs;
    bool listOutput = false; // one Tensor[] result (split, unbind)
    bool values = true;      // false: PyTorch leaves the values undefined (empty)
    bool scalar = false;     // the op returns a number (item, sym_size, maximum_value), stored as a 0-dim tensor
    std::string distribution; // random op: "uniform", "normal" or "permutation", the law its values are checked by
    std::string check;        // "svd": outputs checked by what is unique (see checkSvd), not element by element
    /// Pointwise ops: PyTorch's answer from its scalar loop, where it differs from `outputs[0]`. PyTorch 1.13
    /// runs contiguous blocks of two vectors through Vectorized<T> and the rest through a scalar lambda,
    /// and for some values the two disagree (fmod(3.4e38, 0.5) is NaN in a block, 0 in the tail), so which
    /// answer an element got depends on where it fell. An element agrees when it matches either.
    std::optional<TensorRecord> scalarPath;
    /// "aten::add.Tensor float32 #3 (opinfo:add)"
    std::string label() const;
};

struct Corpus {
    std::string dir;
    std::string torchVersion;
    std::vector<CaseRecord> cases;
    std::vector<std::byte> data;

    /// A fresh tensor with the record's bytes; inputs get PyTorch's strides over their storage span.
    exec::Tensor input(const TensorRecord& r) const;
    /// The expected output as a contiguous tensor of PyTorch's values.
    exec::Tensor expected(const TensorRecord& r) const;
};

/// Reads every part of `dir` (each subfolder with index.json and data.bin, in name order; or `dir` itself
/// when it holds index.json); errors name the file, the case and the field.
Result<Corpus> loadCorpus(const std::string& dir);

} // namespace irlens::core::conformance
