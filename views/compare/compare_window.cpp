#include "views/compare/compare_window.h"

#include "views/compare/compare_models.h"
#include "views/compare/diff_overlay.h"
#include "views/document.h"
#include "views/graph/graph_items.h"
#include "views/graph/graph_scene.h"
#include "views/graph/graph_view.h"

#include "core/decomp/decomp_session.h"
#include "core/io/pt2_reader.h"

#include <QDir>
#include <QFileInfo>
#include <QHeaderView>
#include <QLabel>
#include <QScrollBar>
#include <QSplitter>
#include <QTabWidget>
#include <QTableView>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>

#include <filesystem>

namespace irlens::views {

namespace {

QString legendHtml() {
    auto swatch = [](const QColor& c, const QString& text) {
        return QStringLiteral("<span style='color:%1; font-size:large'>■</span>&nbsp;%2&nbsp;&nbsp;&nbsp;").arg(c.name(), text);
    };
    return swatch(matchKindColor(core::MatchKind::Changed), QObject::tr("changed")) +
           swatch(matchKindColor(core::MatchKind::Added), QObject::tr("added")) +
           swatch(matchKindColor(core::MatchKind::Removed), QObject::tr("removed")) +
           swatch(divergenceColor(), QObject::tr("first divergent values (dashed)")) + QObject::tr("no mark: same");
}

QString sideTitle(const core::ProgramPtr& p, const QString& label) {
    return QStringLiteral("<b>%1</b> · %2 nodes").arg(label.toHtmlEscaped()).arg(p ? p->graph.nodes.size() : 0);
}

QString labelOf(const core::ProgramPtr& p) {
    if (!p) return {};
    if (p->sourcePath.empty()) return QString::fromStdString(p->modelName);
    // "tiny_gpt/model.pt2": exported files are often all called model.pt2
    const QFileInfo file(QString::fromStdString(p->sourcePath));
    return file.dir().dirName() + "/" + file.fileName();
}

/// The inputs of the numeric comparison: the model.expected/ folder beside the left file, if any.
std::string expectedDirOf(const QString& leftPath) {
    if (leftPath.isEmpty()) return {};
    auto dir = std::filesystem::path(leftPath.toStdString()).parent_path() / "model.expected";
    return std::filesystem::exists(dir / "manifest.json") ? dir.string() : std::string();
}

} // namespace

CompareWindow::CompareWindow(QWidget* parent) : QWidget(parent, Qt::Window), m_left(new Document(this)), m_right(new Document(this)) {
    setWindowTitle(tr("Compare programs"));
    setAttribute(Qt::WA_DeleteOnClose, false);
    buildUi();
    connectSync(m_left, m_right, true);
    connectSync(m_right, m_left, false);
    connect(&m_matchWatcher, &QFutureWatcher<CompareResult>::finished, this, &CompareWindow::onMatched);
    connect(&m_divWatcher, &QFutureWatcherBase::finished, this, &CompareWindow::onDivergence);
    resize(1500, 950);
}

CompareWindow::~CompareWindow() {
    // the children (views, scenes, documents) go after this body: nothing of theirs may call back
    for (QObject* sender : std::initializer_list<QObject*>{m_left, m_right, m_leftView->horizontalScrollBar(), m_leftView->verticalScrollBar(),
                                                          m_rightView->horizontalScrollBar(), m_rightView->verticalScrollBar()})
        QObject::disconnect(sender, nullptr, this, nullptr);
    m_matchWatcher.waitForFinished();
    m_divWatcher.waitForFinished();
}

QWidget* CompareWindow::buildSide(Document* doc, GraphScene*& scene, GraphView*& view, QLabel*& title) {
    auto* box = new QWidget;
    auto* lay = new QVBoxLayout(box);
    lay->setContentsMargins(0, 0, 0, 0);
    title = new QLabel;
    title->setTextFormat(Qt::RichText);
    scene = new GraphScene(doc, this);
    view = new GraphView(doc, scene);
    lay->addWidget(title);
    lay->addWidget(view, 1);
    return box;
}

void CompareWindow::buildUi() {
    auto* lay = new QVBoxLayout(this);
    m_head = new QLabel(tr("Nothing compared yet"));
    m_head->setWordWrap(true);
    auto* legend = new QLabel(legendHtml());
    legend->setTextFormat(Qt::RichText);
    legend->setObjectName("compareLegend");
    m_numeric = new QLabel;
    m_numeric->setWordWrap(true);
    m_numeric->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto* sides = new QSplitter(Qt::Horizontal);
    sides->addWidget(buildSide(m_left, m_leftScene, m_leftView, m_leftTitle));
    sides->addWidget(buildSide(m_right, m_rightScene, m_rightView, m_rightTitle));
    sides->setSizes({1, 1}); // two equal halves
    m_leftOverlay = new DiffOverlay(m_left, m_leftScene, this);
    m_rightOverlay = new DiffOverlay(m_right, m_rightScene, this);
    for (GraphScene* scene : {m_leftScene, m_rightScene}) connect(scene, &GraphScene::rebuilt, this, &CompareWindow::focusWhenReady);

    m_diffModel = new DifferenceModel(this);
    m_moduleModel = new ModuleDiffModel(this);
    m_diffView = new QTableView;
    m_diffView->setModel(m_diffModel);
    m_diffView->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_diffView->setSelectionMode(QAbstractItemView::SingleSelection);
    m_diffView->horizontalHeader()->setStretchLastSection(true);
    m_diffView->verticalHeader()->hide();
    connect(m_diffView->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this](const QModelIndex& current) { if (current.isValid()) selectPair(m_diffModel->pairAt(current.row())); });
    auto* modules = new QTableView;
    modules->setModel(m_moduleModel);
    modules->horizontalHeader()->setStretchLastSection(true);
    modules->verticalHeader()->hide();
    m_tabs = new QTabWidget;
    m_tabs->addTab(m_diffView, tr("Differences"));
    m_tabs->addTab(modules, tr("Modules"));

