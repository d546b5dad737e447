// Tensor files as users hold them (core/io/tensor_file.h): files written by PyTorch and NumPy
// themselves (tensor_files/make_tensor_files.py) read back to the values their formulas give;
// every malformed file refused with a message naming it; the .npy and streaming safetensors writers
// read back by the same readers.
#include "core/io/mapped_file.h"
#include "core/io/tensor_file.h"

#include <QTemporaryDir>
#include <QTest>

#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>

using namespace irlens::core;

namespace {

std::string dataFile(const std::string& name) { return (std::filesystem::path(IRLENS_SOURCE_DIR) / "tests/core/io/tensor_files" / name).string(); }

// Element `idx` of a tensor through its strides and offset, as a double.
double element(const TensorData& t, const std::vector<int64_t>& idx) {
    int64_t off = 0;
    for (size_t k = 0; k < idx.size(); ++k) off += idx[k] * t.strides[k];
    const std::byte* p = t.dataPtr() + off * elementSize(t.dtype);
    switch (t.dtype) {
    case ScalarType::Float32: { float f; std::memcpy(&f, p, 4); return f; }
    case ScalarType::Int64: { int64_t i; std::memcpy(&i, p, 8); return static_cast<double>(i); }
    case ScalarType::Bool: return *reinterpret_cast<const uint8_t*>(p) ? 1 : 0;
    default: return NAN;
    }
}

// x[0, k] = (k - 7.5) / 4, float32 [1, 16]
bool isX(const TensorData& t) {
    if (t.dtype != ScalarType::Float32 || t.sizes != std::vector<int64_t>{1, 16}) return false;
    for (int64_t k = 0; k < 16; ++k)
        if (element(t, {0, k}) != (static_cast<double>(k) - 7.5) / 4) return false;
    return true;
}

// a[i, j] = 4 i + j + 0.5, float32 [3, 4]
bool isA(const TensorData& t) {
    if (t.dtype != ScalarType::Float32 || t.sizes != std::vector<int64_t>{3, 4}) return false;
    for (int64_t i = 0; i < 3; ++i)
        for (int64_t j = 0; j < 4; ++j)
            if (element(t, {i, j}) != 4.0 * i + j + 0.5) return false;
    return true;
}

void writeBytes(const std::string& path, const std::string& bytes) {
    std::ofstream out(path, std::ios::binary);
    out << bytes;
}

std::string le64(uint64_t v) {
    std::string s(8, '\0');
    for (int k = 0; k < 8; ++k) s[static_cast<size_t>(k)] = char(v >> (8 * k));
    return s;
}

std::string safetensorsBytes(const std::string& header, const std::string& data) { return le64(header.size()) + header + data; }

} // namespace

class TstTensorFile : public QObject {
    Q_OBJECT
private slots:
    void readsTorchSave_data();
    void readsTorchSave();
    void readsTorchSaveScalarsAndViews();
    void readsNpy_data();
    void readsNpy();
    void readsNpz_data();
    void readsNpz();
    void readsSafetensors();
    void readsNpyFolder();
    void refusesMalformedFiles_data();
    void refusesMalformedFiles();
    void refusesNestedPayloads();
    void survivesDamagedFiles();
    void npyWriterRoundTrip();
    void safetensorsWriterStreams();
    void safetensorsWriterRefuses();
    void mapFileNamesWhy();
};

void TstTensorFile::readsTorchSave_data() {
    QTest::addColumn<QString>("file");
    QTest::addColumn<bool>("named");
    QTest::addColumn<QString>("name");
    QTest::addRow("tensor") << "x.pt" << false << "[0]";
    QTest::addRow("tuple") << "x_tuple.pt" << false << "[0]";
    QTest::addRow("list") << "x_list.pt" << false << "[0]";
    QTest::addRow("dict") << "x_dict.pt" << true << "x";
}

void TstTensorFile::readsTorchSave() {
    QFETCH(QString, file);
    QFETCH(bool, named);
    QFETCH(QString, name);
    auto f = readTensorFile(dataFile(file.toStdString()));
    QVERIFY2(f, f.error().c_str());
    QCOMPARE(f->format, TensorFileFormat::TorchSave);
    QCOMPARE(f->named, named);
    QCOMPARE(f->entries.size(), size_t(1));
    QCOMPARE(QString::fromStdString(f->entries[0].name), name);
    QCOMPARE(f->entries[0].value.kind, Value::Kind::Tensor);
    QVERIFY(isX(f->entries[0].value.tensor));
}

