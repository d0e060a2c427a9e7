#include "core/store/schema.h"

#include <array>

namespace plumbline::store {

namespace {

// Append only: a released migration is never edited, a new schema is a new entry.
constexpr const char* kSchemaV1 = R"sql(
CREATE TABLE runs (
  id INTEGER PRIMARY KEY,
  name TEXT,
  created_at TEXT NOT NULL,
  t0_wall_ns INTEGER,
  workload_name TEXT,
  spec_json TEXT,
  target_url TEXT,
  api TEXT,
  model TEXT,
  tool_version TEXT,
  host TEXT,
  cores INTEGER,
  workers INTEGER,
  coordinator_pid INTEGER,
  status TEXT NOT NULL CHECK (status IN ('running', 'complete', 'incomplete', 'failed')),
  ended_at TEXT,
  verdict TEXT,
  verdict_reasons_json TEXT,
  summary_json TEXT,
  planned INTEGER,
  sent INTEGER,
  completed INTEGER,
  errors INTEGER,
  requested_rps REAL,
  achieved_rps REAL,
  ttft_p99_ms REAL,
  output_tokens_per_s REAL,
  duration_s REAL,
  notes TEXT
);
CREATE TABLE requests (
  run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
  session_id INTEGER,
  turn INTEGER,
  worker_id INTEGER,
  planned_ns INTEGER,
  send_ns INTEGER,
  first_byte_ns INTEGER,
  first_token_ns INTEGER,
  last_token_ns INTEGER,
  end_ns INTEGER,
  input_tokens_server INTEGER,
  output_tokens_server INTEGER,
  input_tokens_client INTEGER,
  output_tokens_client INTEGER,
  chunks INTEGER,
  http_status INTEGER,
  error_class INTEGER
);
CREATE INDEX requests_run_id ON requests(run_id);
CREATE TABLE windows (
  run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
  idx INTEGER NOT NULL,
  start_ns INTEGER,
  length_ns INTEGER,
  planned INTEGER,
  sent INTEGER,
  completed INTEGER,
  errors INTEGER,
  errors_json TEXT,
  input_tokens INTEGER,
  output_tokens INTEGER,
  in_flight INTEGER,
  ttft_p50_ms REAL,
  ttft_p99_ms REAL,
  itl_p50_ms REAL,
  itl_p99_ms REAL,
  e2e_p50_ms REAL,
  e2e_p99_ms REAL,
  send_lag_p50_ms REAL,
  send_lag_p99_ms REAL,
  send_lag_max_ms REAL,
  worker_cpu_max REAL,
  worker_cpu_mean REAL,
  loop_delay_max_ms REAL,
  in_flight_cap_hits INTEGER,
  worker_died INTEGER,
  PRIMARY KEY (run_id, idx)
);
CREATE TABLE histograms (
  run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
  metric TEXT NOT NULL,
  window_idx INTEGER NOT NULL,
  data BLOB,
  PRIMARY KEY (run_id, metric, window_idx)
);
CREATE TABLE tags (
  run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
  tag TEXT NOT NULL,
  PRIMARY KEY (run_id, tag)
);
)sql";

// v2: the harness's open client connections per window (live telemetry shows them too).
constexpr const char* kSchemaV2 = R"sql(
ALTER TABLE windows ADD COLUMN connections_open INTEGER NOT NULL DEFAULT 0;
)sql";

// v3: when the last byte of each request body was written (upload time, apart from TTFT).
constexpr const char* kSchemaV3 = R"sql(
ALTER TABLE requests ADD COLUMN upload_end_ns INTEGER;
)sql";

// v4: how long the most-delayed worker waited, runnable, for a CPU in each window (NULL where
// the kernel did not say, and for runs stored before).
constexpr const char* kSchemaV4 = R"sql(
ALTER TABLE windows ADD COLUMN cpu_wait_max_ms REAL;
)sql";

// v5: what a reply's Retry-After header asked clients to wait, in ms (NULL when it had none,
// and for runs stored before).
constexpr const char* kSchemaV5 = R"sql(
ALTER TABLE requests ADD COLUMN retry_after_ms INTEGER;
)sql";

// v6: a run id is never given twice. A rowid is the largest id + 1, so deleting the newest run
// handed its id to the next one (notes, comparisons and exports naming it then meant another
// run). The highest id ever given is kept, and the writer gives the next one above it.
constexpr const char* kSchemaV6 = R"sql(
CREATE TABLE run_id_high (id INTEGER NOT NULL);
INSERT INTO run_id_high SELECT COALESCE(MAX(id), 0) FROM runs;
CREATE TRIGGER run_id_high_after_insert AFTER INSERT ON runs
BEGIN
  UPDATE run_id_high SET id = NEW.id WHERE NEW.id > id;