    auto* split = new QSplitter(Qt::Vertical);
    split->addWidget(sides);
    split->addWidget(m_tabs);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 1);
    lay->addWidget(m_head);
    lay->addWidget(legend);
    lay->addWidget(m_numeric);
    lay->addWidget(split, 1);
}

// ------------------------------------------------------------------ jobs

void CompareWindow::start(std::function<CompareResult(quint64)> job, core::ProgramPtr left, const QString& leftPath) {
    const quint64 generation = ++m_generation;
    m_leftProgram = std::move(left);
    m_leftPath = leftPath;
    m_match.reset();
    m_divergence.reset();
    m_focusPair = -1;
    m_focusNode.clear();
    m_diffModel->setMatch(nullptr, nullptr);
    m_moduleModel->setMatch(nullptr);
    m_numeric->clear();
    m_left->setProgram(m_leftProgram, labelOf(m_leftProgram));
    m_leftTitle->setText(sideTitle(m_leftProgram, labelOf(m_leftProgram)));
    m_right->setProgram(nullptr, {});
    m_rightTitle->setText(tr("…"));
    setBusy(true, tr("Matching…"));
    m_matchWatcher.setFuture(QtConcurrent::run(Document::workerPool(), [job = std::move(job), generation] { return job(generation); }));
}

void CompareWindow::compareWithFile(core::ProgramPtr left, const QString& leftPath, const QString& path) {
    start([left, path](quint64 generation) {
        CompareResult r;
        r.generation = generation;
        auto loaded = core::loadPt2(path.toStdString());
        if (!loaded) { r.error = QString::fromStdString(loaded.error()); return r; }
        r.right = *loaded;
        r.match = std::make_shared<core::ProgramMatch>(core::matchStructurally(left, r.right));
        return r;
    }, left, leftPath);
}

void CompareWindow::compareWithLevel(core::ProgramPtr left, const QString& leftPath, core::IrLevel level) {
    start([left, level](quint64 generation) {
        CompareResult r;
        r.generation = generation;
        core::DecompSessionOptions options;
        options.verify = false;
        core::DecompSession session(left, options);
        auto step = session.stepToLevel(level);
        if (!step) { r.error = tr("Decomposing to %1: %2").arg(core::irLevelName(level), QString::fromStdString(step.error())); return r; }
        r.right = session.current();
        r.match = std::make_shared<core::ProgramMatch>(core::matchDecomposition(session));
        return r;
    }, left, leftPath);
}

void CompareWindow::comparePrograms(core::ProgramPtr left, core::ProgramPtr right, const QString& leftPath) {
    start([left, right](quint64 generation) {
        CompareResult r;
        r.generation = generation;
        r.right = right;
        r.match = std::make_shared<core::ProgramMatch>(core::matchStructurally(left, right));
        return r;
    }, left, leftPath);
}

void CompareWindow::compareStep(core::ProgramPtr before, core::ProgramPtr after,
                                std::map<std::string, std::vector<std::string>> oldToNew, const QString& focusNode) {
    start([before, after, map = std::move(oldToNew)](quint64 generation) {
        CompareResult r;
        r.generation = generation;
        r.right = after;
        r.match = std::make_shared<core::ProgramMatch>(core::matchThroughReplacements(before, after, map));
        return r;
    }, before, {});
    m_focusNode = focusNode;
}