void TstTensorFile::readsTorchSaveScalarsAndViews() {
    auto mixed = readTensorFile(dataFile("mixed_tuple.pt"));
    QVERIFY2(mixed, mixed.error().c_str());
    QCOMPARE(mixed->entries.size(), size_t(4));
    QVERIFY(isA(mixed->entries[0].value.tensor));
    QCOMPARE(mixed->entries[1].value.kind, Value::Kind::Int);
    QCOMPARE(mixed->entries[1].value.i, int64_t(3));
    QCOMPARE(mixed->entries[2].value.kind, Value::Kind::Float);
    QCOMPARE(mixed->entries[2].value.f, 2.5);
    QCOMPARE(mixed->entries[3].value.kind, Value::Kind::Bool);

    // big[1:4, ::2] of arange(40).reshape(5, 8): element [i, j] = 8 (i + 1) + 2 j
    auto view = readTensorFile(dataFile("strided_view.pt"));
    QVERIFY2(view, view.error().c_str());
    const TensorData& t = view->entries.at(0).value.tensor;
    QCOMPARE(t.sizes, (std::vector<int64_t>{3, 4}));
    for (int64_t i = 0; i < 3; ++i)
        for (int64_t j = 0; j < 4; ++j) QCOMPARE(element(t, {i, j}), 8.0 * (i + 1) + 2.0 * j);
    const std::vector<std::byte> bytes = t.contiguousBytes();
    float last;
    std::memcpy(&last, bytes.data() + bytes.size() - 4, 4);
    QCOMPARE(last, 30.0f);
}

void TstTensorFile::readsNpy_data() {
    QTest::addColumn<QString>("file");
    QTest::addRow("x") << "x.npy";
    QTest::addRow("fortran order") << "a_fortran.npy";
    QTest::addRow("big-endian") << "a_bigendian.npy";
    QTest::addRow("int64") << "ids.npy";
    QTest::addRow("bool") << "mask.npy";
}

void TstTensorFile::readsNpy() {
    QFETCH(QString, file);
    auto f = readTensorFile(dataFile(file.toStdString()));
    QVERIFY2(f, f.error().c_str());
    QCOMPARE(f->format, TensorFileFormat::Npy);
    QVERIFY(!f->named);
    QCOMPARE(f->entries.size(), size_t(1));
    const TensorData& t = f->entries[0].value.tensor;
    if (file == "x.npy") QVERIFY(isX(t));
    else if (file.startsWith("a_")) QVERIFY(isA(t));
    else if (file == "ids.npy") {
        QCOMPARE(t.dtype, ScalarType::Int64);
        for (int64_t k = 0; k < 5; ++k) QCOMPARE(element(t, {k}), 10.0 * k - 20);
    } else {
        QCOMPARE(t.dtype, ScalarType::Bool);
        QCOMPARE(t.sizes, (std::vector<int64_t>{2, 3}));
        for (int64_t i = 0; i < 2; ++i)
            for (int64_t j = 0; j < 3; ++j) QCOMPARE(element(t, {i, j}), (i + j) % 2 == 0 ? 1.0 : 0.0);
    }
}

void TstTensorFile::readsNpz_data() {
    QTest::addColumn<QString>("file");
    QTest::addColumn<bool>("named");
    QTest::addColumn<QString>("name");
    QTest::addRow("by name") << "x_named.npz" << true << "x";
    QTest::addRow("positional arr_0") << "x_positional.npz" << false << "arr_0";
    QTest::addRow("compressed") << "x_compressed.npz" << true << "x";
}

void TstTensorFile::readsNpz() {
    QFETCH(QString, file);
    QFETCH(bool, named);
    QFETCH(QString, name);
    auto f = readTensorFile(dataFile(file.toStdString()));
    QVERIFY2(f, f.error().c_str());
    QCOMPARE(f->format, TensorFileFormat::Npz);
    QCOMPARE(f->named, named);
    QCOMPARE(f->entries.size(), size_t(1));
    QCOMPARE(QString::fromStdString(f->entries[0].name), name);
    QVERIFY(isX(f->entries[0].value.tensor));
}

