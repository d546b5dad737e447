#pragma once
// The Numerics dock's pane: a verdict line (the first divergence, a link that selects it), the
// tolerance field, the overlay and compare buttons, and the table of every value (numerics_model.h).
// A new tolerance judges the values again (core's applyTolerance) without running anything.

#include <QWidget>

class QAction;
class QLabel;
class QLineEdit;

namespace irlens::views {

class Document;
class NumericsModel;
class TablePane;

class NumericsPane : public QWidget {
    Q_OBJECT
public:
    /// `overlay` and `compare` are the controller's actions, shown as buttons in the pane's top row.
    NumericsPane(Document* document, QAction* overlay, QAction* compare, QWidget* parent = nullptr);

    NumericsModel* model() const { return m_model; }
    TablePane* table() const { return m_table; }
    QLabel* verdictLabel() const { return m_verdict; }
    QLineEdit* toleranceField() const { return m_tolerance; }
    double tolerance() const { return m_toleranceValue; }
    /// Judges the values again against `normRel` (the field follows).
    void setTolerance(double normRel);

signals:
    void toleranceChanged(double normRel);

private:
    void updateVerdict();
    void showFirstDivergence();

    Document* m_doc;
    NumericsModel* m_model;
    TablePane* m_table;
    QLabel* m_verdict;
    QLineEdit* m_tolerance;
    double m_toleranceValue = 0;
};

} // namespace irlens::views