void CompareWindow::showMatch(MatchPtr match, const QString& leftPath) {
    start([match](quint64 generation) {
        CompareResult r;
        r.generation = generation;
        r.right = match->right;
        r.match = match;
        return r;
    }, match->left, leftPath);
}

void CompareWindow::onMatched() {
    const CompareResult r = m_matchWatcher.result();
    if (r.generation != m_generation) return; // a newer comparison started meanwhile
    if (!r.error.isEmpty()) {
        setBusy(false, r.error);
        Q_EMIT failed(r.error);
        return;
    }
    m_match = r.match;
    m_right->setProgram(r.right, labelOf(r.right));
    const QString method = m_match->method == core::ProgramMatch::Method::Structural ? tr("matched by structure")
                                                                                      : tr("matched through the decomposition");
    const QString rightLabel = m_match->method == core::ProgramMatch::Method::Structural
                                   ? labelOf(r.right) : labelOf(m_leftProgram) + tr(" (decomposed)");
    m_rightTitle->setText(sideTitle(r.right, rightLabel));
    m_diffModel->setMatch(m_match, nullptr);
    m_moduleModel->setMatch(m_match);
    m_diffView->resizeColumnsToContents();
    m_headText = labelOf(m_leftProgram) + " vs " + rightLabel + " · " + QString::fromStdString(m_match->summary());
    setBusy(true, m_headText + " · " + method);
    applyMarks();
    // both sides open on the first difference (the first divergence once known), when laid out
    m_focusPair = m_diffModel->rowCount() > 0 ? m_diffModel->pairAt(0) : -1;
    if (!m_focusNode.isEmpty()) {
        const auto& nodes = m_leftProgram->graph.nodes;
        for (size_t k = 0; k < nodes.size() && k < m_match->leftPair.size(); ++k)
            if (nodes[k].name == m_focusNode.toStdString()) m_focusPair = m_match->leftPair[k];
    }
    focusWhenReady();
    Q_EMIT matchReady();
    startDivergence();
}

void CompareWindow::startDivergence() {
    m_numeric->setText(tr("Running both programs to compare their values…"));
    const quint64 generation = m_generation;
    MatchPtr match = m_match;
    core::DivergenceOptions options;
    options.expectedDir = expectedDirOf(m_leftPath);
    m_divWatcher.setFuture(QtConcurrent::run(Document::workerPool(), [match, options, generation] {
        DivergenceResult r;
        r.generation = generation;
        auto d = core::findDivergence(*match, options);
        if (d) r.divergence = std::make_shared<core::Divergence>(std::move(*d));
        else r.error = QString::fromStdString(d.error());
        return r;
    }));
}

void CompareWindow::onDivergence() {
    const DivergenceResult r = m_divWatcher.result();
    if (r.generation != m_generation || !m_match) return;
    const DivergencePtr& divergence = r.divergence;
    QString note;
    if (divergence) {
        m_divergence = divergence;
        note = QString::fromStdString(divergence->summary(*m_match)) + tr(" · inputs: %1").arg(QString::fromStdString(divergence->inputs));
        const int shown = m_diffModel->pairAt(m_diffView->currentIndex().row());
        m_diffModel->setMatch(m_match, m_divergence);
        applyMarks();
        if (m_focusPair >= 0 && m_focusNode.isEmpty() && divergence->firstDivergent()) m_focusPair = divergence->firstDivergent()->pair;
        if (m_focusPair < 0 && shown >= 0) m_diffView->selectRow(m_diffModel->rowOfPair(shown));
        focusWhenReady();
    } else {
        note = tr("Values not compared: %1").arg(r.error);
    }
    m_numeric->setText(note);
    setBusy(false, m_headText);
    Q_EMIT divergenceReady(note);
}

void CompareWindow::focusWhenReady() {
    if (m_focusPair < 0 || !m_left->layout() || !m_right->layout() || m_leftScene->isBuilding() || m_rightScene->isBuilding())
        return; // the scenes' `rebuilt` calls again
    const int row = m_diffModel->rowOfPair(m_focusPair);
    m_focusPair = -1;
    if (row >= 0) m_diffView->selectRow(row);
}

void CompareWindow::setBusy(bool busy, const QString& text) {
    m_busy = busy;
    m_head->setText(text);
}

