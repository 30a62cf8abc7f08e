import { formatTable } from "./cli-output.js";

// LoCoMo's numeric categories, as its own evaluation code maps them (data/locomo/README.md).
const CATEGORY_NAMES: Record<string, string> = {
  "1": "multi-hop",
  "2": "temporal",
  "3": "open-domain",
  "4": "single-hop",
  "5": "adversarial",
};

type Recall = Record<string, number>;
interface CategoryRow {
  readonly n?: number;
  readonly recall?: Recall;
}

function num(value: unknown): string {
  return typeof value === "number" ? String(value) : "-";
}

function share(value: unknown): string {
  return typeof value === "number" ? value.toFixed(4) : "-";
}

function recallCells(recall: Recall | undefined, ks: readonly string[]): string[] {
  return ks.map((k) => (typeof recall?.[k] === "number" ? (recall[k] as number).toFixed(4) : "-"));
}

/** The eval document as a small table of evidence recall@k by category, then timings and context cost. */
export function formatEvalReport(doc: Record<string, unknown>): string {
  const recall = (doc.recall ?? {}) as Recall;
  const ks = Object.keys(recall).sort((a, b) => Number(a) - Number(b));
  const byCategory = (doc.by_category ?? {}) as Record<string, CategoryRow>;
  const inContext = (doc.context_evidence_recall_by_category ?? {}) as Record<string, number>;
  const rows = Object.keys(byCategory)
    .sort()
    .map((c) => {
      const row = byCategory[c] as CategoryRow;
      return [
        `${c} ${CATEGORY_NAMES[c] ?? ""}`.trim(),
        num(row.n),
        ...recallCells(row.recall, ks),
        share(inContext[c]),
      ];
    });
  rows.push(["overall", num(doc.questions), ...recallCells(recall, ks), share(doc.context_evidence_recall)]);
  const table = formatTable(["category", "questions", ...ks.map((k) => `recall@${k}`), "in context"], rows);
  const footer = [
    `ingest ${num(doc.ingest_ms)} ms`,
    `query p50 ${num(doc.query_ms_p50)} ms, p95 ${num(doc.query_ms_p95)} ms`,
    ...(doc.retrieve_ms_p50 === undefined
      ? []
      : [`retrieve p50 ${num(doc.retrieve_ms_p50)} ms, p95 ${num(doc.retrieve_ms_p95)} ms`]),
    `context ${num(doc.context_tokens_avg)} tokens avg (full conversation ${num(doc.full_context_tokens_avg)})`,
  ].join(" · ");
  return `LoCoMo evidence recall\n${table}\n${footer}`;
}

const LME_FIGURES = [
  ["session_recall_all_5", "sessions@5"],
  ["session_recall_all_10", "sessions@10"],
  ["turn_recall_10", "turns@10"],
  ["context_evidence_recall", "in context"],
  ["answer_in_context", "answer shown"],
  ["context_tokens", "tokens"],
] as const;

/** The LongMemEval document as a table by question type, the two halves, then timings. */
export function formatLongMemEvalReport(doc: Record<string, unknown>): string {
  type Figures = Record<string, number | undefined>;
  const cell = (figures: Figures, key: string) => {
    const value = figures[key];
    if (typeof value !== "number") return "-";
    return key === "context_tokens" ? String(Math.round(value)) : value.toFixed(3);
  };
  const row = (label: string, figures: Figures) => [
    label,
    num(figures.questions),
    ...LME_FIGURES.map(([key]) => cell(figures, key)),
  ];
  const byType = (doc.by_type ?? {}) as Record<string, Figures>;
  const halves = (doc.halves ?? {}) as Record<string, Figures>;
  const rows = [
    ...Object.entries(byType).map(([type, figures]) => row(type, figures)),
    row("overall", doc as Figures),
    row("tuning half", halves.tune ?? {}),
    row("check half", halves.check ?? {}),
  ];
  const table = formatTable(["question type", "questions", ...LME_FIGURES.map(([, label]) => label)], rows);
  const footer = [
    `ingest ${num(doc.ingest_turns)} turns at ${num(doc.ingest_turns_per_s)} turns/s`,
    `search p50 ${num(doc.search_ms_p50)} ms`,
    `retrieve p50 ${num(doc.retrieve_ms_p50)} ms, p95 ${num(doc.retrieve_ms_p95)} ms`,
  ].join(" · ");
  return `LongMemEval\n${table}\n${footer}`;
}

/** The persona-facts benchmark as text: precision, recall and F1 per slot, then the overall figures. */
export function formatFactsReport(doc: Record<string, unknown>): string {
  type Scores = {
    tp: number;
    fp: number;
    fn: number;
    precision: number | null;
    recall: number | null;
    f1: number | null;
  };
  type Report = {
    statements: number;
    positives: number;
    negatives: number;
    overall: Scores;
    by_slot: Record<string, Scores>;
    supersession: { statements: number; correct: number; accuracy: number | null };
    false_facts: { statements: number; with_facts: number; facts: number; rate: number | null };
  };
  const report = doc as unknown as Report & { halves: { tune: Report; check: Report } };
  const f3 = (x: number | null) => (x === null ? "-" : x.toFixed(3));
  const row = (label: string, s: Scores) => [
    label,
    String(s.tp + s.fn),
    f3(s.precision),
    f3(s.recall),
    f3(s.f1),
  ];
  const slots = formatTable(
    ["slot", "expected", "precision", "recall", "F1"],
    [...Object.entries(report.by_slot).map(([slot, s]) => row(slot, s)), row("overall", report.overall)],
  );
  const line = (label: string, r: Report) =>
    `${label}: F1 ${f3(r.overall.f1)} (precision ${f3(r.overall.precision)}, recall ${f3(r.overall.recall)}), supersession ${r.supersession.correct}/${r.supersession.statements}, false facts on ${r.false_facts.with_facts} of ${r.false_facts.statements} statements that state none`;
  return [
    `Persona facts: ${report.statements} statements (${report.positives} with facts, ${report.negatives} with none)`,
    slots,
    line("overall", report),
    line("tuning half", report.halves.tune),
    line("check half", report.halves.check),
  ].join("\n");
}
