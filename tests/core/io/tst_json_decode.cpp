// The program JSON decoder on small snippets: every Argument member, each schema-era quirk, and
// every error path with its exact message.
#include "core/io/json_codec.h"
#include "core/io/json_decode_dom.h"

#include <QTest>

#include <cmath>
#include <set>

using namespace irlens::core;

namespace {

// A test-side rendering of an Argument, independent of the encoder.
std::string describe(const Argument& a) {
    auto items = [&](const char* kind) {
        std::string s = std::string(kind) + "[";
        for (size_t k = 0; k < a.list.size(); ++k) s += (k ? "," : "") + describe(a.list[k]);
        return s + "]";
    };
    auto num = [](double f) {
        if (std::isnan(f)) return std::string("nan");
        if (std::isinf(f)) return std::string(f > 0 ? "inf" : "-inf");
        char buf[32];
        std::snprintf(buf, sizeof buf, "%g", f);
        return std::string(buf);
    };
    switch (a.kind) {
    case ArgKind::None: return "None";
    case ArgKind::Tensor: return "T(" + a.s + ")";
    case ArgKind::Tensors: return items("Ts");
    case ArgKind::OptionalTensor: return "OT(" + a.s + ")";
    case ArgKind::OptionalTensors: return items("OTs");
    case ArgKind::NestedTensors: return items("NTs");
    case ArgKind::Int: return std::to_string(a.i);
    case ArgKind::Ints: return items("Ints");
    case ArgKind::IntLists: return items("IntLists");
    case ArgKind::Float: return "F(" + num(a.f) + ")";
    case ArgKind::Floats: return items("Fs");
    case ArgKind::FloatLists: return items("FLists");
    case ArgKind::Bool: return a.b ? "true" : "false";
    case ArgKind::Bools: return items("Bs");
    case ArgKind::String: return "'" + a.s + "'";
    case ArgKind::Strings: return items("Ss");
    case ArgKind::Complex: return "C(" + num(a.f) + "," + num(a.imag) + ")";
    case ArgKind::SymInt: return a.isName ? "SI(" + a.s + ")" : "SI#" + std::to_string(a.i);
    case ArgKind::SymInts: return items("SIs");
    case ArgKind::SymBool: return a.isName ? "SB(" + a.s + ")" : std::string("SB#") + (a.b ? "true" : "false");
    case ArgKind::SymBools: return items("SBs");
    case ArgKind::SymFloat: return a.isName ? "SF(" + a.s + ")" : "SF#" + num(a.f);
    case ArgKind::SymFloats: return items("SFs");
    case ArgKind::ScalarType: return "dtype" + std::to_string(a.i);
    case ArgKind::MemoryFormat: return "mf" + std::to_string(a.i);
    case ArgKind::Layout: return "layout" + std::to_string(a.i);
    case ArgKind::Device: return "dev(" + a.device().toString() + ")";
    case ArgKind::Graph: return "G(" + a.s + "," + std::to_string(a.graph() ? a.graph()->nodes.size() : 0) + " nodes)";
    case ArgKind::CustomObj: return "Obj(" + a.s + "," + a.s2() + ")";
    case ArgKind::Operator: return "Op(" + a.s + ")";
    case ArgKind::StringToArgument: {
        std::string s = "Map{";
        for (size_t k = 0; k < a.list.size(); ++k) s += (k ? "," : "") + a.list[k].key() + ":" + describe(a.list[k]);
        return s + "}";
    }
    case ArgKind::Opaque: return "Opaque(" + a.s + "=" + a.raw() + ")";
    }
    return "?";
}

// A minimal schema-8 program whose only node has the given inputs (and one output "out").
std::string programWithNode(const std::string& inputs, const std::string& extraNodeKeys = "") {
    return R"({"graph_module": {"graph": {"inputs": [], "outputs": [], "nodes": [{"target": "torch.ops.aten.foo.default", "inputs": )" +
           inputs + R"(, "outputs": [{"as_tensor": {"name": "out"}}], "metadata": {})" + extraNodeKeys +
           R"(}], "tensor_values": {}, "sym_int_values": {}, "sym_bool_values": {}}, "signature": {"input_specs": [], "output_specs": []}, "module_call_graph": []}, "opset_version": {"aten": 10}, "range_constraints": {}, "schema_version": {"major": 8, "minor": 12}})";
}

std::string programWithArg(const std::string& arg) {
    return programWithNode(R"([{"name": "x", "arg": )" + arg + R"(, "kind": 1}])");
}

} // namespace

class TstJsonDecode : public QObject {
    Q_OBJECT
private slots:
    void argumentMembers_data();
    void argumentMembers();
    void eraQuirks();
    void namesBigGraphBesideTables();
    void deferredContainers();
    void bigTableInHalves();
    void damagedTextAsAPlainParse();
    void schema2Program();
    void signatureSpecs();
    void legacySignature21();
    void rangeAndModuleCallGraph();
    void errors_data();
    void errors();
    void deepNestingRefused();
    void encodeDecodeStable();
    void encoderGolden();
    void duplicateKeysLastWins();
};

