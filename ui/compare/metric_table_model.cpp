#include "ui/compare/metric_table_model.h"

#include <QBrush>
#include <QColor>

#include "core/compare/compare_report.h"

namespace plumbline::ui::compare {

namespace {

using plumbline::compare::Judgement;

QVariant raw(const std::optional<double>& v) { return v ? QVariant(*v) : QVariant(); }

QString ms(const std::optional<double>& v) {
  return v ? QString::fromStdString(plumbline::compare::figureText(*v)) : QStringLiteral("?");
}

/// "95% interval 48.2 – 51.9 ms, from 314 samples"; an open end says the samples cannot bound it.
QVariant intervalTip(const plumbline::compare::PercentileInterval& i) {
  const QString of = i.values == i.samples
                         ? QString()
                         : QStringLiteral(" (of %1 values that vary together)").arg(i.values);
  return QStringLiteral("95% interval %1 – %2 ms, from %3 samples%4%5")
      .arg(ms(i.low), ms(i.high))
      .arg(i.samples)
      .arg(of, i.bounded() ? QString() : QStringLiteral(": too few to bound it"));
}

QVariant judgementTip(const plumbline::compare::MetricRow& row, size_t run) {
  switch (row.judgement(run)) {
    case Judgement::Asked:
      return QStringLiteral("what the workload asked for: neither better nor worse");
    case Judgement::WithinNoise:
      return QStringLiteral("within sampling noise: smaller than the two runs' 95% margins");
    case Judgement::TooFewSamples:
      return QStringLiteral("not judged: a run has too few samples to bound this percentile");
    case Judgement::BelowResolution:
      return QStringLiteral("below what the latency histograms resolve (1/128)");
    case Judgement::Better:
      return QStringLiteral("better, beyond sampling noise (95%)");
    case Judgement::Worse:
      return QStringLiteral("worse, beyond sampling noise (95%)");
    default:
      return {};
  }
}

}  // namespace

MetricTableModel::MetricTableModel(QObject* parent) : QAbstractTableModel(parent) {}

void MetricTableModel::setComparison(
    std::shared_ptr<const plumbline::compare::Comparison> comparison) {
  beginResetModel();
  m_comparison = std::move(comparison);
  endResetModel();
}

int MetricTableModel::valueColumn(int run) { return run == 0 ? 1 : 2 + (run - 1) * 3; }

std::pair<int, int> MetricTableModel::cell(int column) const {
  if (column == 0) return {-1, 0};
  if (column == 1) return {0, 0};
  return {1 + (column - 2) / 3, (column - 2) % 3};
}

int MetricTableModel::rowOf(const QString& key) const {
  if (!m_comparison) return -1;
  for (size_t i = 0; i < m_comparison->metrics.size(); ++i)
    if (QString::fromStdString(m_comparison->metrics[i].key) == key) return static_cast<int>(i);
  return -1;
}

int MetricTableModel::rowCount(const QModelIndex& parent) const {
  return parent.isValid() || !m_comparison ? 0 : static_cast<int>(m_comparison->metrics.size());
}

int MetricTableModel::columnCount(const QModelIndex& parent) const {
  if (parent.isValid() || !m_comparison || m_comparison->runs.empty()) return 0;
  return 2 + static_cast<int>(m_comparison->runs.size() - 1) * 3;
}

QVariant MetricTableModel::data(const QModelIndex& index, int role) const {
  if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
    return {};
  const auto& row = m_comparison->metrics[static_cast<size_t>(index.row())];
  auto [run, kind] = cell(index.column());
  const auto r = static_cast<size_t>(run);
  if (role == Qt::DisplayRole) {
    if (run < 0) return QString::fromStdString(row.label);
    if (kind == 0) return QString::fromStdString(plumbline::compare::valueText(row, r));
    if (kind == 1) {
      auto d = row.absoluteDelta(r);
      if (!d) return QStringLiteral("–");
      return QString((*d >= 0 ? QStringLiteral("+") : QString()) +
                     QString::fromStdString(plumbline::compare::figureText(d)) +
                     (row.percentage ? QStringLiteral(" pp") : QString()));
    }
    auto rel = row.relativeDelta(r);
    return rel ? QString::asprintf("%+.1f%%", *rel * 100) : QStringLiteral("–");
  }
  if (role == RawRole) {
    if (run < 0) return QString::fromStdString(row.key);
    if (kind == 0) return raw(row.values[r]);
    return raw(kind == 1 ? row.absoluteDelta(r) : row.relativeDelta(r));
  }
  // A figure the workload asked for (requested rate, input tokens/s) is neither better nor
  // worse: its deltas are grey and say so, not left uncoloured beside coloured ones.
  // So is a change the runs' samples cannot tell from noise (QA 24 D3): grey, and saying why.
  if (role == Qt::ToolTipRole && run > 0 && kind > 0) return judgementTip(row, r);
  if (role == Qt::ToolTipRole && kind == 0 && r < row.intervals.size() && row.intervals[r])
    return intervalTip(*row.intervals[r]);
  if (role == Qt::ForegroundRole && run > 0 && kind > 0) {
    switch (row.judgement(r)) {
      case Judgement::Better:
        return QBrush(QColor(0x15, 0x80, 0x3d));
      case Judgement::Worse:
        return QBrush(QColor(0xb9, 0x1c, 0x1c));
      case Judgement::Asked:
      case Judgement::WithinNoise:
      case Judgement::TooFewSamples:
      case Judgement::BelowResolution:
        return QBrush(QColor(0x6b, 0x72, 0x80));
      default:
        return {};
    }
  }
  if (role == Qt::TextAlignmentRole && run >= 0) return QVariant(Qt::AlignRight | Qt::AlignVCenter);
  return {};
}

QVariant MetricTableModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (orientation != Qt::Horizontal || role != Qt::DisplayRole || !m_comparison) return {};
  if (section < 0 || section >= columnCount()) return {};
  auto [run, kind] = cell(section);
  if (run < 0) return QStringLiteral("metric");
  const QString id = QStringLiteral("#%1").arg(m_comparison->runs[static_cast<size_t>(run)].row.id);
  if (kind == 0) return run == 0 ? QString(id + QStringLiteral(" (baseline)")) : id;
  return QString((kind == 1 ? QStringLiteral("Δ ") : QStringLiteral("Δ% ")) + id);
}

}  // namespace plumbline::ui::compare
