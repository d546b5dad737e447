#include "views/teach/tour_overlay.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPainter>
#include <QPushButton>
#include <QVBoxLayout>

namespace irlens::views {

QColor tourAccent() { return QColor(0xf0, 0x8c, 0x00); } // amber: neither the selection accent nor an op family

TourOverlay::TourOverlay(QWidget* window) : QWidget(window) {
    setObjectName("tourOverlay");
    // the learner works the real widgets under it
    setAttribute(Qt::WA_TransparentForMouseEvents);
    setAttribute(Qt::WA_NoSystemBackground);
    setFocusPolicy(Qt::NoFocus);
}

void TourOverlay::setTargets(const QRect& pane, const QRect& focus) {
    if (pane == m_pane && focus == m_focus) return;
    m_pane = pane;
    m_focus = focus;
    update();
}

void TourOverlay::paintEvent(QPaintEvent*) {
    QPainter p(this);
    QRegion dimmed(rect());
    if (!m_pane.isEmpty()) dimmed -= QRegion(m_pane);
    if (!m_focus.isEmpty()) dimmed -= QRegion(m_focus.adjusted(-6, -6, 6, 6));
    p.setClipRegion(dimmed);
    p.fillRect(rect(), QColor(0, 0, 0, 96));
    p.setClipping(false);
    p.setRenderHint(QPainter::Antialiasing);
    const QColor accent = tourAccent();
    if (!m_pane.isEmpty()) {
        p.setPen(QPen(accent, 3));
        p.drawRect(m_pane.adjusted(1, 1, -2, -2));
    }
    if (!m_focus.isEmpty()) {
        p.setPen(QPen(accent, 3, Qt::SolidLine, Qt::RoundCap, Qt::RoundJoin));
        p.drawRoundedRect(m_focus.adjusted(-6, -6, 6, 6), 8, 8);
    }
}

TourCard::TourCard(QWidget* window) : QFrame(window) {
    setObjectName("tourCard");
    setFrameShape(QFrame::StyledPanel);
    setAutoFillBackground(true);
    // a raised card above the dimmed window, in the palette's own colours
    setStyleSheet(QStringLiteral("#tourCard { background: palette(window); border: 2px solid %1; border-radius: 6px; }").arg(tourAccent().name()));
    m_heading = new QLabel(this);
    m_heading->setObjectName("tourHeading");
    m_heading->setWordWrap(true);
    m_text = new QLabel(this);
    m_text->setObjectName("tourText");
    m_text->setWordWrap(true);
    m_text->setTextFormat(Qt::RichText);
    m_text->setTextInteractionFlags(Qt::TextBrowserInteraction);
    m_text->setOpenExternalLinks(false);
    m_task = new QLabel(this);
    m_task->setObjectName("tourTask");
    m_task->setWordWrap(true);
    m_task->setTextFormat(Qt::RichText);
    m_answer = new QLineEdit(this);
    m_answer->setObjectName("tourAnswer");
    m_answer->setPlaceholderText(tr("Your answer, then Enter"));
    m_check = new QPushButton(tr("Check"), this);
    m_feedback = new QLabel(this);
    m_feedback->setObjectName("tourFeedback");
    m_feedback->setWordWrap(true);
    m_back = new QPushButton(tr("Back"), this);
    m_skip = new QPushButton(tr("Skip"), this);
    m_skip->setToolTip(tr("Go on without doing this task"));
    m_next = new QPushButton(tr("Next"), this);
    m_next->setDefault(true);
    m_leave = new QPushButton(tr("Leave"), this);
    m_leave->setToolTip(tr("Close the tour; Help › Tour of the Export IR resumes it here"));

    auto* answerRow = new QHBoxLayout;
    answerRow->addWidget(m_answer, 1);
    answerRow->addWidget(m_check);
    auto* buttons = new QHBoxLayout;
    buttons->addWidget(m_leave);
    buttons->addStretch(1);
    buttons->addWidget(m_back);
    buttons->addWidget(m_skip);
    buttons->addWidget(m_next);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(14, 12, 14, 12);
    layout->addWidget(m_heading);
    layout->addWidget(m_text);
    layout->addWidget(m_task);
    layout->addLayout(answerRow);
    layout->addWidget(m_feedback);
    layout->addLayout(buttons);
    setFixedWidth(360);
}

void TourCard::fitHeight() {
    layout()->activate();
    const int height = layout()->totalHeightForWidth(width());
    if (height > 0 && height != this->height()) resize(width(), height);
}

void TourCard::setFeedback(const QString& text, Tone tone) {
    m_tone = tone;
    QPalette pal = palette();
    const bool dark = pal.color(QPalette::Window).lightness() < 128;
    const QColor done = dark ? QColor(0x7c, 0xd9, 0x8b) : QColor(0x1b, 0x7a, 0x2e);
    const QColor wrong = dark ? QColor(0xff, 0x8a, 0x80) : QColor(0xb0, 0x24, 0x18);
    pal.setColor(QPalette::WindowText, tone == Tone::Done ? done : tone == Tone::Wrong ? wrong : palette().color(QPalette::WindowText));
    m_feedback->setPalette(pal);
    m_feedback->setText(text);
    m_feedback->setVisible(!text.isEmpty());
}

} // namespace irlens::views
