#include "views/inspect/node_info.h"
#include "views/qstring_util.h"

#include "core/ops/op_registry.h"
#include "core/ops/op_family.h"

#include <QCoreApplication>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>

#include <algorithm>
#include <optional>
#include <set>

namespace irlens::views {

using namespace irlens::core;

namespace {


QString joinList(const Argument& a) {
    QStringList parts;
    for (const auto& e : a.list) parts << formatArgument(e);
    return "[" + parts.join(", ") + "]";
}

void addTensorRows(InfoRow* parent, const TensorMeta& m) {
    parent->add(QObject::tr("dtype"), q(dtypeName(m.dtype)));
    auto* shape = parent->add(QObject::tr("shape"), q(m.shortString()));
    shape->monospace = true;
    const QStringList syms = symbolsOf(m);
    if (!syms.isEmpty()) {
        shape->link = "sym:" + syms.front();
        shape->tip = QObject::tr("Activate to highlight every node whose shape uses %1").arg(syms.front());
        for (const auto& s : syms) parent->add(QObject::tr("symbol"), s, "sym:" + s)->tip =
            QObject::tr("Activate to highlight every node whose shape uses %1").arg(s);
    }
    QStringList strides;
    for (const auto& s : m.strides) strides << q(s.toString());
    parent->add(QObject::tr("strides"), "[" + strides.join(", ") + "]")->monospace = true;
    parent->add(QObject::tr("storage offset"), q(m.storageOffset.toString()));
    parent->add(QObject::tr("device"), q(m.device.toString()));
    parent->add(QObject::tr("requires_grad"), m.requiresGrad ? "True" : "False");
}

} // namespace

QString formatArgument(const Argument& a) {
    switch (a.kind) {
    case ArgKind::None: return "None";
    case ArgKind::Tensor: return "%" + q(a.s);
    case ArgKind::OptionalTensor: return a.s.empty() ? "None" : "%" + q(a.s);
    case ArgKind::Int: case ArgKind::ScalarType: case ArgKind::MemoryFormat: case ArgKind::Layout:
        if (a.kind == ArgKind::ScalarType) return "torch." + q(dtypeName(static_cast<ScalarType>(a.i)));
        if (a.kind == ArgKind::Layout) return q(layoutName(static_cast<int>(a.i)));
        if (a.kind == ArgKind::MemoryFormat) return q(memoryFormatName(static_cast<int>(a.i)));
        return QString::number(a.i);
    case ArgKind::Float: return QString::number(a.f, 'g', 8);
    case ArgKind::Bool: return a.b ? "True" : "False";
    case ArgKind::String: return "'" + q(a.s) + "'";
    case ArgKind::Complex: return QString("complex(%1, %2)").arg(a.f).arg(a.imag);
    case ArgKind::SymInt: case ArgKind::SymBool: case ArgKind::SymFloat:
        if (a.isName) return "%" + q(a.s);
        if (a.kind == ArgKind::SymInt) return QString::number(a.i);
        if (a.kind == ArgKind::SymBool) return a.b ? "True" : "False";
        return QString::number(a.f, 'g', 8);
    case ArgKind::Device: return "device('" + q(a.device().toString()) + "')";
    case ArgKind::Graph: return QObject::tr("subgraph %1").arg(q(a.s));
    case ArgKind::CustomObj: return "%" + q(a.s);
    case ArgKind::Operator: return q(a.s);
    case ArgKind::Opaque: return q(a.raw());
    case ArgKind::StringToArgument: {
        QStringList parts;
        for (const auto& e : a.list) parts << "'" + q(e.key()) + "': " + formatArgument(e);
        return "{" + parts.join(", ") + "}";
    }
    default: return joinList(a);
    }
}

QStringList symbolsOf(const TensorMeta& meta) {
    QStringList out;
    static const QRegularExpression sym(QStringLiteral("\\b([a-zA-Z_][a-zA-Z_0-9]*)\\b"));
    for (const auto& s : meta.sizes) {
        if (!s.isExpr()) continue;
        auto it = sym.globalMatch(q(s.toString()));
        while (it.hasNext()) {
            QString name = it.next().captured(1);
            if (!out.contains(name)) out << name;
        }
    }
    return out;
}

QString sourceAround(const QString& file, int line, int context) {
    QFileInfo fi(file);
    if (line <= 0 || !fi.isFile() || fi.size() > (4 << 20)) return {};
    QFile f(file);
    if (!f.open(QIODevice::ReadOnly | QIODevice::Text)) return {};
    QStringList out;
    int n = 0;
    while (!f.atEnd() && n < line + context) {
        QString text = QString::fromUtf8(f.readLine()).chopped(0);
        ++n;
        if (text.endsWith('\n')) text.chop(1);
        if (n >= line - context) out << QString("%1%2  %3").arg(n == line ? "→" : " ").arg(n, 5).arg(text);
    }
    return out.join('\n');
}

namespace {

// One-line explanations of the spec's terms, shown on hover (Export IR spec, torch.fx docs).
namespace tip {
const char* const opcode = QT_TRANSLATE_NOOP("NodeInfo",
    "What the FX node does: placeholder (an input), call_function (calls its target), get_attr (reads a "
    "submodule: higher-order branches), output (returns the graph's values)");
const char* const target = QT_TRANSLATE_NOOP("NodeInfo",
    "The OpOverload called: torch.ops.<namespace>.<op>.<overload>; Export IR allows ATen, prims, "
    "higher-order and custom ops, and operator.getitem / sym ops");
const char* const opLevel = QT_TRANSLATE_NOOP("NodeInfo",
    "Where the op stands: core ATen (the set a backend implements), non-core ATen (decomposes to core "
    "ATen), prims, higher-order, symbolic. The program's dialect is a separate thing");
const char* const dialect = QT_TRANSLATE_NOOP("NodeInfo",
    "The program's dialect (its verifier): TRAINING (the training IR) or ATEN (inference IR, what "
    "run_decompositions returns); a program in the ATEN dialect may still hold non-core ops");
const char* const args = QT_TRANSLATE_NOOP("NodeInfo", "Positional arguments, as FX passes them: args = (...)");
const char* const kwargs = QT_TRANSLATE_NOOP("NodeInfo", "Keyword-only arguments of the schema: kwargs = {...}");
const char* const val = QT_TRANSLATE_NOOP("NodeInfo",
    "meta['val']: a FakeTensor (dtype, shape with symbols for dynamic sizes, device) or a SymInt. "
    "Strides are what the .pt2 stores; the spec's FakeTensor definition has none");
const char* const users = QT_TRANSLATE_NOOP("NodeInfo", "The nodes that read this node's values (FX: node.users)");
const char* const stackTrace = QT_TRANSLATE_NOOP("NodeInfo",
    "meta['stack_trace']: the Python frames that produced the node, innermost last");
const char* const moduleStack = QT_TRANSLATE_NOOP("NodeInfo",
    "meta['nn_module_stack']: the nn.Module calls the node was traced inside, outermost first");
const char* const sourceFn = QT_TRANSLATE_NOOP("NodeInfo",
    "meta['source_fn_stack']: the torch function or module type each enclosing call came from");
const char* const inputKind = QT_TRANSLATE_NOOP("NodeInfo",
    "InputKind: USER_INPUT (an argument of forward), PARAMETER / BUFFER (lifted module state, fed from the "
    "state_dict), CONSTANT_TENSOR (a lifted constant), CUSTOM_OBJ, TOKEN (orders side effects)");
const char* const outputKind = QT_TRANSLATE_NOOP("NodeInfo",
    "OutputKind: USER_OUTPUT (returned by forward), BUFFER_MUTATION (the buffer's new value, written back "
    "after the call), USER_INPUT_MUTATION, LOSS_OUTPUT, GRADIENT_TO_PARAMETER, TOKEN");
const char* const pytreeSpec = QT_TRANSLATE_NOOP("NodeInfo",
    "The pytree TreeSpec that flattens forward's (args, kwargs) into the user inputs, or its result into the "
    "user outputs (module_call_graph, the root's signature); the leaves are shown by value name");
} // namespace tip

QString tr(const char* text) { return QCoreApplication::translate("NodeInfo", text); }

// The dialect the program's verifier names (TRAINING, ATEN ...), or the oldest files' field.
std::string programDialect(const Program& program) {
    if (!program.verifiers.empty()) return program.verifiers.front();
    return program.dialect.empty() ? std::string("not recorded") : program.dialect;
}

InfoRow* addTip(InfoRow* row, const char* text) {
    row->tip = tr(text);
    return row;
}

void addNodeSection(InfoRow* root, const Node& node, const Program* program) {
    const auto& registry = OpRegistry::instance();
    auto* sec = root->add(QObject::tr("Node"), q(node.name));
    sec->add(QObject::tr("name"), q(node.name));
    addTip(sec->add(QObject::tr("opcode"), "call_function"), tip::opcode);
    addTip(sec->add(QObject::tr("target"), q(node.target.full)), tip::target)->monospace = true;
    sec->add(QObject::tr("op"), q(node.target.kind == Target::Kind::Op ? node.target.ns() + "." + node.target.op() : node.target.shortName()));
    sec->add(QObject::tr("overload"), q(node.target.overload().empty() ? std::string("—") : node.target.overload()));
    const IrLevel level = registry.levelOf(node.target);
    addTip(sec->add(QObject::tr("op level"), QString("%1 (%2)").arg(q(opLevelName(level))).arg(QChar(opLevelBadge(level)))), tip::opLevel);
    if (program) addTip(sec->add(QObject::tr("program dialect"), q(programDialect(*program))), tip::dialect);
    sec->add(QObject::tr("family"), q(opFamilyName(opFamilyOf(node.target))));
    if (const OpInfo* info = registry.find(node.target)) {
        auto* schema = sec->add(QObject::tr("schema"), q(node.target.ns() + "::" + info->schema.text));
        schema->monospace = true;
        schema->tip = schema->value;
        if (!info->tags.empty()) {
            QStringList tags;
            for (const auto& t : info->tags) tags << q(t);
            sec->add(QObject::tr("tags"), tags.join(", "));
        }
    } else {
        sec->add(QObject::tr("schema"), QObject::tr("(not in the op tables)"));
    }
    if (!node.derivedFrom.empty()) sec->add(QObject::tr("derived from"), q(node.derivedFrom), "node:" + q(node.derivedFrom));
}

// Whether an input is a keyword argument in FX's args / kwargs split: as recorded, else by the schema.
bool isKwarg(const Node& node, const NamedArgument& in) {
    if (in.kind != ArgumentKind::Unknown) return in.kind == ArgumentKind::Keyword;
    if (const OpInfo* info = OpRegistry::instance().find(node.target))
        for (const auto& a : info->schema.args)
            if (a.name == in.name) return a.kwargOnly;
    return false;
}

// The link to the node making `value` ("node:<name>"), to the value itself for a graph input.
QString producerLink(const Graph& graph, const ValueIndex& values, const std::string& value) {
    const int p = values.producer(value);
    return "node:" + q(p >= 0 ? graph.nodes[static_cast<size_t>(p)].name : value);
}

// One row per argument, under args or kwargs, linked to the node that produced its value.
void addArgumentsSection(InfoRow* root, const Graph& graph, const Node& node, const ValueIndex& values) {
    int positional = 0;
    for (const auto& in : node.inputs) positional += !isKwarg(node, in);
    auto* args = addTip(root->add(QObject::tr("args"), QString::number(positional)), tip::args);
    auto* kwargs = addTip(root->add(QObject::tr("kwargs"), QString::number(static_cast<int>(node.inputs.size()) - positional)), tip::kwargs);
    int subgraphOrdinal = 0;
    for (size_t k = 0; k < node.inputs.size(); ++k) {
        const auto& in = node.inputs[k];
        QString key = in.name.empty() ? QString("arg%1").arg(k) : q(in.name);
        auto* row = (isKwarg(node, in) ? kwargs : args)->add(key, formatArgument(in.arg));
        row->monospace = true;
        std::vector<std::string> names;
        in.arg.collectValueNames(names);
        if (names.size() == 1) {
            row->link = producerLink(graph, values, names.front());
            if (const TensorMeta* m = graph.tensorMeta(names.front())) row->tip = q(m->shortString());
        } else {
            for (const auto& n : names) {
                auto* child = row->add("%" + q(n), graph.tensorMeta(n) ? q(graph.tensorMeta(n)->shortString()) : QString(),
                                       producerLink(graph, values, n));
                child->monospace = true;
            }
        }
        if (in.arg.kind == ArgKind::Graph) row->link = QString("subgraph:%1").arg(subgraphOrdinal++);
    }
}

// The nodes reading any of `values`, in graph order, each linked.
void addUsers(InfoRow* root, const Graph& graph, const ValueIndex& index, const std::vector<std::string>& values) {
    std::vector<int> users;
    for (const auto& v : values) users.insert(users.end(), index.users(v).begin(), index.users(v).end());
    std::sort(users.begin(), users.end());
    users.erase(std::unique(users.begin(), users.end()), users.end());
    const std::set<std::string> wanted(values.begin(), values.end());
    QStringList names;
    for (const auto& out : graph.outputs)
        if (out.kind == ArgKind::Tensor && wanted.count(out.s)) names << "output";
    auto* sec = addTip(root->add(QObject::tr("users"), QString::number(users.size() + names.size())), tip::users);
    for (int i : users) {
        const Node& u = graph.nodes[static_cast<size_t>(i)];
        sec->add(q(u.name), q(u.target.shortName()), "node:" + q(u.name));
    }
    if (!names.isEmpty()) sec->add(QStringLiteral("output"), QObject::tr("the graph's output"));
}

void addOutputsSection(InfoRow* root, const Graph& graph, const Node& node) {
    auto* outs = addTip(root->add(QObject::tr("Outputs"), QString::number(node.outputNames().size())), tip::val);
    for (const auto& name : node.outputNames()) {
        auto* row = addTip(outs->add(q(name)), tip::val);
        if (const TensorMeta* m = graph.tensorMeta(name)) {
            row->value = q(m->shortString());
            row->monospace = true;
            addTensorRows(row, *m);
        } else if (auto it = graph.symIntValues.find(name); it != graph.symIntValues.end()) {
            row->value = "SymInt " + q(it->second.toString());
        }
    }
}

void addStackTrace(InfoRow* root, const NodeMeta& meta) {
    if (meta.frames.empty() && !meta.stackTrace) return;
    auto* st = addTip(root->add(QObject::tr("Stack trace"), QString::number(meta.frames.size()) + QObject::tr(" frames")), tip::stackTrace);
    for (const auto& f : meta.frames) {
        auto* row = st->add(QString("%1:%2").arg(q(f.file)).arg(f.line), q(f.function));
        row->tip = q(f.code);
        row->link = QString("file:%1:%2").arg(q(f.file)).arg(f.line);
        if (!f.code.empty()) row->add(QObject::tr("code"), q(f.code))->monospace = true;
        const QString src = sourceAround(q(f.file), f.line);
        if (!src.isEmpty()) {
            auto* s = row->add(QObject::tr("source"), src.section('\n', 0, 0));
            s->tip = src;
            for (const auto& l : src.split('\n')) s->add(QString(), l)->monospace = true;
        }
    }
    if (meta.frames.empty() && meta.stackTrace) st->add(QObject::tr("text"), q(*meta.stackTrace))->monospace = true;
}

// nn_module_stack, source_fn_stack, torch_fn, custom and the keys irlens does not interpret.
void addModuleMeta(InfoRow* root, const NodeMeta& meta) {
    if (meta.moduleStack) {
        QStringList crumbs;
        for (const auto& e : *meta.moduleStack)
            if (!e.path.empty()) crumbs << q(e.path.substr(e.path.rfind('.') == std::string::npos ? 0 : e.path.rfind('.') + 1));
        auto* ms = addTip(root->add(QObject::tr("Module stack"), crumbs.join(" › ")), tip::moduleStack);
        for (const auto& e : *meta.moduleStack) ms->add(e.path.empty() ? QObject::tr("(root)") : q(e.path), q(e.type));
    }
    if (meta.sourceFnStack) {
        auto* sf = addTip(root->add(QObject::tr("source_fn_stack"), QString::number(meta.sourceFnStack->size())), tip::sourceFn);
        for (const auto& e : *meta.sourceFnStack) sf->add(q(e.name), q(e.target));
    }
    if (meta.torchFn) root->add(QObject::tr("torch_fn"), q(*meta.torchFn));
    if (meta.custom) root->add(QObject::tr("custom"), q(*meta.custom))->monospace = true;
    if (!meta.raw.empty()) {
        auto* raw = root->add(QObject::tr("Raw meta"), QString::number(meta.raw.size()) + QObject::tr(" keys"));
        for (const auto& [k, v] : meta.raw) {
            auto* r = raw->add(q(k), q(v.str()).left(300));
            r->tip = q(v).left(4000);
            r->monospace = true;
        }
    }
}

} // namespace

std::unique_ptr<InfoRow> buildNodeInfo(const Graph& graph, int nodeIndex, const Program* program, const ValueIndex* values) {
    auto root = std::make_unique<InfoRow>();
    if (nodeIndex < 0 || nodeIndex >= static_cast<int>(graph.nodes.size())) return root;
    std::optional<ValueIndex> own;
    if (!values) values = &own.emplace(graph);
    const Node& node = graph.nodes[static_cast<size_t>(nodeIndex)];
    addNodeSection(root.get(), node, program);
    addArgumentsSection(root.get(), graph, node, *values);
    addOutputsSection(root.get(), graph, node);
    addUsers(root.get(), graph, *values, node.outputNames());
    addStackTrace(root.get(), node.meta);
    addModuleMeta(root.get(), node.meta);
    return root;
}

namespace {

// One pytree TreeSpec node (torch.utils._pytree's JSON form) and its children; leaves take the next name.
void addTreeSpec(InfoRow* parent, const QJsonObject& spec, const QStringList& leaves, int& nextLeaf) {
    const QJsonArray children = spec.value("children_spec").toArray();
    if (spec.value("type").isNull()) {
        parent->add(nextLeaf < leaves.size() ? leaves[nextLeaf] : QStringLiteral("*"), QObject::tr("leaf"))->monospace = true;
        ++nextLeaf;
        return;
    }
    QString type = spec.value("type").toString();
    type.remove(QStringLiteral("builtins."));
    const QString context = spec.value("context").toString();
    auto* row = parent->add(type, context == QLatin1String("null") ? QString() : context);
    row->monospace = true;
    for (const auto& c : children) addTreeSpec(row, c.toObject(), leaves, nextLeaf);
}

// "in_spec" / "out_spec" of the root module call, drawn as a tree ("" JSON: nothing shown).
void addPytree(InfoRow* root, const QString& key, const std::string& json, const QStringList& leaves) {
    if (json.empty()) return;
    const QJsonDocument doc = QJsonDocument::fromJson(QByteArray::fromStdString(json));
    const QJsonArray top = doc.array();
    if (top.size() < 2 || !top.at(1).isObject()) {
        root->add(key, q(json))->monospace = true;
        return;
    }
    auto* row = addTip(root->add(key, QObject::tr("pytree, protocol %1").arg(top.at(0).toInt())), tip::pytreeSpec);
    int next = 0;
    addTreeSpec(row, top.at(1).toObject(), leaves, next);
}

const ModuleCallSignature* rootCall(const Program& program) {
    for (const auto& e : program.moduleCallGraph)
        if (e.fqn.empty() && e.signature) return &*e.signature;
    return nullptr;
}

QString argName(const Argument& a) {
    std::vector<std::string> names;
    a.collectValueNames(names);
    return names.empty() ? formatArgument(a) : q(names.front());
}

} // namespace

std::unique_ptr<InfoRow> buildPlaceholderInfo(const Program& program, const std::string& value, const ValueIndex* values) {
    auto root = std::make_unique<InfoRow>();
    const Graph& graph = program.graph;
    int position = -1;
    for (size_t k = 0; k < program.signature.inputSpecs.size(); ++k)
        if (argName(program.signature.inputSpecs[k].arg) == q(value) || program.signature.inputSpecs[k].name == value) position = static_cast<int>(k);
    auto* sec = root->add(QObject::tr("Node"), q(value));
    sec->add(QObject::tr("name"), q(value));
    addTip(sec->add(QObject::tr("opcode"), QStringLiteral("placeholder")), tip::opcode);
    addTip(sec->add(QObject::tr("target"), q(value)), tip::target)->monospace = true;
    if (position >= 0) {
        const InputSpec& spec = program.signature.inputSpecs[static_cast<size_t>(position)];
        addTip(sec->add(QObject::tr("input kind"), q(inputKindName(spec.kind))), tip::inputKind);
        sec->add(QObject::tr("signature position"), QString::number(position));
        if (!spec.target.empty())
            sec->add(QObject::tr("state_dict target"), q(spec.target))->tip =
                QObject::tr("The name under which the module's state_dict (or its constants) holds this value");
        if (spec.persistent)
            sec->add(QObject::tr("persistent"), *spec.persistent ? "True" : "False")->tip =
                QObject::tr("A non-persistent buffer is not in the state_dict; the .pt2 stores it with the constants");
        if (spec.kind == InputKind::ConstantInput) sec->add(QObject::tr("value"), formatArgument(spec.arg))->monospace = true;
        if (const TensorData* t = program.stateTensorFor(spec)) {
            QStringList sizes;
            for (int64_t d : t->sizes) sizes << QString::number(d);
            sec->add(QObject::tr("stored"), QObject::tr("%1[%2] in the archive").arg(q(dtypeName(t->dtype)), sizes.join(", ")));
        }
    } else {
        sec->add(QObject::tr("input kind"), QObject::tr("not in the graph signature"));
    }
    auto* val = addTip(root->add(QStringLiteral("meta['val']")), tip::val);
    if (const TensorMeta* m = graph.tensorMeta(value)) {
        val->value = q(m->shortString());
        addTensorRows(val, *m);
    } else {
        val->value = QObject::tr("missing: the spec requires meta['val'] on every placeholder");
    }
    std::optional<ValueIndex> own;
    if (!values) values = &own.emplace(graph);
    addUsers(root.get(), graph, *values, {value});
    return root;
}

std::unique_ptr<InfoRow> buildOutputInfo(const Program& program) {
    auto root = std::make_unique<InfoRow>();
    const Graph& graph = program.graph;
    auto* sec = root->add(QObject::tr("Node"), QStringLiteral("output"));
    sec->add(QObject::tr("name"), QStringLiteral("output"));
    addTip(sec->add(QObject::tr("opcode"), QStringLiteral("output")), tip::opcode);
    QStringList returned;
    for (const auto& a : graph.outputs) returned << formatArgument(a);
    sec->add(QObject::tr("args"), "((" + returned.join(", ") + (returned.size() == 1 ? ",))" : "))"))->monospace = true;
    auto* rows = addTip(root->add(QObject::tr("returns"), QString::number(graph.outputs.size())), tip::outputKind);
    std::map<std::string, std::string> placeholderOfBuffer; // buffer FQN -> its placeholder
    for (const auto& in : program.signature.inputSpecs)
        if (!in.target.empty()) placeholderOfBuffer[in.target] = argName(in.arg).toStdString();
    QStringList userOutputs;
    for (size_t k = 0; k < program.signature.outputSpecs.size(); ++k) {
        const OutputSpec& spec = program.signature.outputSpecs[k];
        const QString name = argName(spec.arg);
        auto* row = addTip(rows->add(QString("[%1] %2").arg(k).arg(name), q(outputKindName(spec.kind))), tip::outputKind);
        row->link = "node:" + name;
        if (spec.kind == OutputKind::UserOutput) userOutputs << name;
        if (spec.target.empty()) continue;
        row->add(QObject::tr("target"), q(spec.target));
        auto from = placeholderOfBuffer.find(spec.target);
        if (from == placeholderOfBuffer.end()) continue;
        auto* path = row->add(QObject::tr("path"), QObject::tr("%1 → … → %2 (activate to outline)").arg(q(from->second), name));
        path->link = QString("path:%1>%2").arg(q(from->second), name);
        path->tip = QObject::tr("Outlines every node on a path from the buffer's placeholder to the value written back");
    }
    QStringList userInputs;
    for (const auto& in : program.signature.inputSpecs)
        if (in.kind == InputKind::UserInput) userInputs << argName(in.arg);
    if (const ModuleCallSignature* call = rootCall(program)) {
        addPytree(root.get(), QStringLiteral("in_spec"), call->inSpec, userInputs);
        addPytree(root.get(), QStringLiteral("out_spec"), call->outSpec, userOutputs);
    }
    return root;
}

} // namespace irlens::views
