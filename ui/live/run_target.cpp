#include "ui/live/run_target.h"

#include <QDir>
#include <QStringList>
#include <stdexcept>

#include <nlohmann/json.hpp>

#include "core/util/json_duplicate_key.h"
#include "core/util/json_syntax_error.h"

namespace plumbline::ui::live {

namespace {

using Json = nlohmann::ordered_json;

/// doc[outer][inner][key], made absolute when it is a relative path; absent keys stay absent.
void absolutize(Json& doc, const char* outer, const char* inner, const char* key, const QDir& base) {
  const auto o = doc.find(outer);
  if (o == doc.end() || !o->is_object()) return;
  const auto i = o->find(inner);
  if (i == o->end() || !i->is_object()) return;
  Json& obj = *i;
  if (!obj.contains(key) || !obj[key].is_string()) return;
  const QString path = QString::fromStdString(obj[key].get<std::string>());
  if (QDir::isRelativePath(path)) obj[key] = QDir::cleanPath(base.absoluteFilePath(path)).toStdString();
}

}  // namespace

RunTarget targetOfWorkload(const QByteArray& workloadJson) {
  RunTarget out;
  const Json doc = Json::parse(workloadJson.constData(),
                               workloadJson.constData() + workloadJson.size(), nullptr, false);
  if (!doc.is_object()) return out;
  const auto t = doc.find("target");
  if (t == doc.end() || !t->is_object()) return out;
  const auto url = t->find("url");
  if (url == t->end() || !url->is_string() || url->get<std::string>() == "embedded") return out;
  out.kind = RunTarget::Kind::Url;
  out.url = QString::fromStdString(url->get<std::string>()).trimmed();
  const auto env = t->find("api_key_env");
  if (env != t->end() && env->is_string()) {
    out.keySource = RunTarget::KeySource::Environment;
    out.keyEnvName = QString::fromStdString(env->get<std::string>());
  }
  return out;
}

QStringList mockPresets() {
  return {QStringLiteral("instant"), QStringLiteral("default"), QStringLiteral("gpu-8b"),
          QStringLiteral("overloaded"), QStringLiteral("flaky")};
}

QByteArray workloadForRun(const QByteArray& workloadJson, const QString& sourceDir,
                          const RunTarget& target, const QString& keyEnvForChild) {
  const std::string_view text(workloadJson.constData(), static_cast<size_t>(workloadJson.size()));
  Json doc;
  try {
    doc = Json::parse(text.begin(), text.end());
  } catch (const Json::exception& error) {  // placed as the CLI and the Designer place it
    throw std::runtime_error("workload: not valid JSON: " +
                             util::jsonSyntaxError(text, error).describe());
  }
  // Re-written below, a key named twice would reach the run as its last value: `--open` of such a
  // file ran it while the Designer (and the CLI) refused it.
  if (const auto duplicate = util::firstDuplicateKey(text))
    throw std::runtime_error("workload: " + duplicate->path + ": " + duplicate->reason());
  if (!doc.is_object()) throw std::runtime_error("workload: expected a JSON object");
  Json& t = doc["target"];
  if (!t.is_object()) t = Json::object();
  if (target.kind == RunTarget::Kind::Embedded) {
    t["url"] = "embedded";
    if (!target.preset.isEmpty()) t["mock"] = Json{{"preset", target.preset.toStdString()}};
    t.erase("api_key_env");
  } else {
    t["url"] = target.url.trimmed().toStdString();
    t.erase("mock");
    if (!target.model.trimmed().isEmpty()) t["model"] = target.model.trimmed().toStdString();
    if (target.keySource == RunTarget::KeySource::Keychain) {
      t["api_key_env"] = keyEnvForChild.toStdString();
    } else if (target.keySource == RunTarget::KeySource::Environment) {
      t["api_key_env"] = target.keyEnvName.trimmed().toStdString();
    } else {
      t.erase("api_key_env");
    }
  }
  if (!sourceDir.isEmpty()) {
    const QDir base(sourceDir);
    absolutize(doc, "load", "trace", "file", base);
    absolutize(doc, "requests", "prompt", "file", base);
    absolutize(doc, "requests", "prompt", "tokenizer", base);
  }
  const std::string out = doc.dump(2);
  return QByteArray(out.data(), static_cast<qsizetype>(out.size()));
}

}  // namespace plumbline::ui::live
