#include "views/document.h"

#include "core/io/aoti_package.h"
#include "core/io/pt2_reader.h"
#include "core/layout/graph_layout.h"
#include "views/decomp/decomposition.h"
#include "views/settings_writer.h"

#include <QFileInfo>
#include <QDateTime>
#include <QFutureWatcher>
#include <QPointer>
#include <QSettings>
#include <QThread>
#include <QThreadPool>
#include <QtConcurrent>

#include <algorithm>
#include <unordered_map>

namespace irlens::views {

using namespace irlens::core;

namespace {

// Our jobs run on pools of their own, never on QThreadPool::globalInstance(): Qt 6.4's raster engine
// splits big fills across the global pool and waits for them, so a Graphviz run that holds a global
// worker for minutes (it cannot be interrupted) froze painting, and with it the UI. Never destroyed:
// exiting must not wait for a Graphviz run nobody wants any more.
QThreadPool* newJobPool() {
    auto* p = new QThreadPool;
    p->setMaxThreadCount(std::max(2, QThread::idealThreadCount()));
    p->setExpiryTimeout(30000);
    return p;
}

/// Layouts and loads.
QThreadPool* jobPool() {
    static QThreadPool* pool = newJobPool();
    return pool;
}

} // namespace

QThreadPool* Document::workerPool() {
    static QThreadPool* pool = newJobPool();
    return pool;
}

Document::Document(QObject* parent) : QObject(parent) {
    qRegisterMetaType<LayoutPtr>();
    m_decomp = new Decomposition(this);
}

Document::~Document() {
    if (m_cancel) m_cancel->store(true);
    delete m_decomp; // waits for a running step, while the Document it reports to is whole
}

void Document::setNewNodes(NewNodes nodes) {
    m_newNodes = std::move(nodes);
    Q_EMIT newNodesChanged();
}

bool Document::canDecomposeNode(int n) const {
    const Graph* g = graph();
    if (!g || m_scopes.size() != 1 || n < 0 || static_cast<size_t>(n) >= g->nodes.size()) return false;
    const std::string& name = g->nodes[static_cast<size_t>(n)].name;
    const std::vector<core::DecompCandidate> candidates = m_decomp->candidates();
    return std::any_of(candidates.begin(), candidates.end(), [&](const core::DecompCandidate& c) { return c.node == name; });
}

bool Document::decomposeNode(int n) {
    if (!canDecomposeNode(n)) return false;
    return m_decomp->stepNode(QString::fromStdString(graph()->nodes[static_cast<size_t>(n)].name));
}

// ---------------------------------------------------------------------------- program

void Document::openFile(const QString& path) {
    cancel();
    const quint64 generation = ++m_loadGeneration;
    m_cancel = std::make_shared<std::atomic<bool>>(false);
    auto cancelFlag = m_cancel;
    setBusy(true, tr("Loading %1").arg(QFileInfo(path).fileName()));
    QPointer<Document> self(this);
    // filled by the worker when the file is an AOTInductor package; read once the future finished
    auto package = std::make_shared<std::shared_ptr<const AotiPackage>>();
    // the module tree is built on the worker too (0.2-0.4 s on the GUI thread for 100,000 nodes)
    auto tree = std::make_shared<std::shared_ptr<const ModuleTree>>();
    auto future = QtConcurrent::run(jobPool(), [path, cancelFlag, self, generation, package, tree]() -> Result<ProgramPtr> {
        LoadOptions options;
        options.cancel = cancelFlag.get();
        options.progress = [self, generation](double f) {
            QMetaObject::invokeMethod(self, [self, generation, f] {
                if (self && self->m_loadGeneration == generation)
                    Q_EMIT self->progressChanged(tr("Loading"), static_cast<int>(f * 100));
            }, Qt::QueuedConnection);
        };
        auto loaded = loadPt2(path.toStdString(), options);
        if (loaded.isOk()) *tree = std::make_shared<const ModuleTree>(ModuleTree::build((*loaded)->graph));
        if (!loaded.isOk())
            if (auto described = readAotiPackage(path.toStdString())) // fails unless the file is a package
                *package = std::make_shared<const AotiPackage>(std::move(*described));
        return loaded;
    });
    auto* watcher = new QFutureWatcher<Result<ProgramPtr>>(this);
    connect(watcher, &QFutureWatcherBase::finished, this, [this, watcher, generation, path, package, tree] {
        watcher->deleteLater();
        if (generation != m_loadGeneration) return; // superseded by a newer open
        auto result = watcher->result();
        if (!result.isOk() && *package) {
            setBusy(false);
            Q_EMIT packageOpened(path, *package);
            return;
        }
        if (!result.isOk()) {
            setBusy(false);
            Q_EMIT loadFailed(QString::fromStdString(result.error()));
            return;
        }
        m_preparedTree = *tree;
        setProgram(*result, QFileInfo(path).fileName());
        m_path = path;
    });
    watcher->setFuture(future);
}

void Document::setProgram(ProgramPtr program, const QString& title, std::shared_ptr<const ModuleTree> tree) {
    if (tree) m_preparedTree = std::move(tree);
    // what is on screen now, to place a decomposition step on it (top level only)
    ProgramPtr before = m_program;
    LayoutPtr beforeLayout;
    CollapseState beforeCollapse;
    std::shared_ptr<const ModuleTree> beforeTree;
    if (m_scopes.size() == 1) {
        beforeCollapse = m_scopes.front().collapse;
        beforeTree = m_scopes.front().tree;
        beforeLayout = m_cache.find(LayoutCache::key(programKey().toStdString(), m_scopes.front().key.toStdString(),
                                                     beforeCollapse.key()));
    }
    m_program = std::move(program);
    m_numerics.reset(); // values of another program
    m_stepping = {};
    m_title = title;
    m_path = m_program ? QString::fromStdString(m_program->sourcePath) : QString();
    ++m_programGeneration;
    m_cache.clear();
    m_layout.reset();
    m_selected = -1;
    m_selectedItem.clear();
    m_symbol.clear();
    m_searchHits.clear();
    m_diagnostics.clear();
    m_withheldRows.clear();
    m_withheld = false;
    m_verifying = m_program != nullptr;
    m_scopes.clear();
    if (m_program) pushTopScope();
    m_incrementalBase.reset();
    m_incrementalMap.clear();
    if (before && m_program && before != m_program && beforeLayout && beforeTree) {
        m_incrementalMap = replacementsBetween(before->graph, m_program->graph);
        if (!m_incrementalMap.empty()) {
            m_incrementalBase = beforeLayout;
            // the same modules stay open (module indices may shift when a module lost its last node)
            const ModuleTree& tree = *m_scopes.back().tree;
            std::unordered_map<std::string, int> byLabel;
            for (int m = 1; m < tree.size(); ++m) byLabel.emplace(tree.module(m).label(), m);
            CollapseState collapse = CollapseState::topLevel();
            for (int m : beforeCollapse.expanded())
                if (m > 0 && m < beforeTree->size())
                    if (auto it = byLabel.find(beforeTree->module(m).label()); it != byLabel.end())
                        collapse.setExpanded(it->second, true);
            m_scopes.back().collapse = collapse;
        }
    }
    Q_EMIT programChanged();
    Q_EMIT scopeChanged();
    Q_EMIT selectionChanged(-1);
    Q_EMIT diagnosticsChanged();
    // the verifier starts once the first frame is laid out: on two cores it would slow that frame down
    m_verifyPending = m_program != nullptr;
    requestLayout();
}

void Document::pushTopScope() {
    Scope s;
    s.label = m_title.isEmpty() ? tr("graph") : m_title;
    s.graph = &m_program->graph;
    s.signature = &m_program->signature;
    // built by the loading worker (openFile) or here (a program built in code)
    auto tree = m_preparedTree ? std::move(m_preparedTree) : std::make_shared<const ModuleTree>(ModuleTree::build(m_program->graph));
    m_preparedTree.reset();
    s.collapse = CollapseState::automatic(*tree, static_cast<int>(m_program->graph.nodes.size()));
    s.tree = std::move(tree);
    s.key = QStringLiteral("top");
    m_scopes.push_back(std::move(s));
}

QString Document::programKey() const { return QString::number(m_programGeneration); }

// ---------------------------------------------------------------------------- scope and layout

bool Document::enterSubgraph(int nodeIndex, int subgraph) {
    const Graph* g = graph();
    if (!g || nodeIndex < 0 || nodeIndex >= static_cast<int>(g->nodes.size())) return false;
    const Node& node = g->nodes[static_cast<size_t>(nodeIndex)];
    int seen = 0;
    for (const auto& in : node.inputs) {
        if (in.arg.kind != ArgKind::Graph || !in.arg.graph()) continue;
        if (seen++ != subgraph) continue;
        Scope s;
        s.label = QString::fromStdString(node.name + " · " + in.arg.s);
        s.graph = in.arg.graph().get();
        auto tree = std::make_shared<ModuleTree>(ModuleTree::build(*s.graph));
        s.collapse = CollapseState::automatic(*tree, static_cast<int>(s.graph->nodes.size()));
        s.tree = std::move(tree);
        s.key = scope().key + "/" + QString::fromStdString(node.name) + ":" + QString::number(subgraph);
        s.node = nodeIndex;
        s.subgraph = subgraph;
        m_scopes.push_back(std::move(s));
        onScopeChanged();
        return true;
    }
    return false;
}

void Document::leaveSubgraph(int depth) {
    if (m_scopes.size() <= 1) return;
    size_t keep = depth < 0 ? m_scopes.size() - 1 : static_cast<size_t>(depth) + 1;
    if (keep >= m_scopes.size() || keep == 0) return;
    m_scopes.resize(keep);
    onScopeChanged();
}

void Document::onScopeChanged() {
    m_selected = -1;
    m_selectedItem.clear();
    m_searchHits.clear();
    Q_EMIT scopeChanged();
    Q_EMIT selectionChanged(-1);
    Q_EMIT searchHitsChanged();
    requestLayout();
}

void Document::toggleModule(int module) {
    if (m_scopes.empty()) return;
    m_scopes.back().collapse.toggle(module);
    requestLayout();
}

void Document::setModuleExpanded(int module, bool expanded) {
    if (m_scopes.empty() || m_scopes.back().collapse.isExpanded(module) == expanded) return;
    m_scopes.back().collapse.setExpanded(module, expanded);
    requestLayout();
}

void Document::setCollapse(const CollapseState& state) {
    if (m_scopes.empty()) return;
    m_scopes.back().collapse = state;
    requestLayout();
}

void Document::collapseAll() {
    if (m_scopes.empty()) return;
    Q_EMIT wholeDrawingChanged();
    setCollapse(CollapseState::topLevel());
}

void Document::expandAll() {
    if (m_scopes.empty()) return;
    Q_EMIT wholeDrawingChanged();
    setCollapse(CollapseState::allExpanded(*m_scopes.back().tree));
}

void Document::revealNode(int nodeIndex) {
    if (m_scopes.empty()) return;
    auto& s = m_scopes.back();
    bool changed = false;
    // a node of a folded run: that run shows the node's instance
    if (const ModuleFolds* f = foldsNow()) {
        const auto place = f->placeOfNode(nodeIndex);
        if (place.fold >= 0 && f->folds()[size_t(place.fold)].drawnOnce(kMinFoldRun) && shownInstance(place.fold) != place.instance) {
            switchInstance(s, *f, place.fold, place.instance);
            changed = true;
        }
    }
    for (int m : s.tree->chainOfNode(nodeIndex))
        if (!s.collapse.isExpanded(m)) {
            s.collapse.setExpanded(m, true);
            changed = true;
        }
    if (changed) requestLayout();
}

int Document::shownInstance(int fold) const {
    if (m_scopes.empty()) return 0;
    const auto& shown = m_scopes.back().shownInstance;
    auto it = shown.find(fold);
    return it == shown.end() ? 0 : it->second;
}

int Document::foldedInstanceOf(int node) const {
    const ModuleFolds* f = foldsDrawn() ? folds() : nullptr;
    const auto place = f ? f->placeOfNode(node) : ModuleFolds::Place{};
    if (place.fold < 0 || !f->folds()[size_t(place.fold)].drawnOnce(kMinFoldRun)) return -1;
    return f->folds()[size_t(place.fold)].instances[size_t(place.instance)];
}

bool Document::showInstance(int fold, int instance) {
    const ModuleFolds* f = foldsNow();
    if (!f || fold < 0 || static_cast<size_t>(fold) >= f->folds().size()) return false;
    const ModuleFold& group = f->folds()[static_cast<size_t>(fold)];
    if (!group.drawnOnce(kMinFoldRun) || instance < 0 || instance >= group.count() || instance == shownInstance(fold)) return false;
    switchInstance(m_scopes.back(), *f, fold, instance);
    requestLayout();
    return true;
}

void Document::switchInstance(Scope& s, const ModuleFolds& f, int fold, int instance) {
    const ModuleFold& group = f.folds()[static_cast<size_t>(fold)];
    const int from = group.instances[static_cast<size_t>(shownInstance(fold))];
    const int to = group.instances[static_cast<size_t>(instance)];
    std::vector<int> open; // collected first: opening modules changes the set being read
    for (int m : s.collapse.expanded())
        if (s.tree->isWithin(m, from)) open.push_back(s.tree->counterpart(m, from, to));
    for (int m : open)
        if (m > 0) s.collapse.setExpanded(m, true);
    s.shownInstance[fold] = instance;
}

const ModuleFolds* Document::foldsNow() {
    if (!foldsDrawn() || m_scopes.empty()) return nullptr;
    const Scope& s = m_scopes.back();
    // found on the layout's thread when a layout first needs them; asked for before that (a search
    // hit while the top level is closed), here: once per program, 0.19 s on the 100k-node program
    return &s.folds->get(*s.graph, s.signature, *s.tree);
}

void Document::relayout() { requestLayout(true); }

const ModuleFolds& Scope::Folds::get(const Graph& g, const GraphSignature* sig, const ModuleTree& tree) {
    std::call_once(once, [&] {
        folds = ModuleFolds::detect(g, sig, tree);
        ready.store(true);
    });
    return folds;
}

const ModuleFolds* Document::folds() const {
    if (m_scopes.empty() || !m_scopes.back().folds->ready.load()) return nullptr;
    return &m_scopes.back().folds->folds;
}

bool Document::foldsDrawn() const {
    return m_foldRepeated && graph() && static_cast<int>(graph()->nodes.size()) >= kFoldFromNodes;
}

void Document::setFoldRepeatedBlocks(bool on) {
    if (on == m_foldRepeated) return;
    m_foldRepeated = on;
    requestLayout();
}

void Document::setDrawFxPlaceholders(bool on) {
    if (on == m_fxPlaceholders) return;
    m_fxPlaceholders = on;
    requestLayout();
}

// The status bar's "Laying out: 37 of 129 parts", from the layout's thread (at most every 50 ms).
std::function<void(int, int)> Document::layoutProgress(quint64 generation) {
    auto last = std::make_shared<std::atomic<qint64>>(0);
    QPointer<Document> self(this);
    return [self, generation, last](int done, int total) {
        const qint64 now = QDateTime::currentMSecsSinceEpoch();
        if (done < total && now - last->load() < 50) return;
        last->store(now);
        QMetaObject::invokeMethod(self, [self, generation, done, total] {
            if (!self || generation != self->m_layoutGeneration || !self->m_busy) return;
            Q_EMIT self->progressChanged(tr("Laying out: %1 of %2 parts").arg(done).arg(total), total > 0 ? done * 100 / total : -1);
        }, Qt::QueuedConnection);
    };
}

namespace {

// Repeated blocks change a drawing only where a module holding `minRun` children or more is open:
// finding them (0.19 s on the 100k program, before its first frame) waits until one is.
bool foldsCanShow(const CollapseState& collapse, const ModuleTree& tree, int minRun) {
    for (int m = 0; m < tree.size(); ++m)
        if (static_cast<int>(tree.module(m).children.size()) >= minRun && collapse.isExpanded(m)) return true;
    return false;
}

} // namespace

// Shows a preview layout on the GUI thread, unless a newer layout was asked for or this one is done.
std::function<void(LayoutPtr)> Document::layoutPreviewSink(quint64 generation) {
    QPointer<Document> self(this);
    return [self, generation](LayoutPtr layout) {
        QMetaObject::invokeMethod(self, [self, generation, layout] {
            if (!self || generation != self->m_layoutGeneration || !self->m_busy) return;
            Q_EMIT self->layoutPreview(layout);
        }, Qt::QueuedConnection);
    };
}

void Document::requestLayout(bool force) {
    if (m_scopes.empty()) {
        m_layout.reset();
        return;
    }
    const Scope& s = scope();
    std::string drawing = m_fxPlaceholders ? "|fx" : "";
    if (foldsDrawn()) {
        drawing += "|fold";
        for (const auto& [fold, instance] : s.shownInstance) drawing += ":" + std::to_string(fold) + "=" + std::to_string(instance);
    }
    const std::string key = LayoutCache::key(programKey().toStdString(), s.key.toStdString(), s.collapse.key() + drawing);
    const quint64 generation = ++m_layoutGeneration;
    // a step's incremental placement applies to the first layout of the new program only
    LayoutPtr base = m_scopes.size() == 1 && !force ? m_incrementalBase : nullptr;
    NodeReplacementMap replaced = base ? m_incrementalMap : NodeReplacementMap{};
    m_incrementalBase.reset();
    m_incrementalMap.clear();
    if (auto cached = force ? nullptr : m_cache.find(key)) {
        m_layout = cached;
        setBusy(false);
        Q_EMIT layoutReady(m_layout);
        startPendingVerify();
        return;
    }
    if (m_cancel) m_cancel->store(true);
    m_cancel = std::make_shared<std::atomic<bool>>(false);
    auto cancelFlag = m_cancel;
    setBusy(true, tr("Laying out"));
    Q_EMIT layoutStarted();
    // the worker keeps the program (and so the graph) alive even if the document moves on
    ProgramPtr keepAlive = m_program;
    auto tree = s.tree;
    const Graph* g = s.graph;
    const GraphSignature* sig = s.signature;
    CollapseState collapse = s.collapse;
    VisibleGraphOptions drawn;
    drawn.fxPlaceholders = m_fxPlaceholders;
    drawn.shownInstance = s.shownInstance;
    drawn.minFoldRun = kMinFoldRun;
    auto folds = foldsDrawn() ? s.folds : nullptr; // kept alive by the worker, like the tree
    auto progress = layoutProgress(generation);
    const int previewFrom = base ? -1 : m_previewFromBoxes; // a step's incremental placement: none
    auto showPreview = layoutPreviewSink(generation);
    auto future = QtConcurrent::run(jobPool(), [keepAlive, tree, g, sig, collapse, drawn, folds, cancelFlag, base, replaced,
                                                progress, previewFrom, showPreview]() mutable -> Result<LayoutPtr> {
        if (folds && foldsCanShow(collapse, *tree, drawn.minFoldRun)) drawn.folds = &folds->get(*g, sig, *tree);
        std::optional<CollapseState> preview;
        if (previewFrom >= 0 && estimatedBoxes(collapse, *tree) > previewFrom) preview = previewOf(collapse, *tree, kPreviewBoxes);
        if (preview) { // a coarser drawing first, shown while the full one is made
            LayoutOptions options;
            options.cancel = cancelFlag.get();
            auto coarse = layoutVisibleGraph(buildVisibleGraph(*g, sig, *tree, *preview, drawn), *tree, options);
            if (cancelFlag->load()) return Status::error("layout cancelled");
            if (coarse.isOk()) showPreview(*coarse);
        }
        VisibleGraph visible = buildVisibleGraph(*g, sig, *tree, collapse, drawn);
        if (base) {
            IncrementalLayoutOptions incremental;
            incremental.cancel = cancelFlag.get();
            auto placed = layoutIncremental(*base, visible, *tree, replaced, incremental);
            if (placed.isOk() || (cancelFlag && cancelFlag->load())) return placed;
            // too big or too tangled to place locally: a full layout it is
        }
        LayoutOptions options;
        options.cancel = cancelFlag.get();
        options.progress = progress;
        return layoutVisibleGraph(std::move(visible), *tree, options);
    });
    auto* watcher = new QFutureWatcher<Result<LayoutPtr>>(this);
    connect(watcher, &QFutureWatcherBase::finished, this, [this, watcher, generation, key] {
        watcher->deleteLater();
        if (generation != m_layoutGeneration) return; // a newer collapse state or program
        auto result = watcher->result();
        setBusy(false);
        if (!result.isOk()) {
            Q_EMIT layoutFailed(QString::fromStdString(result.error()));
            startPendingVerify();
            return;
        }
        m_cache.insert(key, *result);
        m_layout = *result;
        Q_EMIT layoutReady(m_layout);
        startPendingVerify();
    });
    watcher->setFuture(future);
}

// ---------------------------------------------------------------------------- selection

void Document::selectNode(int nodeIndex) {
    const Graph* g = graph();
    if (!g || nodeIndex >= static_cast<int>(g->nodes.size())) nodeIndex = -1;
    if (nodeIndex == m_selected && m_selectedItem.isEmpty()) return;
    m_selected = nodeIndex;
    m_selectedItem.clear();
    Q_EMIT selectionChanged(nodeIndex);
}

void Document::selectItem(const QString& itemId) {
    if (itemId.isEmpty()) return selectNode(-1);
    if (itemId == m_selectedItem) return;
    m_selected = -1;
    m_selectedItem = itemId;
    Q_EMIT selectionChanged(-1);
}

int Document::nodeIndexOf(const QString& name) const {
    const Graph* g = graph();
    if (!g) return -1;
    const std::string n = name.toStdString();
    for (size_t k = 0; k < g->nodes.size(); ++k)
        if (g->nodes[k].name == n) return static_cast<int>(k);
    // a value name: select its producer
    for (size_t k = 0; k < g->nodes.size(); ++k)
        for (const auto& out : g->nodes[k].outputNames())
            if (out == n) return static_cast<int>(k);
    return -1;
}

bool Document::selectNodeByName(const QString& name) {
    int k = nodeIndexOf(name);
    if (k < 0) return false;
    selectNode(k);
    return true;
}

void Document::setHighlightSymbol(const QString& symbol) {
    if (symbol == m_symbol) return;
    m_symbol = symbol;
    Q_EMIT symbolHighlightChanged(symbol);
}

void Document::setStepping(Stepping stepping) {
    if (stepping.active == m_stepping.active && stepping.next == m_stepping.next) return;
    m_stepping = stepping;
    Q_EMIT steppingChanged();
}

void Document::setSearchHits(const std::vector<int>& nodes) {
    m_searchHits = nodes;
    Q_EMIT searchHitsChanged();
}

void Document::setDiagnostics(std::vector<DiagnosticRow> diagnostics) {
    if (m_withheld) m_withheldRows = std::move(diagnostics);
    else m_diagnostics = std::move(diagnostics);
    Q_EMIT diagnosticsChanged();
}

// ---------------------------------------------------------------------------- jobs

void Document::startPendingVerify() {
    if (!m_verifyPending) return;
    m_verifyPending = false;
    startVerify();
}

void Document::cancel() {
    if (m_cancel) m_cancel->store(true);
    if (m_busy) {
        // drop whatever the running jobs deliver
        ++m_loadGeneration;
        ++m_layoutGeneration;
        setBusy(false);
    }
}

void Document::setBusy(bool busy, const QString& stage) {
    if (busy) Q_EMIT progressChanged(stage, -1);
    if (busy == m_busy) return;
    m_busy = busy;
    Q_EMIT busyChanged(busy);
}

// Kept in one settings map (file -> paths): a file's path is no settings key (its slashes make groups).
QStringList Document::inputFiles() const {
    const QString key = m_path.isEmpty() ? m_title : m_path;
    if (auto it = m_inputFiles.find(key); it != m_inputFiles.end()) return *it;
    if (m_path.isEmpty()) return {};
    return QSettings().value("run/inputFiles").toMap().value(m_path).toStringList();
}

void Document::setInputFiles(const QStringList& paths) {
    const QString key = m_path.isEmpty() ? m_title : m_path;
    m_inputFiles[key] = paths;
    if (!m_path.isEmpty()) {
        waitForSettingWrites(); // the map as last written
        QVariantMap all = QSettings().value("run/inputFiles").toMap();
        if (paths.isEmpty()) all.remove(m_path);
        else all[m_path] = paths;
        writeSettingLater("run/inputFiles", all);
    }
    Q_EMIT inputFilesChanged();
}

} // namespace irlens::views