void TstJsonDecode::argumentMembers_data() {
    QTest::addColumn<QString>("arg");
    QTest::addColumn<QString>("expected");
    QTest::addRow("none true") << R"({"as_none": true})" << "None";
    QTest::addRow("none empty list (2.2)") << R"({"as_none": []})" << "None";
    QTest::addRow("tensor") << R"({"as_tensor": {"name": "x"}})" << "T(x)";
    QTest::addRow("tensors") << R"({"as_tensors": [{"name": "a"}, {"name": "b"}]})" << "Ts[T(a),T(b)]";
    QTest::addRow("optional tensor") << R"({"as_optional_tensor": {"as_tensor": {"name": "w"}}})" << "OT(w)";
    QTest::addRow("optional tensor none") << R"({"as_optional_tensor": {"as_none": true}})" << "OT()";
    QTest::addRow("optional tensors") << R"({"as_optional_tensors": [{"as_tensor": {"name": "a"}}, {"as_none": true}]})"
                                      << "OTs[T(a),None]";
    QTest::addRow("nested tensors") << R"({"as_nested_tensors": [[{"name": "a"}], []]})" << "NTs[Ts[T(a)],Ts[]]";
    QTest::addRow("int") << R"({"as_int": -3})" << "-3";
    QTest::addRow("int 64-bit exact") << R"({"as_int": 9223372036854775807})" << "9223372036854775807";
    QTest::addRow("int 64-bit min") << R"({"as_int": -9223372036854775808})" << "-9223372036854775808";
    QTest::addRow("ints") << R"({"as_ints": [1, 2, 3]})" << "Ints[1,2,3]";
    QTest::addRow("int lists") << R"({"as_int_lists": [[1], [2, 3]]})" << "IntLists[Ints[1],Ints[2,3]]";
    QTest::addRow("float") << R"({"as_float": 0.5})" << "F(0.5)";
    QTest::addRow("float from int token") << R"({"as_float": 2})" << "F(2)";
    QTest::addRow("float -Infinity string") << R"({"as_float": "-Infinity"})" << "F(-inf)";
    QTest::addRow("float Infinity string") << R"({"as_float": "Infinity"})" << "F(inf)";
    QTest::addRow("float NaN string") << R"({"as_float": "NaN"})" << "F(nan)";
    QTest::addRow("float bare Infinity") << R"({"as_float": -Infinity})" << "F(-inf)";
    QTest::addRow("floats") << R"({"as_floats": [1.5, "Infinity"]})" << "Fs[F(1.5),F(inf)]";
    QTest::addRow("float lists") << R"({"as_float_lists": [[1.5], []]})" << "FLists[Fs[F(1.5)],Fs[]]";
    QTest::addRow("bool") << R"({"as_bool": true})" << "true";
    QTest::addRow("bools") << R"({"as_bools": [true, false]})" << "Bs[true,false]";
    QTest::addRow("string escapes") << R"({"as_string": "a\"b\\n\u00e9\ud83d\ude00"})" << "'a\"b\\n\u00e9\U0001F600'";
    QTest::addRow("strings") << R"({"as_strings": ["a", "b"]})" << "Ss['a','b']";
    QTest::addRow("complex") << R"({"as_complex": {"real": 1.0, "imag": -2.5}})" << "C(1,-2.5)";
    QTest::addRow("sym int name") << R"({"as_sym_int": {"as_name": "sym_size_int"}})" << "SI(sym_size_int)";
    QTest::addRow("sym ints mixed") << R"({"as_sym_ints": [{"as_name": "s0"}, {"as_int": 3}]})" << "SIs[SI(s0),SI#3]";
    QTest::addRow("sym bool") << R"({"as_sym_bool": {"as_name": "eq"}})" << "SB(eq)";
    QTest::addRow("sym bools") << R"({"as_sym_bools": [{"as_bool": true}]})" << "SBs[SB#true]";
    QTest::addRow("sym float") << R"({"as_sym_float": {"as_float": 0.25}})" << "SF#0.25";
    QTest::addRow("sym floats") << R"({"as_sym_floats": [{"as_name": "f"}]})" << "SFs[SF(f)]";
    QTest::addRow("scalar type") << R"({"as_scalar_type": 7})" << "dtype7";
    QTest::addRow("scalar type by name") << R"({"as_scalar_type": "BFLOAT16"})" << "dtype13";
    QTest::addRow("scalar type new code") << R"({"as_scalar_type": 35})" << "dtype35";
    QTest::addRow("memory format") << R"({"as_memory_format": 2})" << "mf2";
    QTest::addRow("memory format by name") << R"({"as_memory_format": "ChannelsLast"})" << "mf2";
    QTest::addRow("layout") << R"({"as_layout": 7})" << "layout7";
    QTest::addRow("layout by name") << R"({"as_layout": "Strided"})" << "layout7";
    QTest::addRow("device") << R"({"as_device": {"type": "cuda", "index": 1}})" << "dev(cuda:1)";
    QTest::addRow("device null index") << R"({"as_device": {"type": "cpu", "index": null}})" << "dev(cpu)";
    QTest::addRow("custom obj") << R"({"as_custom_obj": {"name": "obj0", "class_fqn": "__torch__.torch.classes.m.Foo"}})"
                                << "Obj(obj0,__torch__.torch.classes.m.Foo)";
    QTest::addRow("operator") << R"({"as_operator": "torch.ops.aten.add_.Tensor"})" << "Op(torch.ops.aten.add_.Tensor)";
    QTest::addRow("string to argument") << R"({"as_string_to_argument": {"a": {"as_int": 1}, "b": {"as_tensor": {"name": "t"}}}})"
                                        << "Map{a:1,b:T(t)}";
    QTest::addRow("graph") << R"({"as_graph": {"name": "true_graph_0", "graph": {"inputs": [{"as_tensor": {"name": "x"}}], "outputs": [{"as_tensor": {"name": "relu"}}], "nodes": [{"target": "torch.ops.aten.relu.default", "inputs": [{"name": "self", "arg": {"as_tensor": {"name": "x"}}}], "outputs": [{"as_tensor": {"name": "relu"}}], "metadata": {}}], "tensor_values": {}, "sym_int_values": {}, "sym_bool_values": {}, "is_single_tensor_return": true}}})"
                           << "G(true_graph_0,1 nodes)";
    QTest::addRow("unknown member is opaque") << R"({"as_future_thing": {"k": [1, 2]}})" << R"(Opaque(as_future_thing={"k": [1, 2]}))";
    QTest::addRow("all keys with nulls") << R"({"as_none": null, "as_tensor": null, "as_int": 4, "as_ints": null})" << "4";
    QTest::addRow("all keys, none as []") << R"({"as_none": [], "as_tensor": null, "as_int": null})" << "None";
}

void TstJsonDecode::argumentMembers() {
    QFETCH(QString, arg);
    QFETCH(QString, expected);
    auto r = decodeProgramJson(programWithArg(arg.toStdString()), "m.json");
    QVERIFY2(r.isOk(), r.error().c_str());
    const auto& node = (*r)->graph.nodes.at(0);
    QCOMPARE(node.inputs.size(), size_t(1));
    QCOMPARE(QString::fromStdString(describe(node.inputs[0].arg)), expected);
    QCOMPARE(node.inputs[0].kind, ArgumentKind::Positional);
    if (node.inputs[0].arg.kind == ArgKind::Opaque) {
        QCOMPARE((*r)->warnings.size(), size_t(1));
        QCOMPARE((*r)->warnings[0], "Argument member \"" + node.inputs[0].arg.s + "\" is newer than this reader: kept as raw JSON (1 use)");
    } else {
        QVERIFY((*r)->warnings.empty());
    }
}

