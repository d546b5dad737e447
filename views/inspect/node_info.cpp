#include "views/inspect/node_info.h"

#include "core/ops/op_registry.h"
#include "core/ops/op_family.h"

#include <QFile>
#include <QFileInfo>
#include <QRegularExpression>

namespace irlens::views {

using namespace irlens::core;

namespace {

QString q(const std::string& s) { return QString::fromStdString(s); }

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
    case ArgKind::Device: return "device('" + q(a.device.toString()) + "')";
    case ArgKind::Graph: return QObject::tr("subgraph %1").arg(q(a.s));
    case ArgKind::CustomObj: return "%" + q(a.s);
    case ArgKind::Operator: return q(a.s);
    case ArgKind::Opaque: return q(a.raw);
    case ArgKind::StringToArgument: {
        QStringList parts;
        for (const auto& e : a.list) parts << "'" + q(e.key) + "': " + formatArgument(e);
        return "{" + parts.join(", ") + "}";
    }
    default: return joinList(a);
    }
}

QStringList symbolsOf(const TensorMeta& meta) {
    QStringList out;
    static const QRegularExpression sym(QStringLiteral("\\b([a-zA-Z_][a-zA-Z_0-9]*)\\b"));
    for (const auto& s : meta.sizes) {
        if (!s.isExpr) continue;
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

void addNodeSection(InfoRow* root, const Node& node) {
    const auto& registry = OpRegistry::instance();
    auto* sec = root->add(QObject::tr("Node"), q(node.name));
    sec->add(QObject::tr("name"), q(node.name));
    sec->add(QObject::tr("target"), q(node.target.full))->monospace = true;
    sec->add(QObject::tr("op"), q(node.target.kind == Target::Kind::Op ? node.target.ns + "." + node.target.op : node.target.shortName()));
    sec->add(QObject::tr("overload"), q(node.target.overload.empty() ? std::string("—") : node.target.overload));
    const IrLevel level = registry.levelOf(node.target);
    sec->add(QObject::tr("IR level"), QString("%1 (%2)").arg(q(irLevelName(level))).arg(QChar(irLevelBadge(level))));
    sec->add(QObject::tr("family"), q(opFamilyName(opFamilyOf(node.target))));
    if (const OpInfo* info = registry.find(node.target)) {
        auto* schema = sec->add(QObject::tr("schema"), q(node.target.ns + "::" + info->schema.text));
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

// One row per argument, linked to the node that produced its value (`producer`: value name -> node name).
void addArgumentsSection(InfoRow* root, const Graph& graph, const Node& node,
                         const std::map<std::string, std::string>& producer) {
    auto* args = root->add(QObject::tr("Arguments"), QString::number(node.inputs.size()));
    int subgraphOrdinal = 0;
    for (size_t k = 0; k < node.inputs.size(); ++k) {
        const auto& in = node.inputs[k];
        QString key = in.name.empty() ? QString("arg%1").arg(k) : q(in.name);
        auto* row = args->add(key, formatArgument(in.arg));
        row->monospace = true;
        std::vector<std::string> names;
        in.arg.collectValueNames(names);
        if (names.size() == 1) {
            auto it = producer.find(names.front());
            row->link = "node:" + q(it != producer.end() ? it->second : names.front());
            if (const TensorMeta* m = graph.tensorMeta(names.front())) row->tip = q(m->shortString());
        } else {
            for (const auto& n : names) {
                auto it = producer.find(n);
                auto* child = row->add("%" + q(n), graph.tensorMeta(n) ? q(graph.tensorMeta(n)->shortString()) : QString(),
                                       "node:" + q(it != producer.end() ? it->second : n));
                child->monospace = true;
            }
        }
        if (in.arg.kind == ArgKind::Graph) row->link = QString("subgraph:%1").arg(subgraphOrdinal++);
    }
}

void addOutputsSection(InfoRow* root, const Graph& graph, const Node& node) {
    auto* outs = root->add(QObject::tr("Outputs"), QString::number(node.outputNames().size()));
    for (const auto& name : node.outputNames()) {
        auto* row = outs->add(q(name));
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
    auto* st = root->add(QObject::tr("Stack trace"), QString::number(meta.frames.size()) + QObject::tr(" frames"));
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
        auto* ms = root->add(QObject::tr("Module stack"), crumbs.join(" › "));
        for (const auto& e : *meta.moduleStack) ms->add(e.path.empty() ? QObject::tr("(root)") : q(e.path), q(e.type));
    }
    if (meta.sourceFnStack) {
        auto* sf = root->add(QObject::tr("source_fn_stack"), QString::number(meta.sourceFnStack->size()));
        for (const auto& e : *meta.sourceFnStack) sf->add(q(e.name), q(e.target));
    }
    if (meta.torchFn) root->add(QObject::tr("torch_fn"), q(*meta.torchFn));
    if (meta.custom) root->add(QObject::tr("custom"), q(*meta.custom))->monospace = true;
    if (!meta.raw.empty()) {
        auto* raw = root->add(QObject::tr("Raw meta"), QString::number(meta.raw.size()) + QObject::tr(" keys"));
        for (const auto& [k, v] : meta.raw) {
            auto* r = raw->add(q(k), q(v).left(300));
            r->tip = q(v).left(4000);
            r->monospace = true;
        }
    }
}

} // namespace

std::unique_ptr<InfoRow> buildNodeInfo(const Graph& graph, int nodeIndex) {
    auto root = std::make_unique<InfoRow>();
    if (nodeIndex < 0 || nodeIndex >= static_cast<int>(graph.nodes.size())) return root;
    const Node& node = graph.nodes[static_cast<size_t>(nodeIndex)];
    // producers of values, for links
    std::map<std::string, std::string> producer;
    for (const auto& n : graph.nodes)
        for (const auto& out : n.outputNames()) producer.emplace(out, n.name);
    addNodeSection(root.get(), node);
    addArgumentsSection(root.get(), graph, node, producer);
    addOutputsSection(root.get(), graph, node);
    addStackTrace(root.get(), node.meta);
    addModuleMeta(root.get(), node.meta);
    return root;
}

} // namespace irlens::views