END;
)sql";

// v7: a window's latency percentiles are NULL where it had no sample of that latency (they
// were written as 0 ms: a non-streaming run's TTFT drew a line at 0). A window's histogram of a
// latency is stored exactly when it had samples of it, so earlier rows are corrected from them.
constexpr const char* kSchemaV7 = R"sql(
UPDATE windows SET ttft_p50_ms = NULL, ttft_p99_ms = NULL WHERE NOT EXISTS (SELECT 1 FROM histograms h
  WHERE h.run_id = windows.run_id AND h.window_idx = windows.idx AND h.metric = 'ttft');
UPDATE windows SET itl_p50_ms = NULL, itl_p99_ms = NULL WHERE NOT EXISTS (SELECT 1 FROM histograms h
  WHERE h.run_id = windows.run_id AND h.window_idx = windows.idx AND h.metric = 'itl');
UPDATE windows SET e2e_p50_ms = NULL, e2e_p99_ms = NULL WHERE NOT EXISTS (SELECT 1 FROM histograms h
  WHERE h.run_id = windows.run_id AND h.window_idx = windows.idx AND h.metric = 'e2e');
UPDATE windows SET send_lag_p50_ms = NULL, send_lag_p99_ms = NULL, send_lag_max_ms = NULL
  WHERE NOT EXISTS (SELECT 1 FROM histograms h
  WHERE h.run_id = windows.run_id AND h.window_idx = windows.idx AND h.metric = 'send_lag');
)sql";

// v8: the latest that a session planned in each window reached its worker after it was due (the
// coordinator, which hands sessions out a second ahead, was held up); and the sends made during
// each window, whenever planned (`sent` counts those planned in it: a run that fell behind sent
// its first window's requests over the next ones). NULL for runs stored before.
constexpr const char* kSchemaV8 = R"sql(
ALTER TABLE windows ADD COLUMN handed_late_max_ms REAL;
ALTER TABLE windows ADD COLUMN sent_during INTEGER;
)sql";

// v9: when the first streamed token of the answer arrived (a reasoning model thinks first; its
// first token, first_token_ns, is then a thinking token); NULL when none did and for rows before.
constexpr const char* kSchemaV9 = R"sql(
ALTER TABLE requests ADD COLUMN first_answer_ns INTEGER;
)sql";

// v10: the longest hold of its worker's event loop (1 ms or more) that each request was in flight
// across (RequestRecord::heldNs), to find the requests whose timings may include it: 0 when none,
// NULL for rows stored before.
constexpr const char* kSchemaV10 = R"sql(
ALTER TABLE requests ADD COLUMN held_ns INTEGER;
)sql";

// v11: each window's p50 and p99 of the time to first answer token (a reasoning model's answer
// comes after its thinking) and of TTFT and e2e from the planned send, as the live ticks have
// them: the live stream's windows are these rows, and a studio attaching mid-run draws the
// seconds before it from them. NULL where the window had no sample, and for rows stored before
// (their windows' histograms have them).
constexpr const char* kSchemaV11 = R"sql(
ALTER TABLE windows ADD COLUMN ttfa_p50_ms REAL;
ALTER TABLE windows ADD COLUMN ttfa_p99_ms REAL;
ALTER TABLE windows ADD COLUMN ttft_from_planned_p50_ms REAL;
ALTER TABLE windows ADD COLUMN ttft_from_planned_p99_ms REAL;
ALTER TABLE windows ADD COLUMN e2e_from_planned_p50_ms REAL;
ALTER TABLE windows ADD COLUMN e2e_from_planned_p99_ms REAL;
)sql";

// v12: each window's p50 and p99 of the time per output token (a stream's first to last token
// over its tokens less one): per token where the inter-token gaps are per streamed event, so a
// server sending several tokens an event has its decoding speed over time, live and stored.
// NULL where no stream of two tokens or more ended in the window, and for rows stored before.
constexpr const char* kSchemaV12 = R"sql(
ALTER TABLE windows ADD COLUMN tpot_p50_ms REAL;
ALTER TABLE windows ADD COLUMN tpot_p99_ms REAL;
)sql";

constexpr std::array<Migration, 12> kMigrations = {{{1, kSchemaV1},
                                                    {2, kSchemaV2},
                                                    {3, kSchemaV3},
                                                    {4, kSchemaV4},
                                                    {5, kSchemaV5},
                                                    {6, kSchemaV6},
                                                    {7, kSchemaV7},
                                                    {8, kSchemaV8},
                                                    {9, kSchemaV9},
                                                    {10, kSchemaV10},
                                                    {11, kSchemaV11},
                                                    {12, kSchemaV12}}};

}  // namespace

std::span<const Migration> migrations() { return kMigrations; }

}  // namespace plumbline::store