namespace {

// A program of `n` relus in a chain that names no node; the nodes in `broken` have a number for a target.
std::string bigChainJson(int n, const std::set<int>& broken = {}) {
    const std::string meta = R"J({"dtype": 7, "sizes": [{"as_int": 2}], "strides": [{"as_int": 1}], "storage_offset": {"as_int": 0}, "requires_grad": false, "device": {"type": "cpu"}, "layout": 1})J";
    std::string nodes, values = "\"x\": " + meta;
    std::string prev = "x";
    for (int k = 0; k < n; ++k) {
        const std::string out = "r_" + std::to_string(k);
        if (k) nodes += ",";
        nodes += std::string(R"J({"target": )J") + (broken.count(k) ? "5" : R"J("torch.ops.aten.relu.default")J") +
                 R"J(, "inputs": [{"name": "self", "arg": {"as_tensor": {"name": ")J" + prev + R"J("}}, "kind": 1}], "outputs": [{"as_tensor": {"name": ")J" +
                 out + R"J("}}], "metadata": {}})J";
        values += ", \"" + out + "\": " + meta;
        prev = out;
    }
    return R"J({"graph_module": {"graph": {"inputs": [{"as_tensor": {"name": "x"}}], "outputs": [{"as_tensor": {"name": ")J" + prev +
           R"J("}}], "nodes": [)J" + nodes + R"J(], "tensor_values": {)J" + values +
           R"J(}, "sym_int_values": {}, "sym_bool_values": {}}, "signature": {"input_specs": [], "output_specs": []}, "module_call_graph": []},
      "opset_version": {"aten": 10}, "range_constraints": {}, "schema_version": {"major": 8, "minor": 12}})J";
}

} // namespace

// A graph big enough (50,000 nodes and more) to be decoded in two halves at once and named on a
// second thread while its value tables are read: every node is decoded and gets its FX name (here its
// output's), in order; with broken nodes in both halves the error names the first, as one pass would.
void TstJsonDecode::namesBigGraphBesideTables() {
    const int n = 50001;
    auto r = decodeProgramJson(bigChainJson(n), "m.json");
    QVERIFY2(r.isOk(), r.error().c_str());
    const Graph& g = (*r)->graph;
    QCOMPARE(g.nodes.size(), size_t(n));
    QCOMPARE(g.tensorValues.size(), size_t(n + 1));
    for (int k = 0; k < n; ++k) {
        const Node& node = g.nodes[size_t(k)];
        QVERIFY(!node.hasSerializedName);
        if (node.name != "r_" + std::to_string(k) || node.inputs.size() != 1 || node.inputs[0].arg.s != (k ? "r_" + std::to_string(k - 1) : "x"))
            QFAIL(("node " + std::to_string(k) + " decoded as " + node.name).c_str());
    }
    auto broken = decodeProgramJson(bigChainJson(n, {40000, 12}), "m.json");
    QVERIFY(!broken.isOk());
    QVERIFY2(broken.error().find("nodes[12]") != std::string::npos, broken.error().c_str());
}

namespace {

// A program whose graph holds `nodes` (a JSON array) and `values` (the tensor_values object).
std::string programWith(const std::string& nodes, const std::string& values = "{}") {
    return R"({"graph_module": {"graph": {"inputs": [], "outputs": [], "nodes": )" + nodes + R"(, "tensor_values": )" + values +
           R"(}, "signature": {"input_specs": [], "output_specs": []}}, "schema_version": {"major": 8, "minor": 12}})";
}

std::string node(const std::string& target, const std::string& inputs = "[]") {
    return R"({"target": )" + target + R"(, "inputs": )" + inputs + R"(, "outputs": [{"as_tensor": {"name": "o"}}]})";
}

// "m.json: invalid JSON at line 1, column N: " for the byte `offset` past `marker` in `json`.
QString syntaxErrorAt(const std::string& json, const std::string& marker, size_t offset, const char* what) {
    return QString::fromStdString("m.json: invalid JSON at line 1, column " + std::to_string(json.find(marker) + offset + 1) + ": " + what);
}

} // namespace

// The graph's nodes and value tables are only scanned for their structure, then parsed one element at a
// time as they are decoded (json_decode_dom.h). A syntax error is still the text's first, wherever decoding
// stopped; keys with escapes and errors inside an element read as a whole-text parse gives them.
void TstJsonDecode::deferredContainers() {
    const std::string relu = R"("torch.ops.aten.relu.default")";
    // node 0's target is a number (decoding stops there); node 1 misses a comma further on: the syntax error wins
    const std::string both = programWith("[" + node("3") + ", " + node(relu, R"([{"name": "a", "arg": {"as_ints": [1 2]}}])") + "]");
    auto r = decodeProgramJson(both, "m.json");
    QVERIFY(!r.isOk());
    QCOMPARE(QString::fromStdString(r.error()), syntaxErrorAt(both, "[1 2]", 3, "expected ',' or ']' in an array"));
    // without the syntax error, the decoding error with its path
    auto decoded = decodeProgramJson(programWith("[" + node(relu) + ", " + node("3") + "]"), "m.json");
    QVERIFY(!decoded.isOk());
    QCOMPARE(QString::fromStdString(decoded.error()), QString("m.json: $.graph_module.graph.nodes[1].target: expected a string, found a number"));
    // two nodes without a comma between them
    const std::string joined = programWith("[" + node(relu) + " " + node(relu) + "]");
    auto j = decodeProgramJson(joined, "m.json");
    QVERIFY(!j.isOk());
    QCOMPARE(QString::fromStdString(j.error()), syntaxErrorAt(joined, "} {", 2, "expected ',' or ']' in an array"));
    // a trailing comma inside a tensor_values entry
    const std::string trailing = programWith("[]", R"({"y": {"dtype": 7,}})");
    auto t = decodeProgramJson(trailing, "m.json");
    QVERIFY(!t.isOk());
    QCOMPARE(QString::fromStdString(t.error()), syntaxErrorAt(trailing, "7,}", 2, "expected a quoted key in an object"));
    // a bad escape inside a node's string, after a node that fails to decode
    const std::string escape = programWith("[" + node("3") + ", " + node(R"("torch.ops.aten.\q")") + "]");
    auto e = decodeProgramJson(escape, "m.json");
    QVERIFY(!e.isOk());
    QCOMPARE(QString::fromStdString(e.error()), syntaxErrorAt(escape, "\\q", 1, "bad escape '\\q'"));
    // keys with escapes, in a value table and as a node's name
    const std::string meta = R"({"dtype": 7, "sizes": [{"as_int": 3}], "strides": [{"as_int": 1}]})";
    auto k = decodeProgramJson(programWith("[]", R"({"a\u0041\"": )" + meta + "}"), "m.json");
    QVERIFY2(k.isOk(), k.error().c_str());
    QCOMPARE((*k)->graph.tensorValues.size(), size_t(1));
    QCOMPARE((*k)->graph.tensorValues.begin()->first, std::string("aA\""));
}

