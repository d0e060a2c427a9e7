#include "ui/compare/compare_view.h"

#include <QChart>
#include <QChartView>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QSplitter>
#include <QTabWidget>
#include <QTableView>
#include <QVBoxLayout>

#include "core/compare/compare_report.h"
#include "core/store/run_reader.h"
#include "core/store/verdict_label.h"
#include "ui/common/line_chart.h"
#include "ui/common/widget_image_export.h"
#include "ui/compare/compare_charts.h"
#include "ui/compare/comparison_loader.h"
#include "ui/compare/metric_table_model.h"

namespace plumbline::ui::compare {

namespace {

using plumbline::compare::SeriesMetric;

const QString kWarningStyle = QStringLiteral(
    "QLabel{background:#fff4d6;color:#713f12;border:1px solid #e0b84c;padding:6px;}");
const QString kNoWarningStyle =
    QStringLiteral("QLabel{background:#e3f4e6;color:#14532d;padding:6px;}");

void replaceChart(QChartView* view, QChart* chart) {
  QChart* old = view->chart();
  view->setChart(chart);
  delete old;
}

}  // namespace

CompareView::CompareView(const StudioContext& context, QWidget* parent)
    : QWidget(parent), m_context(context) {
  m_loader = new ComparisonLoader(this);
  m_metricModel = new MetricTableModel(this);
  buildUi();
  connect(m_loader, &ComparisonLoader::loaded, this, &CompareView::showComparison);
  connect(m_loader, &ComparisonLoader::failed, this, [this](const QString& message) {
    m_compare->setEnabled(true);
    setStatus(message, true);
  });
  refreshRunList();
}

void CompareView::buildUi() {
  auto* bar = new QHBoxLayout();
  for (int i = 0; i < static_cast<int>(plumbline::compare::kMaxCompared); ++i) {
    auto* picker = new QComboBox(this);
    picker->setMinimumContentsLength(18);
    picker->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    picker->setToolTip(i == 0 ? QStringLiteral("Baseline run") : QStringLiteral("Run %1").arg(i + 1));
    m_pickers << picker;
    bar->addWidget(picker, 1);
  }
  auto makeSlo = [this](const QString& prefix, double value) {
    auto* box = new QDoubleSpinBox(this);
    box->setRange(0, 600000);
    box->setDecimals(0);
    box->setSuffix(QStringLiteral(" ms"));
    box->setPrefix(prefix);
    box->setSpecialValueText(prefix + QStringLiteral("off"));
    box->setValue(value);
    return box;
  };
  m_sloTtft = makeSlo(QStringLiteral("SLO TTFT ≤ "), 500);
  m_sloTtft->setToolTip(QStringLiteral("Goodput: time to first token from the planned send time"));
  // Off by default: only a reasoning model's answer comes after its first token.
  m_sloTtfa = makeSlo(QStringLiteral("TTFA ≤ "), 0);
  m_sloTtfa->setToolTip(
      QStringLiteral("Goodput: time to the first answer token from the planned send time (a "
                     "reasoning model thinks first); a stream that never answered fails it"));
  m_sloItl = makeSlo(QStringLiteral("inter-token ≤ "), 50);
  m_sloItl->setToolTip(QStringLiteral("Goodput: each request's mean gap between tokens"));
  m_sloE2e = makeSlo(QStringLiteral("end-to-end ≤ "), 0);
  m_sloE2e->setToolTip(
      QStringLiteral("Goodput: the whole reply, from the planned send time; the limit "
                     "a non-streaming run is judged on (it has no TTFT, TTFA or gaps)"));
  m_compare = new QPushButton(QStringLiteral("Compare"), this);
  // The goodput limits and the button under the pickers: on one row they needed 1442 px, and
  // the window grew past a 1400 px screen, cutting off Compare (QA 23b).
  auto* limits = new QHBoxLayout();
  limits->addWidget(m_sloTtft);
  limits->addWidget(m_sloTtfa);
  limits->addWidget(m_sloItl);
  limits->addWidget(m_sloE2e);
  limits->addStretch(1);
  limits->addWidget(m_compare);
  connect(m_compare, &QPushButton::clicked, this, &CompareView::compareFromPickers);

  m_warnings = new QLabel(this);
  m_warnings->setWordWrap(true);
  m_warnings->setTextFormat(Qt::RichText);
  m_warnings->setTextInteractionFlags(Qt::TextSelectableByMouse);
  m_warnings->setText(QStringLiteral("Pick 2 to 4 runs, or select them in History and press "
                                     "“Compare selected”."));

  m_table = new QTableView(this);
  m_table->setModel(m_metricModel);
  m_table->verticalHeader()->hide();
  m_table->verticalHeader()->setDefaultSectionSize(20);
  m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
  m_table->horizontalHeader()->setMinimumSectionSize(76);
  m_table->setAlternatingRowColors(true);

  m_seriesMetric = new QComboBox(this);
  // TTFA p99, the last, is offered once a compared run thought first (showComparison): the item
  // index is the SeriesMetric.
  static_assert(static_cast<size_t>(SeriesMetric::TtfaP99Ms) + 1 ==
                plumbline::compare::kSeriesMetricCount);
  for (size_t m = 0; m + 1 < plumbline::compare::kSeriesMetricCount; ++m)
    m_seriesMetric->addItem(
        QString::fromUtf8(plumbline::compare::seriesMetricLabel(static_cast<SeriesMetric>(m))));
  m_seriesMetric->setCurrentIndex(static_cast<int>(SeriesMetric::TtftP99Ms));
  m_cdfMetric = new QComboBox(this);
  for (const char* metric : plumbline::compare::kCdfMetrics) m_cdfMetric->addItem(QString::fromLatin1(metric));
  m_loadY = new QComboBox(this);
  m_loadY->addItems({QStringLiteral("TTFT p99"), QStringLiteral("TTFT p50"),
                     QStringLiteral("inter-token p99"), QStringLiteral("end-to-end p99")});
  m_tabs = new QTabWidget(this);
  m_tabs->addTab(chartTab(m_seriesView, m_seriesMetric), QStringLiteral("Time series"));
  m_tabs->addTab(chartTab(m_cdfView, m_cdfMetric), QStringLiteral("Latency CDF"));
  m_tabs->addTab(chartTab(m_loadView, m_loadY), QStringLiteral("Latency vs throughput"));
  m_tabs->addTab(chartTab(m_goodputView, nullptr), QStringLiteral("Goodput"));
  for (QComboBox* picker : {m_seriesMetric, m_cdfMetric, m_loadY})
    connect(picker, &QComboBox::currentIndexChanged, this, &CompareView::redrawCharts);

  auto* splitter = new QSplitter(Qt::Vertical, this);
  splitter->addWidget(m_table);
  splitter->addWidget(m_tabs);
  splitter->setStretchFactor(0, 2);
  splitter->setStretchFactor(1, 3);

  m_status = new QLabel(this);
  m_status->setWordWrap(true);  // the noise summary names every changed figure
  auto* layout = new QVBoxLayout(this);
  layout->addLayout(bar);
  layout->addLayout(limits);
  layout->addWidget(m_warnings);
  layout->addWidget(splitter, 1);
  layout->addWidget(m_status);
}

QWidget* CompareView::chartTab(QChartView*& view, QComboBox* picker) {
  auto* tab = new QWidget(this);
  auto* layout = new QVBoxLayout(tab);
  auto* row = new QHBoxLayout();
  if (picker) row->addWidget(picker);
  row->addStretch(1);
  auto* png = new QPushButton(QStringLiteral("Export PNG…"), tab);
  auto* svg = new QPushButton(QStringLiteral("Export SVG…"), tab);
  connect(png, &QPushButton::clicked, this, [this] { exportWithDialog(QStringLiteral("png")); });
  connect(svg, &QPushButton::clicked, this, [this] { exportWithDialog(QStringLiteral("svg")); });
  row->addWidget(png);
  row->addWidget(svg);
  layout->addLayout(row);
  view = makeChartView(new QChart(), tab);
  layout->addWidget(view, 1);
  return tab;
}

void CompareView::refreshRunList() {
  QList<qint64> current;
  for (QComboBox* p : m_pickers) current << p->currentData().toLongLong();
  std::vector<store::RunRow> runs;
  try {
    if (QFileInfo::exists(m_context.dbPath)) runs = store::RunReader(m_context.dbPath.toStdString()).listRuns();
  } catch (const std::exception& e) {
    setStatus(QString::fromUtf8(e.what()), true);
  }
  for (int i = 0; i < m_pickers.size(); ++i) {
    QComboBox* p = m_pickers[i];
    p->blockSignals(true);
    p->clear();
    p->addItem(i < 2 ? QStringLiteral("(pick a run)") : QStringLiteral("(none)"), QVariant(qlonglong(0)));
    for (auto it = runs.rbegin(); it != runs.rend(); ++it)
      p->addItem(QStringLiteral("#%1 %2 · %3")
                     .arg(it->id)
                     .arg(QString::fromStdString(it->name.empty() ? it->workloadName : it->name),
                          QString::fromStdString(store::verdictLabel(*it))),
                 QVariant(qlonglong(it->id)));
    int index = p->findData(QVariant(qlonglong(current.value(i))));
    p->setCurrentIndex(index < 0 ? 0 : index);
    p->blockSignals(false);
  }
}

void CompareView::setSlo(double ttftMs, double itlMs, double e2eMs, double ttfaMs) {
  m_sloTtft->setValue(std::max(0.0, ttftMs));
  m_sloTtfa->setValue(std::max(0.0, ttfaMs));
  m_sloItl->setValue(std::max(0.0, itlMs));
  m_sloE2e->setValue(std::max(0.0, e2eMs));
}

void CompareView::compareRuns(const QList<qint64>& runIds) {
  refreshRunList();
  for (int i = 0; i < m_pickers.size(); ++i) {
    int index = m_pickers[i]->findData(QVariant(qlonglong(runIds.value(i, 0))));
    m_pickers[i]->setCurrentIndex(index < 0 ? 0 : index);
  }
  compareFromPickers();
}

void CompareView::compareFromPickers() {
  QList<qint64> ids;
  for (QComboBox* p : m_pickers)
    if (qint64 id = p->currentData().toLongLong(); id > 0) ids << id;
  plumbline::compare::Slo slo;
  if (m_sloTtft->value() > 0) slo.ttftMs = m_sloTtft->value();
  if (m_sloTtfa->value() > 0) slo.ttfaMs = m_sloTtfa->value();
  if (m_sloItl->value() > 0) slo.itlMs = m_sloItl->value();
  if (m_sloE2e->value() > 0) slo.e2eMs = m_sloE2e->value();
  try {
    plumbline::compare::checkComparedIds(std::vector<int64_t>(ids.begin(), ids.end()),
                                         m_context.dbPath.toStdString());
  } catch (const std::exception& e) {
    setStatus(QString::fromUtf8(e.what()), true);
    return;
  }
  m_compare->setEnabled(false);
  setStatus(QStringLiteral("Loading %1 runs…").arg(ids.size()));
  m_loader->load(m_context.dbPath, ids, slo);
}

void CompareView::showComparison(std::shared_ptr<const plumbline::compare::Comparison> c) {
  m_compare->setEnabled(true);
  m_comparison = std::move(c);
  m_metricModel->setComparison(m_comparison);
  // The time to first answer token is a curve and a series of its own only when some run
  // thought first; otherwise it would repeat TTFT's.
  const bool answers = m_comparison->hasAnswerCdfs();
  const QString answer = QString::fromLatin1(plumbline::compare::kAnswerCdfMetric);
  const int answerItem = m_cdfMetric->findText(answer);
  if (answers && answerItem < 0) {
    m_cdfMetric->addItem(answer);
  } else if (!answers && answerItem >= 0) {
    if (m_cdfMetric->currentIndex() == answerItem) m_cdfMetric->setCurrentIndex(0);
    m_cdfMetric->removeItem(answerItem);
  }
  const int answerSeries = static_cast<int>(SeriesMetric::TtfaP99Ms);
  if (answers && m_seriesMetric->count() == answerSeries) {
    m_seriesMetric->addItem(
        QString::fromUtf8(plumbline::compare::seriesMetricLabel(SeriesMetric::TtfaP99Ms)));
  } else if (!answers && m_seriesMetric->count() > answerSeries) {
    if (m_seriesMetric->currentIndex() == answerSeries)
      m_seriesMetric->setCurrentIndex(static_cast<int>(SeriesMetric::TtftP99Ms));
    m_seriesMetric->removeItem(answerSeries);
  }
  QStringList items;
  for (const auto& w : m_comparison->warnings)
    items << QStringLiteral("<li><b>%1</b>: %2</li>")
                 .arg(QString::fromUtf8(plumbline::compare::warningKindName(w.kind)),
                      QString::fromStdString(w.message).toHtmlEscaped());
  if (items.isEmpty()) {
    m_warnings->setText(
        QStringLiteral("No comparability warnings: same sampling, lengths, "
                       "prompts, token counting, target and timeout, HTTP "
                       "client where recorded, model and version; every run "
                       "kept up."));
    m_warnings->setStyleSheet(kNoWarningStyle);
  } else {
    m_warnings->setText(QStringLiteral("<b>%1 comparability warning(s) — read before the "
                                       "numbers:</b><ul style='margin:0'>%2</ul>")
                            .arg(items.size())
                            .arg(items.join(QString())));
    m_warnings->setStyleSheet(kWarningStyle);
  }
  redrawCharts();
  setStatus(QStringLiteral("Deltas are against the baseline, #%1. %2")
                .arg(m_comparison->runs.front().row.id)
                .arg(QString::fromStdString(plumbline::compare::noiseSummary(*m_comparison))));
  emit comparisonShown();
}

QString CompareView::warningsText() const {
  if (!m_comparison) return {};
  QStringList lines;
  for (const auto& w : m_comparison->warnings) lines << QString::fromStdString(w.message);
  return lines.join(QLatin1Char('\n'));
}

QString CompareView::statusText() const { return m_status->text(); }

void CompareView::redrawCharts() {
  if (!m_comparison) return;
  const auto& c = *m_comparison;
  replaceChart(m_seriesView, overlaidSeriesChart(c, static_cast<SeriesMetric>(m_seriesMetric->currentIndex())));
  replaceChart(m_cdfView, cdfChart(c, m_cdfMetric->currentText()));
  replaceChart(m_loadView, loadLatencyChart(c, static_cast<LoadLatencyY>(m_loadY->currentIndex())));
  replaceChart(m_goodputView, goodputChart(c));
}

QChartView* CompareView::currentChartView() const {
  switch (m_tabs->currentIndex()) {
    case 0: return m_seriesView;
    case 1: return m_cdfView;
    case 2: return m_loadView;
    default: return m_goodputView;
  }
}

QString CompareView::exportCurrentChart(const QString& path) {
  return exportWidgetImage(currentChartView(), path);
}

void CompareView::exportWithDialog(const QString& suffix) {
  const QString path = QFileDialog::getSaveFileName(
      this, QStringLiteral("Export chart"), QStringLiteral("compare.") + suffix,
      suffix == QStringLiteral("png") ? QStringLiteral("PNG image (*.png)")
                                      : QStringLiteral("SVG image (*.svg)"));
  if (path.isEmpty()) return;
  const QString error = exportCurrentChart(path);
  if (error.isEmpty()) setStatus(QStringLiteral("Chart written to ") + path);
  else setStatus(error, true);
}

void CompareView::setStatus(const QString& text, bool error) {
  m_status->setText(text);
  m_status->setStyleSheet(error ? QStringLiteral("color:#b91c1c;") : QString());
}

}  // namespace plumbline::ui::compare
