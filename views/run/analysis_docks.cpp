#include "views/run/analysis_docks.h"
#include "views/qstring_util.h"
#include "views/count_text.h"
#include "views/percent_text.h"

#include "views/document.h"
#include "views/inspect/table_pane.h"
#include "views/run/heatmap_overlay.h"
#include "views/run/run_snapshot.h"
#include "views/run/source_pane.h"

#include <QAction>
#include <QCheckBox>
#include <QMenuBar>
#include <QDockWidget>
#include <QDoubleSpinBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QMainWindow>
#include <QMouseEvent>
#include <QPainter>
#include <QPainterPath>
#include <QPushButton>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QStandardItemModel>
#include <QTimer>
#include <QToolTip>
#include <QVBoxLayout>

#include <algorithm>

namespace irlens::views {

using namespace irlens::core;

namespace {

QString mib(int64_t bytes) { return QString::number(static_cast<double>(bytes) / (1024.0 * 1024.0), 'f', 2) + " MiB"; }

QStandardItem* cell(const QString& text) {
    auto* item = new QStandardItem(text);
    item->setEditable(false);
    return item;
}

// A number cell that sorts by its value.
QStandardItem* numberCell(const QString& text, double value) {
    auto* item = cell(text);
    item->setData(value, Qt::UserRole + 2);
    item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
    return item;
}

// The layers of the curve, bottom up, and their colours (light and dark themes alike).
struct Layer {
    const char* name;
    QColor color;
};
const std::array<Layer, 4> kLayers{{{"weights", QColor(0x8d, 0xa0, 0xcb)}, {"inputs", QColor(0x66, 0xc2, 0xa5)},
                                    {"activations", QColor(0xfc, 0x8d, 0x62)}, {"workspace", QColor(0xe7, 0x8a, 0xc3)}}};

// The curve's plot starts at this layer: the weights are named in its legend, not drawn (see paintEvent).
constexpr size_t kFirstDrawnLayer = 1;

int64_t layerValue(const MemoryPoint& p, size_t layer) {
    const int64_t v[4] = {p.weights, p.inputs, p.activations, p.workspace};
    return v[layer];
}

// Refills a pane's model with the proxy detached: thousands of rows (deep_stack's weights, its path)
// inserted one by one into an attached model kept the GUI thread busy past 100 ms.
template <class Fill>
void refill(TablePane* pane, QStandardItemModel* model, Fill fill) {
    pane->proxy()->setSourceModel(nullptr);
    model->removeRows(0, model->rowCount());
    fill();
    pane->proxy()->setSourceModel(model);
    pane->fitColumns();
}

} // namespace

// ---------------------------------------------------------------------------- MemoryCurve

MemoryCurve::MemoryCurve(Document* document, QWidget* parent) : QWidget(parent), m_doc(document) {
    setObjectName("memoryCurve");
    setMouseTracking(true);
    setMinimumHeight(120);
}

void MemoryCurve::setMemory(MemorySummary memory) {
    m_memory = std::move(memory);
    update();
}

QRectF MemoryCurve::plotRect() const { return QRectF(76, 8, std::max(10, width() - 86), std::max(10, height() - 28)); }

int MemoryCurve::pointAt(int x) const {
    const QRectF r = plotRect();
    const int n = static_cast<int>(m_memory.curve.size());
    if (n == 0 || x < r.left() || x > r.right()) return -1;
    return std::clamp(static_cast<int>((x - r.left()) / r.width() * n), 0, n - 1);
}

// The weights are held from the first node to the last and usually outweigh everything else many
// times: drawn to scale they fill the plot and leave the activations a strip at the top. So the plot
// stacks what changes over the run (inputs, activations, workspace) on its own scale from 0, and the
// weights are named in the legend with their size.
void MemoryCurve::paintEvent(QPaintEvent*) {
    QPainter p(this);
    p.setRenderHint(QPainter::Antialiasing);
    const QRectF r = plotRect();
    const auto& pts = m_memory.curve;
    if (pts.empty()) {
        p.drawText(rect(), Qt::AlignCenter, tr("Run the program (F5) to see its memory over the run"));
        return;
    }
    int64_t top = 1;
    for (const auto& pt : pts) top = std::max(top, pt.total() - pt.weights);
    const double step = r.width() / static_cast<double>(pts.size());
    auto y = [&](int64_t v) { return r.bottom() - r.height() * static_cast<double>(v) / static_cast<double>(top); };
    // stacked layers above the weights: each layer's upper edge over the sum of those below
    for (size_t layer = kLayers.size(); layer-- > kFirstDrawnLayer;) {
        QPainterPath path;
        path.moveTo(r.left(), r.bottom());
        for (size_t k = 0; k < pts.size(); ++k) {
            int64_t upTo = 0;
            for (size_t l = kFirstDrawnLayer; l <= layer; ++l) upTo += layerValue(pts[k], l);
            path.lineTo(r.left() + step * static_cast<double>(k), y(upTo));
            path.lineTo(r.left() + step * static_cast<double>(k + 1), y(upTo));
        }
        path.lineTo(r.right(), r.bottom());
        path.closeSubpath();
        p.fillPath(path, kLayers[layer].color);
    }
    // the peak, and the axis labels
    p.setPen(palette().color(QPalette::WindowText));
    if (m_memory.peak >= 0) {
        const MemoryPoint& peak = pts[static_cast<size_t>(m_memory.peak)];
        const double x = r.left() + step * (m_memory.peak + 0.5);
        p.setPen(QPen(Qt::red, 1.5, Qt::DashLine));
        p.drawLine(QPointF(x, r.top()), QPointF(x, r.bottom()));
        p.setPen(palette().color(QPalette::WindowText));
        const QString label = tr("peak %1 at %2 (weights included)").arg(mib(m_memory.peakBytes), peak.name);
        const double w = fontMetrics().horizontalAdvance(label) + 8;
        p.drawText(QPointF(std::max(r.left() + 4, std::min(x + 4, r.right() - w)), r.top() + 12), label);
    }
    p.drawText(QRectF(0, r.top() - 4, r.left() - 6, 16), Qt::AlignRight, mib(top));
    p.drawText(QRectF(0, r.bottom() - 12, r.left() - 6, 16), Qt::AlignRight, QStringLiteral("0"));
    double lx = r.left();
    const QString weights = tr("weights %1, held throughout: not drawn").arg(mib(pts.front().weights));
    for (size_t l = 0; l < kLayers.size(); ++l) {
        const QString name = l < kFirstDrawnLayer ? weights : tr(kLayers[l].name);
        if (l < kFirstDrawnLayer) { // a swatch outline only: it is not in the plot
            p.setPen(kLayers[l].color.darker(130));
            p.drawRect(QRectF(lx, r.bottom() + 8, 10, 10));
            p.setPen(palette().color(QPalette::WindowText));
        } else {
            p.fillRect(QRectF(lx, r.bottom() + 8, 10, 10), kLayers[l].color);
        }
        p.drawText(QPointF(lx + 14, r.bottom() + 18), name);
        lx += std::max(100, fontMetrics().horizontalAdvance(name) + 30);
    }
    p.drawText(QPointF(lx + 10, r.bottom() + 18), tr("nodes in execution order →"));
}

void MemoryCurve::mouseMoveEvent(QMouseEvent* event) {
    const int k = pointAt(static_cast<int>(event->position().x()));
    if (k < 0) return QToolTip::hideText();
    const MemoryPoint& pt = m_memory.curve[static_cast<size_t>(k)];
    QToolTip::showText(event->globalPosition().toPoint(),
                       tr("%1 (#%2 in execution order)\n%3 live: weights %4, inputs %5, activations %6, workspace %7")
                           .arg(pt.name).arg(k).arg(mib(pt.total()), mib(pt.weights), mib(pt.inputs), mib(pt.activations), mib(pt.workspace)),
                       this);
}

void MemoryCurve::mousePressEvent(QMouseEvent* event) {
    const int k = pointAt(static_cast<int>(event->position().x()));
    if (k < 0) return;
    const int node = m_memory.curve[static_cast<size_t>(k)].node;
    m_doc->revealNode(node);
    m_doc->selectNode(node);
}

// ---------------------------------------------------------------------------- AnalysisDocks

AnalysisDocks::AnalysisDocks(QMainWindow* window, Document* document, HeatmapOverlay* overlay)
    : QObject(window), m_window(window), m_doc(document), m_overlay(overlay) {
    setObjectName("analysisDocks");
    const std::array<std::pair<QString, QString>, 3> titles{{{tr("Memory"), "runMemory"}, {tr("Critical path"), "runCriticalPath"},
                                                             {tr("Source lines"), "runSourceLines"}}};
    QWidget* widgets[3] = {buildMemory(), buildPath(), buildLines()};
    QDockWidget* neighbour = window->findChild<QDockWidget*>("runOutputs");
    for (size_t k = 0; k < 3; ++k) {
        auto* d = new QDockWidget(titles[k].first, window);
        d->setObjectName(titles[k].second);
        d->setWidget(widgets[k]);
        window->addDockWidget(Qt::BottomDockWidgetArea, d);
        if (neighbour) window->tabifyDockWidget(neighbour, d);
        neighbour = d;
        d->hide(); // nothing to show before a run
        m_docks[k] = d;
    }
    addMemoryOverlayAction();
    connect(m_doc, &Document::runFinished, this, [this](RunSnapshotPtr run) {
        if (run && !m_revealed) revealDocks();
        updateMemoryOverlayAction();
        showRun();
    });
}

// View › Memory overlay, kept in step with the Memory dock's check box.
void AnalysisDocks::addMemoryOverlayAction() {
    m_memoryOverlayAction = new QAction(tr("&Memory overlay"), this);
    m_memoryOverlayAction->setObjectName("memoryOverlayAction");
    m_memoryOverlayAction->setCheckable(true);
    updateMemoryOverlayAction();
    connect(m_memoryOverlayAction, &QAction::toggled, m_memoryOverlay, &QCheckBox::setChecked);
    connect(m_memoryOverlay, &QCheckBox::toggled, m_memoryOverlayAction, &QAction::setChecked);
    for (QAction* a : m_window->menuBar()->actions())
        if (a->text() == tr("&View") && a->menu()) a->menu()->addAction(m_memoryOverlayAction);
}

// Disabled with a reason before a run (UI.md); a toggle checked then (--memory-overlay) shows when the run ends.
void AnalysisDocks::updateMemoryOverlayAction() {
    const RunSnapshotPtr run = m_doc->runResult();
    const bool available = m_overlay && run && run->analysis;
    m_memoryOverlayAction->setEnabled(available);
    m_memoryOverlayAction->setToolTip(available ? tr("Colour the graph by the bytes each node keeps live at the run's peak")
                                                : tr("Memory overlay: run the program first (Run › Run, F5), then colour the graph by "
                                                     "the bytes each node keeps live at the run's peak"));
}

void AnalysisDocks::revealDocks() {
    if (!m_doc->runResult() || !m_doc->runResult()->analysis) return;
    m_revealed = true;
    for (auto* d : m_docks) d->show();
}

QWidget* AnalysisDocks::buildMemory() {
    auto* split = new QSplitter(Qt::Horizontal, m_window);
    auto* left = new QWidget(split);
    auto* vl = new QVBoxLayout(left);
    vl->setContentsMargins(0, 0, 0, 0);
    m_memoryText = new QLabel(tr("Not run yet: Run › Run (F5)"), left);
    m_memoryText->setObjectName("memorySummary");
    m_memoryText->setWordWrap(true);
    m_curve = new MemoryCurve(m_doc, left);
    m_memoryOverlay = new QCheckBox(tr("Colour the graph by memory (bytes each node keeps live at the peak)"), left);
    m_memoryOverlay->setObjectName("memoryOverlay");
    m_memoryOverlay->setEnabled(m_overlay != nullptr);
    if (m_overlay) connect(m_memoryOverlay, &QCheckBox::toggled, m_overlay, &HeatmapOverlay::setMemoryMode);
    vl->addWidget(m_memoryText);
    vl->addWidget(m_memoryOverlay);
    vl->addWidget(m_curve, 1);
    m_live = new QStandardItemModel(this);
    m_live->setHorizontalHeaderLabels({tr("Live at the peak"), tr("Kind"), tr("MiB"), tr("Type"), tr("Producer"), tr("Module"), tr("Last user")});
    m_livePane = new TablePane(m_doc, m_live, Qt::UserRole + 1, split);
    m_livePane->proxy()->setSortRole(Qt::UserRole + 2);
    auto* pane = m_livePane;
    split->addWidget(left);
    split->addWidget(pane);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);
    return split;
}

