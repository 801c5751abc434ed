/**
 * Builds the two measurement fixtures under tests/fixtures/measure/ from their verbatim source excerpts:
 *   - truthfulqa/source.csv            (TruthfulQA, first 300 records)  -> correctness labels
 *   - fever-symmetric/source.jsonl     (Symmetric FEVER v0.1, all 956)  -> groundedness labels
 * into the Agent Evaluation input format (rows.jsonl) plus a labels file (labels.jsonl).
 * Deterministic: same source, same files. The selection and conversion rules are documented in each README.md.
 * Usage: npx tsx scripts/build-measure-fixtures.ts
 */
import fs from "node:fs";
import path from "node:path";
import { z } from "zod";

type Label = "yes" | "no" | null;
type Row = {
  request_id: string;
  request: string;
  response: string;
  expected_response?: string;
  retrieved_context?: { content: string; doc_uri: string }[];
};
type LabelLine = { request_id: string; correctness: Label; groundedness: Label };

const root = path.resolve(import.meta.dirname, "../tests/fixtures/measure");
const pad = (n: number) => String(n).padStart(4, "0");

function writeJsonl(file: string, lines: unknown[]): void {
  fs.writeFileSync(file, `${lines.map((line) => JSON.stringify(line)).join("\n")}\n`);
}

/** RFC 4180 CSV: comma separator, double-quoted fields, "" for a quote inside a quoted field. */
function parseCsv(text: string): string[][] {
  const records: string[][] = [];
  let record: string[] = [];
  let field = "";
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') {
        quoted = false;
      } else {
        field += c;
      }
    } else if (c === '"' && field === "") {
      quoted = true;
    } else if (c === ",") {
      record.push(field);
      field = "";
    } else if (c === "\n" || c === "\r") {
      if (c === "\r" && text[i + 1] === "\n") i++;
      record.push(field);
      records.push(record);
      record = [];
      field = "";
    } else {
      field += c;
    }
  }
  if (quoted) throw new Error("CSV ends inside a quoted field");
  if (field !== "" || record.length > 0) {
    record.push(field);
    records.push(record);
  }
  return records;
}

// ---------------------------------------------------------------------------------------------
// Fixture 1: TruthfulQA -> correctness
// ---------------------------------------------------------------------------------------------

const TRUTHFULQA_HEADER = [
  "Type",
  "Category",
  "Question",
  "Best Answer",
  "Correct Answers",
  "Incorrect Answers",
  "Source",
] as const;

/** TruthfulQA's own convention (utilities.split_multi_answer): answers are separated by ";". Empty pieces are dropped. */
const splitAnswers = (list: string) =>
  list
    .split(";")
    .map((answer) => answer.trim())
    .filter((answer) => answer.length > 0);

/** For comparisons only: case, runs of whitespace and one trailing full stop are ignored. */
const comparable = (text: string) => text.trim().replace(/\s+/g, " ").replace(/\.$/, "").toLowerCase();

const NO_COMMENT = comparable("I have no comment");

