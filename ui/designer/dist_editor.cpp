#include "ui/designer/dist_editor.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QShowEvent>

#include <cmath>

#include "core/workload/length_dist_parser.h"
#include "core/workload/length_histogram.h"
#include "core/workload/seconds_histogram.h"
#include "core/workload/session_parser.h"
#include "core/workload/workload_error.h"
#include "ui/designer/field_binder.h"
#include "ui/designer/field_grid.h"
#include "ui/designer/histogram_widget.h"
#include "ui/designer/workload_document.h"

namespace plumbline::ui::designer {
namespace {

const QStringList kKinds = {QStringLiteral("fixed"), QStringLiteral("uniform"),
                            QStringLiteral("normal"), QStringLiteral("lognormal"),
                            QStringLiteral("exponential")};
const char* const kParams[] = {"value", "mean", "stddev", "median", "sigma", "min", "max"};

QStringList paramsOf(const QString& kind) {
  if (kind == QStringLiteral("fixed")) return {QStringLiteral("value"), QStringLiteral("min"), QStringLiteral("max")};
  if (kind == QStringLiteral("uniform")) return {QStringLiteral("min"), QStringLiteral("max")};
  if (kind == QStringLiteral("normal"))
    return {QStringLiteral("mean"), QStringLiteral("stddev"), QStringLiteral("min"), QStringLiteral("max")};
  if (kind == QStringLiteral("lognormal"))
    return {QStringLiteral("median"), QStringLiteral("sigma"), QStringLiteral("min"), QStringLiteral("max")};
  if (kind == QStringLiteral("exponential"))
    return {QStringLiteral("mean"), QStringLiteral("min"), QStringLiteral("max")};
  return {};
}

/// A scale to carry over when the kind changes: the centre the old object describes.
double centreOf(const OrderedJson& object) {
  for (const char* key : {"value", "mean", "median"}) {
    if (object.contains(key) && object[key].is_number()) return object[key].get<double>();
  }
  if (object.contains("min") && object.contains("max") && object["min"].is_number() &&
      object["max"].is_number())
    return (object["min"].get<double>() + object["max"].get<double>()) / 2;
  return 100;
}

OrderedJson rounded(double v, bool whole) {
  if (whole) return static_cast<int64_t>(std::max(1.0, std::round(v)));
  return std::round(v * 100) / 100;
}

}  // namespace

DistEditor::DistEditor(WorkloadDocument* document, FieldBinder* binder, std::string path,
                       Unit unit, QWidget* parent)
    : QWidget(parent), m_document(document), m_binder(binder), m_path(std::move(path)), m_unit(unit) {
  auto* layout = new QHBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  m_form = new FieldGrid(FieldGrid::Growth::AtSizeHint);
  layout->addLayout(m_form, 0);

  m_kind = new QComboBox;
  m_kind->setEditable(true);
  m_kind->addItem(QString());
  m_kind->addItems(kKinds);
  binder->addDisplayOnly(m_form, QStringLiteral("dist"), m_path + ".dist", m_kind,
                         QStringLiteral("the distribution's kind"));
  connect(m_kind, &QComboBox::textActivated, this, &DistEditor::kindChosen);
  for (const char* param : kParams) {
    binder->addNumber(m_form, QString::fromLatin1(param), m_path + "." + param);
  }
  m_traceNote = new QLabel(
      QStringLiteral("The trace's own lengths, one per replayed row (lengths from: trace; "
                     "choose \"workload\" to draw them from a distribution here)."));
  m_traceNote->setWordWrap(true);
  m_traceNote->setFixedWidth(220);
  m_traceNote->setAlignment(Qt::AlignTop | Qt::AlignLeft);
  m_traceNote->hide();
  layout->addWidget(m_traceNote, 0);
  m_histogram = new HistogramWidget(this);
  layout->addWidget(m_histogram, 1);
  refreshPreview();
}

void DistEditor::showTraceLengths(std::optional<workload::LengthHistogram> rows,
                                  const QString& why) {
  m_fromTrace = true;
  m_traceRows = std::move(rows);
  m_traceWhy = why;
}

void DistEditor::showOwnDistribution() {
  m_fromTrace = false;
  m_traceRows.reset();
  m_traceWhy.clear();
}

void DistEditor::showRowsOfKind(const QString& kind) {
  const QStringList visible = paramsOf(kind);
  // A replay of the trace's lengths has no distribution here (the loader refuses one).
  if (QWidget* row = m_binder->rowAt(m_path + ".dist")) m_form->setRowVisible(row, !m_fromTrace);
  m_traceNote->setVisible(m_fromTrace);
  for (const char* param : kParams) {
    QWidget* editor = m_binder->editorAt(m_path + "." + param);
    if (editor && editor->parentWidget())
      m_form->setRowVisible(editor->parentWidget(),
                            !m_fromTrace && (kind.isEmpty() || !paramsOf(kind).size() ||
                                             visible.contains(QString::fromLatin1(param))));
  }
}

void DistEditor::kindChosen(const QString& kind) {
  if (!kKinds.contains(kind)) return;
  const OrderedJson* current = JsonPath(m_path).find(m_document->json());
  const OrderedJson old = current && current->is_object() ? *current : OrderedJson::object();
  if (old.value("dist", std::string()) == kind.toStdString()) return;
  const bool whole = m_unit != Unit::Seconds;
  const double centre = centreOf(old);
  OrderedJson next = OrderedJson::object();
  next["dist"] = kind.toStdString();
  if (kind == QStringLiteral("fixed")) next["value"] = rounded(centre, whole);
  if (kind == QStringLiteral("uniform")) {
    next["min"] = rounded(centre / 2, whole);
    next["max"] = rounded(centre * 1.5, whole);
  }
  if (kind == QStringLiteral("normal")) {
    next["mean"] = rounded(centre, whole);
    next["stddev"] = rounded(centre / 4, whole);
  }
  if (kind == QStringLiteral("lognormal")) {
    next["median"] = rounded(centre, whole);
    next["sigma"] = 0.5;
  }
  if (kind == QStringLiteral("exponential")) next["mean"] = rounded(centre, whole);
  if (kind != QStringLiteral("uniform")) {
    for (const char* clamp : {"min", "max"}) {
      if (old.contains(clamp)) next[clamp] = old[clamp];
    }
  }
  m_document->setValue(m_path, next, this);
}

void DistEditor::refreshPreview() {
  const OrderedJson* value = JsonPath(m_path).find(m_document->json());
  const QString kind = value && value->is_object() && value->contains("dist") && (*value)["dist"].is_string()
                           ? QString::fromStdString((*value)["dist"].get<std::string>())
                           : QString();
  showRowsOfKind(kind);
  // 20k draws per histogram: one on no page the person can see waits until it is shown.
  m_histogramStale = !isVisibleTo(window());
  if (!m_histogramStale) redrawHistogram();
}

void DistEditor::showEvent(QShowEvent* event) {
  QWidget::showEvent(event);
  if (!m_histogramStale) return;
  m_histogramStale = false;
  redrawHistogram();
}

void DistEditor::redrawHistogram() {
  if (m_fromTrace) {
    if (m_traceRows)
      m_histogram->setHistogram(*m_traceRows, QStringLiteral("tokens"),
                                QStringLiteral("replayed rows of the trace"));
    else
      m_histogram->clear(m_traceWhy);
    return;
  }
  const OrderedJson* value = JsonPath(m_path).find(m_document->json());
  if (!value) {
    m_histogram->clear(QStringLiteral("not set"));
    return;
  }
  try {
    if (m_unit == Unit::Seconds) {
      // Seconds may be fractional: core's delay sampler draws them, not the token sampler.
      const auto dist = workload::parseSecondsDist(nlohmann::json::parse(value->dump()), m_path);
      m_histogram->setHistogram(workload::secondsHistogram(dist, 1));
      return;
    }
    const auto dist = workload::parseLengthDist(nlohmann::json::parse(value->dump()), m_path);
    m_histogram->setHistogram(workload::lengthHistogram(dist, 1),
                              m_unit == Unit::Tokens ? QStringLiteral("tokens") : QString());
  } catch (const workload::WorkloadError& error) {
    m_histogram->clear(QString::fromStdString(error.what()));
  }
}

}  // namespace plumbline::ui::designer