QWidget* AnalysisDocks::buildPath() {
    auto* box = new QWidget(m_window);
    auto* vl = new QVBoxLayout(box);
    vl->setContentsMargins(0, 0, 0, 0);
    m_pathText = new QLabel(tr("Not run yet: Run › Run (F5)"), box);
    m_pathText->setObjectName("pathSummary");
    m_pathText->setWordWrap(true);
    auto* row = new QHBoxLayout;
    m_selector = new QLineEdit(box);
    m_selector->setObjectName("whatIfSelector");
    m_selector->setPlaceholderText(tr("what if: an op (convolution), a module (layer4.0) or node:NAME"));
    m_factor = new QDoubleSpinBox(box);
    m_factor->setObjectName("whatIfFactor");
    m_factor->setRange(0, 100);
    m_factor->setSingleStep(0.25);
    m_factor->setValue(0.5);
    m_factor->setPrefix(tr("time × "));
    m_factor->setToolTip(tr("Scale the selected nodes' time: 0.5 twice as fast, 0 free"));
    auto* predict = new QPushButton(tr("Predict"), box);
    row->addWidget(m_selector, 1);
    row->addWidget(m_factor);
    row->addWidget(predict);
    connect(predict, &QPushButton::clicked, this, &AnalysisDocks::applyWhatIf);
    connect(m_selector, &QLineEdit::returnPressed, this, &AnalysisDocks::applyWhatIf);
    m_path = new QStandardItemModel(this);
    m_path->setHorizontalHeaderLabels({tr("Node on the path"), tr("Op"), tr("ms"), tr("% of the path")});
    m_pathPane = new TablePane(m_doc, m_path, Qt::UserRole + 1, box);
    m_pathPane->proxy()->setSortRole(Qt::UserRole + 2);
    auto* pane = m_pathPane;
    vl->addWidget(m_pathText);
    vl->addLayout(row);
    vl->addWidget(pane, 1);
    return box;
}