void TstTensorFile::readsSafetensors() {
    auto f = readTensorFile(dataFile("values.safetensors"));
    QVERIFY2(f, f.error().c_str());
    QCOMPARE(f->format, TensorFileFormat::Safetensors);
    QVERIFY(f->named);
    QCOMPARE(f->metadata.at("source"), std::string("make_tensor_files.py"));
    QCOMPARE(f->entries.size(), size_t(4));
    // in the order of their data in the file
    QCOMPARE(f->entries[0].name, std::string("x"));
    QCOMPARE(f->entries[1].name, std::string("ids"));
    QCOMPARE(f->entries[2].name, std::string("mask"));
    QCOMPARE(f->entries[3].name, std::string("a"));
    QVERIFY(isX(f->find("x")->value.tensor));
    QVERIFY(isA(f->find("a")->value.tensor));
    QCOMPARE(element(f->find("ids")->value.tensor, {4}), 20.0);
    QCOMPARE(element(f->find("mask")->value.tensor, {1, 1}), 1.0);
    QVERIFY(!f->find("nothing"));
}

void TstTensorFile::readsNpyFolder() {
    QTemporaryDir dir;
    auto x = readTensorFile(dataFile("x.npy"));
    auto a = readTensorFile(dataFile("a_fortran.npy"));
    QVERIFY(x && a);
    QVERIFY(writeNpy((dir.path() + "/layers.0.relu.npy").toStdString(), x->entries[0].value.tensor));
    QVERIFY(writeNpy((dir.path() + "/addmm.npy").toStdString(), a->entries[0].value.tensor));
    writeBytes((dir.path() + "/notes.txt").toStdString(), "not a tensor");
    auto f = readTensorFile(dir.path().toStdString());
    QVERIFY2(f, f.error().c_str());
    QCOMPARE(f->format, TensorFileFormat::NpyFolder);
    QVERIFY(f->named);
    QCOMPARE(f->entries.size(), size_t(2));
    QVERIFY(isX(f->find("layers.0.relu")->value.tensor));
    QVERIFY(isA(f->find("addmm")->value.tensor));
}

void TstTensorFile::refusesMalformedFiles_data() {
    QTest::addColumn<QByteArray>("bytes");
    QTest::addColumn<QString>("message");
    const std::string npyHead = std::string("\x93NUMPY\x01\x00", 8);
    auto npy = [&](const std::string& header, const std::string& data) {
        return QByteArray::fromStdString(npyHead + char(header.size() & 0xff) + char(header.size() >> 8) + header + data);
    };
    QTest::addRow("npy truncated data") << npy("{'descr': '<f4', 'fortran_order': False, 'shape': (4,), }", std::string(8, '\0'))
                                        << "holds 8 bytes of data, <f4 1-d shape needs 16";
    QTest::addRow("npy structured dtype") << npy("{'descr': [('a', '<f4')], 'fortran_order': False, 'shape': (1,), }", "")
                                          << "structured arrays are not tensors";
    QTest::addRow("npy object dtype") << npy("{'descr': '|O', 'fortran_order': False, 'shape': (1,), }", std::string(8, '\0'))
                                      << "unsupported dtype '|O'";
    QTest::addRow("npy unknown key") << npy("{'descr': '<f4', 'order': 'C', 'shape': (1,), }", std::string(4, '\0'))
                                     << "header has an unknown key 'order'";
    QTest::addRow("npy header past the end") << QByteArray::fromStdString(npyHead + "\xff\x7f{") << "truncated .npy header";
    QTest::addRow("safetensors header length") << QByteArray::fromStdString(le64(1000) + "{}") << "header length 1000 does not fit";
    QTest::addRow("safetensors offsets past the end")
        << QByteArray::fromStdString(safetensorsBytes(R"({"x":{"dtype":"F32","shape":[4],"data_offsets":[0,16]}})", std::string(8, '\0')))
        << "data_offsets end at 16, past the file's 8 bytes of data";
    QTest::addRow("safetensors size mismatch")
        << QByteArray::fromStdString(safetensorsBytes(R"({"x":{"dtype":"F32","shape":[4],"data_offsets":[0,12]}})", std::string(16, '\0')))
        << "do not hold F32 of 1-d shape (16 bytes)";
    QTest::addRow("safetensors unknown dtype")
        << QByteArray::fromStdString(safetensorsBytes(R"({"x":{"dtype":"Q7","shape":[1],"data_offsets":[0,1]}})", std::string(1, '\0')))
        << "unsupported dtype 'Q7'";
    QTest::addRow("safetensors nested too deep")
        << QByteArray::fromStdString(safetensorsBytes("{\"x\":" + std::string(100000, '[') + std::string(100000, ']') + "}", ""))
        << "safetensors header nests deeper than 64 levels";
    QTest::addRow("safetensors bad JSON") << QByteArray::fromStdString(safetensorsBytes("{\"x\":", "")) << "header is not a JSON object";
    QTest::addRow("legacy torch.save") << QByteArray("\x80\x02\x8a\x0a\x6c\xfc\x9c\x46\xf9\x20\x6a\xa8\x50\x19.", 16)
                                       << "not a tensor file (expected torch.save .pt, .npy, .npz or .safetensors; a torch.save written "
                                          "with _use_new_zipfile_serialization=False is not read)";
    QTest::addRow("empty") << QByteArray() << "not a tensor file";
}