function buildTruthfulqa(): void {
  const dir = path.join(root, "truthfulqa");
  const [header, ...records] = parseCsv(fs.readFileSync(path.join(dir, "source.csv"), "utf8"));
  if (JSON.stringify(header) !== JSON.stringify(TRUTHFULQA_HEADER)) throw new Error(`unexpected header ${header}`);
  const rows: Row[] = [];
  const labels: LabelLine[] = [];
  const skipped: string[] = [];
  records.forEach((fields, index) => {
    const record = index + 1; // data record number = source.csv line - 1
    if (fields.length !== TRUTHFULQA_HEADER.length) throw new Error(`record ${record}: ${fields.length} fields`);
    const [, , question, best, correctList, incorrectList] = fields;
    const request = question.trim();
    const expected = best.trim();
    // Rule (fixed before the data was read): the first Correct Answer that is neither the Best Answer
    // nor "I have no comment", and the first Incorrect Answer.
    const correct = splitAnswers(correctList).find(
      (answer) => comparable(answer) !== comparable(expected) && comparable(answer) !== NO_COMMENT,
    );
    const incorrect = splitAnswers(incorrectList)[0];
    const variants: [string, string | undefined, Label][] = [
      ["correct", correct, "yes"],
      ["incorrect", incorrect, "no"],
    ];
    for (const [variant, response, correctness] of variants) {
      const requestId = `truthfulqa-${pad(record)}-${variant}`;
      if (response === undefined) {
        skipped.push(requestId);
        continue;
      }
      rows.push({ request_id: requestId, request, response, expected_response: expected });
      labels.push({ request_id: requestId, correctness, groundedness: null });
    }
  });
  writeJsonl(path.join(dir, "rows.jsonl"), rows);
  writeJsonl(path.join(dir, "labels.jsonl"), labels);
  const yes = labels.filter((l) => l.correctness === "yes").length;
  console.log(
    `truthfulqa: ${records.length} source records, ${rows.length} rows (correctness yes ${yes}, no ${rows.length - yes}), ` +
      `${skipped.length} rows not built: ${skipped.join(", ") || "none"}`,
  );
}

// ---------------------------------------------------------------------------------------------
// Fixture 2: Symmetric FEVER v0.1 -> groundedness
// ---------------------------------------------------------------------------------------------

const feverRecordSchema = z.object({
  id: z.string(),
  label: z.enum(["SUPPORTS", "REFUTES"]),
  claim: z.string(),
  evidence_sentence: z.string(),
});

/** FEVER keeps Penn Treebank bracket tokens (-LRB- ...); they become the brackets. Text is NFC-normalised (the file's evidence is NFD). */
const PTB_BRACKETS: Record<string, string> = {
  "-LRB-": "(",
  "-RRB-": ")",
  "-LSB-": "[",
  "-RSB-": "]",
  "-LCB-": "{",
  "-RCB-": "}",
};
const detokenize = (text: string) =>
  text
    .replace(/-(?:LRB|RRB|LSB|RSB|LCB|RCB)-/g, (token) => PTB_BRACKETS[token])
    .normalize("NFC")
    .trim();

function buildFeverSymmetric(): void {
  const dir = path.join(root, "fever-symmetric");
  const lines = fs.readFileSync(path.join(dir, "source.jsonl"), "utf8").split("\n");
  if (lines.at(-1) === "") lines.pop();
  const rows: Row[] = [];
  const labels: LabelLine[] = [];
  let skipped = 0;
  lines.forEach((text, index) => {
    const line = index + 1;
    const parsed = feverRecordSchema.safeParse(JSON.parse(text));
    // Only records that cannot be converted are skipped (none expected: every record has a claim, a label and evidence text).
    if (!parsed.success || !parsed.data.claim.trim() || !parsed.data.evidence_sentence.trim()) {
      skipped++;
      return;
    }
    const record = parsed.data;
    const claim = detokenize(record.claim);
    const requestId = `fever-symmetric-${pad(line)}`;
    rows.push({
      request_id: requestId,
      request: `Is this true? ${claim}`,
      response: claim,
      retrieved_context: [
        {
          content: detokenize(record.evidence_sentence),
          doc_uri: `fever-symmetric://symmetric_v0.1/fever_symmetric_full.jsonl/${pad(line)}/evidence_sentence`,
        },
      ],
    });
    labels.push({
      request_id: requestId,
      correctness: null,
      groundedness: record.label === "SUPPORTS" ? "yes" : "no",
    });
  });
  writeJsonl(path.join(dir, "rows.jsonl"), rows);
  writeJsonl(path.join(dir, "labels.jsonl"), labels);
  const yes = labels.filter((l) => l.groundedness === "yes").length;
  console.log(
    `fever-symmetric: ${lines.length} source records, ${rows.length} rows (groundedness yes ${yes}, no ${rows.length - yes}), ` +
      `${skipped} records skipped`,
  );
}

buildTruthfulqa();
buildFeverSymmetric();