QWidget* AnalysisDocks::buildLines() {
    m_lines = new QStandardItemModel(this);
    m_lines->setHorizontalHeaderLabels({tr("Source line"), tr("Self ms"), tr("Inclusive ms"), tr("Nodes"), tr("Function"), tr("Code")});
    m_linesPane = new TablePane(m_doc, m_lines, 0, m_window);
    m_linesPane->proxy()->setSortRole(Qt::UserRole + 2);
    connect(m_linesPane, &TablePane::rowActivated, this, [this](const QModelIndex& index) { selectLine(index.row()); });
    auto* split = new QSplitter(Qt::Horizontal, m_window);
    auto* left = new QWidget(split);
    auto* box = new QVBoxLayout(left);
    box->setContentsMargins(0, 0, 0, 0);
    m_libraryLines = new QCheckBox(tr("PyTorch's own lines"), left);
    m_libraryLines->setToolTip(tr("Also list lines in PyTorch's files (torch/...): their time is already counted on the model's lines that called them"));
    connect(m_libraryLines, &QCheckBox::toggled, this, [this] { fillLines(); });
    box->addWidget(m_libraryLines);
    m_linesPane->setParent(left);
    box->addWidget(m_linesPane);
    m_source = new SourcePane(m_doc, split);
    split->addWidget(left);
    split->addWidget(m_source);
    // the lines and the source side by side in equal halves: at 1366 px either half shows a whole
    // torchvision path beside its times, or about 80 columns of code
    split->setStretchFactor(0, 1);
    split->setStretchFactor(1, 1);
    return split;
}

