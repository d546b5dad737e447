#include "views/teach/tour_controller.h"

#include "core/teach/lesson_programs.h"
#include "views/document.h"
#include "views/graph/graph_items.h"
#include "views/graph/graph_pane.h"
#include "views/graph/graph_scene.h"
#include "views/graph/graph_view.h"
#include "views/main_window.h"
#include "views/settings_writer.h"
#include "views/teach/spec_reference.h"
#include "views/teach/tour_overlay.h"

#include <QDockWidget>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSettings>
#include <QStatusBar>

namespace irlens::views {

using core::teach::TourCheck;
using core::teach::TourPane;
using core::teach::TourStop;

namespace {

const std::vector<TourStop>& stops() { return core::teach::tourStops(); }

const char* dockOf(TourPane pane) {
    switch (pane) {
    case TourPane::NodePane: return "inspector";
    case TourPane::FxText: return "fx";
    case TourPane::Modules: return "modules";
    case TourPane::Signature: return "signature";
    case TourPane::Ranges: return "ranges";
    case TourPane::Diagnostics: return "diagnostics";
    case TourPane::Decomposition: return "decomposition";
    case TourPane::StatusBar:
    case TourPane::Graph: return nullptr;
    }
    return nullptr;
}

QRect rectIn(const QWidget* widget, const QWidget* window) {
    if (!widget || !widget->isVisible()) return {};
    return QRect(widget->mapTo(window, QPoint(0, 0)), widget->size());
}

} // namespace

TourController::TourController(MainWindow* window) : QObject(window), m_window(window) {
    m_overlay = new TourOverlay(window);
    m_card = new TourCard(window);
    m_overlay->hide();
    m_card->hide();
    QSettings settings;
    for (const QString& id : settings.value("tour/done").toStringList()) m_done.insert(id);
    m_resume = settings.value("tour/current").toString();
    connect(m_card->nextButton(), &QPushButton::clicked, this, &TourController::next);
    connect(m_card->backButton(), &QPushButton::clicked, this, &TourController::back);
    connect(m_card->skipButton(), &QPushButton::clicked, this, &TourController::skip);
    connect(m_card->leaveButton(), &QPushButton::clicked, this, &TourController::leave);
    connect(m_card->answer(), &QLineEdit::returnPressed, this, &TourController::submitAnswer);
    connect(m_card->checkButton(), &QPushButton::clicked, this, &TourController::submitAnswer);
    connect(m_card->text(), &QLabel::linkActivated, this, &TourController::followReference);
    Document* doc = window->document();
    // judged once the click is handled: a click on a chip selects its box, then the chip's placeholder
    m_attempt.setSingleShot(true);
    m_attempt.setInterval(0);
    connect(&m_attempt, &QTimer::timeout, this, [this] { evaluate(true); });
    connect(doc, &Document::selectionChanged, &m_attempt, qOverload<>(&QTimer::start));
    connect(doc, &Document::scopeChanged, this, [this] { evaluate(false); });
    connect(doc, &Document::programChanged, this, [this] { evaluate(false); });
    // geometry (docks moved, the graph scrolled) and the states no signal reports (the rule shown)
    m_refresh.setInterval(150);
    connect(&m_refresh, &QTimer::timeout, this, &TourController::refresh);
}

TourController::~TourController() = default;

const TourStop* TourController::stop() const {
    return m_index >= 0 && m_index < static_cast<int>(stops().size()) ? &stops()[static_cast<size_t>(m_index)] : nullptr;
}

bool TourController::isFinished() const { return m_index >= static_cast<int>(stops().size()); }

bool TourController::isDone() const { return m_doneHere; }

void TourController::start() {
    m_active = true;
    m_lessonName.clear(); // a resumed tour shows its lesson afresh
    int index = core::teach::tourStopIndex(m_resume.toStdString());
    for (size_t k = 0; index < 0 && k < stops().size(); ++k)
        if (!m_done.contains(QString::fromUtf8(stops()[k].id))) index = static_cast<int>(k);
    goTo(index < 0 ? 0 : index);
}

void TourController::restart() {
    m_done.clear();
    writeSettingLater("tour/done", QStringList());
    m_active = true;
    m_lessonName.clear();
    goTo(0);
}

void TourController::leave() {
    m_active = false;
    m_refresh.stop();
    m_overlay->hide();
    m_card->hide();
    remember();
}

bool TourController::goTo(int index) {
    if (index < 0 || index > static_cast<int>(stops().size())) return false;
    m_index = index;
    m_active = true;
    if (isFinished()) {
        showFinish();
        return true;
    }
    m_submitted.clear();
    m_doneHere = false;
    if (!onLesson()) loadLesson();
    // a selection made for another stop must not count for this one
    m_window->document()->selectNode(-1);
    showStop();
    remember();
    evaluate(false);
    Q_EMIT stopShown(index);
    return true;
}

bool TourController::next() {
    if (!isDone() && !isFinished()) return false;
    if (isFinished()) {
        leave();
        return true;
    }
    return goTo(m_index + 1);
}

void TourController::back() {
    if (m_index > 0) goTo(m_index - 1);
}

void TourController::skip() {
    if (isFinished()) restart(); // the finish card's Start over
    else goTo(m_index + 1);
}

bool TourController::onLesson() const {
    const TourStop* s = stop();
    const core::ProgramPtr shown = m_window->document()->program();
    if (!s || !shown || !m_lesson || m_lessonName != QString::fromUtf8(s->program)) return false;
    // a decomposition step makes a new program of the same model
    return shown == m_lesson || shown->modelName == m_lesson->modelName;
}

void TourController::loadLesson() {
    const TourStop* s = stop();
    m_lesson = core::teach::makeLesson(s->program);
    m_lessonName = QString::fromUtf8(s->program);
    const QString title = m_lessonName == QLatin1String("example") ? tr("example") : tr("tour: %1 lesson").arg(m_lessonName);
    m_window->document()->setProgram(m_lesson, title);
}

void TourController::showStop() {
    const TourStop& s = *stop();
    if (const char* dock = dockOf(s.pane))
        if (QDockWidget* d = m_window->dockNamed(QString::fromLatin1(dock))) {
            d->show();
            d->raise();
        }
    m_card->heading()->setText(tr("<b>Stop %1 of %2</b> · %3").arg(m_index + 1).arg(stops().size()).arg(QString::fromUtf8(s.title)));
    m_card->text()->setText(QStringLiteral("<p>%1</p><p><a href=\"%2\">%3</a></p>")
                                .arg(QString::fromUtf8(s.text), QString::fromUtf8(s.link), QString::fromUtf8(s.linkText).toHtmlEscaped()));
    m_card->task()->setText(tr("<b>Your task:</b> %1").arg(QString::fromUtf8(s.task).toHtmlEscaped()));
    const bool typed = s.check == TourCheck::Answer;
    m_card->answer()->setVisible(typed);
    m_card->checkButton()->setVisible(typed);
    m_card->answer()->clear();
    m_card->backButton()->setEnabled(m_index > 0);
    m_card->skipButton()->setText(tr("Skip"));
    m_card->leaveButton()->show();
    m_card->nextButton()->setText(m_index + 1 == static_cast<int>(stops().size()) ? tr("Finish") : tr("Next"));
    m_card->nextButton()->setEnabled(false);
    m_card->setFeedback(m_done.contains(QString::fromUtf8(s.id)) ? tr("You did this one before; do it again to go on, or Skip.")
                                                                  : QString(),
                        TourCard::Tone::Plain);
    // the node in view, without selecting it (selecting may be the task)
    Document* doc = m_window->document();
    const QString focus = QString::fromUtf8(s.focus);
    if (!focus.isEmpty() && !focus.startsWith("in:") && doc->layout())
        if (const int n = doc->nodeIndexOf(focus); n >= 0) m_window->graphPane()->view()->centerOnNode(n);
    m_overlay->setGeometry(m_window->rect());
    m_overlay->show();
    m_overlay->raise();
    m_card->show();
    m_card->fitHeight();
    m_card->raise();
    if (typed) m_card->answer()->setFocus();
    refresh();
    m_refresh.start();
}

void TourController::showFinish() {
    m_doneHere = true;
    m_refresh.stop();
    m_card->heading()->setText(tr("<b>The tour is done</b>"));
    m_card->text()->setText(tr("<p>You did %1 of the %2 stops. Help › Exercises has programs with one thing wrong to find; "
                               "Help › Explain this program tells the story of any program you open.</p>")
                                .arg(m_done.size())
                                .arg(stops().size()));
    m_card->task()->clear();
    m_card->answer()->hide();
    m_card->checkButton()->hide();
    m_card->setFeedback({}, TourCard::Tone::Plain);
    m_card->skipButton()->setText(tr("Start over"));
    m_card->leaveButton()->hide(); // Close leaves
    m_card->backButton()->setEnabled(true);
    m_card->nextButton()->setText(tr("Close"));
    m_card->nextButton()->setEnabled(true);
    m_overlay->setTargets({}, {});
    m_card->fitHeight();
    m_resume.clear();
    writeSettingLater("tour/current", m_resume);
    Q_EMIT finished();
}

core::teach::TourState TourController::state() const {
    core::teach::TourState st;
    Document* doc = m_window->document();
    if (onLesson()) st.program = doc->program().get();
    const auto& scopes = doc->scopes();
    if (scopes.size() > 1 && doc->program() && scopes[1].node >= 0)
        st.subgraphOf = doc->program()->graph.nodes[static_cast<size_t>(scopes[1].node)].name;
    if (doc->graph() && doc->selectedNode() >= 0 && scopes.size() == 1)
        st.selectedNode = doc->graph()->nodes[static_cast<size_t>(doc->selectedNode())].name;
    st.selectedItem = doc->selectedItem().toStdString();
    st.answer = m_submitted.toStdString();
    if (SpecReferenceDialog* ref = m_window->specReference(); ref && ref->isVisible()) st.ruleShown = ref->currentRule().toStdString();
    return st;
}

void TourController::evaluate(bool attempt) {
    const TourStop* s = stop();
    if (!m_active || !s || m_doneHere) return;
    const core::teach::TourVerdict verdict = core::teach::checkStop(*s, state());
    if (verdict.done) {
        m_doneHere = true;
        m_done.insert(QString::fromUtf8(s->id));
        writeSettingLater("tour/done", QStringList(m_done.values()));
        m_card->setFeedback(tr("✓ Done. Press %1.").arg(m_card->nextButton()->text()), TourCard::Tone::Done);
        m_card->nextButton()->setEnabled(true);
        m_card->nextButton()->setFocus();
        Q_EMIT stopDone(m_index);
    } else if (attempt && !verdict.feedback.empty()) {
        m_card->setFeedback(QString::fromStdString(verdict.feedback), TourCard::Tone::Wrong);
    }
    m_card->fitHeight();
}

void TourController::submitAnswer() {
    m_submitted = m_card->answer()->text().trimmed();
    if (m_submitted.isEmpty()) return;
    evaluate(true);
    m_submitted.clear(); // an answer counts once: the next check waits for the next Enter
}

QWidget* TourController::paneWidget() const {
    const TourStop* s = stop();
    if (!s) return nullptr;
    if (s->pane == TourPane::StatusBar) return m_window->statusBar();
    if (s->pane == TourPane::Graph) return m_window->graphPane();
    const char* dock = dockOf(s->pane);
    return dock ? m_window->dockNamed(QString::fromLatin1(dock)) : nullptr;
}

QRect TourController::focusRect() const {
    const TourStop* s = stop();
    Document* doc = m_window->document();
    if (!s || !*s->focus || doc->scopes().size() != 1) return {};
    const QString focus = QString::fromUtf8(s->focus);
    GraphScene* scene = m_window->graphPane()->scene();
    QRectF sceneRect;
    if (focus.startsWith("in:")) {
        const std::string value = focus.mid(3).toStdString();
        for (const NodeItem* item : scene->nodeItems()) {
            if (item->item().id == focus.toStdString()) sceneRect = item->sceneBoundingRect();
            for (size_t c = 0; c < item->item().chips.size() && sceneRect.isEmpty(); ++c)
                if (item->item().chips[c].value == value) sceneRect = item->chipRect(static_cast<int>(c));
        }
    } else if (const int n = doc->nodeIndexOf(focus); n >= 0) {
        if (const NodeItem* item = scene->itemForNode(n)) sceneRect = item->sceneBoundingRect();
    }
    if (sceneRect.isEmpty()) return {};
    GraphView* view = m_window->graphPane()->view();
    const QRect inView = view->mapFromScene(sceneRect).boundingRect().intersected(view->viewport()->rect());
    if (inView.isEmpty()) return {};
    return QRect(view->viewport()->mapTo(m_window, inView.topLeft()), inView.size());
}

void TourController::refresh() {
    if (!m_active || isFinished()) return;
    m_overlay->setGeometry(m_window->rect());
    m_overlay->setTargets(rectIn(paneWidget(), m_window), focusRect());
    placeCard();
    evaluate(false);
}

void TourController::placeCard() {
    // in a corner of the graph or of the window, where it hides least of what the stop points at
    const QRect graph = rectIn(m_window->graphPane(), m_window);
    const QRect pane = m_overlay->paneRect();
    const QRect focus = m_overlay->focusRect();
    const QRect window = m_window->rect().adjusted(0, graph.top(), 0, -m_window->statusBar()->height());
    const QSize size = m_card->size();
    const int margin = 12;
    std::vector<QPoint> corners;
    for (const QRect& area : {graph, window})
        for (const QPoint& c : {QPoint(area.right() - size.width() - margin, area.bottom() - size.height() - margin),
                                QPoint(area.left() + margin, area.bottom() - size.height() - margin),
                                QPoint(area.right() - size.width() - margin, area.top() + margin),
                                QPoint(area.left() + margin, area.top() + margin)})
            corners.push_back(c);
    auto area = [](const QRect& a, const QRect& b) { const QRect i = a.intersected(b); return 1LL * i.width() * i.height(); };
    const bool paneIsGraph = paneWidget() == m_window->graphPane();
    QPoint best = corners.front();
    long long bestCost = -1;
    for (const QPoint& c : corners) {
        const QRect r(c, size);
        const long long cost = 8 * area(focus, r) + (paneIsGraph ? 0 : 4 * area(pane, r)) + area(graph, r);
        if (bestCost < 0 || cost < bestCost) {
            best = c;
            bestCost = cost;
        }
    }
    best.setX(std::max(0, best.x()));
    best.setY(std::max(0, best.y()));
    if (m_card->pos() != best) m_card->move(best);
}

void TourController::followReference(const QString& link) {
    if (link.startsWith("rules:")) {
        m_window->showSpecReference(link.mid(6));
        return;
    }
    m_window->showSpecReference();
    m_window->specReference()->showPage(link == QLatin1String("ops") ? SpecReferenceDialog::Ops : SpecReferenceDialog::Levels);
}

void TourController::remember() {
    if (const TourStop* s = stop()) {
        m_resume = QString::fromUtf8(s->id);
        writeSettingLater("tour/current", m_resume);
    }
}

} // namespace irlens::views
