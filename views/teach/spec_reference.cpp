// engine headers (oneTBB) before Qt's: see views/run/run_snapshot.h
#include "core/exec/kernel_registry.h"
#include "views/qstring_util.h"

#include "core/decomp/rules.h"
#include "core/ops/op_registry.h"
#include "core/verify/diagnostic.h"

#include "views/teach/spec_reference.h"
#include "views/inspect/table_pane.h"

#include <QHeaderView>
#include <QItemSelectionModel>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QStandardItemModel>
#include <QTabWidget>
#include <QTextBrowser>
#include <QTimer>
#include <QTreeView>
#include <QVBoxLayout>

namespace irlens::views {

using namespace irlens::core;

namespace {

// How an op is lowered at the stage below its level: the rule the Decomposition pane would apply
// (findRule looks at the target only), or why it stays.
QString decompositionOf(const OpInfo& op) {
    if (op.level == IrLevel::Prims) return QObject::tr("— (prims are the bottom level)");
    const DecompStage stage = op.level == IrLevel::Training ? DecompStage::ToCore : DecompStage::ToPrims;
    Node probe;
    probe.target = Target::parse("torch.ops." + op.ns + "." + op.schema.name + "." + op.schema.overload);
    if (const DecompRule* r = findRule(probe, stage)) return q(r->title);
    if (auto why = whyNoRule(probe.target, stage)) return QObject::tr("stays: %1").arg(q(*why));
    return QObject::tr("—");
}

} // namespace

SpecReferenceDialog::SpecReferenceDialog(Document* document, QWidget* parent) : QDialog(parent), m_doc(document) {
    setObjectName("specReference");
    setWindowTitle(tr("Export IR reference"));
    resize(1100, 720);
    m_tabs = new QTabWidget(this);
    m_tabs->addTab(buildRulesPage(), tr("Rules"));
    m_tabs->addTab(buildLevelsPage(), tr("IR levels"));
    m_tabs->addTab(buildOpsPage(), tr("Ops"));
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(m_tabs);
}

void SpecReferenceDialog::showPage(Page page) { m_tabs->setCurrentIndex(page); }

void SpecReferenceDialog::showEvent(QShowEvent* event) {
    QDialog::showEvent(event);
    // the columns fit their contents once the dialog has its width
    QTimer::singleShot(0, this, [this] {
        m_rulesPane->fitColumns();
        m_opsPane->fitColumns();
    });
}

QWidget* SpecReferenceDialog::buildRulesPage() {
    m_rules = new QStandardItemModel(this);
    m_rules->setHorizontalHeaderLabels({tr("Rule"), tr("Severity"), tr("Title"), tr("Spec")});
    for (const RuleInfo& r : verifierRules()) {
        QList<QStandardItem*> row{new QStandardItem(q(r.id)), new QStandardItem(q(core::severityName(r.severity))),
                                  new QStandardItem(q(r.title)), new QStandardItem(q(r.specRef))};
        for (auto* item : row) item->setEditable(false);
        m_rules->appendRow(row);
    }
    auto* split = new QSplitter(Qt::Vertical, this);
    m_rulesPane = new TablePane(m_doc, m_rules, 0, split);
    m_ruleText = new QTextBrowser(split);
    m_ruleText->setObjectName("ruleText");
    m_ruleText->setOpenExternalLinks(false);
    split->addWidget(m_rulesPane);
    split->addWidget(m_ruleText);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);
    connect(m_rulesPane->view()->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            [this](const QModelIndex& current) { explainRule(m_rulesPane->proxy()->mapToSource(current).row()); });
    m_ruleText->setHtml(tr("<p>Select a rule to read what it asks, the passage of the spec it enforces, a program that "
                           "breaks it and the fix.</p>"));
    return split;
}

void SpecReferenceDialog::explainRule(int row) {
    const auto& rules = verifierRules();
    if (row < 0 || row >= static_cast<int>(rules.size())) return;
    const RuleInfo& r = rules[static_cast<size_t>(row)];
    m_currentRule = q(r.id);
    m_ruleText->setHtml(ruleHtml(r));
}

QString SpecReferenceDialog::ruleHtml(const RuleInfo& r) {
    auto esc = [](const char* s) { return q(s).toHtmlEscaped(); };
    return QStringLiteral("<h3>%1 · %2</h3><p>%3</p><p><b>%4</b> %5<br><i>%6</i></p>"
                          "<p><b>%7</b> %8</p><p><b>%9</b> %10</p>")
        .arg(esc(r.id), esc(r.title), esc(r.explanation), tr("Spec:"), esc(r.specRef), esc(r.passage), tr("Breaks it:"),
             esc(r.breakingExample), tr("Fix:"), esc(r.fix));
}