void AnalysisDocks::showRun() {
    RunSnapshotPtr run = m_doc->runResult();
    if (!run || !run->analysis) {
        m_memoryText->setText(tr("Not run yet: Run › Run (F5)"));
        m_pathText->setText(tr("Not run yet: Run › Run (F5)"));
        // emptied on the next turn: a new program drops the run in the same turn as the scene's
        // items, and emptying these tables took another 26 ms there on deep_stack
        QTimer::singleShot(0, this, [this] {
            if (m_doc->runResult()) return; // a new run came first
            for (auto [pane, model] : {std::pair{m_livePane, m_live}, std::pair{m_pathPane, m_path}, std::pair{m_linesPane, m_lines}})
                refill(pane, model, [] {});
            m_curve->setMemory({});
            m_allLines = m_lineRows = {};
            m_source->setLines({});
        });
        return;
    }
    // three event-loop turns, one per dock: together they held the GUI thread too long on deep_stack
    auto later = [this, run](auto part) {
        QTimer::singleShot(0, this, [this, run, part] {
            if (m_doc->runResult() == run) part(*run->analysis);
        });
    };
    later([this](const RunAnalysis& a) { showMemory(a); });
    later([this](const RunAnalysis& a) { showPath(criticalPathOf(a), tr("Critical path")); });
    later([this](const RunAnalysis& a) { showLines(a); });
}

