// What a loaded program costs in resident memory per node (issue #11, "memory per node"). Each case
// writes a program built in code to a .pt2, then loads it (graph only, no weights) in a forked child:
// the child hands its free heap back to the system first, so the growth it measures is what the
// loaded program holds, not memory the parent freed and the child reused. The bounds are per node.
#include "support/chain_program.h"
#include "support/synthetic_program.h"

#include "core/decomp/decomp_session.h"
#include "core/ir/builder.h"
#include "core/io/pt2_reader.h"
#include "core/io/pt2_writer.h"

#include <QTemporaryDir>
#include <QTest>

#include <cstdio>
#include <cstring>
#include <malloc.h>
#include <sys/wait.h>
#include <unistd.h>

using namespace irlens::core;

namespace {

double statusKiB(const char* key) {
    std::FILE* f = std::fopen("/proc/self/status", "r");
    if (!f) return -1;
    char line[256];
    double kib = -1;
    while (std::fgets(line, sizeof line, f))
        if (std::strncmp(line, key, std::strlen(key)) == 0) kib = std::atof(line + std::strlen(key));
    std::fclose(f);
    return kib;
}

struct Held {
    double bytesPerNode = -1; // resident growth from before the load to after it, the program alive
    double peakPerNode = -1;  // the high-water mark's growth during the load (the JSON tree included)
    double heapPerNode = -1;  // the growth of the bytes malloc hands out (no page rounding, no freed holes)
    int nodes = 0;
    bool ok = false;
};

// Loads `path` in a child process and reports the resident memory its program holds; with
// `decompose`, what the program, its Core ATen and its prims versions hold together (a decomposition
// session keeps each step for undo), per node of the original, and the peak of load and both steps.
Held measureLoad(const std::string& path, bool decompose = false) {
    int fds[2];
    if (pipe(fds) != 0) return {};
    const pid_t child = fork();
    if (child == 0) {
        close(fds[0]);
        malloc_trim(0);
        if (std::FILE* f = std::fopen("/proc/self/clear_refs", "w")) { // the high-water mark starts here
            std::fputs("5", f);
            std::fclose(f);
        }
        const double before = statusKiB("VmRSS:"), peakBefore = statusKiB("VmHWM:");
        const double heapBefore = static_cast<double>(mallinfo2().uordblks);
        LoadOptions options;
        options.loadWeights = false;
        auto program = loadPt2(path, options);
        Held h;
        std::unique_ptr<DecompSession> session;
        if (program && decompose) {
            session = std::make_unique<DecompSession>(*program);
            if (!session->stepAll(DecompStage::ToCore) || !session->stepAll(DecompStage::ToPrims)) program = Status::error("decomposition failed");
        }
        if (program) {
            malloc_trim(0); // what the load freed (its JSON tree) does not count as held
            h.nodes = static_cast<int>((*program)->graph.nodes.size());
            h.bytesPerNode = (statusKiB("VmRSS:") - before) * 1024.0 / h.nodes;
            h.peakPerNode = (statusKiB("VmHWM:") - peakBefore) * 1024.0 / h.nodes;
            h.heapPerNode = (static_cast<double>(mallinfo2().uordblks) - heapBefore) / h.nodes;
            h.ok = before > 0;
        }
        const bool written = write(fds[1], &h, sizeof h) == static_cast<ssize_t>(sizeof h);
        _exit(written ? 0 : 1);
    }
    close(fds[1]);
    Held h;
    const bool read = child > 0 && ::read(fds[0], &h, sizeof h) == static_cast<ssize_t>(sizeof h);
    close(fds[0]);
    if (child > 0) waitpid(child, nullptr, 0);
    return read ? h : Held{};
}

// Writes `p` to a .pt2, lets it go, and measures the load of the file (and its decomposition).
Held saveAndMeasure(ProgramPtr p, bool decompose = false) {
    QTemporaryDir dir;
    const std::string path = dir.filePath("program.pt2").toStdString();
    if (!savePt2(*p, path).isOk()) return {};
    p.reset();
    return measureLoad(path, decompose);
}

// torch.export records the whole Python stack of the line that made a node; every node of one line
// in forward() carries the same text. A dozen frames per line, one line per op of a block.
std::string longTrace(const std::string& op) {
    std::string trace;
    for (int f = 0; f < 11; ++f)
        trace += "  File \"/usr/lib/python3/dist-packages/torch/nn/modules/module.py\", line " + std::to_string(1500 + f) +
                 ", in _call_impl\n    return forward_call(*args, **kwargs)\n";
    return trace + "  File \"/home/user/models/stack.py\", line 42, in forward\n    x = self." + op + "(x)  # " + op + "\n";
}

// The transformer stack with those traces: 16 distinct texts of about 1.3 KB, each on 1,250 nodes.
ProgramPtr transformerWithTraces(int blocks) {
    auto p = std::const_pointer_cast<Program>(irlens::testing::makeTransformerStack(blocks));
    for (auto& n : p->graph.nodes) {
        n.meta.raw["stack_trace"] = longTrace(n.name.substr(0, n.name.rfind('_')));
        n.meta.parseFromRaw();
    }
    return p;
}

} // namespace