void CompareWindow::applyMarks() {
    if (!m_match) return;
    std::vector<core::MatchKind> left(m_match->leftPair.size()), right(m_match->rightPair.size());
    for (size_t k = 0; k < left.size(); ++k) left[k] = m_match->pairs[static_cast<size_t>(m_match->leftPair[k])].kind;
    for (size_t k = 0; k < right.size(); ++k) right[k] = m_match->pairs[static_cast<size_t>(m_match->rightPair[k])].kind;
    int divLeft = -1, divRight = -1;
    if (const auto* d = m_divergence ? m_divergence->firstDivergent() : nullptr) {
        divLeft = m_match->pairs[static_cast<size_t>(d->pair)].left;
        divRight = d->rightNode;
    }
    m_leftOverlay->setStates(std::move(left), divLeft);
    m_rightOverlay->setStates(std::move(right), divRight);
}

// ------------------------------------------------------------------ synchronisation

void CompareWindow::selectPair(int pair) {
    if (!m_match || pair < 0 || pair >= static_cast<int>(m_match->pairs.size())) return;
    const core::NodePair& p = m_match->pairs[static_cast<size_t>(pair)];
    m_syncing = true;
    m_left->selectNode(p.left);
    m_right->selectNode(p.right.empty() ? -1 : p.right.front());
    m_syncing = false;
    if (p.left >= 0) m_leftView->centerOnNode(p.left);
    if (!p.right.empty()) m_rightView->centerOnNode(p.right.front());
}

void CompareWindow::connectSync(Document* from, Document* to, bool fromLeft) {
    connect(from, &Document::selectionChanged, this, [this, fromLeft](int node) { mirrorSelection(node, fromLeft); });
    connect(from, &Document::layoutReady, this, [this, from, to] { mirrorCollapse(from, to); });
    GraphView* view = fromLeft ? m_leftView : m_rightView;
    for (QScrollBar* bar : {view->horizontalScrollBar(), view->verticalScrollBar()})
        connect(bar, &QScrollBar::valueChanged, this, [this, fromLeft] { mirrorPan(fromLeft); });
}

void CompareWindow::mirrorSelection(int node, bool fromLeft) {
    if (m_syncing || !m_match) return;
    const auto& pairOf = fromLeft ? m_match->leftPair : m_match->rightPair;
    if (node < 0 || node >= static_cast<int>(pairOf.size())) return;
    const core::NodePair& p = m_match->pairs[static_cast<size_t>(pairOf[static_cast<size_t>(node)])];
    const int other = fromLeft ? (p.right.empty() ? -1 : p.right.front()) : p.left;
    m_syncing = true;
    (fromLeft ? m_right : m_left)->selectNode(other);
    if (other >= 0) (fromLeft ? m_rightView : m_leftView)->centerOnNode(other);
    const int row = m_diffModel->rowOfPair(pairOf[static_cast<size_t>(node)]);
    if (row >= 0) m_diffView->selectRow(row);
    m_syncing = false;
}

void CompareWindow::mirrorCollapse(Document* from, Document* to) {
    if (!m_match || from->scopes().size() != 1 || to->scopes().size() != 1) return;
    const Scope& src = from->scope();
    const Scope& dst = to->scope();
    if (!src.tree || !dst.tree) return;
    core::CollapseState state = dst.collapse;
    for (int k = 1; k < dst.tree->size(); ++k) {
        const int there = src.tree->find(dst.tree->module(k).path);
        if (there > 0) state.setExpanded(k, src.collapse.isExpanded(there));
    }
    if (!(state == dst.collapse)) to->setCollapse(state);
}

void CompareWindow::mirrorPan(bool fromLeft) {
    if (m_syncing || !m_match) return;
    GraphView* src = fromLeft ? m_leftView : m_rightView;
    GraphView* dst = fromLeft ? m_rightView : m_leftView;
    GraphScene* scene = fromLeft ? m_leftScene : m_rightScene;
    // the box nearest the centre of the moved view, and its counterpart brought to the other centre
    const QPointF centre = src->mapToScene(src->viewport()->rect().center());
    const NodeItem* nearest = nullptr;
    double best = 1e300;
    for (const NodeItem* item : scene->nodeItems()) {
        if (item->item().kind != core::VisibleItem::Kind::Op) continue;
        const double d = QLineF(item->sceneBoundingRect().center(), centre).length();
        if (d < best) { best = d; nearest = item; }
    }
    if (!nearest) return;
    const auto& pairOf = fromLeft ? m_match->leftPair : m_match->rightPair;
    const int node = nearest->item().nodeIndex;
    if (node < 0 || node >= static_cast<int>(pairOf.size())) return;
    const core::NodePair& p = m_match->pairs[static_cast<size_t>(pairOf[static_cast<size_t>(node)])];
    const int other = fromLeft ? (p.right.empty() ? -1 : p.right.front()) : p.left;
    if (other < 0) return;
    m_syncing = true;
    dst->setTransform(src->transform());
    dst->centerOnNode(other);
    m_syncing = false;
}

} // namespace irlens::views
