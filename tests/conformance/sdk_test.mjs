// The official `openai` npm SDK against a running `plumbline mock`: streams chat and
// completions, reads usage, and checks what it parsed. Usage: node sdk_test.mjs BASE_URL
import OpenAI from "openai";

const baseURL = process.argv[2] + "/v1";
const client = new OpenAI({ baseURL, apiKey: "not-needed", maxRetries: 0, timeout: 20_000 });
let failures = 0;

function check(ok, what) {
  if (!ok) {
    failures += 1;
    console.error("FAIL: " + what);
  }
}

async function chatStream() {
  const stream = await client.chat.completions.create({
    model: "mock", messages: [{ role: "user", content: "one two three four" }],
    max_tokens: 9, ignore_eos: true, stream: true, stream_options: { include_usage: true },
  });
  let text = "";
  let usage = null;
  let finish = null;
  for await (const chunk of stream) {
    if (chunk.choices.length > 0) {
      text += chunk.choices[0].delta.content ?? "";
      finish = chunk.choices[0].finish_reason ?? finish;
    }
    if (chunk.usage) usage = chunk.usage;
  }
  check(text === "tok ".repeat(9), `chat stream text ${JSON.stringify(text)}`);
  check(finish === "length", `chat finish_reason ${finish}`);
  check(usage && usage.prompt_tokens === 4 && usage.completion_tokens === 9, `chat usage ${JSON.stringify(usage)}`);
}

async function completionStream() {
  const stream = await client.completions.create({
    model: "mock", prompt: "a b c", max_tokens: 5, ignore_eos: true, stream: true,
    stream_options: { include_usage: true },
  });
  let text = "";
  let usage = null;
  for await (const chunk of stream) {
    if (chunk.choices.length > 0) text += chunk.choices[0].text;
    if (chunk.usage) usage = chunk.usage;
  }
  check(text === "tok ".repeat(5), `completion stream text ${JSON.stringify(text)}`);
  check(usage && usage.prompt_tokens === 3 && usage.completion_tokens === 5, `completion usage ${JSON.stringify(usage)}`);
}

async function chatBody() {
  const reply = await client.chat.completions.create({
    model: "mock", messages: [{ role: "user", content: "hi" }], max_tokens: 3, ignore_eos: true,
  });
  check(reply.choices[0].message.content === "tok tok tok ", `chat body ${JSON.stringify(reply.choices[0])}`);
  check(reply.usage.completion_tokens === 3 && reply.usage.total_tokens === 4, `chat body usage ${JSON.stringify(reply.usage)}`);
}

async function rejected() {
  try {
    await client.chat.completions.create({ model: "mock", messages: "nope" });
    check(false, "a bad request was accepted");
  } catch (e) {
    check(e instanceof OpenAI.BadRequestError, `bad request raised ${e}`);
  }
}

await chatStream();
await completionStream();
await chatBody();
await rejected();
console.log(failures === 0 ? "openai SDK conformance: ok" : `openai SDK conformance: ${failures} failure(s)`);
process.exit(failures === 0 ? 0 : 1);
