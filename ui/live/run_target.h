#pragma once
#include <QByteArray>
#include <QString>

namespace plumbline::ui::live {

/// Where a run from the studio goes. Holds no secret: the key stays in the keychain or in
/// the named environment variable until it is handed to the run's environment.
struct RunTarget {
  enum class Kind { Embedded, Url };
  enum class KeySource { None, Keychain, Environment };
  Kind kind = Kind::Embedded;
  QString preset;  ///< embedded: a `plumbline mock` preset; empty = the workload's own mock settings
  QString url;     ///< Url: base URL
  QString model;   ///< Url: model name (empty = the workload's)
  KeySource keySource = KeySource::None;
  QString keyEnvName;  ///< Environment: the variable holding the key

  bool operator==(const RunTarget&) const = default;
};

/// The target a workload document names, as the studio's panel shows it: its URL with the
/// workload's own model ("as in workload") and its api_key_env; the embedded simulator with
/// the workload's own mock settings when it says "embedded", names no URL, or is not a
/// readable workload (the run then reports what is wrong with it).
RunTarget targetOfWorkload(const QByteArray& workloadJson);

/// The workload document a run from the studio executes: the designer's JSON with the chosen
/// target written into it (target.url/model/mock/api_key_env) and file references (trace,
/// prompt file, tokenizer) made absolute against sourceDir, so the copy runs from anywhere.
/// keyEnvForChild names the variable the child will find the key in (keychain keys).
/// Throws std::runtime_error naming what is wrong (not JSON, not an object).
QByteArray workloadForRun(const QByteArray& workloadJson, const QString& sourceDir,
                          const RunTarget& target, const QString& keyEnvForChild);

/// The mock presets `plumbline mock --preset` accepts.
QStringList mockPresets();

}  // namespace plumbline::ui::live