void AnalysisDocks::showMemory(const RunAnalysis& a) {
    MemorySummary mem = memoryOf(a);
    // which bytes each number counts, said each time: the Profile's and the Timeline's peak are the
    // engine's allocations (activations + workspace), this dock's peak has the weights too
    const MemoryPoint* peak = mem.peak >= 0 ? &mem.curve[static_cast<size_t>(mem.peak)] : nullptr;
    m_memoryText->setText(tr("Peak %1 with the weights (%2) at %3 · activations + workspace there %4, as the Timeline draws them "
                             "(the engine measured %5: the Profile's peak) · every intermediate value kept would take %6, freeing "
                             "after the last use saved %7")
                              .arg(mib(mem.peakBytes), mib(peak ? peak->weights : 0), peak ? peak->name : QString(), mib(mem.runPeakBytes),
                                   mib(mem.measuredPeakBytes), mib(mem.allocatedBytes),
                                   mib(std::max<int64_t>(0, mem.allocatedBytes - mem.runPeakBytes))));
    refill(m_livePane, m_live, [this, &mem] {
        for (const LiveBlock& b : mem.liveAtPeak) {
            QList<QStandardItem*> row{cell(b.name), cell(b.kind), numberCell(QString::number(static_cast<double>(b.bytes) / 1048576.0, 'f', 3), static_cast<double>(b.bytes)),
                                      cell(b.type), cell(b.producer), cell(b.module), cell(b.lastUser)};
            if (!b.producer.isEmpty()) row[0]->setData("node:" + b.producer, Qt::UserRole + 1);
            m_live->appendRow(row);
        }
    });
    m_curve->setMemory(std::move(mem));
}

void AnalysisDocks::showLines(const RunAnalysis& a) {
    m_allLines = linesOf(a);
    fillLines();
    m_source->setLines(m_allLines);
}

void AnalysisDocks::fillLines() {
    m_lineRows = m_allLines;
    int hidden = 0;
    if (!m_libraryLines->isChecked()) {
        auto library = [](const LineRow& l) { return l.inLibrary; };
        hidden = static_cast<int>(std::count_if(m_lineRows.rows.begin(), m_lineRows.rows.end(), library));
        m_lineRows.rows.erase(std::remove_if(m_lineRows.rows.begin(), m_lineRows.rows.end(), library), m_lineRows.rows.end());
    }
    m_libraryLines->setText(hidden > 0 ? tr("PyTorch's own lines (%1 hidden)").arg(hidden) : tr("PyTorch's own lines"));
    refill(m_linesPane, m_lines, [this] {
        for (const LineRow& l : m_lineRows.rows)
            m_lines->appendRow({cell(QString("%1:%2").arg(l.file).arg(l.line)), numberCell(msCell(l.selfNs), static_cast<double>(l.selfNs)),
                                numberCell(msCell(l.inclusiveNs), static_cast<double>(l.inclusiveNs)), numberCell(QString::number(l.nodes), l.nodes),
                                cell(l.function), cell(l.code)});
    });
}