// A value table of 50,000 entries and more is decoded in two halves at once: a name written twice, once
// in each half, keeps the later value (as one pass and Python's json do), and with broken entries in both
// halves the error names the first.
void TstJsonDecode::bigTableInHalves() {
    const int n = 60000;
    const std::string later = R"(, "x": {"dtype": 7, "sizes": [{"as_int": 5}], "strides": [{"as_int": 1}]}}, "sym_int_values")";
    std::string json = bigChainJson(n);
    json.replace(json.find(R"(}, "sym_int_values")"), std::string(R"(}, "sym_int_values")").size(), later);
    auto r = decodeProgramJson(json, "m.json");
    QVERIFY2(r.isOk(), r.error().c_str());
    const Graph& g = (*r)->graph;
    QCOMPARE(g.tensorValues.size(), size_t(n + 1));
    QCOMPARE(g.tensorValues.at("x").sizes.size(), size_t(1));
    QCOMPARE(g.tensorValues.at("x").sizes[0].value, int64_t(5));
    QCOMPARE(g.tensorValues.at("r_" + std::to_string(n - 1)).sizes[0].value, int64_t(2));
    // entries 12 and 50,000 broken: the message names entry 12 ("r_11", after "x")
    std::string broken = bigChainJson(n);
    for (const char* name : {"\"r_49999\": {\"dtype\": 7", "\"r_11\": {\"dtype\": 7"})
        broken.replace(broken.find(name), std::string(name).size(), std::string(name).substr(0, std::string(name).size() - 1) + "\"seven\"");
    auto b = decodeProgramJson(broken, "m.json");
    QVERIFY(!b.isOk());
    QVERIFY2(b.error().find("tensor_values.r_11.dtype") != std::string::npos, b.error().c_str());
}

// The deferred containers are only scanned before they are decoded; a text that is no JSON must still
// fail as a plain parse of the whole text fails, at the same line and column, and one that is JSON must
// never fail for its syntax. Thousands of damaged copies of a small program (bytes changed, dropped, and
// brackets, quotes, commas and backslashes put in), each decoded and parsed plainly.
void TstJsonDecode::damagedTextAsAPlainParse() {
    const std::string clean = bigChainJson(12);
    uint64_t state = 2024;
    auto next = [&](uint64_t n) {
        state = state * 6364136223846793005ull + 1442695040888963407ull;
        return static_cast<size_t>((state >> 33) % n);
    };
    const std::string structural = "{}[]\",:\\ 0a";
    int syntax = 0, decoded = 0;
    for (int round = 0; round < 4000; ++round) {
        std::string text = clean;
        for (int edits = 1 + static_cast<int>(next(3)); edits > 0; --edits) {
            const size_t at = next(text.size());
            switch (next(3)) {
            case 0: text[at] = structural[next(structural.size())]; break;
            case 1: text.erase(at, 1 + next(4)); break;
            default: text.insert(at, 1, structural[next(structural.size())]); break;
            }
        }
        json::JsonDoc plain;
        const Status parsed = plain.parse(text, 512);
        auto r = decodeProgramJson(text, "m.json");
        if (!parsed) {
            ++syntax;
            QVERIFY2(!r.isOk(), qPrintable(QString("round %1 decoded a text a plain parse refuses").arg(round)));
            QCOMPARE(QString::fromStdString(r.error()), QString::fromStdString("m.json: " + parsed.message()));
        } else {
            decoded += r.isOk();
            if (!r.isOk()) QVERIFY2(r.error().find("invalid JSON") == std::string::npos, r.error().c_str());
        }
    }
    qInfo("%d damaged texts: %d no JSON, %d decoded", 4000, syntax, decoded);
    QVERIFY(syntax > 1000);
    QVERIFY(decoded > 100);
}

void TstJsonDecode::eraQuirks() {
    // Unknown keys ignored, kind absent -> 0, name derived from the first output, old module stack form,
    // enum names in tensor meta, {"meta": ...} wrapped tensor values, hint with a 64-bit value.
    std::string json = R"J({"graph_module": {"graph": {"inputs": [{"as_tensor": {"name": "x"}}], "outputs": [{"as_tensor": {"name": "r"}}],
      "nodes": [{"target": "torch.ops.aten.relu.default", "inputs": [{"name": "self", "arg": {"as_tensor": {"name": "x"}}, "future": 1}],
                 "outputs": [{"as_tensor": {"name": "r"}}], "metadata": {"nn_module_stack": "L__self___fc:(fc,torch.nn.modules.linear.Linear)", "source_fn": "fc,Linear"}},
                {"target": "torch.ops.aten._assert_async.msg", "inputs": [], "outputs": [], "metadata": {}, "name": "assert_1", "is_hop_single_tensor_return": false}],
      "tensor_values": {"x": {"meta": {"dtype": "FLOAT", "sizes": [{"as_expr": {"expr_str": "Symbol('s0', integer=True)", "hint": {"as_int": 4294967296123}}}, {"as_int": 3}],
                                        "strides": [{"as_int": 3}, {"as_int": 1}], "storage_offset": 5, "requires_grad": true, "device": {"type": "cpu"}, "layout": "Strided"}}},
      "sym_int_values": {}, "sym_bool_values": {}, "unknown_future_key": [1]},
      "signature": {"input_specs": [], "output_specs": []}, "module_call_graph": [], "some_new_field": {}},
      "opset_version": {"aten": 10}, "range_constraints": {}, "schema_version": {"major": 8, "minor": 99}, "whatever": null})J";
    auto r = decodeProgramJson(json, "m.json");
    QVERIFY2(r.isOk(), r.error().c_str());
    const Program& p = **r;
    QCOMPARE(p.schemaVersion.toString(), std::string("8.99"));
    QVERIFY(p.warnings.empty());
    QCOMPARE(p.torchVersion, std::string()); // the file records none: torch 2.4 or older
    QCOMPARE(p.torchVersionEstimate, std::string("<=2.4"));
    QCOMPARE(p.graph.nodes.size(), size_t(2));
    const Node& n0 = p.graph.nodes[0];
    QCOMPARE(n0.name, std::string("r"));
    QVERIFY(!n0.hasSerializedName);
    QCOMPARE(n0.inputs[0].kind, ArgumentKind::Unknown);
    QVERIFY(!n0.isHopSingleTensorReturn.has_value());
    QVERIFY(n0.meta.moduleStack != nullptr);
    QCOMPARE(n0.meta.moduleStack->at(0).path, std::string("fc"));
    QCOMPARE(n0.meta.moduleStack->at(0).type, std::string("torch.nn.modules.linear.Linear"));
    QVERIFY(n0.meta.sourceFnStack != nullptr);
    const Node& n1 = p.graph.nodes[1];
    QCOMPARE(n1.name, std::string("assert_1"));
    QVERIFY(n1.hasSerializedName);
    QCOMPARE(n1.isHopSingleTensorReturn, std::optional<bool>(false));
    const TensorMeta* m = p.graph.tensorMeta("x");
    QVERIFY(m);
    QCOMPARE(m->dtype, ScalarType::Float32);
    QVERIFY(m->sizes[0].isExpr());
    QCOMPARE(m->sizes[0].hint(), std::optional<int64_t>(4294967296123LL));
    QCOMPARE(m->storageOffset.value, int64_t(5));
    QVERIFY(m->requiresGrad);
    QCOMPARE(m->layout, 7);
    QVERIFY(!m->device.index.has_value());
}

