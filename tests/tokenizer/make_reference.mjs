// Writes reference_ids.json: the token ids of every corpus text under qwen3/tokenizer.json, as
// computed by Hugging Face's tokenizers.js, cross-checked against the Rust `tokenizers` crate
// (napi build @anush008/tokenizers). The C++ unit test reads only the file this writes.
import { readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { Tokenizer } from "@huggingface/tokenizers";

const require = createRequire(import.meta.url);
const here = (name) => new URL(name, import.meta.url);
const version = (pkg) => JSON.parse(readFileSync(here(`node_modules/${pkg}/package.json`))).version;
const sameIds = (a, b) => a.length === b.length && a.every((v, i) => v === b[i]);

const tokenizerPath = "qwen3/tokenizer.json";
const corpus = JSON.parse(readFileSync(here("corpus.json"), "utf8"));
const js = new Tokenizer(JSON.parse(readFileSync(here(tokenizerPath), "utf8")),
                         JSON.parse(readFileSync(here("qwen3/tokenizer_config.json"), "utf8")));
const rust = require("@anush008/tokenizers").Tokenizer.fromFile(here(tokenizerPath).pathname);

const cases = [];
let rustAgrees = 0;
for (const text of corpus) {
  const ids = js.encode(text, { add_special_tokens: false }).ids;
  const rustIds = (await rust.encode(text, null, { addSpecialTokens: false })).getIds();
  if (sameIds(ids, rustIds)) ++rustAgrees;
  else console.warn(`tokenizers.js and Rust tokenizers differ on ${JSON.stringify(text).slice(0, 80)}`);
  cases.push({ text, ids, decoded: js.decode(ids) });
}
const reference = {
  tokenizer: tokenizerPath,
  library: `@huggingface/tokenizers ${version("@huggingface/tokenizers")}`,
  cross_check: { library: `@anush008/tokenizers ${version("@anush008/tokenizers")} (Rust tokenizers)`,
                 texts: corpus.length, identical: rustAgrees },
  cases,
};
writeFileSync(here("reference_ids.json"), JSON.stringify(reference) + "\n");
console.log(`${cases.length} texts; Rust tokenizers agrees with tokenizers.js on ${rustAgrees}`);