void TstTensorFile::refusesMalformedFiles() {
    QFETCH(QByteArray, bytes);
    QFETCH(QString, message);
    QTemporaryDir dir;
    const std::string path = (dir.path() + "/bad.bin").toStdString();
    writeBytes(path, bytes.toStdString());
    auto f = readTensorFile(path);
    QVERIFY(!f);
    QVERIFY2(f.error().find(path) == 0, f.error().c_str());
    QVERIFY2(f.error().find(message.toStdString()) != std::string::npos, f.error().c_str());
}

void TstTensorFile::refusesNestedPayloads() {
    auto nested = readTensorFile(dataFile("nested.pt"));
    QVERIFY(!nested);
    QVERIFY2(nested.error().find("nested.pt: 'a' is a tuple; save a tensor, a tuple or list of tensors, or a dict of tensors by input "
                                 "name") != std::string::npos,
             nested.error().c_str());
}

// Every committed file cut short at many lengths and with bytes flipped at random (seeded): each
// read returns, an error names the file. Under the sanitizers this is where a reader overruns.
void TstTensorFile::survivesDamagedFiles() {
    const std::string damaged = "damaged.bin";
    uint64_t state = 12345;
    auto next = [&state] { return state = state * 6364136223846793005ull + 1442695040888963407ull, state >> 33; };
    int reads = 0, refused = 0;
    for (const auto& entry : std::filesystem::directory_iterator(dataFile(""))) {
        if (entry.path().extension() == ".py") continue;
        std::ifstream in(entry.path(), std::ios::binary);
        const std::string bytes((std::istreambuf_iterator<char>(in)), {});
        auto check = [&](const std::string& variant) {
            const auto* p = reinterpret_cast<const std::byte*>(variant.data());
            auto f = parseTensorFile(Storage::fromBytes(std::vector<std::byte>(p, p + variant.size())), damaged);
            ++reads;
            if (f) return;
            ++refused;
            QVERIFY2(f.error().find(damaged) != std::string::npos || f.error().find("data.pkl") != std::string::npos, f.error().c_str());
        };
        const size_t step = std::max<size_t>(1, bytes.size() / 150);
        for (size_t n = 0; n < bytes.size(); n += step) check(bytes.substr(0, n));
        for (int k = 0; k < 150; ++k) {
            std::string flipped = bytes;
            for (int j = 0; j < 3; ++j) flipped[next() % flipped.size()] = char(next());
            check(flipped);
        }
    }
    QVERIFY(reads > 3000);
    QVERIFY(refused > reads / 2);
}

void TstTensorFile::npyWriterRoundTrip() {
    QTemporaryDir dir;
    auto view = readTensorFile(dataFile("strided_view.pt")); // strided: written in C order
    QVERIFY(view);
    const std::string path = (dir.path() + "/v.npy").toStdString();
    QVERIFY(writeNpy(path, view->entries[0].value.tensor));
    std::ifstream in(path, std::ios::binary);
    std::string bytes((std::istreambuf_iterator<char>(in)), {});
    QCOMPARE(bytes.size() % 16, size_t(0));
    QVERIFY(bytes.find("{'descr': '<f4', 'fortran_order': False, 'shape': (3, 4), }") != std::string::npos);
    auto back = readTensorFile(path);
    QVERIFY2(back, back.error().c_str());
    QCOMPARE(back->entries[0].value.tensor.contiguousBytes(), view->entries[0].value.tensor.contiguousBytes());
    // one dimension is written as numpy does, with the tuple's comma
    auto ids = readTensorFile(dataFile("ids.npy"));
    QVERIFY(writeNpy(path, ids->entries[0].value.tensor));
    std::ifstream in2(path, std::ios::binary);
    std::string bytes2((std::istreambuf_iterator<char>(in2)), {});
    QVERIFY(bytes2.find("'shape': (5,)") != std::string::npos);
}

