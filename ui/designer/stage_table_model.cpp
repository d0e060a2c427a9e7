#include "ui/designer/stage_table_model.h"

#include "ui/designer/field_binder.h"
#include "ui/designer/workload_document.h"

namespace plumbline::ui::designer {
namespace {

const char* const kKeys[] = {"rate", "ramp_to", "duration_s"};

const OrderedJson* stagesOf(const OrderedJson& json) {
  const OrderedJson* stages = JsonPath("load.stages").find(json);
  return stages && stages->is_array() ? stages : nullptr;
}

std::string cellPath(int row, int column) {
  return "load.stages[" + std::to_string(row) + "]." + kKeys[column];
}

int countRows(const OrderedJson& json) {
  const OrderedJson* stages = stagesOf(json);
  return stages ? static_cast<int>(stages->size()) : 0;
}

}  // namespace

StageTableModel::StageTableModel(WorkloadDocument* document, QObject* parent)
    : QAbstractTableModel(parent), m_document(document) {
  m_rows = countRows(document->json());
  connect(document, &WorkloadDocument::changed, this, &StageTableModel::documentChanged);
}

void StageTableModel::documentChanged(const void* origin) {
  const int rows = countRows(m_document->json());
  if (origin == this && rows == m_rows) {
    emit dataChanged(index(0, 0), index(std::max(0, rows - 1), ColumnCount - 1));
    return;
  }
  beginResetModel();
  m_rows = rows;
  endResetModel();
}

int StageTableModel::rowCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : m_rows;
}

int StageTableModel::columnCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : ColumnCount;
}

QVariant StageTableModel::data(const QModelIndex& index, int role) const {
  if (!index.isValid() || !checkIndex(index, CheckIndexOption::IndexIsValid)) return {};
  if (role != Qt::DisplayRole && role != Qt::EditRole && role != Qt::ToolTipRole) return {};
  if (role == Qt::ToolTipRole) return QString::fromStdString(cellPath(index.row(), index.column()));
  return displayText(JsonPath(cellPath(index.row(), index.column())).find(m_document->json()));
}

bool StageTableModel::setData(const QModelIndex& index, const QVariant& value, int role) {
  if (!index.isValid() || !checkIndex(index, CheckIndexOption::IndexIsValid) || role != Qt::EditRole) return false;
  const QString text = value.toString().trimmed();
  const std::string path = cellPath(index.row(), index.column());
  if (text.isEmpty()) {
    m_document->eraseValue(path, this);
  } else {
    try {
      OrderedJson number = OrderedJson::parse(text.toStdString());
      m_document->setValue(path, number.is_number() ? number : OrderedJson(text.toStdString()), this);
    } catch (const OrderedJson::parse_error&) {
      m_document->setValue(path, text.toStdString(), this);  // the loader names the cell
    }
  }
  return true;
}

Qt::ItemFlags StageTableModel::flags(const QModelIndex& index) const {
  if (!index.isValid() || !checkIndex(index, CheckIndexOption::IndexIsValid)) return Qt::NoItemFlags;
  return Qt::ItemIsSelectable | Qt::ItemIsEnabled | Qt::ItemIsEditable;
}

QVariant StageTableModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (role != Qt::DisplayRole) return {};
  if (orientation == Qt::Vertical) return QString::number(section);
  static const QString kTitles[] = {QStringLiteral("rate /s"), QStringLiteral("ramp to /s"),
                                    QStringLiteral("duration s")};
  return section >= 0 && section < ColumnCount ? kTitles[section] : QString();
}

void StageTableModel::appendStage(bool ramp) {
  OrderedJson json = m_document->json();
  OrderedJson* stages = nullptr;
  if (stagesOf(json)) stages = &json["load"]["stages"];
  double last = 10;
  if (stages && !stages->empty()) {
    const OrderedJson& back = stages->back();
    for (const char* key : {"ramp_to", "rate"}) {
      if (back.contains(key) && back[key].is_number()) {
        last = back[key].get<double>();
        break;
      }
    }
  }
  OrderedJson stage = ramp ? OrderedJson{{"ramp_to", last * 2}, {"duration_s", 30}}
                           : OrderedJson{{"rate", last}, {"duration_s", 30}};
  if (stages) {
    stages->push_back(std::move(stage));
  } else {
    JsonPath("load.stages").set(json, OrderedJson::array({std::move(stage)}));
  }
  m_document->replaceJson(std::move(json));
}

void StageTableModel::removeStage(int row) {
  if (row < 0 || row >= m_rows) return;
  m_document->eraseValue("load.stages[" + std::to_string(row) + "]");
}

}  // namespace plumbline::ui::designer
