#pragma once
// The guided tour over the main window (Help › Tour of the Export IR, irlens --tour): walks the stops
// of core/teach/tour.h, puts each stop's lesson program on screen, points the overlay at its pane and
// node, and checks the task against what the learner does in the real panes (selection, subgraph,
// decomposition, the rule shown, a typed answer). Next is enabled once the task is done; a stop can be
// skipped; the tour can be left and resumed. Progress is kept in QSettings under tour/.

#include "core/ir/program.h"
#include "core/teach/tour.h"

#include <QObject>
#include <QRect>
#include <QSet>
#include <QString>
#include <QTimer>

class QWidget;

namespace irlens::views {

class MainWindow;
class TourCard;
class TourOverlay;

class TourController : public QObject {
    Q_OBJECT
public:
    explicit TourController(MainWindow* window);
    ~TourController() override;

    /// Shows the tour at the stop the learner left (the first stop not done the first time).
    void start();
    /// From the first stop, with the progress forgotten.
    void restart();
    /// Hides the tour; start() comes back to this stop.
    void leave();
    /// Shows stop `index`, its lesson put on screen when another program is; false for no such stop.
    bool goTo(int index);
    /// Next (when the task is done), Back and Skip, as the card's buttons do.
    bool next();
    void back();
    void skip();

    bool isActive() const { return m_active; }
    /// The stop on show; stops().size() once the tour is finished.
    int current() const { return m_index; }
    bool isFinished() const;
    /// Whether the task of the stop on show is done (then Next is enabled).
    bool isDone() const;
    /// The ids of the stops done, as remembered.
    QStringList doneStops() const { return m_done.values(); }
    const core::teach::TourStop* stop() const;

    TourCard* card() const { return m_card; }
    TourOverlay* overlay() const { return m_overlay; }
    /// The widget the stop points at (a dock, the graph pane or the status bar).
    QWidget* paneWidget() const;
    /// Where the stop's node is drawn, in the window's coordinates; empty when it is not in view.
    QRect focusRect() const;

signals:
    void stopShown(int index);
    void stopDone(int index);
    void finished();

private:
    void showStop();
    void showFinish();
    /// Checks the task; `attempt`: the learner just did something, so a wrong state gets feedback.
    void evaluate(bool attempt);
    core::teach::TourState state() const;
    /// Whether the program on screen is the stop's lesson (or one a decomposition made of it).
    bool onLesson() const;
    void loadLesson();
    void refresh();
    void placeCard();
    void followReference(const QString& link);
    void submitAnswer();
    void remember();

    MainWindow* m_window;
    TourCard* m_card;
    TourOverlay* m_overlay;
    QTimer m_refresh;
    QTimer m_attempt; // a selection to judge, on the next turn of the event loop
    int m_index = 0;
    bool m_active = false;
    bool m_doneHere = false;       // the task of the stop on show is done
    QString m_submitted;           // the answer submitted at this stop
    QString m_lessonName;          // the lesson on screen, "" when none
    core::ProgramPtr m_lesson;     // as the tour put it on screen
    QSet<QString> m_done;
    QString m_resume; // the stop start() comes back to ("" once the tour is finished)
};

} // namespace irlens::views