void TstTensorFile::safetensorsWriterStreams() {
    QTemporaryDir dir;
    const std::string path = (dir.path() + "/dump.safetensors").toStdString();
    auto src = readTensorFile(dataFile("values.safetensors"));
    QVERIFY(src);
    std::vector<SafetensorsWriter::Planned> planned{{"ids", 1}, {"a", 2}, {"x", 2}, {"never added", 3}};
    auto w = SafetensorsWriter::create(path, planned, {{"program", "p.pt2"}, {"inputs", "caf\xe9.pt"}}); // a Latin-1 file name
    QVERIFY2(w, w.error().c_str());
    QVERIFY((*w)->add("ids", src->find("ids")->value.tensor));
    QVERIFY(!std::filesystem::exists(path)); // written under a temporary name until finished
    QVERIFY((*w)->add("a", src->find("a")->value.tensor));
    QVERIFY((*w)->add("x", src->find("x")->value.tensor));
    QVERIFY((*w)->finish());
    QVERIFY(!std::filesystem::exists(path + ".part"));
    auto back = readTensorFile(path);
    QVERIFY2(back, back.error().c_str());
    QCOMPARE(back->entries.size(), size_t(3)); // the planned tensor never added is left out
    QCOMPARE(back->entries[0].name, std::string("ids"));
    QCOMPARE(back->entries[2].name, std::string("x"));
    QVERIFY(isX(back->find("x")->value.tensor));
    QVERIFY(isA(back->find("a")->value.tensor));
    QCOMPARE(back->metadata.at("program"), std::string("p.pt2"));
    QCOMPARE(back->metadata.at("inputs"), std::string("caf\xef\xbf\xbd.pt")); // not UTF-8: written as U+FFFD
    // the header's room is padded with spaces; the data starts 8-byte aligned and ends the file
    std::ifstream in(path, std::ios::binary);
    std::string bytes((std::istreambuf_iterator<char>(in)), {});
    uint64_t n = 0;
    std::memcpy(&n, bytes.data(), 8);
    QCOMPARE((8 + n) % 8, uint64_t(0));
    QCOMPARE(bytes.size(), 8 + n + 40 + 48 + 64);
    QCOMPARE(bytes[8 + n - 1], ' ');
}

void TstTensorFile::safetensorsWriterRefuses() {
    QTemporaryDir dir;
    const std::string path = (dir.path() + "/dump.safetensors").toStdString();
    auto src = readTensorFile(dataFile("values.safetensors"));
    {
        auto w = SafetensorsWriter::create(path, {{"x", 1}}, {});
        QVERIFY(w);
        const Status unplanned = (*w)->add("a", src->find("a")->value.tensor);
        QVERIFY(!unplanned);
        QVERIFY2(unplanned.message().find("tensor 'a' was not planned") != std::string::npos, unplanned.message().c_str());
        const Status rank = (*w)->add("x", src->find("x")->value.tensor);
        QVERIFY2(rank.message().find("has rank 2, planned at most 1") != std::string::npos, rank.message().c_str());
        QVERIFY(std::filesystem::exists(path + ".part"));
    } // destroyed unfinished: nothing is left behind
    QVERIFY(!std::filesystem::exists(path + ".part"));
    QVERIFY(!std::filesystem::exists(path));
    auto twice = SafetensorsWriter::create(path, {{"x", 1}, {"x", 2}}, {});
    QVERIFY(!twice);
    auto missingDir = SafetensorsWriter::create(dir.path().toStdString() + "/no/such/dir/d.safetensors", {}, {});
    QVERIFY(!missingDir);
    QVERIFY2(missingDir.error().find("cannot write") != std::string::npos, missingDir.error().c_str());
}

void TstTensorFile::mapFileNamesWhy() {
    QTemporaryDir dir;
    auto folder = mapFile(dir.path().toStdString());
    QVERIFY(!folder);
    QVERIFY2(folder.error().find("not a regular file") != std::string::npos, folder.error().c_str());
    auto missing = mapFile(dir.path().toStdString() + "/none");
    QVERIFY2(missing.error().find("No such file") != std::string::npos, missing.error().c_str());
    const std::string empty = dir.path().toStdString() + "/empty";
    writeBytes(empty, "");
    auto mapped = mapFile(empty);
    QVERIFY(mapped);
    QCOMPARE((*mapped)->size, size_t(0));
}

QTEST_GUILESS_MAIN(TstTensorFile)
#include "tst_tensor_file.moc"
