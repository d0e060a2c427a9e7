#pragma once
#include <QLabel>
#include <QStringList>

#include <nlohmann/json.hpp>

namespace plumbline::ui::live {

/// The run's verdict, shown first: green only when the harness kept up; amber with the
/// reasons when it was harness_limited; grey while running or when there is no verdict.
class VerdictBanner : public QLabel {
  Q_OBJECT
 public:
  /// Stopped: the run was stopped (a signal, Stop) and kept up until then, or stopped before
  /// anything came due; amber as History shows it, neither the green of a whole run nor the red
  /// of a failure.
  /// NothingCompleted: the harness kept up and not one request it sent completed (a target not
  /// listening): red, though the verdict is kept_up, as the run's first note says.
  enum class State { Idle, Running, KeptUp, HarnessLimited, Stopped, NothingCompleted, NoVerdict };

  explicit VerdictBanner(QWidget* parent = nullptr);

  void showIdle(const QString& text);
  void showRunning(const QString& text);
  /// From the End frame: its status and the --summary-json object.
  void showEnd(const QString& status, const nlohmann::json& summary);

  State state() const { return m_state; }
  QStringList reasons() const { return m_reasons; }

 private:
  void apply(State state, const QString& text);

  State m_state = State::Idle;
  QStringList m_reasons;
};

}  // namespace plumbline::ui::live
