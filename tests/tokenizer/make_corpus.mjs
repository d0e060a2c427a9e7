// Writes corpus.json: >= 1,000 varied texts for the tokenizer agreement test. Deterministic
// (own PRNG, fixed seed), no third-party data: every text is assembled from the fragments below.
import { writeFileSync } from "node:fs";

let state = 0x9e3779b9;
function rand() {  // mulberry32
  state = (state + 0x6d2b79f5) | 0;
  let t = state;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
}
const pick = (list) => list[Math.floor(rand() * list.length)];
const int = (lo, hi) => lo + Math.floor(rand() * (hi - lo + 1));

const idents = ["count", "userName", "total_bytes", "x", "i", "buffer", "HTTPServer", "_tmp", "parse_json", "onClick", "MAX_SIZE", "ctx", "self", "értékek", "данные"];
const code = [
  () => `for (int ${pick(idents)} = 0; i < ${int(0, 9999)}; ++i) {\n    sum += v[i] * ${int(1, 99)};\n}\n`,
  () => `def ${pick(idents)}(a, b=${int(0, 100)}):\n\t"""Return the sum."""\n\treturn a + b  # TODO: ${pick(idents)}\n`,
  () => `const ${pick(idents)} = async (req, res) => {\n  await fetch(\`/api/v${int(1, 3)}/items?id=\${id}\`);\n};`,
  () => `fn main() {\n    let ${pick(idents)}: Vec<u${pick([8, 16, 32, 64])}> = vec![${int(0, 255)}; ${int(1, 64)}];\n    println!("{:?}", ${pick(idents)});\n}`,
  () => `func (s *Server) Handle(w http.ResponseWriter, r *http.Request) error {\n\tif err != nil {\n\t\treturn fmt.Errorf("%w", err)\n\t}\n}`,
  () => `SELECT id, name, COUNT(*) AS n FROM users WHERE age >= ${int(18, 99)} GROUP BY id HAVING n > ${int(1, 9)};`,
  () => `#!/bin/bash\nset -euo pipefail\nfor f in *.txt; do echo "$f" | grep -E '^[a-z]+_[0-9]{${int(1, 4)}}$' >> out.log; done`,
  () => `<div class="card" id="c${int(0, 999)}">\n  <p>&lt;b&gt;Hello&amp;nbsp;World&lt;/b&gt;</p>\n</div>`,
  () => `{"id": ${int(0, 1e6)}, "tags": ["a", "b"], "nested": {"ok": true, "ratio": ${(rand() * 10).toFixed(4)}}}`,
  () => `template <typename T>\nstd::optional<T> ${pick(idents)}(const std::vector<T>& v) noexcept { return v.empty() ? std::nullopt : v[0]; }`,
  () => `    if x==1:\n        pass\n    elif x!=2 and y<=3 or z>=4:\n        x **= 2; y //= 3; z %= 5\n`,
  () => `#include <iostream>\n\nint main() {\n    std::cout << "Hi\\n";\n    return 0;\n}\n`,
  () => `diff --git a/f.c b/f.c\n@@ -1,${int(1, 9)} +1,${int(1, 9)} @@\n-    old();\n+    new_call(${int(0, 9)});\n`,
];
const langs = [
  "The quick brown fox jumps over the lazy dog.",
  "Les élèves ont réussi l'examen, n'est-ce pas ? Ça alors !",
  "Größere Straßen führen über die Brücke; Äpfel und Öl.",
  "¿Dónde está la biblioteca? ¡Mañana será otro día!",
  "Съешь же ещё этих мягких французских булок, да выпей чаю.",
  "Ξεσκεπάζω την ψυχοφθόρα βδελυγμία.",
  "我能吞下玻璃而不伤身体。今天天气很好，我们去公园散步吧！",
  "私はガラスを食べられます。それは私を傷つけません。カタカナとひらがな。",
  "나는 유리를 먹을 수 있어요. 그래도 아프지 않아요.",
  "أنا قادر على أكل الزجاج و هذا لا يؤلمني. مرحبا بالعالم",
  "אני יכול לאכול זכוכית וזה לא מזיק לי.",
  "मैं काँच खा सकता हूँ और मुझे उससे कोई चोट नहीं पहुंचती। नमस्ते दुनिया",
  "ฉันกินกระจกได้ แต่มันไม่ทำให้ฉันเจ็บ",
  "Tôi có thể ăn thủy tinh mà không hại gì.",
  "İstanbul'da ılık bir gün; IĞDIR ve ışık.",
  "நான் கண்ணாடி சாப்பிடுவேன், அதனால் எனக்கு ஒரு கேடும் வராது.",
  "Zażółć gęślą jaźń. Příliš žluťoučký kůň úpěl ďábelské ódy.",
  "Kaixo mundua! Helló világ! Γειά σου κόσμε! Привет, мир!",
];
const emoji = ["😀", "👍🏽", "👨‍👩‍👧‍👦", "🏳️‍🌈", "🇯🇵", "🇺🇸", "1️⃣", "❤️", "🧑🏿‍🚀", "👩‍💻", "🤷‍♂️", "✨", "🔥🔥🔥", "🫠", "☕", "©️", "🐈‍⬛", "😂😂"];
const spaces = [" ", "  ", "   ", "    ", "\t", "\t\t", "\n", "\n\n", "\r\n", " \n ", "\u00a0", "\u3000", "\u2003", "  \t \n", "\n\n\n\n", " \r\n\r\n  "];
const numbers = [
  () => String(int(0, 9)), () => String(int(0, 1e9)), () => (rand() * 1e4).toFixed(int(1, 6)),
  () => int(1, 999) + "," + String(int(0, 999)).padStart(3, "0") + "," + String(int(0, 999)).padStart(3, "0"),
  () => "0x" + int(0, 0xffffff).toString(16).toUpperCase(), () => `${int(1990, 2030)}-${String(int(1, 12)).padStart(2, "0")}-${String(int(1, 28)).padStart(2, "0")}`,
  () => `+1 (${int(200, 999)}) ${int(200, 999)}-${int(1000, 9999)}`, () => "3.14159265358979323846264338327950288419716939937510",
  () => `${int(1, 99)}%`, () => `-${int(1, 999)}.${int(0, 99)}e-${int(1, 30)}`, () => "١٢٣٤٥ ٦٧٨٩٠ ໑໒໓ ४२", () => "①②③ Ⅻ ¾ ²³",
];
const punct = ["...", "!!!", "?!", "—", "–", "…", "«guillemets»", "“quoted”", "‘single’", "(parens)", "[brackets]", "{braces}", "@user", "#hashtag", "https://example.com/path?q=1&r=two#frag", "mail@example.org", "C:\\Users\\me\\file.txt", "a/b/c.d", "::", "->", "=>", "!==", "&&", "||", "~/.config", "$$$", "%%", "^_^", ";-)", "¡¿", "§ 12", "•", "→←↑↓", "∀x∈ℝ: x²≥0", "\"", "'", "`"];
const contractions = ["I'm", "don't", "WE'LL", "she'S", "it’s", "they've", "you'd", "I'D", "can't", "won't", "rock'n'roll", "'tis", "o'clock", "y'all'd've", "it's'", "'re", "'s", "L'amour", "ſ'S", "K'LL"];
const specials = ["<|im_start|>", "<|im_end|>", "<|endoftext|>", "<think>", "</think>", "<tool_call>", "<|vision_start|>"];
const nfcSensitive = ["e\u0301", "A\u030a", "\u1100\u1161\u11a8", "n\u0303o", "o\u0308\u0304", "\u0041\u0301\u0323", "Å", "\u212b", "ﬁ", "Ⅸ", "ｆｕｌｌｗｉｄｔｈ", "x\u0338"];
// Where regex engines disagree: NEL and other Unicode spaces, case folding in (?i:'s), controls.
const edges = ["\u0085", "a\u0085b", "  \u0085 x", "x\u2028y\u2029z", "\u212a'LL", "\u017f'S", "\u1680\u180e\u200b\u2060\ufeff", "\u0000\u0001\u001f\u007f", "tab\u000bvt\u000cff", "\r\r\n\n\r", "x \u00a0\u00a0 y", "\ud83d\ude00\ufe0f\u20e3", "a\u0300\u0301\u0302\u0303"];
const words = "the of and to in is you that it he was for on are as with his they at be this have from or one had by word but not what all were we when your can said there use an each which she do how their if will up other about out many then them these so some her would make like him into time has look two more write go see number no way could people my than first water been call who oil its now find long down day did get come made may part".split(" ");

