// The safe unpickler: torch.save's protocol-2 layout and the protocol 3-5 opcodes, tensors rebuilt
// as views of shared storages, and hostile pickles refused with the exact message and byte offset.
#include "core/io/unpickler.h"
#include "pickle_builder.h"

#include <QTest>

using namespace irlens::core;
using namespace irlens::testing;

namespace {

struct Run {
    std::map<std::string, std::shared_ptr<const Storage>> storages;
    int loads = 0;
    Result<PyRef> operator()(const std::string& pickle) {
        StorageLoader loader = [this](const std::string& key) -> Result<std::shared_ptr<const Storage>> {
            ++loads;
            auto it = storages.find(key);
            if (it == storages.end()) return Status::error("no storage " + key);
            return it->second;
        };
        return unpickle(reinterpret_cast<const std::byte*>(pickle.data()), pickle.size(), "data.pkl", loader);
    }
    void add(const std::string& key, const std::string& bytes) {
        storages[key] = Storage::fromBytes(std::vector<std::byte>(reinterpret_cast<const std::byte*>(bytes.data()),
                                                                  reinterpret_cast<const std::byte*>(bytes.data()) + bytes.size()));
    }
};

float at(const TensorData& t, std::vector<int64_t> idx) {
    int64_t off = t.storageOffset;
    for (size_t k = 0; k < idx.size(); ++k) off += idx[k] * t.strides[k];
    float v;
    std::memcpy(&v, t.storage->data + off * 4, 4);
    return v;
}

} // namespace

class TstUnpickler : public QObject {
    Q_OBJECT
private slots:
    void stateDictSharedStorage() {
        // {'w': Parameter(view [2,3] of storage 0), 'w_t': view [3,2] offset 1 of the same storage}
        PickleBuilder p;
        p.emptyDict().put(0).mark();
        p.str("w").global("torch._utils", "_rebuild_parameter");
        p.tensor("FloatStorage", "0", 8, 0, {2, 3}, {3, 1});
        p.boolean(true).global("collections", "OrderedDict").emptyTuple().reduce().tuple3().reduce();
        p.str("w_t").tensor("FloatStorage", "0", 8, 1, {3, 2}, {1, 3});
        p.setitems().stop();
        Run run;
        run.add("0", f32Bytes({0, 1, 2, 3, 4, 5, 6, 7}));
        auto r = run(p.bytes());
        QVERIFY2(r.isOk(), r.error().c_str());
        const PyObject& d = **r;
        QCOMPARE(d.kind, PyObject::Kind::Dict);
        QCOMPARE(d.dict.size(), size_t(2));
        const TensorData& w = d.dict[0].second->tensor;
        const TensorData& wt = d.dict[1].second->tensor;
        QVERIFY(w.isParameter);
        QVERIFY(w.requiresGrad);
        QVERIFY(!wt.isParameter);
        QCOMPARE(w.sizes, (std::vector<int64_t>{2, 3}));
        QCOMPARE(wt.strides, (std::vector<int64_t>{1, 3}));
        QCOMPARE(run.loads, 1);                      // one storage record, loaded once
        QCOMPARE(w.storage.get(), wt.storage.get()); // and shared
        QCOMPARE(at(w, {1, 2}), 5.0f);
        QCOMPARE(at(wt, {2, 1}), 6.0f); // offset 1 + 2*1 + 1*3
    }

    void protocol4Opcodes() {
        PickleBuilder p(4);
        p.frame(40).shortStr("collections").memoize().shortStr("OrderedDict").memoize().stackGlobal().memoize();
        p.emptyTuple().reduce().memoize();
        p.shortStr("bytes").global("_codecs", "encode").shortStr("\xc3\xbf\x01").shortStr("latin1").tuple2().reduce().setitem();
        p.shortStr("neg").long1("\xfe\xff").setitem();
        p.shortStr("big").integer(-70000).setitem();
        p.shortStr("raw").shortBytes(std::string("\x00\x01", 2)).setitem();
        p.shortStr("dtype").global("torch", "bfloat16").setitem();
        p.stop();
        Run run;
        auto r = run(p.bytes());
        QVERIFY2(r.isOk(), r.error().c_str());
        const auto& d = (*r)->dict;
        QCOMPARE(d.size(), size_t(5));
        QCOMPARE(d[0].second->s, std::string("\xff\x01"));
        QCOMPARE(d[1].second->i, int64_t(-2));
        QCOMPARE(d[2].second->i, int64_t(-70000));
        QCOMPARE(d[3].second->kind, PyObject::Kind::Bytes);
        QCOMPARE(d[4].second->dtype, ScalarType::BFloat16);
    }

