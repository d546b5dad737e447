// savePt2: every program file (the zoo; real, generated and legacy fixtures) loads, saves, reloads equal; the archive has the
// 2.9+ layout, STORED 64-byte aligned records and valid CRCs; Python's zipfile and pickle read it;
// tied storages stay shared; a failed save leaves the old file untouched.
#include "core/io/pickle_writer.h"
#include "core/io/pt2_reader.h"
#include "core/io/pt2_writer.h"
#include "core/io/zip_writer.h"
#include "support/shared_fixtures.h"
#include "support/zoo_files.h"
#include "zip_layout.h"

#include <QProcess>
#include <QTest>

#include <nlohmann/json.hpp>

#include <charconv>
#include <fstream>
#include <sstream>

using namespace irlens::core;
namespace fs = std::filesystem;

using irlens::testing::readFile;

namespace {

// Runs python3 with a script; returns stdout, or nullopt when python3 is missing or the script failed
// (then `err` holds stderr).
std::optional<QString> python(const QString& script, const QStringList& args, QString& err) {
    QProcess py;
    py.start("python3", QStringList{"-c", script} + args);
    if (!py.waitForStarted(10000)) return std::nullopt;
    py.waitForFinished(120000);
    err = QString::fromUtf8(py.readAllStandardError());
    if (py.exitStatus() != QProcess::NormalExit || py.exitCode() != 0) return std::nullopt;
    return QString::fromUtf8(py.readAllStandardOutput());
}

bool havePython() {
    QProcess py;
    py.start("python3", {"-c", "import zipfile, pickle"});
    return py.waitForFinished(10000) && py.exitCode() == 0;
}

// Python's own zip reader (CRC of every record) and JSON parser (every .json record; the program's
// schema_version as PyTorch reads it).
const char* kZipCheck = "import zipfile,sys,json\nz=zipfile.ZipFile(sys.argv[1])\nbad=z.testzip()\n"
                        "assert bad is None, bad\n"
                        "docs={n: json.loads(z.read(n)) for n in z.namelist() if n.endswith('.json')}\n"
                        "v=docs['archive/models/model.json']['schema_version']\n"
                        "assert (v['major'], v['minor'])==(8, 12), v\n"
                        "print(len(z.infolist()))";

// Python's pickle with stand-ins for torch: prints one line per sample input.
const char* kPickleCheck = R"(import zipfile,pickle,sys,io
z=zipfile.ZipFile(sys.argv[1]); inner=zipfile.ZipFile(io.BytesIO(z.read(sys.argv[2])))
class T:
    def __init__(s,st,off,size,stride,rg,hooks,dtype=None): s.st,s.off,s.size,s.stride,s.dtype=st,off,size,stride,dtype
class U(pickle.Unpickler):
    def find_class(s,m,n):
        if (m,n) in (('torch._utils','_rebuild_tensor_v2'),('torch._utils','_rebuild_tensor_v3')): return T
        if (m,n)==('collections','OrderedDict'):
            import collections; return collections.OrderedDict
        if m=='torch': return n
        raise pickle.UnpicklingError(m+'.'+n)
    def persistent_load(s,pid):
        assert pid[0]=='storage'; data=inner.read('archive/data/'+pid[2]); return (pid[1],pid[2],pid[3],pid[4],len(data))
args,kwargs=U(io.BytesIO(inner.read('archive/data.pkl'))).load()
for a in list(args)+[kwargs[k] for k in sorted(kwargs)]:
    if isinstance(a,T): print('%s count=%d bytes=%d off=%d size=%s stride=%s'%(a.st[0],a.st[3],a.st[4],a.off,list(a.size),list(a.stride)))
    else: print(repr(a))
)";