void TstJsonDecode::schema2Program() {
    // The 2.2-era shape: bare-int schema_version, dialect, all-keys unions, no `persistent`.
    std::string json = R"({"graph_module": {"graph": {"inputs": [{"as_none": null, "as_tensor": {"name": "arg0_1"}, "as_int": null}, {"as_none": null, "as_tensor": {"name": "x"}, "as_int": null}],
      "outputs": [{"as_none": null, "as_tensor": {"name": "add"}}, {"as_none": null, "as_tensor": {"name": "add"}}], "nodes": [], "tensor_values": {}, "sym_int_values": {}, "sym_bool_values": {}},
      "signature": {"input_specs": [{"user_input": null, "parameter": null, "buffer": {"arg": {"name": "arg0_1"}, "buffer_name": "bn.running_mean"}, "tensor_constant": null},
                                    {"user_input": {"arg": {"as_none": null, "as_tensor": {"name": "x"}}}, "parameter": null, "buffer": null, "tensor_constant": null}],
                    "output_specs": [{"user_output": null, "loss_output": null, "buffer_mutation": {"arg": {"name": "add"}, "buffer_name": "bn.running_mean"}},
                                     {"user_output": {"arg": {"as_tensor": {"name": "add"}, "as_none": null}}, "loss_output": null, "buffer_mutation": null}]},
      "module_call_graph": []}, "opset_version": {"aten": 10}, "range_constraints": {}, "schema_version": 2, "dialect": "ATEN"})";
    auto r = decodeProgramJson(json, "serialized_exported_program.json");
    QVERIFY2(r.isOk(), r.error().c_str());
    const Program& p = **r;
    QVERIFY(p.schemaVersion.bareInteger);
    QCOMPARE(p.schemaVersion.toString(), std::string("2"));
    QCOMPARE(p.dialect, std::string("ATEN"));
    QCOMPARE(p.verifiers, std::vector<std::string>{"ATEN"});
    QCOMPARE(p.warnings.size(), size_t(1));
    QCOMPARE(p.warnings[0], std::string("schema version 2: this reader follows schema 8.x; the program was decoded leniently"));
    QCOMPARE(p.signature.inputSpecs.size(), size_t(2));
    QCOMPARE(p.signature.inputSpecs[0].kind, InputKind::Buffer);
    QCOMPARE(p.signature.inputSpecs[0].target, std::string("bn.running_mean"));
    QVERIFY(!p.signature.inputSpecs[0].persistent.has_value());
    QCOMPARE(p.signature.inputSpecs[1].kind, InputKind::UserInput);
    QCOMPARE(p.signature.inputSpecs[1].arg.s, std::string("x"));
    QCOMPARE(p.signature.outputSpecs[0].kind, OutputKind::BufferMutation);
    QCOMPARE(p.signature.outputSpecs[1].kind, OutputKind::UserOutput);
}

void TstJsonDecode::signatureSpecs() {
    std::string json = R"({"graph_module": {"graph": {"inputs": [], "outputs": [], "nodes": [], "tensor_values": {}, "sym_int_values": {}, "sym_bool_values": {}},
      "signature": {"input_specs": [
          {"parameter": {"arg": {"name": "p_w"}, "parameter_name": "w"}},
          {"buffer": {"arg": {"name": "b_m"}, "buffer_name": "m", "persistent": false}},
          {"tensor_constant": {"arg": {"name": "c_t"}, "tensor_constant_name": "lifted_tensor_0"}},
          {"custom_obj": {"arg": {"name": "obj", "class_fqn": "__torch__.Foo"}, "custom_obj_name": "attr"}},
          {"token": {"arg": {"name": "token_0"}}},
          {"constant_input": {"name": "alpha", "value": {"as_float": 0.5}}},
          {"user_input": {"arg": {"as_sym_int": {"as_name": "s0"}}}}],
        "output_specs": [
          {"loss_output": {"arg": {"name": "l"}}},
          {"parameter_mutation": {"arg": {"name": "a"}, "parameter_name": "w"}},
          {"gradient_to_parameter": {"arg": {"name": "g"}, "parameter_name": "w"}},
          {"gradient_to_user_input": {"arg": {"name": "g2"}, "user_input_name": "x"}},
          {"user_input_mutation": {"arg": {"name": "m"}, "user_input_name": "x"}},
          {"token": {"arg": {"name": "token_1"}}},
          {"user_output": {"arg": {"as_none": true}}}]},
      "module_call_graph": []}, "opset_version": {}, "range_constraints": {}, "schema_version": {"major": 8, "minor": 20}, "verifiers": ["TRAINING"], "torch_version": "2.12.1", "guards_code": ["x.size(0) > 1"]})";
    auto r = decodeProgramJson(json, "m.json");
    QVERIFY2(r.isOk(), r.error().c_str());
    const auto& s = (*r)->signature;
    QCOMPARE(s.inputSpecs.size(), size_t(7));
    QCOMPARE(s.inputSpecs[0].kind, InputKind::Parameter);
    QCOMPARE(s.inputSpecs[0].arg.s, std::string("p_w"));
    QCOMPARE(s.inputSpecs[1].persistent, std::optional<bool>(false));
    QCOMPARE(s.inputSpecs[2].target, std::string("lifted_tensor_0"));
    QCOMPARE(s.inputSpecs[3].kind, InputKind::CustomObj);
    QCOMPARE(s.inputSpecs[3].arg.s2(), std::string("__torch__.Foo"));
    QCOMPARE(s.inputSpecs[4].kind, InputKind::Token);
    QCOMPARE(s.inputSpecs[5].kind, InputKind::ConstantInput);
    QCOMPARE(s.inputSpecs[5].name, std::string("alpha"));
    QCOMPARE(describe(s.inputSpecs[5].arg), std::string("F(0.5)"));
    QCOMPARE(describe(s.inputSpecs[6].arg), std::string("SI(s0)"));
    QCOMPARE(s.outputSpecs.size(), size_t(7));
    const OutputKind kinds[] = {OutputKind::LossOutput, OutputKind::ParameterMutation, OutputKind::GradientToParameter,
                                OutputKind::GradientToUserInput, OutputKind::UserInputMutation, OutputKind::Token,
                                OutputKind::UserOutput};
    for (size_t k = 0; k < 7; ++k) QCOMPARE(s.outputSpecs[k].kind, kinds[k]);
    QCOMPARE(s.outputSpecs[3].target, std::string("x"));
    QCOMPARE((*r)->torchVersion, std::string("2.12.1"));
    QCOMPARE((*r)->guardsCode, std::vector<std::string>{"x.size(0) > 1"});
}

