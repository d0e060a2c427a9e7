-- wrk script for bench/mock_load.sh: a small non-streaming chat completion, keep-alive.
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
wrk.body = os.getenv("MOCK_BODY") or
  '{"model":"mock","messages":[{"role":"user","content":"say something short please"}],"max_tokens":16,"ignore_eos":true}'
wrk.path = os.getenv("MOCK_PATH") or "/v1/chat/completions"