std::string describeSample(const Value& v) {
    if (v.kind != Value::Kind::Tensor) {
        switch (v.kind) {
        case Value::Kind::Int: return std::to_string(v.i);
        case Value::Kind::Bool: return v.b ? "True" : "False";
        case Value::Kind::None: return "None";
        case Value::Kind::Float: {
            // Python's repr: shortest round-trip digits, always with a '.' or an exponent.
            char buf[64];
            auto r = std::to_chars(buf, buf + sizeof buf, v.f);
            std::string s(buf, r.ptr);
            return s.find_first_of(".e") == std::string::npos ? s + ".0" : s;
        }
        default: return "?";
        }
    }
    const TensorData& t = v.tensor;
    auto list = [](const std::vector<int64_t>& xs) {
        std::string s = "[";
        for (size_t k = 0; k < xs.size(); ++k) s += (k ? ", " : "") + std::to_string(xs[k]);
        return s + "]";
    };
    static const std::map<ScalarType, std::string> names = {
        {ScalarType::Float32, "FloatStorage"}, {ScalarType::Int64, "LongStorage"}, {ScalarType::Int8, "CharStorage"},
        {ScalarType::Int32, "IntStorage"}, {ScalarType::Bool, "BoolStorage"}, {ScalarType::Float64, "DoubleStorage"}};
    size_t bytes = t.storage ? t.storage->size : 0;
    return names.at(t.dtype) + " count=" + std::to_string(bytes / elementSize(t.dtype)) + " bytes=" +
           std::to_string(bytes) + " off=" + std::to_string(t.storageOffset) + " size=" + list(t.sizes) +
           " stride=" + list(t.strides);
}

} // namespace

class TstPt2Writer : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void cleanupTestCase();
    void roundTrip_data();
    void roundTrip();
    void sharedStorageWrittenOnce();
    void failedSaveKeepsOldFile();
    void zip64Forced();

private:
    fs::path m_dir;
    bool m_python = false;
};

void TstPt2Writer::initTestCase() {
    m_dir = fs::temp_directory_path() / ("irlens_writer_" + std::to_string(QCoreApplication::applicationPid()));
    fs::create_directories(m_dir);
    m_python = havePython();
}

void TstPt2Writer::cleanupTestCase() {
    std::error_code ec;
    fs::remove_all(m_dir, ec);
}

void TstPt2Writer::roundTrip_data() {
    QTest::addColumn<QString>("rel");
    for (const auto& rel : irlens::testing::programFixtures()) QTest::addRow("%s", rel.c_str()) << QString::fromStdString(rel);
}

void TstPt2Writer::roundTrip() {
    QFETCH(QString, rel);
    auto loaded = loadPt2(irlens::testing::fixture(rel.toStdString()).string());
    QVERIFY2(loaded.isOk(), loaded.error().c_str());
    const Program& original = **loaded;
    fs::path out = m_dir / "out.pt2";
    Status s = savePt2(original, out.string());
    QVERIFY2(s.isOk(), s.message().c_str());

    auto reloaded = loadPt2(out.string());
    QVERIFY2(reloaded.isOk(), reloaded.error().c_str());
    const Program& back = **reloaded;
    QCOMPARE(back.container, ContainerKind::Pt2Archive);
    QCOMPARE(back.schemaVersion.toString(), std::string("8.12"));
    QVERIFY(back.warnings.empty());
    // Schema 8 states `persistent` for every buffer; 2.2-era programs lack it (they had no other kind).
    Program expected = original;
    for (auto& spec : expected.signature.inputSpecs)
        if (spec.kind == InputKind::Buffer && !spec.persistent) spec.persistent = true;
    QCOMPARE(QString::fromStdString(compareProgramsDetail(expected, back)), QString());
    QCOMPARE(back.hasSampleInputs, original.hasSampleInputs);
    QCOMPARE(back.sampleKwargs.size(), original.sampleKwargs.size());
    QCOMPARE(back.weights.size(), original.weights.size());
    for (const auto& [fqn, t] : original.weights) {
        // The whole storage is written, not only the view: sizes and bytes are identical.
        const TensorData& u = back.weights.at(fqn);
        QCOMPARE(u.storageOffset, t.storageOffset);
        QCOMPARE(u.strides, t.strides);
        QCOMPARE(bool(u.storage), bool(t.storage));
        if (!t.storage) continue;
        QCOMPARE(u.storage->size, t.storage->size);
        QVERIFY2(t.storage->size == 0 || std::memcmp(u.storage->data, t.storage->data, t.storage->size) == 0, fqn.c_str());
    }
    QCOMPARE(back.extraFiles, original.extraFiles);

    // Archive layout: records, STORED, aligned, CRCs (our own walk of the local headers).
    std::string bytes = readFile(out);
    std::string err;
    auto records = irlens::testing::localRecords(bytes, err);
    QVERIFY2(err.empty(), err.c_str());
    std::map<std::string, std::string> text;
    for (const auto& r : records) {
        QVERIFY2(r.method == 0, r.name.c_str());
        QVERIFY2(r.dataOffset % 64 == 0, r.name.c_str());
        QVERIFY2(r.crcOk, r.name.c_str());
        QVERIFY2(r.name.rfind("archive/", 0) == 0, r.name.c_str());
        if (r.size < 4096) text[r.name] = bytes.substr(r.dataOffset, r.size);
    }
    QCOMPARE(text["archive/archive_format"], std::string("pt2"));
    QCOMPARE(text["archive/archive_version"], std::string("0"));
    QCOMPARE(text["archive/byteorder"], std::string("little"));
    QCOMPARE(text["archive/.data/version"], std::string("6\n"));
    auto has = [&](const std::string& n) {
        return std::any_of(records.begin(), records.end(), [&](const auto& r) { return r.name == n; });
    };
    QVERIFY(has("archive/models/model.json"));
    QVERIFY(has("archive/data/weights/model_weights_config.json"));
    QVERIFY(has("archive/data/constants/model_constants_config.json"));
    QCOMPARE(has("archive/data/sample_inputs/model.pt"), original.hasSampleInputs);

    if (!m_python) QSKIP("python3 not available: zipfile/pickle cross-check skipped");
    QString perr;
    auto count = python(kZipCheck, {QString::fromStdString(out.string())}, perr);
    QVERIFY2(count.has_value(), qPrintable(perr));
    QCOMPARE(count->trimmed().toInt(), int(records.size()));
    if (original.hasSampleInputs) {
        auto lines = python(kPickleCheck, {QString::fromStdString(out.string()), "archive/data/sample_inputs/model.pt"}, perr);
        QVERIFY2(lines.has_value(), qPrintable(perr));
        QStringList got = lines->trimmed().split('\n');
        QCOMPARE(size_t(got.size()), original.sampleArgs.size() + original.sampleKwargs.size());
        for (size_t k = 0; k < original.sampleArgs.size(); ++k)
            QCOMPARE(got[int(k)], QString::fromStdString(describeSample(original.sampleArgs[k])));
    }
}