void TstJsonDecode::legacySignature21() {
    std::string json = R"({"graph_module": {"graph": {"inputs": [{"as_tensor": {"name": "arg0_1"}}, {"as_tensor": {"name": "arg1_1"}}, {"as_tensor": {"name": "x"}}],
      "outputs": [{"as_tensor": {"name": "add_1"}}, {"as_tensor": {"name": "mul"}}], "nodes": [], "tensor_values": {}, "sym_int_values": {}, "sym_bool_values": {}},
      "signature": {"inputs_to_parameters": {"arg0_1": "w"}, "inputs_to_buffers": {"arg1_1": "steps"}, "user_inputs": ["x"], "user_outputs": ["mul"],
                    "buffers_to_mutate": {"add_1": "steps"}, "backward_signature": null},
      "module_call_graph": []}, "opset_version": {}, "range_constraints": {}, "schema_version": 1})";
    auto r = decodeProgramJson(json, "m.json");
    QVERIFY2(r.isOk(), r.error().c_str());
    const auto& s = (*r)->signature;
    QCOMPARE(s.inputSpecs.size(), size_t(3));
    QCOMPARE(s.inputSpecs[0].kind, InputKind::Parameter);
    QCOMPARE(s.inputSpecs[0].target, std::string("w"));
    QCOMPARE(s.inputSpecs[1].kind, InputKind::Buffer);
    QCOMPARE(s.inputSpecs[2].kind, InputKind::UserInput);
    QCOMPARE(s.outputSpecs[0].kind, OutputKind::BufferMutation);
    QCOMPARE(s.outputSpecs[0].target, std::string("steps"));
    QCOMPARE(s.outputSpecs[1].kind, OutputKind::UserOutput);
    QCOMPARE((*r)->warnings.size(), size_t(2));
}

void TstJsonDecode::rangeAndModuleCallGraph() {
    std::string json = R"({"graph_module": {"graph": {"inputs": [], "outputs": [], "nodes": [], "tensor_values": {}, "sym_int_values": {"sym_size_int": {"as_expr": {"expr_str": "s0", "hint": null}}},
      "sym_bool_values": {"eq": {"as_bool": true}}, "sym_float_values": {"f": {"as_expr": {"expr_str": "s1/2", "hint": {"as_float": 1.5}}}}, "custom_obj_values": {"o": {"name": "o", "class_fqn": "Foo"}}},
      "signature": {"input_specs": [], "output_specs": []},
      "module_call_graph": [{"fqn": "", "signature": {"inputs": [{"as_tensor": {"name": "x"}}], "outputs": [], "in_spec": "[1, {}]", "out_spec": "[1, null]", "forward_arg_names": ["x"]}}, {"fqn": "fc", "signature": null}],
      "metadata": {"k": "v"}, "treespec_namedtuple_fields": {"P": {"field_names": ["a"]}}},
      "opset_version": {"aten": 10}, "range_constraints": {"s0": {"min_val": 2, "max_val": 9223372036854775806}, "s1": {"min_val": null, "max_val": null}, "u0": {"min_val": 0, "max_val": 99999999999999999999}},
      "schema_version": {"major": 8, "minor": 14}})";
    auto r = decodeProgramJson(json, "m.json");
    QVERIFY2(r.isOk(), r.error().c_str());
    const Program& p = **r;
    QCOMPARE(p.rangeConstraints.at("s0").minVal, std::optional<int64_t>(2));
    QCOMPARE(p.rangeConstraints.at("s0").maxVal, std::optional<int64_t>(9223372036854775806LL));
    QVERIFY(!p.rangeConstraints.at("s1").minVal.has_value());
    QVERIFY(!p.rangeConstraints.at("u0").maxVal.has_value());
    QCOMPARE(p.moduleCallGraph.size(), size_t(2));
    QVERIFY(p.moduleCallGraph[0].signature.has_value());
    QCOMPARE(p.moduleCallGraph[0].signature->inSpec, std::string("[1, {}]"));
    QCOMPARE(*p.moduleCallGraph[0].signature->forwardArgNames, std::vector<std::string>{"x"});
    QVERIFY(!p.moduleCallGraph[1].signature.has_value());
    QCOMPARE(p.metadata.at("k"), std::string("v"));
    QCOMPARE(p.treespecNamedtupleFieldsJson, std::string(R"({"P": {"field_names": ["a"]}})"));
    QCOMPARE(p.graph.symIntValues.at("sym_size_int").expr(), std::string("s0"));
    QVERIFY(p.graph.symBoolValues.at("eq").value);
    QCOMPARE(p.graph.symFloatValues.at("f").hint(), std::optional<double>(1.5));
    QCOMPARE(p.graph.customObjValues.at("o").classFqn, std::string("Foo"));
}

