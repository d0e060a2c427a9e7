#include <QTest>

#include <nlohmann/json.hpp>

#include "ui/live/run_target.h"

using plumbline::ui::live::RunTarget;
using plumbline::ui::live::targetOfWorkload;
using plumbline::ui::live::workloadForRun;

namespace {
nlohmann::json parse(const QByteArray& b) { return nlohmann::json::parse(b.toStdString()); }
const QByteArray kWorkload = R"({"plumbline":1,"name":"w","target":{"url":"embedded","model":"mock",
  "mock":{"ttft_ms":50}},"load":{"arrival":"trace","trace":{"file":"traces/a.csv","format":"azure_csv"}},
  "requests":{"prompt":{"source":"sharegpt","file":"/abs/data.json","tokenizer":"tok/tokenizer.json"}}})";
}  // namespace

/// `--open` of a file naming a key twice ran it with the last value (QA, session 16).
constexpr const char* kTwice =
    R"({"plumbline": 1, "name": "x", "load": {"arrival": "poisson", "arrival": "constant"}})";

class RunTargetTest : public QObject {
  Q_OBJECT
 private slots:
  void aWorkloadsTargetIsWhatThePanelShows() {
    QVERIFY(targetOfWorkload(kWorkload) == RunTarget{});  // "embedded": the workload's own mock
    RunTarget url;
    url.kind = RunTarget::Kind::Url;
    url.url = QStringLiteral("http://10.0.0.5:8000");
    const QByteArray withModel = R"({"target":{"url":" http://10.0.0.5:8000 ","model":"llama"}})";
    QVERIFY(targetOfWorkload(withModel) == url);
    url.keySource = RunTarget::KeySource::Environment;
    url.keyEnvName = QStringLiteral("VLLM_KEY");
    const QByteArray withKeyEnv =
        R"({"target":{"url":"http://10.0.0.5:8000","api_key_env":"VLLM_KEY"}})";
    QVERIFY(targetOfWorkload(withKeyEnv) == url);
    // Nothing readable named: the simulator, and the run says what is wrong with the workload.
    const char* unreadable[] = {
        "", "not json", "[1]", R"({"target":3})", R"({"target":{}})", R"({"target":{"url":7}})"};
    for (const char* doc : unreadable) QVERIFY2(targetOfWorkload(doc) == RunTarget{}, doc);
  }
  void embeddedPresetReplacesTheWorkloadsMockSettings() {
    RunTarget t;
    t.preset = QStringLiteral("gpu-8b");
    const auto j = parse(workloadForRun(kWorkload, QStringLiteral("/w"), t, QStringLiteral("K")));
    QVERIFY(j["target"]["url"] == "embedded");
    QVERIFY(j["target"]["mock"] == nlohmann::json({{"preset", "gpu-8b"}}));
    t.preset.clear();
    const auto keep = parse(workloadForRun(kWorkload, {}, t, QStringLiteral("K")));
    QVERIFY(keep["target"]["mock"]["ttft_ms"] == 50);
  }
  void urlTargetNamesTheKeyVariableNeverTheKey() {
    RunTarget t;
    t.kind = RunTarget::Kind::Url;
    t.url = QStringLiteral(" http://127.0.0.1:9000 ");
    t.model = QStringLiteral("llama");
    t.keySource = RunTarget::KeySource::Keychain;
    const auto j = parse(workloadForRun(kWorkload, {}, t, QStringLiteral("PLUMBLINE_STUDIO_API_KEY")));
    QVERIFY(j["target"]["url"] == "http://127.0.0.1:9000");
    QVERIFY(j["target"]["model"] == "llama");
    QVERIFY(j["target"]["api_key_env"] == "PLUMBLINE_STUDIO_API_KEY");
    QVERIFY(!j["target"].contains("mock"));
    t.keySource = RunTarget::KeySource::Environment;
    t.keyEnvName = QStringLiteral("MY_KEY");
    QVERIFY(parse(workloadForRun(kWorkload, {}, t, {}))["target"]["api_key_env"] == "MY_KEY");
  }
  void aKeyNamedTwiceIsRefusedNotCollapsed() {
    try {
      workloadForRun(kTwice, {}, RunTarget{}, {});
      QFAIL("a workload naming a key twice was run");
    } catch (const std::runtime_error& e) {
      QCOMPARE(QString::fromUtf8(e.what()),
               QStringLiteral("workload: load.arrival: 'arrival' is named twice in one object "
                              "(JSON readers differ in which they keep: name it once)"));
    }
  }
  void relativeFilesBecomeAbsoluteAndAbsentOnesStayAbsent() {
    const auto j = parse(workloadForRun(kWorkload, QStringLiteral("/cat/workloads"), RunTarget{}, {}));
    QVERIFY(j["load"]["trace"]["file"] == "/cat/workloads/traces/a.csv");
    QVERIFY(j["requests"]["prompt"]["file"] == "/abs/data.json");
    QVERIFY(j["requests"]["prompt"]["tokenizer"] == "/cat/workloads/tok/tokenizer.json");
    const auto plain = parse(workloadForRun(R"({"name":"x","load":{}})", QStringLiteral("/a"), RunTarget{}, {}));
    QVERIFY(!plain["load"].contains("trace"));
    QVERIFY(!plain.contains("requests"));
  }
  void keepsTheWorkloadsKeyOrder() {
    const QByteArray out = workloadForRun(kWorkload, {}, RunTarget{}, {});
    QVERIFY(out.indexOf("\"plumbline\"") < out.indexOf("\"name\""));
    QVERIFY(out.indexOf("\"name\"") < out.indexOf("\"target\""));
  }
  void rejectsWhatIsNotAWorkloadObject() {
    QVERIFY_THROWS_EXCEPTION(std::runtime_error, workloadForRun("{nope", {}, RunTarget{}, {}));
    QVERIFY_THROWS_EXCEPTION(std::runtime_error, workloadForRun("[1,2]", {}, RunTarget{}, {}));
    // QA (session 18): Start on a file that is not JSON said only "workload: not valid JSON".
    try {
      workloadForRun("{\r  \"name\": \"x\",\r  \"load\": {\"rate\": oops}\r}", {}, RunTarget{}, {});
      QFAIL("accepted");
    } catch (const std::runtime_error& e) {
      QVERIFY2(QString::fromUtf8(e.what()).startsWith(
                   QStringLiteral("workload: not valid JSON: line 3, column 20: syntax error")),
               e.what());
    }
  }
};

QTEST_MAIN(RunTargetTest)
#include "run_target_test.moc"