class TstLoadMemory : public QObject {
    Q_OBJECT
private slots:
    void bytesPerNode_data();
    void bytesPerNode();
    void largeStringCopies_data();
    void largeStringCopies();
};

void TstLoadMemory::bytesPerNode_data() {
    QTest::addColumn<QString>("program");
    QTest::addColumn<double>("heldLimit");
    QTest::addColumn<double>("peakLimit");
    // Measured: the traced stack holds 2,452 bytes per node, peak 5,598 while loading (the program, and
    // the JSON text viewed in place; the graph's nodes and value tables are decoded one at a time, never
    // held as a tree); the chain 996, peak 1,786. With the whole document's tree held while decoding:
    // peaks of 9,479 and 3,163. Each traced node holding its own copies of its 1.3 KB trace and its 12
    // parsed frames was over 4 KB more. The limits guard against growth and fail a tree held whole.
    QTest::addRow("transformer blocks, module stacks, a 12-frame trace per line") << "traced" << 2900.0 << 7000.0;
    QTest::addRow("relu chain without metadata") << "chain" << 1150.0 << 2400.0;
    // The issue measured over 7 GB decomposing a million trivial nodes (7 KB per node). The chain loaded
    // and stepped to core ATen and to prims, every step kept for undo, per node of the original: 3,971
    // held (the chain, its unchanged core ATen step sharing it, the prims program of 40,000 nodes), peak
    // 5,298; before a step that changes nothing kept the program it started from: 4,878 / 6,194.
    QTest::addRow("relu chain decomposed to core ATen and prims") << "decomposed" << 4500.0 << 6000.0;
}

void TstLoadMemory::bytesPerNode() {
    QFETCH(QString, program);
    QFETCH(double, heldLimit);
    QFETCH(double, peakLimit);
    ProgramPtr p = program == "traced" ? transformerWithTraces(1250) : irlens::testing::makeBareChain(20000);
    QVERIFY(p);
    const int nodes = static_cast<int>(p->graph.nodes.size());
    const Held h = saveAndMeasure(std::move(p), program == "decomposed");
    QVERIFY2(h.ok, "the program could not be saved, or the child process could not measure its memory");
    QCOMPARE(h.nodes, nodes);
    qInfo("%d nodes: %.0f bytes per node held (%.0f of them in malloc's hands), peak %.0f bytes per node while loading",
          h.nodes, h.bytesPerNode, h.heapPerNode, h.peakPerNode);
    QVERIFY2(h.bytesPerNode < heldLimit, qPrintable(QString("%1 bytes per node held").arg(h.bytesPerNode)));
    QVERIFY2(h.peakPerNode < peakLimit, qPrintable(QString("peak %1 bytes per node").arg(h.peakPerNode)));
}

// Issue #11: "a 100 MB string is held 7.5 times". One node carries a 32 MiB string, as its stack
// trace or as a string argument; the load may hold the file's JSON text besides it at its peak, and
// keeps one copy once it is done.
void TstLoadMemory::largeStringCopies_data() {
    QTest::addColumn<QString>("where");
    QTest::addColumn<double>("heldLimit");
    QTest::addColumn<double>("peakLimit");
    // Measured: held 1.05 times, peak 2.04 (the JSON text and the string); the stack trace peaked at
    // 5.05 while its frames were parsed from copies of the text and of each line.
    QTest::addRow("stack_trace") << "trace" << 1.25 << 2.5;
    QTest::addRow("string argument") << "argument" << 1.25 << 2.5;
}

void TstLoadMemory::largeStringCopies() {
    QFETCH(QString, where);
    QFETCH(double, heldLimit);
    QFETCH(double, peakLimit);
    const size_t size = size_t(32) << 20;
    std::string text(size, ' ');
    for (size_t k = 0; k < size; k += 64) text[k] = static_cast<char>('a' + k / 64 % 26); // no escapes, no frames
    ProgramPtr p;
    {
        ProgramBuilder b;
        const std::string x = b.userInput("x", makeTensorMeta(ScalarType::Float32, {1, 8}));
        if (where == "trace") {
            b.call("torch.ops.aten.relu.default", "relu").arg("self", x).stackTrace(text).out(makeTensorMeta(ScalarType::Float32, {1, 8}));
        } else {
            b.call("torch.ops.aten.div.Tensor_mode", "relu").arg("self", x).arg("other", x)
                .kwarg("rounding_mode", Argument::string(text)).out(makeTensorMeta(ScalarType::Float32, {1, 8}));
        }
        b.userOutput("relu");
        auto built = b.build();
        QVERIFY(built);
        p = *built;
    }
    text = std::string();
    const Held h = saveAndMeasure(std::move(p));
    QVERIFY2(h.ok, "the program could not be saved, or the child process could not measure its memory");
    const double held = h.bytesPerNode * h.nodes / static_cast<double>(size);
    const double peak = h.peakPerNode * h.nodes / static_cast<double>(size);
    qInfo("a 32 MiB string: held %.2f times after the load, %.2f times at its peak", held, peak);
    QVERIFY2(held < heldLimit, qPrintable(QString("held %1 times").arg(held)));
    QVERIFY2(peak < peakLimit, qPrintable(QString("%1 times at the peak").arg(peak)));
}

QTEST_GUILESS_MAIN(TstLoadMemory)
#include "tst_load_memory.moc"
