// Deterministic corpus: 2,000 varied texts, 20..2000 chars. node gen-corpus.cjs > corpus.json
function mulberry32(a) {
  return () => {
    a |= 0;
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const rnd = mulberry32(20240611);
const pick = (a) => a[Math.floor(rnd() * a.length)];
const int = (lo, hi) => lo + Math.floor(rnd() * (hi - lo + 1));
const words =
  "the of and to in is you that it he was for on are as with his they at be this have from or one had by word but not what all were we when your can said there use an each which she do how their if will up other about out many then them these so some her would make like him into time has look two more write go see number no way could people my than first water been call who oil its now find long down day did get come made may part over new sound take only little work know place year live me back give most very after thing our just name good sentence man think say great where help through much before line right too mean old any same tell boy follow came want show also around form three small set put end does another well large must big even such because turn here why ask went men read need land different home us move try kind hand picture again change off play spell air away animal house point page letter mother answer found study still learn should America world tokenizer benchmark latency throughput JavaScript TypeScript library function encoding rank merge byte pair Node.js package install".split(
    " ",
  );
const nonAscii = [
  "café",
  "naïve",
  "Müller",
  "façade",
  "São Paulo",
  "Zürich",
  "jalapeño",
  "smörgåsbord",
  "Ærøskøbing",
  "crème brûlée",
  "東京",
  "日本語のテキスト",
  "北京大学",
  "한국어",
  "русский язык",
  "Москва",
  "العربية",
  "مرحبا بالعالم",
  "हिन्दी",
  "नमस्ते",
  "ελληνικά",
  "שלום",
  "Tiếng Việt",
  "ภาษาไทย",
  "Łódź",
  "İstanbul",
  "ß",
  "½ cup",
  "naïveté",
  "coöperate",
];
const emojis = [
  "😀",
  "🚀",
  "👍🏽",
  "❤️",
  "🇫🇷",
  "🇯🇵",
  "👨‍👩‍👧‍👦",
  "🧑🏻‍💻",
  "✅",
  "🔥",
  "🎉",
  "🤖",
  "🏳️‍🌈",
  "☕",
  "💯",
];
const urls = () =>
  pick(["https://", "http://", ""]) +
  pick([
    "www.example.com",
    "api.github.com",
    "docs.python.org",
    "en.wikipedia.org",
    "localhost:8080",
    "192.168.1.20",
    "cdn.jsdelivr.net",
  ]) +
  "/" +
  [int(1, 3)]
    .flatMap((n) => Array.from({ length: n }, () => pick(words).toLowerCase().replace(/\W/g, "") || "x"))
    .join("/") +
  pick([
    "",
    "?q=" + pick(words) + "&page=" + int(1, 99),
    "#section-" + int(1, 9),
    ".html",
    "/index.json?v=" + int(1, 999),
  ]);
const numbers = () =>
  pick([
    String(int(0, 9)),
    String(int(10, 999999)),
    (rnd() * 1e6).toFixed(int(0, 4)),
    "-" + int(1, 500),
    int(1, 12) + "/" + int(1, 28) + "/" + int(1990, 2030),
    "$" + int(1, 9999) + ".99",
    int(1, 100) + "%",
    "1e" + int(-9, 9),
    "0x" + int(0, 0xffffff).toString(16),
    "+1 (555) " + int(100, 999) + "-" + int(1000, 9999),
    String(int(1e9, 2e9)) + String(int(1e9, 2e9)),
  ]);
const codeSnips = [
  "function add(a, b) {\n  return a + b;\n}\n",
  "const x = await fetch(url, { method: 'POST', headers: { 'Content-Type': 'application/json' } });\n",
  "def fib(n):\n    if n < 2:\n        return n\n    return fib(n - 1) + fib(n - 2)\n",
  "for (let i = 0; i < arr.length; i++) {\n\tsum += arr[i] * 2;\n}\n",
  "SELECT id, name FROM users WHERE created_at > '2024-01-01' ORDER BY id DESC LIMIT 10;\n",
  '#include <stdio.h>\nint main(void) { printf("%d\\n", 42); return 0; }\n',
  // biome-ignore lint/suspicious/noTemplateCurlyInString: a JavaScript snippet of the corpus, kept as text
  "    if (!ok) throw new Error(`bad value: ${value}`);\n",
  '{"name": "demo", "version": "1.2.3", "tags": ["a", "b"], "nested": {"k": null}}\n',
  'git commit -m "fix: handle   multiple   spaces" && npm test -- --watch=false\n',
  '<div class="card"><p>Hello&nbsp;world</p></div>\n',
  "x = [i**2 for i in range(10) if i % 3 == 0]  # comment\n",
  "type Foo<T> = { [K in keyof T]?: T[K] extends string ? K : never };\n",
];
const specials = ["<|endoftext|>", "<|endofprompt|>"];
function sentence() {
  const n = int(4, 18);
  const out = [];
  for (let i = 0; i < n; i++) {
    const r = rnd();
    if (r < 0.78) out.push(pick(words));
    else if (r < 0.85) out.push(numbers());
    else if (r < 0.92) out.push(pick(nonAscii));
    else if (r < 0.96) out.push(pick(emojis));
    else out.push(urls());
  }
  let s = out.join(" ");
  s = s[0].toUpperCase() + s.slice(1);
  return s + pick([".", ".", ".", "!", "?", "...", ":", ";", " —"]);
}
function text(target) {
  const kind = rnd();
  const parts = [];
  let len = 0;
  while (len < target) {
    let p;
    const r = rnd();
    if (kind < 0.15)
      p = r < 0.7 ? pick(codeSnips) : "// " + sentence() + "\n"; // code-heavy
    else if (kind < 0.22)
      p = r < 0.5 ? urls() + " " : sentence() + " "; // url-heavy
    else if (kind < 0.3)
      p = pick(nonAscii) + " " + (r < 0.5 ? pick(emojis) : "") + " " + sentence() + " "; // multilingual
    else
      p =
        r < 0.08
          ? "\n\n"
          : r < 0.11
            ? pick(codeSnips)
            : r < 0.14
              ? "   " + sentence() + "\t"
              : sentence() + " ";
    parts.push(p);
    len += p.length;
  }
  let t = parts.join("");
  if (t.length > target) t = t.slice(0, target);
  // avoid cutting a surrogate pair in half
  if (/[\uD800-\uDBFF]$/.test(t)) t = t.slice(0, -1);
  return t;
}
const texts = [];
for (let i = 0; i < 2000; i++) {
  // log-uniform length in [20,2000]
  const target = Math.round(Math.exp(Math.log(20) + rnd() * (Math.log(2000) - Math.log(20))));
  let t = text(target);
  if (i % 97 === 13)
    t = t.slice(0, Math.floor(t.length / 2)) + pick(specials) + t.slice(Math.floor(t.length / 2)); // ~1%: literal special-token strings
  texts.push(t);
}
process.stdout.write(JSON.stringify(texts));