void TstJsonDecode::errors_data() {
    QTest::addColumn<QString>("json");
    QTest::addColumn<QString>("message");
    QTest::addRow("not an object") << "[1]" << "m.json: $: expected an object, found an array";
    QTest::addRow("missing graph_module") << R"({"schema_version": {"major": 8, "minor": 1}})" << R"(m.json: $: missing key "graph_module")";
    QTest::addRow("arg is a number") << QString::fromStdString(programWithNode(R"([{"name": "a", "arg": {"as_int": 1}}, {"name": "b", "arg": 5}])"))
                                     << "m.json: $.graph_module.graph.nodes[0].inputs[1].arg: expected an object, found a number";
    QTest::addRow("two active members") << QString::fromStdString(programWithArg(R"({"as_int": 1, "as_float": 2.0})"))
                                        << "m.json: $.graph_module.graph.nodes[0].inputs[0].arg: expected an Argument with one active member, found 2 (as_int, as_float)";
    QTest::addRow("all members null") << QString::fromStdString(programWithArg(R"({"as_int": null, "as_float": null})"))
                                      << "m.json: $.graph_module.graph.nodes[0].inputs[0].arg: expected an Argument with one active member, found every member null";
    QTest::addRow("empty union") << QString::fromStdString(programWithArg("{}"))
                                 << "m.json: $.graph_module.graph.nodes[0].inputs[0].arg: expected an Argument with one active member, found an empty object";
    QTest::addRow("int too large") << QString::fromStdString(programWithArg(R"({"as_int": 99999999999999999999})"))
                                   << "m.json: $.graph_module.graph.nodes[0].inputs[0].arg.as_int: integer 99999999999999999999 does not fit in 64 bits";
    QTest::addRow("int is fractional") << QString::fromStdString(programWithArg(R"({"as_ints": [1, 2.5]})"))
                                       << "m.json: $.graph_module.graph.nodes[0].inputs[0].arg.as_ints[1]: expected an integer, found 2.5";
    QTest::addRow("float bad string") << QString::fromStdString(programWithArg(R"({"as_float": "huge"})"))
                                      << "m.json: $.graph_module.graph.nodes[0].inputs[0].arg.as_float: expected a number, found the string \"huge\"";
    QTest::addRow("tensor without name") << QString::fromStdString(programWithArg(R"({"as_tensor": {}})"))
                                         << "m.json: $.graph_module.graph.nodes[0].inputs[0].arg.as_tensor: missing key \"name\"";
    QTest::addRow("unknown dtype name") << QString::fromStdString(programWithArg(R"({"as_scalar_type": "FLOAT128"})"))
                                        << "m.json: $.graph_module.graph.nodes[0].inputs[0].arg.as_scalar_type: unknown scalar type name \"FLOAT128\"";
    QTest::addRow("argument kind out of range") << QString::fromStdString(programWithNode(R"([{"name": "x", "arg": {"as_int": 1}, "kind": 7}])"))
                                                << "m.json: $.graph_module.graph.nodes[0].inputs[0].kind: unknown argument kind 7 (0 unknown, 1 positional, 2 keyword)";
    QTest::addRow("argument kind name") << QString::fromStdString(programWithNode(R"([{"name": "x", "arg": {"as_int": 1}, "kind": "ArgumentKind.VARIADIC"}])"))
                                        << "m.json: $.graph_module.graph.nodes[0].inputs[0].kind: unknown argument kind name \"ArgumentKind.VARIADIC\"";
    QString symFloatAsInt = QString::fromStdString(programWithNode("[]"));
    symFloatAsInt.replace(R"("sym_bool_values": {})", R"("sym_bool_values": {}, "sym_float_values": {"f": {"as_int": 1}})");
    QTest::addRow("sym float literal of an int") << symFloatAsInt
                                                 << "m.json: $.graph_module.graph.sym_float_values.f: unknown SymFloat member \"as_int\"";
    QTest::addRow("target not a string") << R"({"graph_module": {"graph": {"inputs": [], "outputs": [], "nodes": [{"target": 3}]}}})"
                                         << "m.json: $.graph_module.graph.nodes[0].target: expected a string, found a number";
    QTest::addRow("bad sym int arg") << QString::fromStdString(programWithArg(R"({"as_sym_int": {"as_expr": "s0"}})"))
                                     << "m.json: $.graph_module.graph.nodes[0].inputs[0].arg.as_sym_int: unknown member \"as_expr\" of a SymIntArgument";
    QTest::addRow("bad json") << R"({"graph_module": [1, 2,]})"
                              << "m.json: invalid JSON at line 1, column 24: unexpected character ']'";
    QTest::addRow("bad json line 2") << "{\n  \"a\": tru }"
                                     << "m.json: invalid JSON at line 2, column 8: unknown literal";
    QTest::addRow("trailing text") << "{} x" << "m.json: invalid JSON at line 1, column 4: unexpected text after the JSON value";
    QTest::addRow("unterminated string") << R"({"a": "abc)" << "m.json: invalid JSON at line 1, column 11: unterminated string";
    QTest::addRow("unknown input spec") << R"({"graph_module": {"graph": {"inputs": [], "outputs": [], "nodes": []}, "signature": {"input_specs": [{"mystery": {}}], "output_specs": []}}})"
                                        << R"(m.json: $.graph_module.signature.input_specs[0]: unknown input spec kind "mystery")";
    QTest::addRow("tensor value key with dots") << R"({"graph_module": {"graph": {"inputs": [], "outputs": [], "nodes": [], "tensor_values": {"a.b": {"dtype": 7, "sizes": [], "strides": 1}}}, "signature": {"input_specs": [], "output_specs": []}}})"
                                                << R"(m.json: $.graph_module.graph.tensor_values["a.b"].strides: expected an array, found a number)";
    QTest::addRow("schema version string") << R"({"schema_version": "8.1", "graph_module": {}})"
                                           << "m.json: $.schema_version: expected an object, found a string";
}

void TstJsonDecode::errors() {
    QFETCH(QString, json);
    QFETCH(QString, message);
    auto r = decodeProgramJson(json.toStdString(), "m.json");
    QVERIFY(!r.isOk());
    QCOMPARE(QString::fromStdString(r.error()), message);
}

void TstJsonDecode::deepNestingRefused() {
    // 10^6 levels: refused with a message, no stack overflow.
    std::string deep(1000000, '[');
    auto r = decodeProgramJson(deep, "m.json");
    QVERIFY(!r.isOk());
    QCOMPARE(QString::fromStdString(r.error()), QString("m.json: invalid JSON at line 1, column 513: nested deeper than 512 levels"));
    std::string deepArg = programWithArg(std::string(600, '[') + std::string(600, ']'));
    JsonDecodeOptions opt;
    opt.maxDepth = 64;
    auto r2 = decodeProgramJson(deepArg, "m.json", opt);
    QVERIFY(!r2.isOk());
    QVERIFY(QString::fromStdString(r2.error()).endsWith("nested deeper than 64 levels"));
}