void TstPt2Writer::sharedStorageWrittenOnce() {
    // Two views of one storage (tied weights, an offset view) and a meta-only tensor.
    std::vector<std::byte> raw(10 * sizeof(float));
    for (size_t k = 0; k < 10; ++k) {
        float f = float(k) + 0.5f;
        std::memcpy(raw.data() + k * sizeof(float), &f, sizeof f);
    }
    auto storage = Storage::fromBytes(raw);
    Program p;
    TensorData a;
    a.sizes = {2, 3};
    a.strides = {3, 1};
    a.storage = storage;
    a.isParameter = true;
    TensorData b = a;
    b.sizes = {4};
    b.strides = {1};
    b.storageOffset = 6;
    b.isParameter = false;
    TensorData meta;
    meta.sizes = {0};
    meta.strides = {1};
    p.weights = {{"a.weight", a}, {"b.view", b}, {"c.empty", meta}};
    p.graph.nodes.push_back(Node{});
    p.graph.nodes[0].name = "n";
    p.graph.nodes[0].target = Target::parse("torch.ops.aten.relu.default");
    fs::path out = m_dir / "tied.pt2";
    Status s = savePt2(p, out.string());
    QVERIFY2(s.isOk(), s.message().c_str());
    std::string err;
    std::string bytes = readFile(out);
    auto records = irlens::testing::localRecords(bytes, err);
    QVERIFY2(err.empty(), err.c_str());
    std::string config;
    size_t weightFiles = 0;
    for (const auto& r : records) {
        if (r.name == "archive/data/weights/model_weights_config.json") config = bytes.substr(r.dataOffset, r.size);
        if (r.name.rfind("archive/data/weights/weight_", 0) == 0) ++weightFiles;
        if (r.name == "archive/data/weights/weight_0") QCOMPARE(r.size, uint64_t(40));
    }
    QCOMPARE(weightFiles, size_t(2)); // the shared storage once, the empty tensor as a zero-length record
    auto cfg = nlohmann::json::parse(config);
    QCOMPARE(cfg["config"]["a.weight"]["path_name"].get<std::string>(), cfg["config"]["b.view"]["path_name"].get<std::string>());
    QCOMPARE(cfg["config"]["b.view"]["tensor_meta"]["storage_offset"]["as_int"].get<int>(), 6);
    QVERIFY(cfg["config"]["a.weight"]["is_param"].get<bool>());
    QVERIFY(!cfg["config"]["b.view"]["is_param"].get<bool>());
    auto back = loadPt2(out.string());
    QVERIFY2(back.isOk(), back.error().c_str());
    QCOMPARE(QString::fromStdString(compareProgramsDetail(p, **back)), QString());
    const TensorData& bv = (*back)->weights.at("b.view");
    float first;
    std::memcpy(&first, bv.dataPtr(), sizeof first);
    QCOMPARE(first, 6.5f);
}

