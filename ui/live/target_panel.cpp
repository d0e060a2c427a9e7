#include "ui/live/target_panel.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QRadioButton>
#include <QRegularExpression>

#include "core/net/base_url.h"

namespace plumbline::ui::live {

TargetPanel::TargetPanel(QWidget* parent) : QWidget(parent) {
  auto* row = new QHBoxLayout(this);
  row->setContentsMargins(0, 0, 0, 0);
  m_embedded = new QRadioButton(QStringLiteral("Embedded simulator"), this);
  m_preset = new QComboBox(this);
  m_preset->addItem(QStringLiteral("as in workload"), QString());
  for (const QString& p : mockPresets()) m_preset->addItem(p, p);
  m_preset->setToolTip(QStringLiteral("plumbline mock --preset"));
  m_url = new QRadioButton(QStringLiteral("URL"), this);
  m_urlEdit = new QLineEdit(this);
  m_urlEdit->setPlaceholderText(QStringLiteral("http://127.0.0.1:8000"));
  m_model = new QLineEdit(this);
  m_model->setPlaceholderText(QStringLiteral("model (as in workload)"));
  m_keySource = new QComboBox(this);
  m_keySource->addItem(QStringLiteral("no API key"), static_cast<int>(RunTarget::KeySource::None));
  m_keySource->addItem(QStringLiteral("key in keychain"), static_cast<int>(RunTarget::KeySource::Keychain));
  m_keySource->addItem(QStringLiteral("key from env var"), static_cast<int>(RunTarget::KeySource::Environment));
  m_key = new QLineEdit(this);
  m_key->setEchoMode(QLineEdit::Password);
  m_key->setObjectName(QStringLiteral("apiKey"));
  m_keySource->setObjectName(QStringLiteral("apiKeySource"));
  m_key->setPlaceholderText(QStringLiteral("type to store a new key"));
  m_envName = new QLineEdit(QStringLiteral("OPENAI_API_KEY"), this);
  m_envName->setToolTip(QStringLiteral("the environment variable holding the key"));
  row->addWidget(m_embedded);
  row->addWidget(m_preset);
  row->addSpacing(16);
  row->addWidget(m_url);
  row->addWidget(m_urlEdit, 3);
  row->addWidget(m_model, 2);
  row->addWidget(m_keySource);
  row->addWidget(m_key, 2);
  row->addWidget(m_envName, 2);
  for (QRadioButton* b : {m_embedded, m_url}) connect(b, &QRadioButton::toggled, this, &TargetPanel::updateEnabled);
  connect(m_keySource, &QComboBox::currentIndexChanged, this, &TargetPanel::updateEnabled);
  m_embedded->setChecked(true);
  updateEnabled();
}

void TargetPanel::updateEnabled() {
  const bool url = m_url->isChecked();
  m_preset->setEnabled(!url);
  for (QWidget* w : std::initializer_list<QWidget*>{m_urlEdit, m_model, m_keySource}) w->setEnabled(url);
  const auto src = static_cast<RunTarget::KeySource>(m_keySource->currentData().toInt());
  m_key->setVisible(src == RunTarget::KeySource::Keychain);
  m_envName->setVisible(src == RunTarget::KeySource::Environment);
  m_key->setEnabled(url);
  m_envName->setEnabled(url);
}

RunTarget TargetPanel::target() const {
  RunTarget t;
  t.kind = m_url->isChecked() ? RunTarget::Kind::Url : RunTarget::Kind::Embedded;
  t.preset = m_preset->currentData().toString();
  t.url = m_urlEdit->text().trimmed();
  t.model = m_model->text().trimmed();
  t.keySource = static_cast<RunTarget::KeySource>(m_keySource->currentData().toInt());
  t.keyEnvName = m_envName->text().trimmed();
  return t;
}

QByteArray TargetPanel::typedKey() const { return m_key->text().toUtf8(); }
void TargetPanel::clearTypedKey() { m_key->clear(); }

void TargetPanel::selectEmbedded(const QString& preset) {
  m_embedded->setChecked(true);
  const int i = m_preset->findData(preset);
  m_preset->setCurrentIndex(i < 0 ? 0 : i);
}

void TargetPanel::selectUrl(const QString& url, const QString& model) {
  m_url->setChecked(true);
  m_urlEdit->setText(url);
  m_model->setText(model);
}

void TargetPanel::show(const RunTarget& t) {
  if (t.kind == RunTarget::Kind::Url) {
    selectUrl(t.url, t.model);
  } else {
    selectEmbedded(t.preset);
  }
  const int source = m_keySource->findData(static_cast<int>(t.keySource));
  m_keySource->setCurrentIndex(source < 0 ? 0 : source);
  if (t.keySource == RunTarget::KeySource::Environment) m_envName->setText(t.keyEnvName);
  m_key->clear();
  updateEnabled();
}

QString TargetPanel::problem() const {
  const RunTarget t = target();
  if (t.kind == RunTarget::Kind::Embedded) return {};
  if (const std::string problem = net::baseUrlProblem(t.url.toStdString()); !problem.empty())
    return QStringLiteral("Target URL: %1").arg(QString::fromStdString(problem));
  if (t.keySource == RunTarget::KeySource::Environment) {
    static const QRegularExpression name(QStringLiteral("^[A-Za-z_][A-Za-z0-9_]*$"));
    if (!name.match(t.keyEnvName).hasMatch())
      return QStringLiteral("API key variable: '%1' is not an environment variable name").arg(t.keyEnvName);
    if (qEnvironmentVariableIsEmpty(t.keyEnvName.toLocal8Bit().constData()))
      return QStringLiteral("API key variable %1 is not set in the studio's environment").arg(t.keyEnvName);
  }
  return {};
}

}  // namespace plumbline::ui::live
