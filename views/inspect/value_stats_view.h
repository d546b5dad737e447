#pragma once
// Under the Node pane's tree: the selected node's value as numbers, after a run or a step — elements,
// min, max, mean, std, NaN and infinity counts and a small histogram — and, when the run compared
// values with a reference, the reference's value beside it (the histograms over the range both span,
// on one count scale, so that their bars line up). A node with several values has a chooser. Hidden
// while there is nothing to show. The numbers come from core (valueStatsOf); this only draws them.

#include <QScrollArea>
#include <QWidget>

#include <memory>
#include <vector>

class QComboBox;
class QLabel;

namespace irlens::core {
struct NumericRun;
struct ValueStats;
}

namespace irlens::views {

class Document;

/// Two histograms side by side (irlens's value, the reference's) on one count scale.
class HistogramPair : public QWidget {
    Q_OBJECT
public:
    explicit HistogramPair(QWidget* parent = nullptr);
    /// `reference` empty: only the value's histogram.
    void setHistograms(std::vector<int64_t> value, std::vector<int64_t> reference, double lo, double hi);
    const std::vector<int64_t>& bins(bool reference) const { return reference ? m_reference : m_value; }
    QSize sizeHint() const override { return {280, 90}; }

protected:
    void paintEvent(QPaintEvent* event) override;

private:
    std::vector<int64_t> m_value, m_reference;
    double m_lo = 0, m_hi = 0;
};

/// A scroll area, so that a narrow pane scrolls the numbers rather than cutting them.
class ValueStatsView : public QScrollArea {
    Q_OBJECT
public:
    explicit ValueStatsView(Document* document, QWidget* parent = nullptr);

    /// The values of the selected node shown (their names), empty when hidden.
    QStringList valueNames() const;
    QComboBox* valueChooser() const { return m_chooser; }
    /// The statistics as shown (rich text: a table with an irlens and, when compared, a reference column).
    QLabel* statsLabel() const { return m_stats; }
    HistogramPair* histograms() const { return m_histograms; }

private:
    void refresh();
    void showValue(int which);

    Document* m_doc;
    std::shared_ptr<const core::NumericRun> m_run;
    std::vector<int> m_records; // indices into m_run->values of the selected node's values
    QLabel* m_title;
    QComboBox* m_chooser;
    QLabel* m_stats;
    HistogramPair* m_histograms;
};

} // namespace irlens::views
