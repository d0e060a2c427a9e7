#include "ui/live/verdict_banner.h"

#include "core/metrics/run_summary.h"

namespace plumbline::ui::live {

namespace {

QString styleFor(VerdictBanner::State s) {
  const char* bg = "#e6e6e6";
  const char* fg = "#303030";
  switch (s) {
    case VerdictBanner::State::KeptUp: bg = "#1e7b34"; fg = "#ffffff"; break;
    case VerdictBanner::State::HarnessLimited: bg = "#c77700"; fg = "#ffffff"; break;
    case VerdictBanner::State::Stopped:
      bg = "#fdf1c7";
      fg = "#6b4a00";
      break;
    case VerdictBanner::State::NoVerdict:
    case VerdictBanner::State::NothingCompleted:
      bg = "#9b2226";
      fg = "#ffffff";
      break;
    case VerdictBanner::State::Running: bg = "#dfe7f2"; fg = "#1d3557"; break;
    case VerdictBanner::State::Idle: break;
  }
  return QStringLiteral("QLabel { background: %1; color: %2; padding: 6px 10px; border-radius: 3px; }")
      .arg(QLatin1String(bg), QLatin1String(fg));
}

}  // namespace

VerdictBanner::VerdictBanner(QWidget* parent) : QLabel(parent) {
  setWordWrap(true);
  setTextFormat(Qt::PlainText);
  QFont f = font();
  f.setBold(true);
  setFont(f);
  showIdle(QStringLiteral("No run yet"));
}

void VerdictBanner::apply(State state, const QString& text) {
  m_state = state;
  setStyleSheet(styleFor(state));
  setText(text);
}

void VerdictBanner::showIdle(const QString& text) {
  m_reasons.clear();
  apply(State::Idle, text);
}

void VerdictBanner::showRunning(const QString& text) {
  m_reasons.clear();
  apply(State::Running, text);
}

void VerdictBanner::showEnd(const QString& status, const nlohmann::json& summary) {
  m_reasons.clear();
  // Null when the run was stopped before anything came due (no load, no verdict): value()
  // would throw converting it.
  const std::string verdict =
      summary.is_object() && summary.contains("verdict") && summary.at("verdict").is_string()
          ? summary.at("verdict").get<std::string>()
          : std::string();
  if (summary.is_object() && summary.contains("verdict_reasons") && summary["verdict_reasons"].is_array()) {
    for (const auto& r : summary["verdict_reasons"]) {
      if (r.is_string()) m_reasons.append(QString::fromStdString(r.get<std::string>()));
    }
  }
  const bool complete = status == QStringLiteral("complete");
  const QString tail = complete ? QString() : QStringLiteral(" (run %1)").arg(status);
  const QString why = m_reasons.isEmpty() ? QString() : QStringLiteral(": ") + m_reasons.join(QStringLiteral("; "));
  // The verdict is about the harness; what the target did with the load goes beside it.
  const std::string failed = metrics::failedText(summary);
  const QString failures =
      failed.empty() ? QString() : QStringLiteral(" · ") + QString::fromStdString(failed);
  const auto count = [&](const char* key) {
    return summary.is_object() && summary.contains(key) && summary.at(key).is_number()
               ? summary.at(key).get<double>()
               : -1.0;
  };
  if (verdict == "kept_up" && count("sent") > 0 && count("completed") == 0) {
    // QA 23b: green for 27 of 27 connect failures; the verdict is about the harness, but the
    // colour is what a person reads first.
    apply(State::NothingCompleted,
          QStringLiteral("Kept up, but not one request completed: the harness sent the load, "
                         "the target answered none of it") +
              tail + failures + why);
  } else if (verdict == "kept_up") {
    // A stopped run was judged on what was planned before the stop, not on what was asked.
    // QA 23b: green here, amber in History for the same stopped run.
    apply(complete ? State::KeptUp : State::Stopped,
          (complete ? QStringLiteral("Kept up: the harness sent the load it was asked for")
                    : QStringLiteral("Kept up until the run stopped: the harness sent "
                                     "what was planned before the stop")) +
              tail + failures + why);
  } else if (verdict == "harness_limited") {
    apply(State::HarnessLimited,
          QStringLiteral("Harness limited: these figures understate what was asked") + tail +
              failures + why);
  } else if (status == QStringLiteral("incomplete") && summary.is_object() &&
             summary.contains("verdict") && summary.at("verdict").is_null()) {
    // Stopped before the first request came due: nothing failed, there was nothing to judge.
    apply(State::Stopped, QStringLiteral("No verdict: stopped before the first request came due, "
                                         "so nothing was sent") +
                              tail + failures + why);
  } else {
    apply(State::NoVerdict, QStringLiteral("No verdict") + tail + failures + why);
  }
}

}  // namespace plumbline::ui::live
