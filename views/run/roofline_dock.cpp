#include "views/run/roofline_dock.h"

#include "views/document.h"
#include "views/run/roofline_plot.h"

#include <QDockWidget>
#include <QLabel>
#include <QMainWindow>
#include <QVBoxLayout>

#include <algorithm>

namespace irlens::views {

namespace {

int plotted(const RooflineSummary& r) {
    return static_cast<int>(std::count_if(r.points.begin(), r.points.end(), [](const RoofPoint& p) { return p.onPlot(); }));
}

// One line (two with a warning), so that the plot keeps the height of a bottom dock at 1366x768.
QString captionOf(const RooflineSummary& r) {
    if (!r.error.isEmpty()) return QObject::tr("No roofs for this run: %1").arg(r.error);
    QString text = QObject::tr("Roofs, %1 thread%2: peak %3 GFLOP/s · memory %4 GB/s · ridge %5 FLOP/byte (%6) · "
                               "%7 % of the node time in nodes at ≥ %8 % of their roof · %9 of %10 nodes plotted")
                       .arg(r.threads)
                       .arg(r.threads > 1 ? "s" : "")
                       .arg(r.peakGflops, 0, 'f', 1)
                       .arg(r.bandwidthGBs, 0, 'f', 1)
                       .arg(r.ridge(), 0, 'f', 2)
                       .arg(r.origin)
                       .arg(100.0 * r.nearRoofShare(), 0, 'f', 1)
                       .arg(100.0 * r.nearRoofThreshold, 0, 'f', 0)
                       .arg(plotted(r))
                       .arg(r.points.size());
    if (!r.warning.isEmpty()) text += "\n" + QObject::tr("Note: %1.").arg(r.warning);
    return text;
}

// The details behind the caption.
QString captionTip(const RooflineSummary& r) {
    if (!r.error.isEmpty()) return {};
    const auto moving = std::count_if(r.points.begin(), r.points.end(), [](const RoofPoint& p) { return p.movesData() && !p.onPlot(); });
    const qsizetype views = static_cast<qsizetype>(r.points.size()) - plotted(r) - moving;
    return QObject::tr("%1: the peak from a 1024³ float32 GEMM through the engine, the memory bandwidth from a triad over more than "
                       "the last-level cache, on %2 thread%3; cached per CPU and thread count (irlens-cli run --measure-roofs measures again).\n"
                       "Not plotted: %4 nodes that move data without arithmetic (copies, cat, embedding; the Profile's % of roof "
                       "has them against the memory roof) and %5 views, which move nothing.")
        .arg(r.cpu)
        .arg(r.threads)
        .arg(r.threads > 1 ? "s" : "")
        .arg(moving)
        .arg(views);
}

} // namespace

RooflineDock::RooflineDock(QMainWindow* window, Document* document) : QObject(window), m_doc(document) {
    setObjectName("rooflineDock");
    auto* box = new QWidget(window);
    auto* layout = new QVBoxLayout(box);
    layout->setContentsMargins(0, 0, 0, 0);
    m_caption = new QLabel(tr("Not run yet: Run › Run (F5)"), box);
    m_caption->setObjectName("rooflineCaption");
    m_caption->setWordWrap(true);
    m_plot = new RooflinePlot(document, box);
    layout->addWidget(m_caption);
    layout->addWidget(m_plot, 1);
    m_dock = new QDockWidget(tr("Roofline"), window);
    m_dock->setObjectName("runRoofline");
    m_dock->setWidget(box);
    window->addDockWidget(Qt::BottomDockWidgetArea, m_dock);
    if (auto* neighbour = window->findChild<QDockWidget*>("runSourceLines")) window->tabifyDockWidget(neighbour, m_dock);
    m_dock->hide(); // nothing to show before a run
    connect(m_doc, &Document::runFinished, this, [this](RunSnapshotPtr run) {
        if (run && run->analysis && !m_revealed) revealDock();
        showRun(run);
    });
}

void RooflineDock::revealDock() {
    if (!m_doc->runResult() || !m_doc->runResult()->analysis) return;
    m_revealed = true;
    m_dock->show();
}

void RooflineDock::showRun(const RunSnapshotPtr& run) {
    if (!run || !run->analysis) {
        m_caption->setText(tr("Not run yet: Run › Run (F5)"));
        m_plot->setRoofline({});
        return;
    }
    RooflineSummary r = rooflineOf(*run->analysis);
    m_caption->setText(captionOf(r));
    m_caption->setToolTip(captionTip(r));
    m_plot->setRoofline(std::move(r));
}

} // namespace irlens::views