    void rebuildV3AndFakeTensor() {
        PickleBuilder p;
        p.mark();
        p.global("torch._utils", "_rebuild_tensor_v3").mark();
        p.mark().str("storage").global("torch", "UntypedStorage").str("7").str("cuda:0").integer(4).tuple().binpersid();
        p.integer(0).mark().integer(4).tuple().mark().integer(1).tuple().boolean(false);
        p.global("collections", "OrderedDict").emptyTuple().reduce().global("torch", "float8_e4m3fn").tuple().reduce();
        p.global("torch._export.serde.serialize", "_reconstruct_fake_tensor");
        p.str(R"({"dtype": 5, "sizes": [{"as_int": 2}, {"as_expr": {"expr_str": "s0", "hint": {"as_int": 9}}}],
                 "strides": [{"as_int": 9}, {"as_int": 1}], "storage_offset": 0, "requires_grad": false,
                 "device": {"type": "cpu", "index": null}, "layout": 7})");
        p.boolean(true).tuple2().reduce();
        p.tuple().stop();
        Run run;
        run.add("7", "\x01\x02\x03\x04");
        auto r = run(p.bytes());
        QVERIFY2(r.isOk(), r.error().c_str());
        const TensorData& f8 = (*r)->items[0]->tensor;
        QCOMPARE(f8.dtype, ScalarType::Float8_e4m3fn);
        QCOMPARE(f8.device, std::string("cuda:0"));
        QCOMPARE(int(f8.dataPtr()[3]), 4);
        const TensorData& fake = (*r)->items[1]->tensor;
        QVERIFY(!fake.storage); // meta only
        QVERIFY(fake.isParameter);
        QCOMPARE(fake.dtype, ScalarType::Int64);
        QCOMPARE(fake.sizes, (std::vector<int64_t>{2, 9}));
    }

    void refused_data() {
        QTest::addColumn<QByteArray>("pickle");
        QTest::addColumn<QString>("error");
        auto row = [](const char* name, const std::string& bytes, const std::string& err) {
            QTest::addRow("%s", name) << QByteArray(bytes.data(), qsizetype(bytes.size())) << QString::fromStdString(err);
        };
        {
            PickleBuilder p;
            p.emptyDict().put(0).mark().str("feature.0.weight").put(1);
            size_t at = p.size();
            p.global("os", "system").str("rm -rf /").tuple1().reduce().setitems().stop();
            row("os.system", p.bytes(), "data.pkl: unsupported global 'os.system' at byte " + std::to_string(at));
        }
        {
            PickleBuilder p;
            p.global("builtins", "eval");
            row("builtins.eval", p.bytes(), "data.pkl: unsupported global 'builtins.eval' at byte 2");
        }
        {
            PickleBuilder p(4);
            p.shortStr("subprocess").shortStr("Popen");
            size_t at = p.size();
            p.stackGlobal();
            row("stack global subprocess", p.bytes(), "data.pkl: unsupported global 'subprocess.Popen' at byte " + std::to_string(at));
        }
        {
            PickleBuilder p;
            p.global("torch._tensor", "_rebuild_from_type_v2");
            row("tensor subclass", p.bytes(),
                "data.pkl: unsupported global 'torch._tensor._rebuild_from_type_v2' (tensor subclasses and non-strided "
                "tensors are not supported) at byte 2");
        }
        {
            PickleBuilder p;
            p.emptyList().put(0).get(0);
            size_t at = p.size();
            p.append().stop();
            row("list containing itself", p.bytes(), "data.pkl: recursive structure (a container that contains itself) at byte " + std::to_string(at));
        }
        {
            PickleBuilder p;
            p.emptyDict().put(0).str("k").get(0).tuple1();
            size_t at = p.size();
            p.setitem().stop();
            row("dict containing itself via tuple", p.bytes(),
                "data.pkl: recursive structure (a container that contains itself) at byte " + std::to_string(at));
        }
        {
            PickleBuilder p;
            p.emptyList().put(0).emptyDict().put(1).get(0).tuple1().str("v").setitem().append();
            size_t at = p.size() - 1;
            p.stop();
            row("cycle through a dict key", p.bytes(),
                "data.pkl: recursive structure (a container that contains itself) at byte " + std::to_string(at));
        }
        {
            PickleBuilder p;
            p.get(5);
            row("memo read before write", p.bytes(), "data.pkl: memo entry 5 read before it was written at byte 2");
        }
        {
            PickleBuilder p;
            p.emptyDict();
            row("no STOP", p.bytes(), "data.pkl: truncated pickle (no STOP opcode) at byte 3");
        }
        {
            PickleBuilder p;
            p.str("abc");
            row("string cut", p.bytes().substr(0, p.size() - 1), "data.pkl: truncated pickle (string runs past the end) at byte 2");
        }
        {
            PickleBuilder p;
            p.none();
            for (int k = 0; k < 300; ++k) p.tuple1();
            row("nesting too deep", p.bytes(), "data.pkl: nesting deeper than 256 at byte " + std::to_string(3 + 256));
        }
        {
            PickleBuilder p;
            for (int k = 0; k < 300; ++k) p.mark();
            row("marks too deep", p.bytes(), "data.pkl: MARKs nested deeper than 256 at byte " + std::to_string(2 + 256));
        }
        row("text opcode", PickleBuilder().raw("I1\n").bytes(), "data.pkl: unsupported pickle opcode 0x49 at byte 2");
        row("protocol 6", std::string("\x80\x06", 2), "data.pkl: pickle protocol 6 is not supported at byte 0");
        row("stack underflow", PickleBuilder().append().bytes(), "data.pkl: stack underflow at byte 2");
        row("integer too wide", PickleBuilder().long1(std::string(9, '\x01')).bytes(),
            "data.pkl: integer of 9 bytes does not fit 64 bits at byte 2");
        {
            PickleBuilder p;
            p.tensor("FloatStorage", "0", 10, 0, {10}, {1}).stop();
            size_t at = p.bytes().find('Q', p.bytes().find("cpu"));
            row("storage shorter than declared", p.bytes(),
                "data.pkl: storage 'data/0' holds 16 bytes but the pickle declares 10 elements of float32 at byte " + std::to_string(at));
        }
        {
            PickleBuilder p;
            p.tensor("FloatStorage", "0", 4, 0, {3, 3}, {3, 1});
            size_t at = p.size() - 1;
            p.stop();
            row("view past storage", p.bytes(),
                "data.pkl: tensor view f32[3, 3] (strides [3, 1], offset 0) does not fit its storage of 16 bytes at byte " + std::to_string(at));
        }
        {
            PickleBuilder p;
            p.tensor("FloatStorage", "0", 4, 0, {int64_t(1) << 62, 4}, {int64_t(1) << 62, 1});
            size_t at = p.size() - 1;
            p.stop();
            row("overflowing view", p.bytes(),
                "data.pkl: tensor view f32[4611686018427387904, 4] (strides [4611686018427387904, 1], offset 0) does not fit "
                "its storage of 16 bytes at byte " + std::to_string(at));
        }
    }
    void refused() {
        QFETCH(QByteArray, pickle);
        QFETCH(QString, error);
        Run run;
        run.add("0", f32Bytes({1, 2, 3, 4}));
        auto r = run(pickle.toStdString());
        QVERIFY(!r.isOk());
        QCOMPARE(QString::fromStdString(r.error()), error);
    }
};

QTEST_GUILESS_MAIN(TstUnpickler)
#include "tst_unpickler.moc"