void TstJsonDecode::encodeDecodeStable() {
    // Every member survives encode -> decode; the second encoding is byte-identical to the first.
    std::string inputs = "[";
    int k = 0;
    for (const char* arg : {R"({"as_none": []})", R"({"as_optional_tensors": [{"as_tensor": {"name": "a"}}, {"as_none": true}]})",
                            R"({"as_float": "-Infinity"})", R"({"as_floats": [0.1, 1e-05, 3.0, "NaN"]})",
                            R"({"as_int": -9223372036854775808})", R"({"as_string": "tab\t\u0001\u00e9"})",
                            R"({"as_sym_ints": [{"as_name": "s0"}, {"as_int": 3}]})", R"({"as_complex": {"real": 1.0, "imag": -2.5}})",
                            R"({"as_string_to_argument": {"a": {"as_int": 1}}})", R"({"as_future_thing": {"k": [1, 2]}})",
                            R"({"as_nested_tensors": [[{"name": "a"}]]})", R"({"as_int_lists": [[1], []]})",
                            R"({"as_float_lists": [[0.5]]})", R"({"as_device": {"type": "cuda", "index": 0}})",
                            R"({"as_optional_tensor": {"as_none": true}})", R"({"as_sym_float": {"as_float": 2.0}})"}) {
        inputs += (k ? ", " : "") + std::string(R"({"name": "a)") + std::to_string(k) + R"(", "arg": )" + arg + R"(, "kind": 2})";
        ++k;
    }
    inputs += "]";
    auto r = decodeProgramJson(programWithNode(inputs), "m.json");
    QVERIFY2(r.isOk(), r.error().c_str());
    std::string once = encodeProgramJson(**r);
    auto r2 = decodeProgramJson(once, "encoded.json");
    QVERIFY2(r2.isOk(), r2.error().c_str());
    QCOMPARE(QString::fromStdString(compareProgramsDetail(**r, **r2)), QString());
    QCOMPARE(encodeProgramJson(**r2), once);
    QCOMPARE((*r2)->schemaVersion.toString(), std::string("8.12"));
    QVERIFY(once.find(R"("as_float":"-Infinity")") != std::string::npos);
    QVERIFY(once.find(R"([0.1,1e-05,3.0,"NaN"])") != std::string::npos);
}

void TstJsonDecode::encoderGolden() {
    // The exact schema-8 text for a small program: field names and order follow schema.py, unions have
    // one key, enums are numbers, `name` is written only when the first output would not give it back.
    Program p;
    p.torchVersion = "2.9.0";
    p.verifiers = {"TRAINING"};
    p.opsetVersion = {{"aten", 10}};
    p.rangeConstraints["s0"] = RangeConstraint{2, std::nullopt};
    p.graph.inputs = {Argument::tensor("p_w"), Argument::tensor("x")};
    Node n;
    n.target = Target::parse("torch.ops.aten.mul.Tensor");
    n.name = "mul";
    n.inputs = {NamedArgument{"self", Argument::tensor("x"), ArgumentKind::Positional},
                NamedArgument{"other", Argument::tensor("p_w"), ArgumentKind::Positional}};
    n.outputs = {Argument::tensor("mul")};
    n.meta.raw["stack_trace"] = "File \"m.py\", line 3";
    Node a;
    a.target = Target::parse("torch.ops.aten._assert_async.msg");
    a.name = "assert_0";
    a.inputs = {NamedArgument{"assert_msg", Argument::string("bad"), ArgumentKind::Positional}};
    p.graph.nodes = {n, a};
    p.graph.outputs = {Argument::tensor("mul")};
    TensorMeta m;
    m.sizes = {SymInt::expression("s0", 4), SymInt::literal(3)};
    m.strides = {SymInt::literal(3), SymInt::literal(1)};
    p.graph.tensorValues["x"] = m;
    InputSpec w;
    w.kind = InputKind::Buffer;
    w.arg = Argument::tensor("p_w");
    w.target = "w";
    InputSpec x;
    x.arg = Argument::tensor("x");
    p.signature.inputSpecs = {w, x};
    OutputSpec o;
    o.arg = Argument::tensor("mul");
    p.signature.outputSpecs = {o};
    p.moduleCallGraph = {ModuleCallEntry{"", std::nullopt}};
    const std::string expected =
        R"({"graph_module":{"graph":{"inputs":[{"as_tensor":{"name":"p_w"}},{"as_tensor":{"name":"x"}}],"outputs":[{"as_tensor":{"name":"mul"}}],)"
        R"("nodes":[{"target":"torch.ops.aten.mul.Tensor","inputs":[{"name":"self","arg":{"as_tensor":{"name":"x"}},"kind":1},)"
        R"({"name":"other","arg":{"as_tensor":{"name":"p_w"}},"kind":1}],"outputs":[{"as_tensor":{"name":"mul"}}],)"
        R"("metadata":{"stack_trace":"File \"m.py\", line 3"},"is_hop_single_tensor_return":null},)"
        R"({"target":"torch.ops.aten._assert_async.msg","inputs":[{"name":"assert_msg","arg":{"as_string":"bad"},"kind":1}],)"
        R"("outputs":[],"metadata":{},"is_hop_single_tensor_return":null,"name":"assert_0"}],)"
        R"("tensor_values":{"x":{"dtype":7,"sizes":[{"as_expr":{"expr_str":"s0","hint":{"as_int":4}}},{"as_int":3}],)"
        R"("requires_grad":false,"device":{"type":"cpu","index":null},"strides":[{"as_int":3},{"as_int":1}],)"
        R"("storage_offset":{"as_int":0},"layout":7}},"sym_int_values":{},"sym_bool_values":{},"is_single_tensor_return":false,)"
        R"("custom_obj_values":{},"sym_float_values":{}},"signature":{"input_specs":[{"buffer":{"arg":{"name":"p_w"},)"
        R"("buffer_name":"w","persistent":true}},{"user_input":{"arg":{"as_tensor":{"name":"x"}}}}],)"
        R"("output_specs":[{"user_output":{"arg":{"as_tensor":{"name":"mul"}}}}]},)"
        R"("module_call_graph":[{"fqn":"","signature":null}],"metadata":{},"treespec_namedtuple_fields":{}},)"
        R"("opset_version":{"aten":10},"range_constraints":{"s0":{"min_val":2,"max_val":null}},)"
        R"("schema_version":{"major":8,"minor":12},"verifiers":["TRAINING"],"torch_version":"2.9.0"})";
    QCOMPARE(QString::fromStdString(encodeProgramJson(p)), QString::fromStdString(expected));
}

void TstJsonDecode::duplicateKeysLastWins() {
    // Python's json keeps the last duplicate; so does the decoder (PyTorch would load that value).
    auto r = decodeProgramJson(programWithArg(R"({"as_int": 1, "as_int": 2})"), "m.json");
    QVERIFY2(r.isOk(), r.error().c_str());
    QCOMPARE((*r)->graph.nodes[0].inputs[0].arg.i, int64_t(2));
    auto bom = decodeProgramJson("\xEF\xBB\xBF" + programWithArg(R"({"as_int": 7})"), "m.json");
    QVERIFY2(bom.isOk(), bom.error().c_str());
    auto r2 = decodeProgramJson(programWithNode(R"([{"name": "a", "name": "b", "arg": {"as_int": 1}}])"), "m.json");
    QVERIFY2(r2.isOk(), r2.error().c_str());
    QCOMPARE((*r2)->graph.nodes[0].inputs[0].name, std::string("b"));
}

QTEST_GUILESS_MAIN(TstJsonDecode)
#include "tst_json_decode.moc"