void TstPt2Writer::failedSaveKeepsOldFile() {
    fs::path out = m_dir / "keep.pt2";
    { std::ofstream(out, std::ios::binary) << "old contents"; }
    Program p;
    Value opaque;
    opaque.kind = Value::Kind::Opaque;
    opaque.s = "TorchBind object __torch__.torch.classes.m.Foo";
    p.constants["obj"] = opaque;
    Status s = savePt2(p, out.string());
    QVERIFY(!s.isOk());
    QCOMPARE(QString::fromStdString(s.message()),
             QString::fromStdString(out.string() + ": constant 'obj' is not a tensor (TorchBind object __torch__.torch.classes.m.Foo); irlens can only write tensor constants"));
    QCOMPARE(readFile(out), std::string("old contents"));
    for (const auto& e : fs::directory_iterator(m_dir))
        QVERIFY2(e.path().filename().string().find(".tmp-") == std::string::npos, "temporary file left behind");
    Program hostile;
    hostile.modelName = "../../evil";
    Status s3 = savePt2(hostile, out.string());
    QCOMPARE(QString::fromStdString(s3.message()), QString::fromStdString(out.string() + ": model name '../../evil' cannot be used in record names"));
    Program extra;
    extra.extraFiles["../escape.txt"] = "x";
    Status s4 = savePt2(extra, out.string());
    QCOMPARE(QString::fromStdString(s4.message()), QString::fromStdString(out.string() + ": zip writer: unsafe record name 'archive/extra/../escape.txt'"));
    QCOMPARE(readFile(out), std::string("old contents"));
    Status s2 = savePt2(Program{}, (m_dir / "no_such_dir" / "x.pt2").string());
    QVERIFY(!s2.isOk());
    QVERIFY(QString::fromStdString(s2.message()).contains("cannot create a temporary file"));
}

void TstPt2Writer::zip64Forced() {
    ZipWriter::Options o;
    o.forceZip64 = true;
    fs::path out = m_dir / "z64.zip";
    auto zip = ZipWriter::toFile(out.string(), o);
    QVERIFY(zip.isOk());
    QVERIFY((*zip)->add("a/one", std::string_view("hello")).isOk());
    QVERIFY((*zip)->add("a/two", std::string_view("")).isOk());
    QVERIFY(!(*zip)->add("a/one", std::string_view("dup")).isOk());
    for (const char* bad : {"../x", "a/../../x", "/abs", "a\\b", "a/.."}) {
        Status s = (*zip)->add(bad, std::string_view("x"));
        QCOMPARE(QString::fromStdString(s.message()), QString("zip writer: unsafe record name '%1'").arg(bad));
    }
    QVERIFY((*zip)->finish().isOk());
    std::string bytes = readFile(out);
    std::string err;
    auto records = irlens::testing::localRecords(bytes, err);
    QVERIFY2(err.empty(), err.c_str());
    QCOMPARE(records.size(), size_t(2));
    QCOMPARE(records[0].size, uint64_t(5));
    QCOMPARE(records[0].dataOffset % 64, uint64_t(0));
    if (!m_python) QSKIP("python3 not available");
    QString perr;
    auto got = python("import zipfile,sys\nz=zipfile.ZipFile(sys.argv[1])\nassert z.testzip() is None\nprint(z.read('a/one').decode(), z.infolist()[0].file_size)",
                      {QString::fromStdString(out.string())}, perr);
    QVERIFY2(got.has_value(), qPrintable(perr));
    QCOMPARE(got->trimmed(), QString("hello 5"));
}

QTEST_GUILESS_MAIN(TstPt2Writer)
#include "tst_pt2_writer.moc"
