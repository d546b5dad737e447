#pragma once
// What the guided tour puts over the main window: the overlay dims everything but the pane and the
// node a stop talks about and outlines them (clicks go through it to the real widgets), and the card
// says the concept, links its rule, gives the task and says whether it is done. The content and the
// checks are core's (core/teach/tour.h); TourController decides what the two show.

#include <QFrame>
#include <QRect>
#include <QWidget>

class QLabel;
class QLineEdit;
class QPushButton;

namespace irlens::views {

class TourOverlay : public QWidget {
    Q_OBJECT
public:
    explicit TourOverlay(QWidget* window);
    /// The pane and the node to leave undimmed and outline, in the window's coordinates (empty: none).
    void setTargets(const QRect& pane, const QRect& focus);
    QRect paneRect() const { return m_pane; }
    QRect focusRect() const { return m_focus; }

protected:
    void paintEvent(QPaintEvent* event) override;

private:
    QRect m_pane;
    QRect m_focus;
};

class TourCard : public QFrame {
    Q_OBJECT
public:
    explicit TourCard(QWidget* window);

    QLabel* heading() const { return m_heading; }
    QLabel* text() const { return m_text; }
    QLabel* task() const { return m_task; }
    QLineEdit* answer() const { return m_answer; }
    QPushButton* checkButton() const { return m_check; }
    QLabel* feedback() const { return m_feedback; }
    QPushButton* backButton() const { return m_back; }
    QPushButton* skipButton() const { return m_skip; }
    QPushButton* nextButton() const { return m_next; }
    QPushButton* leaveButton() const { return m_leave; }

    /// Feedback in the palette's colours for a task done, a wrong attempt or a plain note.
    enum class Tone { Plain, Done, Wrong };
    void setFeedback(const QString& text, Tone tone);
    Tone tone() const { return m_tone; }
    /// The height its wrapped texts need at its width (a child widget's adjustSize() ignores that).
    void fitHeight();

private:
    QLabel* m_heading;
    QLabel* m_text;
    QLabel* m_task;
    QLineEdit* m_answer;
    QPushButton* m_check;
    QLabel* m_feedback;
    QPushButton* m_back;
    QPushButton* m_skip;
    QPushButton* m_next;
    QPushButton* m_leave;
    Tone m_tone = Tone::Plain;
};

/// The colour the tour outlines its targets with (readable on light and dark palettes).
QColor tourAccent();

} // namespace irlens::views