const atoms = [
  () => pick(code)(), () => pick(langs), () => pick(emoji), () => pick(spaces), () => pick(numbers)(),
  () => pick(punct), () => pick(contractions), () => pick(words), () => pick(words) + " " + pick(words),
  () => pick(nfcSensitive), () => pick(specials), () => pick(edges),
];
const randomCodePoint = () => {
  const ranges = [[0x20, 0x7e], [0xa0, 0x24f], [0x300, 0x36f], [0x370, 0x3ff], [0x400, 0x4ff], [0x590, 0x6ff], [0x900, 0x97f], [0xe00, 0xe7f], [0x1100, 0x11ff], [0x2000, 0x206f], [0x3040, 0x30ff], [0x4e00, 0x9fff], [0xac00, 0xd7a3], [0x1f300, 0x1faff]];
  const [lo, hi] = pick(ranges);
  return String.fromCodePoint(int(lo, hi));
};

const texts = new Set();
const add = (t) => { if (t.length > 0) texts.add(t); };
for (const list of [langs, emoji, spaces, punct, contractions, specials, nfcSensitive, edges]) list.forEach(add);
code.forEach((f) => add(f()));
numbers.forEach((f) => add(f()));
while (texts.size < 900) {
  let t = "";
  for (let n = int(1, 8); n > 0; --n) t += pick(atoms)() + (rand() < 0.6 ? " " : pick(["", "\n", "  ", "\t", ", "]));
  add(rand() < 0.3 ? t.trimEnd() : t);
}
while (texts.size < 1100) {  // random code points: scripts, combining marks, jamo, emoji blocks
  let t = "";
  for (let n = int(1, 40); n > 0; --n) t += randomCodePoint();
  add(t);
}
for (let k = 0; k < 20; ++k) {  // long texts: thousands of tokens each
  let t = "";
  const length = int(2000, 20000);
  while (t.length < length) t += pick(atoms)() + pick([" ", "\n", "", "  "]);
  add(t);
}
const list = [...texts];
writeFileSync(new URL("./corpus.json", import.meta.url), JSON.stringify(list, null, 0) + "\n");
console.log(`wrote ${list.length} texts`);