bool SpecReferenceDialog::showRule(const QString& id) {
    const auto matches = m_rules->findItems(id, Qt::MatchExactly, 0);
    if (matches.isEmpty()) return false;
    showPage(Rules);
    const QModelIndex proxyIndex = m_rulesPane->proxy()->mapFromSource(matches.front()->index());
    m_rulesPane->view()->setCurrentIndex(proxyIndex);
    m_rulesPane->view()->scrollTo(proxyIndex);
    explainRule(matches.front()->row());
    return true;
}

QWidget* SpecReferenceDialog::buildLevelsPage() {
    const auto& reg = OpRegistry::instance();
    int training = 0, prims = 0;
    for (const OpInfo& op : reg.all()) {
        training += op.level == IrLevel::Training;
        prims += op.level == IrLevel::Prims;
    }
    m_levels = new QTextBrowser(this);
    m_levels->setObjectName("levelsText");
    const QString row = QStringLiteral("<tr><th align=left>%1</th><td>%2</td><td>%3</td><td>%4</td></tr>");
    QString html = tr("<h3>Three levels of the same program</h3>"
                      "<p>A program's <b>dialect</b> is what its verifier accepts (TRAINING or ATEN, in the status bar); an "
                      "<b>op's level</b> is where the op itself stands (the badge on each box). The Decomposition pane steps a "
                      "program down the levels.</p>");
    html += "<table border=1 cellspacing=0 cellpadding=5>";
    html += row.arg(QString(), tr("Training IR"), tr("Core ATen"), tr("Prims"));
    html += row.arg(tr("Produced by"), tr("<code>torch.export.export()</code> (dialect TRAINING)"),
                    tr("<code>ep.run_decompositions()</code> (dialect ATEN)"), tr("tracing the <code>torch._refs</code> references"));
    html += row.arg(tr("Op set"), tr("any functional ATen op, CompositeImplicitAutograd ops kept as called (linear, conv2d, layer_norm …); "
                                     "irlens knows %1 beyond the core set").arg(training),
                    tr("the %1 overloads tagged <code>core</code>, plus symbolic helpers and getitem").arg(reg.coreOverloadCount()),
                    tr("%1 prims; ops without a prim (convolution, mm, pooling, index …) stay ATen").arg(prims));
    html += row.arg(tr("Functional"), tr("yes (in-place calls are functionalized)"), tr("yes"), tr("yes"));
    html += row.arg(tr("Type promotion"), tr("implicit (the op promotes its inputs)"), tr("implicit"),
                    tr("<b>explicit</b>: every dtype change is a <code>prims.convert_element_type</code>"));
    html += row.arg(tr("Broadcasting"), tr("implicit"), tr("implicit"),
                    tr("<b>explicit</b>: every broadcast is a <code>prims.broadcast_in_dim</code>"));
    html += row.arg(tr("Who targets it"), tr("training and fine-tuning flows"), tr("backends, ExecuTorch, inference compilers"),
                    tr("compilers that want the smallest set of semantics"));
    html += "</table>";
    html += tr("<p>The Ops page lists every core ATen and prims overload with its schema, tags, whether the engine has a "
               "kernel for it, and the rule that lowers it.</p>");
    m_levels->setHtml(html);
    return m_levels;
}

QWidget* SpecReferenceDialog::buildOpsPage() {
    m_ops = new QStandardItemModel(this);
    // the long schema last, so the short columns stay in view
    m_ops->setHorizontalHeaderLabels({tr("Op"), tr("Level"), tr("Kernel"), tr("Decomposition"), tr("Tags"), tr("Schema")});
    const auto& kernels = exec::KernelRegistry::instance();
    for (const OpInfo& op : OpRegistry::instance().all()) {
        if (op.level != IrLevel::CoreAten && op.level != IrLevel::Prims) continue;
        QStringList tags;
        for (const auto& t : op.tags) tags << q(t);
        const std::string key = op.key();
        QList<QStandardItem*> row{new QStandardItem(q(key)), new QStandardItem(q(opLevelName(op.level))),
                                  new QStandardItem(kernels.has(key) ? tr("yes") : tr("no")), new QStandardItem(decompositionOf(op)),
                                  new QStandardItem(tags.join(", ")), new QStandardItem(q(op.ns + "::" + op.schema.text))};
        row[3]->setToolTip(row[3]->text());
        row[5]->setToolTip(row[5]->text());
        for (auto* item : row) item->setEditable(false);
        m_ops->appendRow(row);
    }
    m_opsPane = new TablePane(m_doc, m_ops, 0, this);
    // by op, as a reader looks one up (the registry keeps the order of its tables)
    m_opsPane->view()->sortByColumn(0, Qt::AscendingOrder);
    return m_opsPane;
}

} // namespace irlens::views
