#include "ui/designer/designer_form.h"

#include <QComboBox>
#include <QGridLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QTableView>
#include <QVBoxLayout>

#include "core/workload/length_dist_parser.h"
#include "core/workload/length_histogram.h"
#include "core/workload/session_preview.h"
#include "core/workload/workload_error.h"
#include "ui/designer/dist_editor.h"
#include "ui/designer/field_binder.h"
#include "ui/designer/field_grid.h"
#include "ui/designer/load_preview.h"
#include "ui/designer/rate_chart_widget.h"
#include "ui/designer/session_picture_widget.h"
#include "ui/designer/shape_defaults.h"
#include "ui/designer/stage_table_model.h"
#include "ui/designer/workload_document.h"

namespace plumbline::ui::designer {
namespace {

/// A titled group whose message line shows what is wrong with the object `path` itself
/// (an unknown key, a missing required one).
QGroupBox* group(FieldBinder* binder, const std::string& path, const QString& title, QLayout* content) {
  auto* box = new QGroupBox(title);
  auto* layout = new QVBoxLayout(box);
  layout->addLayout(content);
  binder->addArea(path, box);
  return box;
}

FieldGrid* newForm() { return new FieldGrid(FieldGrid::Growth::Expanding, Qt::AlignRight); }

}  // namespace

DesignerForm::DesignerForm(WorkloadDocument* document, QWidget* parent)
    : QWidget(parent),
      m_document(document),
      m_binder(new FieldBinder(document, this)),
      m_stages(new StageTableModel(document, this)) {
  // Short groups side by side, the ones with previews full width: more fits on one screen.
  auto* layout = new QGridLayout(this);
  layout->addWidget(buildWorkloadGroup(), 0, 0);
  layout->addWidget(buildSamplingGroup(), 1, 0);
  layout->addWidget(buildTargetGroup(), 0, 1, 2, 1);
  layout->addWidget(buildLoadGroup(), 2, 0, 1, 2);
  layout->addWidget(buildRequestsGroup(), 3, 0, 1, 2);
  layout->addWidget(buildSessionGroup(), 4, 0, 1, 2);
  layout->setColumnStretch(0, 1);
  layout->setColumnStretch(1, 1);
  layout->setRowStretch(5, 1);
  refreshVisibility();
}

QWidget* DesignerForm::buildWorkloadGroup() {
  auto* form = newForm();
  m_binder->addNumber(form, QStringLiteral("format version"), "plumbline",
                      QStringLiteral("the workload format's version (1)"));
  m_binder->addText(form, QStringLiteral("name"), "name");
  m_binder->addText(form, QStringLiteral("description"), "description",
                    QStringLiteral("one line, shown in the catalog"));
  m_binder->addNumber(form, QStringLiteral("send lag tolerance ms"), "verdict.send_lag_tolerance_ms",
                      QStringLiteral("p99 send lag allowed in every window for kept_up (default 1)"));
  m_binder->addNumber(form, QStringLiteral("min sent fraction"), "verdict.min_sent_fraction",
                      QStringLiteral("of planned requests, for kept_up (default 0.99)"));
  return group(m_binder, "", QStringLiteral("Workload"), form);
}

QWidget* DesignerForm::buildTargetGroup() {
  auto* form = newForm();
  m_binder->addChoice(form, QStringLiteral("url"), "target.url", {QStringLiteral("embedded")},
                      QStringLiteral("\"embedded\" (the built-in simulator) or an http(s) base URL"));
  m_binder->addChoice(form, QStringLiteral("api"), "target.api",
                      {QStringLiteral("chat"), QStringLiteral("completions")});
  m_binder->addText(form, QStringLiteral("model"), "target.model");
  m_binder->addBool(form, QStringLiteral("stream"), "target.stream");
  m_binder->addText(form, QStringLiteral("API key variable"), "target.api_key_env",
                    QStringLiteral("the NAME of an environment variable holding the key; never the key"));
  m_binder->addNumber(form, QStringLiteral("timeout s"), "target.timeout_s");
  m_binder->addChoice(form, QStringLiteral("simulator preset"), "target.mock.preset",
                      {QStringLiteral("instant"), QStringLiteral("default"), QStringLiteral("gpu-8b"),
                       QStringLiteral("overloaded"), QStringLiteral("flaky")});
  m_binder->addNumber(form, QStringLiteral("simulator TTFT ms"), "target.mock.ttft_ms");
  m_binder->addNumber(form, QStringLiteral("simulator ITL ms"), "target.mock.itl_ms");
  m_binder->addNumber(form, QStringLiteral("simulator thinking tokens"),
                      "target.mock.thinking_tokens",
                      QStringLiteral("chat replies begin with this many reasoning_content tokens: "
                                     "TTFT is then the first thinking token, TTFA the answer's"));
  m_binder->addNumber(form, QStringLiteral("simulator tokens per event"),
                      "target.mock.tokens_per_event",
                      QStringLiteral("after its first token a stream sends this many tokens an "
                                     "event, as a server streaming every N tokens (instant and "
                                     "default presets)"));
  return group(m_binder, "target", QStringLiteral("Target"), form);
}

QWidget* DesignerForm::buildLoadGroup() {
  m_loadForm = newForm();
  m_arrival = new QComboBox;
  m_arrival->setEditable(true);
  m_arrival->addItems({QString(), QStringLiteral("constant"), QStringLiteral("poisson"),
                       QStringLiteral("gamma"), QStringLiteral("trace")});
  m_binder->addDisplayOnly(m_loadForm, QStringLiteral("arrival"), "load.arrival", m_arrival,
                           QStringLiteral("how sessions arrive; rates are session arrivals per second"));
  connect(m_arrival, &QComboBox::textActivated, this, [this](const QString& arrival) {
    const OrderedJson* load = JsonPath("load").find(m_document->json());
    m_document->setValue("load", loadForArrival(load ? *load : OrderedJson::object(), arrival.toStdString()));
  });
  m_binder->addNumber(m_loadForm, QStringLiteral("cv"), "load.cv",
                      QStringLiteral("gamma: coefficient of variation of the gaps (1 = poisson, more = burstier)"));
  m_binder->addNumber(m_loadForm, QStringLiteral("seed"), "load.seed");
  m_binder->addNumber(m_loadForm, QStringLiteral("max in flight"), "load.max_in_flight");

  m_stageArea = new QWidget;
  auto* stageLayout = new QVBoxLayout(m_stageArea);
  stageLayout->setContentsMargins(0, 0, 0, 0);
  m_stageTable = new QTableView;
  m_stageTable->setModel(m_stages);
  m_stageTable->horizontalHeader()->setSectionResizeMode(QHeaderView::Stretch);
  m_stageTable->setMinimumHeight(110);
  m_stageTable->setMaximumHeight(170);
  stageLayout->addWidget(m_stageTable);
  auto* buttons = new QHBoxLayout;
  auto* hold = new QPushButton(QStringLiteral("+ hold"));
  auto* ramp = new QPushButton(QStringLiteral("+ ramp"));
  auto* remove = new QPushButton(QStringLiteral("− remove"));
  hold->setToolTip(QStringLiteral("add a stage at the last rate"));
  ramp->setToolTip(QStringLiteral("add a linear ramp from the last rate to twice it"));
  buttons->addWidget(hold);
  buttons->addWidget(ramp);
  buttons->addWidget(remove);
  buttons->addStretch(1);
  stageLayout->addLayout(buttons);
  connect(hold, &QPushButton::clicked, this, [this] { m_stages->appendStage(false); });
  connect(ramp, &QPushButton::clicked, this, [this] { m_stages->appendStage(true); });
  connect(remove, &QPushButton::clicked, this, [this] {
    m_stages->removeStage(m_stageTable->currentIndex().isValid() ? m_stageTable->currentIndex().row()
                                                                 : m_stages->rowCount() - 1);
  });
  m_loadForm->addRow(QStringLiteral("stages"), m_stageArea);
  m_binder->addArea("load.stages", m_stageArea);

  m_binder->addText(m_loadForm, QStringLiteral("trace file"), "load.trace.file",
                    QStringLiteral("relative to the workload file"));
  m_binder->addChoice(m_loadForm, QStringLiteral("trace format"), "load.trace.format",
                      {QStringLiteral("azure_csv"), QStringLiteral("mooncake_jsonl")});
  m_binder->addNumber(m_loadForm, QStringLiteral("time scale"), "load.trace.time_scale",
                      QStringLiteral("multiplies the trace's gaps (0.5 = twice as fast)"));
  m_binder->addNumber(m_loadForm, QStringLiteral("start offset s"), "load.trace.start_offset_s");
  m_binder->addNumber(m_loadForm, QStringLiteral("window s"), "load.trace.window_s");
  m_binder->addChoice(m_loadForm, QStringLiteral("lengths from"), "load.trace.lengths",
                      {QStringLiteral("trace"), QStringLiteral("workload")});

  m_rateChart = new RateChartWidget;
  auto* row = new QHBoxLayout;
  row->addLayout(m_loadForm, 2);
  row->addWidget(m_rateChart, 3);
  return group(m_binder, "load", QStringLiteral("Load"), row);
}

QWidget* DesignerForm::addDist(FieldGrid* form, const QString& label, const std::string& path,
                               int unit) {
  auto* wrapper = new QWidget;
  auto* layout = new QVBoxLayout(wrapper);
  layout->setContentsMargins(0, 0, 0, 0);
  auto* editor = new DistEditor(m_document, m_binder, path, static_cast<DistEditor::Unit>(unit));
  layout->addWidget(editor);
  form->addRow(label, wrapper);
  m_binder->addArea(path, wrapper);
  m_dists.push_back(editor);
  return wrapper;
}

QWidget* DesignerForm::buildRequestsGroup() {
  auto* form = newForm();
  addDist(form, QStringLiteral("input tokens"), "requests.input_tokens",
          static_cast<int>(DistEditor::Unit::Tokens));
  addDist(form, QStringLiteral("output tokens"), "requests.output_tokens",
          static_cast<int>(DistEditor::Unit::Tokens));
  m_promptForm = form;
  m_binder->addChoice(form, QStringLiteral("prompt source"), "requests.prompt.source",
                      {QStringLiteral("synthetic"), QStringLiteral("sharegpt")});
  m_binder->addText(form, QStringLiteral("dataset file"), "requests.prompt.file",
                    QStringLiteral("sharegpt: the conversations file, relative to the workload"));
  m_binder->addNumber(form, QStringLiteral("dataset min input"), "requests.prompt.min_input_tokens",
                      QStringLiteral("sharegpt: skip conversations with shorter inputs"));
  m_binder->addNumber(form, QStringLiteral("dataset max input"), "requests.prompt.max_input_tokens",
                      QStringLiteral("sharegpt: longer inputs are truncated by the policy below"));
  m_binder->addNumber(form, QStringLiteral("dataset max output"), "requests.prompt.max_output_tokens");
  m_binder->addChoice(form, QStringLiteral("truncation"), "requests.prompt.truncation",
                      {QStringLiteral("keep_start")});
  m_binder->addText(form, QStringLiteral("tokenizer"), "requests.prompt.tokenizer",
                    QStringLiteral("optional tokenizer.json: synthetic prompts hit their length exactly"));
  m_binder->addNumber(form, QStringLiteral("shared prefix groups"), "requests.prompt.shared_prefix.groups");
  m_binder->addNumber(form, QStringLiteral("shared prefix tokens"), "requests.prompt.shared_prefix.tokens");
  return group(m_binder, "requests", QStringLiteral("Requests"), form);
}

QWidget* DesignerForm::buildSamplingGroup() {
  auto* form = newForm();
  const std::string base = "requests.sampling.";
  m_binder->addNumber(form, QStringLiteral("temperature"), base + "temperature");
  m_binder->addNumber(form, QStringLiteral("top_p"), base + "top_p");
  m_binder->addNumber(form, QStringLiteral("max_tokens"), base + "max_tokens",
                      QStringLiteral("caps every request's drawn output length"));
  m_binder->addBool(form, QStringLiteral("ignore_eos"), base + "ignore_eos",
                    QStringLiteral("true: replies run to their drawn length"));
  m_binder->addNumber(form, QStringLiteral("seed"), base + "seed");
  m_binder->addRawJson(form, QStringLiteral("extra body fields"), base + "extra",
                       QStringLiteral("other request body fields, passed through as JSON"));
  return group(m_binder, "requests.sampling", QStringLiteral("Sampling"), form);
}

QWidget* DesignerForm::buildSessionGroup() {
  m_sessionForm = newForm();
  m_shape = new QComboBox;
  m_shape->setEditable(true);
  m_shape->addItems({QString(), QStringLiteral("single"), QStringLiteral("multi_turn"),
                     QStringLiteral("tree"), QStringLiteral("agentic"), QStringLiteral("summarize")});
  m_binder->addDisplayOnly(m_sessionForm, QStringLiteral("shape"), "session.shape", m_shape,
                           QStringLiteral("what one arrival runs: a request, a conversation, a tree, "
                                          "an agent loop or a map-reduce"));
  connect(m_shape, &QComboBox::textActivated, this, [this](const QString& shape) {
    const OrderedJson* session = JsonPath("session").find(m_document->json());
    m_document->setValue("session", sessionForShape(session ? *session : OrderedJson::object(),
                                                    shape.toStdString()));
  });
  const int count = static_cast<int>(DistEditor::Unit::Count);
  const int seconds = static_cast<int>(DistEditor::Unit::Seconds);
  addDist(m_sessionForm, QStringLiteral("turns"), "session.turns", count);
  addDist(m_sessionForm, QStringLiteral("think time"), "session.think_time_s", seconds);
  m_binder->addNumber(m_sessionForm, QStringLiteral("branching"), "session.branching");
  m_binder->addNumber(m_sessionForm, QStringLiteral("depth"), "session.depth",
                      QStringLiteral("generations of children under the root"));
  addDist(m_sessionForm, QStringLiteral("steps"), "session.steps", count);
  addDist(m_sessionForm, QStringLiteral("tool latency"), "session.tool_latency_s", seconds);
  addDist(m_sessionForm, QStringLiteral("tool result tokens"), "session.tool_result_tokens",
          static_cast<int>(DistEditor::Unit::Tokens));
  addDist(m_sessionForm, QStringLiteral("chunks"), "session.chunks", count);
  m_sessionPicture = new SessionPictureWidget;
  auto* row = new QHBoxLayout;
  row->addLayout(m_sessionForm, 3);
  row->addWidget(m_sessionPicture, 2, Qt::AlignTop);
  return group(m_binder, "session", QStringLiteral("Session"), row);
}

void DesignerForm::setRowsVisible(FieldGrid* form, const std::vector<std::string>& paths,
                                  bool visible) {
  for (const std::string& path : paths) {
    if (QWidget* row = m_binder->rowAt(path)) form->setRowVisible(row, visible);
  }
}

void DesignerForm::refreshVisibility() {
  const OrderedJson& json = m_document->json();
  const std::string arrival = stringAt(json, "load.arrival");
  setRowsVisible(m_loadForm, {"load.cv"}, arrival == "gamma" || JsonPath("load.cv").find(json));
  const bool trace = arrival == "trace" || JsonPath("load.trace").find(json);
  setRowsVisible(m_loadForm, {"load.stages"}, !trace || JsonPath("load.stages").find(json));
  setRowsVisible(m_loadForm,
                 {"load.trace.file", "load.trace.format", "load.trace.time_scale",
                  "load.trace.start_offset_s", "load.trace.window_s", "load.trace.lengths"},
                 trace);
  const bool dataset = stringAt(json, "requests.prompt.source") == "sharegpt";
  for (const char* path : {"requests.prompt.file", "requests.prompt.min_input_tokens",
                           "requests.prompt.max_input_tokens", "requests.prompt.max_output_tokens",
                           "requests.prompt.truncation"})
    setRowsVisible(m_promptForm, {path}, dataset || JsonPath(path).find(json));

  const std::string shape = stringAt(json, "session.shape");
  const std::pair<const char*, const char*> shapeRows[] = {
      {"session.turns", "multi_turn"},  {"session.think_time_s", "multi_turn"},
      {"session.branching", "tree"},    {"session.depth", "tree"},
      {"session.steps", "agentic"},     {"session.tool_latency_s", "agentic"},
      {"session.tool_result_tokens", "agentic"}, {"session.chunks", "summarize"}};
  for (const auto& [path, owner] : shapeRows)
    setRowsVisible(m_sessionForm, {path}, shape == owner || JsonPath(path).find(json));
}

void DesignerForm::refreshFields(const void* origin) {
  m_binder->refresh(origin);
  refreshVisibility();
}

void DesignerForm::refreshPreviews(const std::optional<workload::WorkloadSpec>& spec,
                                   bool filesBeingRead) {
  refreshTraceLengths(spec, filesBeingRead);
  for (DistEditor* editor : m_dists) editor->refreshPreview();
  const LoadPreview load = previewLoad(m_document->json(), spec, filesBeingRead);
  if (load.error.isEmpty())
    m_rateChart->setCurves(load.planned, load.arrivals, load.binS, load.durationS, load.caption);
  else
    m_rateChart->clear(load.error);
  refreshSessionPreview(spec);
}

void DesignerForm::refreshTraceLengths(const std::optional<workload::WorkloadSpec>& spec,
                                       bool filesBeingRead) {
  const OrderedJson& json = m_document->json();
  const bool fromTrace = spec ? spec->load.trace && spec->load.trace->lengthsFromTrace
                              : stringAt(json, "load.arrival") == "trace" &&
                                    stringAt(json, "load.trace.lengths") != "workload";
  const auto histograms = fromTrace && spec ? workload::traceLengthHistograms(*spec) : std::nullopt;
  const QString why =
      filesBeingRead ? QStringLiteral("the trace's lengths are drawn once its file is read")
                     : QStringLiteral("the trace's lengths are drawn once the workload is valid");
  for (DistEditor* editor : m_dists) {
    const bool input = editor->path() == "requests.input_tokens";
    if (!input && editor->path() != "requests.output_tokens") continue;
    // One written anyway is refused by the loader: its fields stay, to be seen and removed.
    if (!fromTrace || JsonPath(editor->path()).find(json))
      editor->showOwnDistribution();
    else if (histograms)
      editor->showTraceLengths(input ? histograms->input : histograms->output);
    else
      editor->showTraceLengths(std::nullopt, why);
  }
}

void DesignerForm::refreshSessionPreview(const std::optional<workload::WorkloadSpec>& spec) {
  if (spec) {
    // The workload loads: the picture shows exactly what `plumbline plan` computes for it.
    m_sessionPicture->setPreview(workload::previewSession(*spec));
    return;
  }
  const nlohmann::json json = nlohmann::json::parse(m_document->json().dump());
  const auto session = json.contains("session") ? json["session"] : nlohmann::json{{"shape", "single"}};
  try {
    // The picture needs only the lengths and the session: it stays live while another
    // part of the file is being fixed.
    const auto lengths = json.at("requests");
    const auto input = workload::parseLengthDist(lengths.at("input_tokens"), "requests.input_tokens");
    const auto output = workload::parseLengthDist(lengths.at("output_tokens"), "requests.output_tokens");
    m_sessionPicture->setPreview(workload::previewSession(session, input, output));
  } catch (const workload::WorkloadError& error) {
    m_sessionPicture->clear(QString::fromStdString(error.what()));
  } catch (const nlohmann::json::exception&) {
    m_sessionPicture->clear(QStringLiteral("needs requests.input_tokens and output_tokens"));
  }
}

}  // namespace plumbline::ui::designer