void AnalysisDocks::showPath(const PathSummary& path, const QString& heading, int64_t baselineNs) {
    m_shownPath = path;
    const Graph* g = m_doc->program() ? &m_doc->program()->graph : nullptr;
    if (!path.error.isEmpty() || !g) {
        m_pathText->setText(tr("What-if not understood: %1").arg(path.error));
        return;
    }
    // One baseline per line. The run's path is set against the measured wall time; a what-if is a
    // prediction, so it is set against the model's prediction of the run as measured, and its path
    // against its own predicted wall time: the measured time is not in that line.
    auto percentOf = [](int64_t part, int64_t whole) { return whole > 0 ? static_cast<double>(part) / static_cast<double>(whole) * 100.0 : 0.0; };
    if (baselineNs > 0) {
        m_pathText->setText(tr("%1: the model predicts %2 ms instead of the %3 ms it predicts for the run as measured (%4 %) · "
                               "critical path %5, %6 ms = %7 % of the predicted %2 ms")
                                .arg(heading, msCell(path.predictedWallNs), msCell(baselineNs),
                                     signedPercentText(percentOf(path.predictedWallNs - baselineNs, baselineNs)), nodesText(static_cast<qint64>(path.nodes.size())),
                                     msCell(path.lengthNs), percentText(percentOf(path.lengthNs, path.predictedWallNs))));
    } else {
        m_pathText->setText(tr("%1: %2, %3 ms = %4 % of the measured median wall time %5 ms · the scheduling model predicts %6 ms "
                               "on %7 threads (%8 % off the measured)")
                                .arg(heading, nodesText(static_cast<qint64>(path.nodes.size())), msCell(path.lengthNs),
                                     percentText(percentOf(path.lengthNs, path.measuredWallNs)), msCell(path.measuredWallNs),
                                     msCell(path.predictedWallNs), QString::number(path.threads),
                                     signedPercentText(percentOf(path.predictedWallNs - path.measuredWallNs, path.measuredWallNs))));
    }
    refill(m_pathPane, m_path, [this, &path, g] {
        for (size_t k = 0; k < path.nodes.size(); ++k) {
            const Node& n = g->nodes[static_cast<size_t>(path.nodes[k])];
            const double share = path.lengthNs > 0 ? static_cast<double>(path.nodeNs[k]) / static_cast<double>(path.lengthNs) * 100.0 : 0.0;
            QList<QStandardItem*> row{cell(QString::fromStdString(n.name)), cell(QString::fromStdString(n.target.shortName())),
                                      numberCell(msCell(path.nodeNs[k]), static_cast<double>(path.nodeNs[k])), numberCell(percentText(share), share)};
            row[0]->setData("node:" + QString::fromStdString(n.name), Qt::UserRole + 1);
            m_path->appendRow(row);
        }
    });
    // outlined on the graph, as search hits (Enter steps along it)
    if (m_doc->scopes().size() == 1) m_doc->setSearchHits(path.nodes);
}

void AnalysisDocks::applyWhatIf() {
    RunSnapshotPtr run = m_doc->runResult();
    if (!run || !run->analysis) return;
    const QString selector = m_selector->text().trimmed();
    const PathSummary base = criticalPathOf(*run->analysis);
    PathSummary what = criticalPathOf(*run->analysis, selector, m_factor->value());
    if (!what.error.isEmpty()) return showPath(what, QString());
    showPath(what, tr("What if %1 took ×%2 of its time (%3 nodes)").arg(selector).arg(m_factor->value()).arg(what.scaledNodes),
             base.predictedWallNs);
}

void AnalysisDocks::selectLine(int row) {
    if (row < 0 || row >= static_cast<int>(m_lineRows.rows.size()) || !m_doc->graph() || m_doc->scopes().size() != 1) return;
    const LineRow& l = m_lineRows.rows[static_cast<size_t>(row)];
    m_source->showSource(l.file, l.line);
    std::vector<int> nodes;
    const Graph& g = *m_doc->graph();
    for (size_t k = 0; k < g.nodes.size(); ++k)
        for (const auto& f : g.nodes[k].meta.frames)
            if (QString::fromStdString(f.file) == l.file && f.line == l.line) {
                nodes.push_back(static_cast<int>(k));
                break;
            }
    m_doc->setSearchHits(nodes);
    if (!nodes.empty()) {
        m_doc->revealNode(nodes.front());
        m_doc->selectNode(nodes.front());
    }
}

} // namespace irlens::views
