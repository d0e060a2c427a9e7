#pragma once
#include <QByteArray>
#include <QWidget>

#include "ui/live/run_target.h"

class QComboBox;
class QLineEdit;
class QRadioButton;
class QStackedWidget;

namespace plumbline::ui::live {

/// Chooses the target: the embedded simulator with a preset, or a URL with model and an
/// API key taken from the OS keychain or from a named environment variable. A key typed
/// here is only ever handed to the keychain and to the run's environment.
class TargetPanel : public QWidget {
  Q_OBJECT
 public:
  explicit TargetPanel(QWidget* parent = nullptr);

  RunTarget target() const;
  /// The key typed into the panel (empty: use the one already in the keychain).
  QByteArray typedKey() const;
  void clearTypedKey();

  void selectEmbedded(const QString& preset = {});
  void selectUrl(const QString& url, const QString& model);
  /// Shows t: its kind, preset, URL, model, and where its key comes from. A typed key is
  /// dropped (it belonged to the target shown before).
  void show(const RunTarget& t);
  /// A human-readable problem with the current choice, or empty.
  QString problem() const;

 private:
  void updateEnabled();

  QRadioButton* m_embedded = nullptr;
  QRadioButton* m_url = nullptr;
  QComboBox* m_preset = nullptr;
  QLineEdit* m_urlEdit = nullptr;
  QLineEdit* m_model = nullptr;
  QComboBox* m_keySource = nullptr;
  QLineEdit* m_key = nullptr;
  QLineEdit* m_envName = nullptr;
};

}  // namespace plumbline::ui::live
