#include "ui/history/run_table_model.h"

#include <QBrush>
#include <QColor>

#include "core/store/verdict_label.h"

namespace plumbline::ui::history {

namespace {

QString q(const std::string& s) { return QString::fromStdString(s); }

QString number(const std::optional<double>& v, int decimals) {
  return v ? QString::number(*v, 'f', decimals) : QStringLiteral("–");
}

/// "2026-12-03T07:20:11.123Z" → "2026-12-03 07:20:11"
QString shortDate(const std::string& iso) {
  QString s = q(iso).left(19);
  s.replace(QLatin1Char('T'), QLatin1Char(' '));
  return s;
}

/// "3 (2.5%)" of the sent requests that failed, "0", or "–" before the run has finished.
QString failedText(const store::RunRow& r) {
  if (!r.errors) return QStringLiteral("–");
  if (*r.errors == 0 || !r.sent || *r.sent <= 0) return QString::number(*r.errors);
  const double pct = 100.0 * static_cast<double>(*r.errors) / static_cast<double>(*r.sent);
  return QStringLiteral("%1 (%2%)").arg(*r.errors).arg(pct, 0, 'g', 3);
}

}  // namespace

QString verdictText(const store::RunRow& row) { return q(store::verdictLabel(row)); }

RunTableModel::RunTableModel(QObject* parent) : QAbstractTableModel(parent) {}

void RunTableModel::setRuns(std::vector<RunListEntry> runs) {
  beginResetModel();
  m_runs = std::move(runs);
  endResetModel();
}

const RunListEntry* RunTableModel::entry(qint64 runId) const {
  int row = rowOf(runId);
  return row < 0 ? nullptr : &m_runs[static_cast<size_t>(row)];
}

int RunTableModel::rowOf(qint64 runId) const {
  for (size_t i = 0; i < m_runs.size(); ++i)
    if (m_runs[i].row.id == runId) return static_cast<int>(i);
  return -1;
}

int RunTableModel::rowCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : static_cast<int>(m_runs.size());
}

int RunTableModel::columnCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : ColumnCount;
}

QVariant RunTableModel::display(const RunListEntry& e, int column) const {
  const store::RunRow& r = e.row;
  switch (column) {
    case Id: return QString::number(r.id);
    case Name: return q(r.name.empty() ? r.workloadName : r.name);
    case Date: return shortDate(r.createdAt);
    case Workload: return q(r.workloadName);
    case Target:
      return QString(q(r.targetUrl) + (r.model.empty() ? QString() : QString(QStringLiteral(" · ") + q(r.model))));
    case Verdict: return verdictText(r);
    case RequestedRps: return number(r.requestedRps, 1);
    case AchievedRps: return number(r.achievedRps, 1);
    case Failed:
      return failedText(r);
    case TtftP99: return number(r.ttftP99Ms, 1);
    case TokensPerS: return number(r.outputTokensPerS, 0);
    case Tags: return e.tags.join(QStringLiteral(", "));
    default: return {};
  }
}

QVariant RunTableModel::sortValue(const RunListEntry& e, int column) const {
  const store::RunRow& r = e.row;
  auto num = [](const std::optional<double>& v) { return QVariant(v.value_or(-1.0)); };
  switch (column) {
    case Id: return QVariant(static_cast<qlonglong>(r.id));
    case Date: return q(r.createdAt);
    case RequestedRps: return num(r.requestedRps);
    case AchievedRps: return num(r.achievedRps);
    case Failed:
      return QVariant(static_cast<qlonglong>(r.errors.value_or(-1)));
    case TtftP99: return num(r.ttftP99Ms);
    case TokensPerS: return num(r.outputTokensPerS);
    default: return display(e, column).toString().toLower();
  }
}

QVariant RunTableModel::data(const QModelIndex& index, int role) const {
  if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
    return {};
  const RunListEntry& e = m_runs[static_cast<size_t>(index.row())];
  switch (role) {
    case Qt::DisplayRole: return display(e, index.column());
    case SortRole: return sortValue(e, index.column());
    case IdRole: return QVariant(static_cast<qlonglong>(e.row.id));
    case VerdictRole: return verdictText(e.row);
    case SearchRole: {
      QStringList parts;
      for (int c = Name; c < ColumnCount; ++c) parts << display(e, c).toString();
      parts << q(e.row.notes.value_or("")) << q(e.row.model);
      return parts.join(QLatin1Char(' ')).toLower();
    }
    case Qt::ToolTipRole:
      if (index.column() == Verdict)  // the column may cut it too: the whole verdict, then why
        return QString(display(e, Verdict).toString() +
                       (e.row.verdictReasonsJson
                            ? QStringLiteral("\n") + q(*e.row.verdictReasonsJson)
                            : QString()));
      if (index.column() == Name) return display(e, Name);  // the column may cut a long name
      if (index.column() == TtftP99 && !e.row.ttftP99Ms && e.row.completed)
        return QStringLiteral("no request got a first token");
      if (e.row.notes) return q(*e.row.notes);
      return {};
    case Qt::ForegroundRole:
      if (index.column() == Verdict) {
        if (e.row.verdict && *e.row.verdict == "kept_up")  // held until a stop: amber, not green
          return QBrush(e.row.status == "complete" ? QColor(0x1b, 0x7a, 0x2e)
                                                   : QColor(0x8a, 0x5a, 0x00));
        return QBrush(QColor(0xb0, 0x3a, 0x00));
      }
      return {};
    case Qt::TextAlignmentRole:
      if (index.column() == Id || (index.column() >= RequestedRps && index.column() <= TokensPerS))
        return QVariant(Qt::AlignRight | Qt::AlignVCenter);
      return {};
    default: return {};
  }
}

QVariant RunTableModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
  static const char* const kHeaders[] = {"ID",     "Name",        "Date (UTC)", "Workload",
                                         "Target", "Verdict",     "Req. rps",   "Ach. rps",
                                         "Failed", "TTFT p99 ms", "Out tok/s",  "Tags"};
  if (section < 0 || section >= ColumnCount) return {};
  return QString::fromLatin1(kHeaders[section]);
}

}  // namespace plumbline::ui::history
