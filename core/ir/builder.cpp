#include "core/ir/builder.h"

#include <cstdlib>
#include <cstring>
#include <set>

namespace irlens::core {

// ---------------------------------------------------------------- tensors and metas

TensorMeta makeTensorMeta(ScalarType dtype, const std::vector<int64_t>& sizes) {
    std::vector<SymInt> sym;
    sym.reserve(sizes.size());
    for (auto s : sizes) sym.push_back(SymInt::literal(s));
    return makeTensorMeta(dtype, sym);
}

TensorMeta makeTensorMeta(ScalarType dtype, const std::vector<SymInt>& sizes) {
    TensorMeta m;
    m.dtype = dtype;
    m.sizes = sizes;
    m.strides.resize(sizes.size());
    // Contiguous strides: a literal factor times the symbolic factors to the right ("12*s0").
    int64_t literal = 1;
    std::string symbolic;
    for (size_t k = sizes.size(); k-- > 0;) {
        if (symbolic.empty()) m.strides[k] = SymInt::literal(literal);
        else m.strides[k] = SymInt::expression(literal == 1 ? symbolic : std::to_string(literal) + "*" + symbolic);
        if (sizes[k].isExpr()) symbolic = symbolic.empty() ? sizes[k].expr() : symbolic + "*" + sizes[k].expr();
        else literal *= sizes[k].value;
    }
    m.storageOffset = SymInt::literal(0);
    return m;
}

TensorMeta metaOf(const TensorData& t) {
    TensorMeta m;
    m.dtype = t.dtype;
    for (auto s : t.sizes) m.sizes.push_back(SymInt::literal(s));
    for (auto s : t.strides) m.strides.push_back(SymInt::literal(s));
    m.storageOffset = SymInt::literal(t.storageOffset);
    m.requiresGrad = t.requiresGrad;
    // "cuda:0" -> {type: cuda, index: 0}: the bytes are a CPU copy, the device is informational.
    const std::string& d = t.device.empty() ? std::string("cpu") : t.device;
    auto colon = d.find(':');
    m.device.type = d.substr(0, colon);
    if (colon != std::string::npos) m.device.index = std::atoi(d.c_str() + colon + 1);
    return m;
}

namespace {

std::vector<int64_t> contiguousStrides(const std::vector<int64_t>& sizes) {
    std::vector<int64_t> strides(sizes.size());
    int64_t s = 1;
    for (size_t k = sizes.size(); k-- > 0;) {
        strides[k] = s;
        s *= sizes[k] > 0 ? sizes[k] : 1;
    }
    return strides;
}

template <class T>
TensorData makeTensor(ScalarType dtype, const std::vector<int64_t>& sizes, const std::vector<T>& values) {
    TensorData t;
    t.dtype = dtype;
    t.sizes = sizes;
    t.strides = contiguousStrides(sizes);
    std::vector<T> full(static_cast<size_t>(t.numel() > 0 ? t.numel() : 0), T{});
    std::memcpy(full.data(), values.data(), std::min(values.size(), full.size()) * sizeof(T));
    std::vector<std::byte> bytes(full.size() * sizeof(T));
    if (!bytes.empty()) std::memcpy(bytes.data(), full.data(), bytes.size());
    t.storage = Storage::fromBytes(std::move(bytes));
    return t;
}

} // namespace

TensorData makeFloatTensor(const std::vector<int64_t>& sizes, const std::vector<float>& values) {
    return makeTensor(ScalarType::Float32, sizes, values);
}

TensorData makeInt64Tensor(const std::vector<int64_t>& sizes, const std::vector<int64_t>& values) {
    return makeTensor(ScalarType::Int64, sizes, values);
}

TensorData makeSeededTensor(const std::vector<int64_t>& sizes, uint64_t seed, float scale) {
    int64_t n = 1;
    for (auto s : sizes) n *= s;
    std::vector<float> values(static_cast<size_t>(n > 0 ? n : 0));
    // splitmix64: the same bytes on every platform, unlike <random> distributions.
    uint64_t state = seed * 0x9E3779B97F4A7C15ull + 1;
    for (auto& v : values) {
        uint64_t z = (state += 0x9E3779B97F4A7C15ull);
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
        z ^= z >> 31;
        double unit = static_cast<double>(z >> 11) / static_cast<double>(1ull << 53); // [0, 1)
        v = static_cast<float>((unit * 2.0 - 1.0) * scale);
    }
    return makeFloatTensor(sizes, values);
}

TensorData makeFilledTensor(const std::vector<int64_t>& sizes, float value) {
    int64_t n = 1;
    for (auto s : sizes) n *= s;
    return makeFloatTensor(sizes, std::vector<float>(static_cast<size_t>(n > 0 ? n : 0), value));
}

Argument graphArgument(std::string submoduleName, std::shared_ptr<const Graph> graph) {
    Argument a;
    a.kind = ArgKind::Graph;
    a.s = std::move(submoduleName);
    a.setGraph(std::move(graph));
    return a;
}

// ---------------------------------------------------------------- NodeBuilder

Node& NodeBuilder::node() { return m_owner->m_graph.nodes[m_index]; }
const std::string& NodeBuilder::name() const { return m_owner->m_graph.nodes[m_index].name; }

NodeBuilder& NodeBuilder::arg(std::string name, Argument value) {
    node().inputs.push_back({std::move(name), std::move(value), ArgumentKind::Positional});
    return *this;
}

NodeBuilder& NodeBuilder::kwarg(std::string name, Argument value) {
    node().inputs.push_back({std::move(name), std::move(value), ArgumentKind::Keyword});
    return *this;
}

NodeBuilder& NodeBuilder::argUnknownKind(std::string name, Argument value) {
    node().inputs.push_back({std::move(name), std::move(value), ArgumentKind::Unknown});
    return *this;
}

NodeBuilder& NodeBuilder::out(const TensorMeta& meta) { return outNamed(node().name, meta); }

NodeBuilder& NodeBuilder::outNamed(const std::string& valueName, const TensorMeta& meta) {
    node().outputs.push_back(Argument::tensor(valueName));
    m_owner->m_graph.tensorValues[valueName] = meta;
    return *this;
}

NodeBuilder& NodeBuilder::outList(const std::vector<std::pair<std::string, TensorMeta>>& values) {
    Argument list;
    list.kind = ArgKind::Tensors;
    for (const auto& [name, meta] : values) {
        list.list.push_back(Argument::tensor(name));
        m_owner->m_graph.tensorValues[name] = meta;
    }
    node().outputs.push_back(std::move(list));
    return *this;
}

NodeBuilder& NodeBuilder::outSymInt(const SymInt& value) {
    node().outputs.push_back(Argument::symIntName(node().name));
    m_owner->m_graph.symIntValues[node().name] = value;
    return *this;
}

NodeBuilder& NodeBuilder::outNone() {
    node().outputs.push_back(Argument::none());
    return *this;
}

NodeBuilder& NodeBuilder::stackTrace(const std::string& trace) { return meta("stack_trace", trace); }

NodeBuilder& NodeBuilder::module(const std::string& key, const std::string& path, const std::string& type) {
    auto& raw = node().meta.raw["nn_module_stack"];
    raw = raw.str() + (raw.empty() ? "" : ";") + key + "," + path + "," + type;
    return *this;
}

NodeBuilder& NodeBuilder::sourceFn(const std::string& name, const std::string& target) {
    auto& raw = node().meta.raw["source_fn_stack"];
    raw = raw.str() + (raw.empty() ? "" : ";") + name + "," + target;
    return *this;
}

NodeBuilder& NodeBuilder::torchFn(const std::string& name, const std::string& qualified) {
    return meta("torch_fn", name + ";" + qualified);
}

NodeBuilder& NodeBuilder::meta(const std::string& key, const std::string& value) {
    node().meta.raw[key] = value;
    return *this;
}

NodeBuilder& NodeBuilder::hopSingleTensorReturn(bool single) {
    node().isHopSingleTensorReturn = single;
    return *this;
}

// ---------------------------------------------------------------- GraphBuilder

std::string GraphBuilder::input(const std::string& name, const TensorMeta& meta) {
    m_graph.inputs.push_back(Argument::tensor(name));
    m_graph.tensorValues[name] = meta;
    return name;
}

std::string GraphBuilder::symIntInput(const std::string& name, const SymInt& value) {
    m_graph.inputs.push_back(Argument::symIntName(name));
    m_graph.symIntValues[name] = value;
    return name;
}

void GraphBuilder::constantInput(const Argument& value) { m_graph.inputs.push_back(value); }

NodeBuilder GraphBuilder::call(const std::string& target, const std::string& name) {
    Node n;
    n.name = name;
    n.hasSerializedName = true;
    n.target = Target::parse(target);
    m_graph.nodes.push_back(std::move(n));
    return NodeBuilder(this, m_graph.nodes.size() - 1);
}

void GraphBuilder::output(const Argument& value) { m_graph.outputs.push_back(value); }

Status GraphBuilder::check(const std::string& where) const {
    std::set<std::string> defined;
    for (const auto& in : m_graph.inputs) {
        std::vector<std::string> names;
        in.collectValueNames(names);
        for (const auto& n : names)
            if (!defined.insert(n).second) return Status::error(where + ": input '" + n + "' is defined twice");
    }
    for (const auto& node : m_graph.nodes) {
        for (const auto& in : node.inputs) {
            std::vector<std::string> names;
            in.arg.collectValueNames(names);
            for (const auto& n : names)
                if (!defined.count(n))
                    return Status::error(where + ": node '" + node.name + "' reads '" + n +
                                         "', which no input or earlier node defines");
        }
        for (const auto& n : node.outputNames())
            if (!defined.insert(n).second)
                return Status::error(where + ": node '" + node.name + "' defines '" + n + "', which is already defined");
    }
    for (const auto& out : m_graph.outputs) {
        std::vector<std::string> names;
        out.collectValueNames(names);
        for (const auto& n : names)
            if (!defined.count(n)) return Status::error(where + ": the graph returns '" + n + "', which is never defined");
    }
    return Status::ok();
}

Graph GraphBuilder::buildUnchecked() const {
    Graph g = m_graph;
    for (auto& n : g.nodes) n.meta.parseFromRaw();
    return g;
}

Result<std::shared_ptr<const Graph>> GraphBuilder::build() const {
    IRLENS_TRY(check("subgraph"));
    return std::shared_ptr<const Graph>(std::make_shared<Graph>(buildUnchecked()));
}

// ---------------------------------------------------------------- ProgramBuilder

ProgramBuilder::ProgramBuilder(std::string modelName) {
    m_program.container = ContainerKind::Builder;
    m_program.modelName = std::move(modelName);
    m_program.torchVersionEstimate = "irlens-builder";
    m_program.opsetVersion["aten"] = 10;
}

ProgramBuilder& ProgramBuilder::verifiers(std::vector<std::string> names) {
    m_program.verifiers = std::move(names);
    return *this;
}

ProgramBuilder& ProgramBuilder::torchVersion(std::string version) {
    m_program.torchVersion = std::move(version);
    return *this;
}

std::string ProgramBuilder::userInput(const std::string& name, const TensorMeta& meta) {
    m_graph.input(name, meta);
    m_program.signature.inputSpecs.push_back({InputKind::UserInput, Argument::tensor(name), {}, {}, {}});
    return name;
}

std::string ProgramBuilder::userSymInt(const std::string& name, const SymInt& value) {
    m_graph.symIntInput(name, value);
    m_program.signature.inputSpecs.push_back({InputKind::UserInput, Argument::symIntName(name), {}, {}, {}});
    return name;
}

void ProgramBuilder::constantInput(const std::string& name, const Argument& value) {
    m_graph.constantInput(value);
    m_program.signature.inputSpecs.push_back({InputKind::ConstantInput, value, {}, {}, name});
}

std::string ProgramBuilder::parameter(const std::string& name, const std::string& target, TensorData data) {
    data.isParameter = true;
    m_graph.input(name, metaOf(data));
    m_program.signature.inputSpecs.push_back({InputKind::Parameter, Argument::tensor(name), target, {}, {}});
    m_program.weights[target] = std::move(data);
    return name;
}

std::string ProgramBuilder::buffer(const std::string& name, const std::string& target, TensorData data, bool persistent) {
    m_graph.input(name, metaOf(data));
    m_program.signature.inputSpecs.push_back({InputKind::Buffer, Argument::tensor(name), target, persistent, {}});
    if (persistent) {
        m_program.weights[target] = std::move(data);
    } else {
        Value v;
        v.kind = Value::Kind::Tensor;
        v.tensor = std::move(data);
        m_program.constants[target] = std::move(v);
    }
    return name;
}

std::string ProgramBuilder::tensorConstant(const std::string& name, const std::string& target, TensorData data) {
    m_graph.input(name, metaOf(data));
    m_program.signature.inputSpecs.push_back({InputKind::TensorConstant, Argument::tensor(name), target, {}, {}});
    Value v;
    v.kind = Value::Kind::Tensor;
    v.tensor = std::move(data);
    m_program.constants[target] = std::move(v);
    return name;
}

void ProgramBuilder::output(OutputKind kind, const Argument& arg, const std::string& target) {
    m_graph.output(arg);
    m_program.signature.outputSpecs.push_back({kind, arg, target});
}

void ProgramBuilder::userOutput(const std::string& valueName) {
    output(OutputKind::UserOutput, Argument::tensor(valueName));
}

void ProgramBuilder::bufferMutation(const std::string& valueName, const std::string& bufferTarget) {
    output(OutputKind::BufferMutation, Argument::tensor(valueName), bufferTarget);
}

void ProgramBuilder::rangeConstraint(const std::string& symbol, std::optional<int64_t> minVal,
                                     std::optional<int64_t> maxVal) {
    m_program.rangeConstraints[symbol] = {minVal, maxVal};
}

void ProgramBuilder::sampleInput(Value value) {
    m_program.sampleArgs.push_back(std::move(value));
    m_program.hasSampleInputs = true;
}

void ProgramBuilder::sampleInput(TensorData tensor) {
    Value v;
    v.kind = Value::Kind::Tensor;
    v.tensor = std::move(tensor);
    sampleInput(std::move(v));
}

Program ProgramBuilder::buildUnchecked() const {
    Program p = m_program;
    p.graph = m_graph.buildUnchecked();
    return p;
}

Result<ProgramPtr> ProgramBuilder::build() const {
    IRLENS_TRY(m_graph.check("program '" + m_program.modelName + "'"));
    return ProgramPtr(std::make_shared<const Program>(buildUnchecked()));
}

} // namespace irlens::core
