import type { RowIssue } from "./errors";
import type { IngestLimits } from "./limits";
import { FORMATS, type ForeignFormat, type FormatName, type Kind, type Rule } from "./foreignFormats";
import {
  jsonOrText,
  readExpectations,
  readExpected,
  readPassages,
  readRequest,
  readResponse,
  type CellReading,
} from "./foreignValues";
import type { RawRecord } from "./readers/rawRecord";
import { AGENT_EVALUATION_COLUMNS, type InputColumn } from "@/lib/contract/normalizedRow";
import { validateRecord, type ValidationState } from "./validateRecord";

/**
 * Datasets written for other evaluation tools (DeepEval, Ragas, MLflow 3,
 * Braintrust, OpenAI evals, Langfuse; foreignFormats.ts) use their own column
 * names for what the Agent Evaluation input schema calls request, response and
 * so on. A file is read that way only when its columns (a CSV's header,
 * otherwise the first record's keys) say so unambiguously: no `request`
 * column, the format's question column present, no Agent Evaluation column the
 * format does not itself use, and no column that only another format uses.
 * Every later record is read the same way, errors name the user's own columns,
 * and the upload says in one notice how it read them.
 */

/** `inFirstRecord` false: read because the format has that column, though the first record left it out. */
export type ColumnMapping = { source: string; target: InputColumn; kind: Kind; inFirstRecord?: false };

/** How each cell was read beyond "as is", counted over the file, for the notice; and the dict keys left out. */
type ReadingNotes = { how: Map<string, number>; ignored: Set<string> };

/** How a file's foreign columns are read, decided once from its columns; `notes` fill in as rows are read. */
export type ForeignReading = { format: FormatName; label: string; mappings: ColumnMapping[]; notes: ReadingNotes };

/** What the columns say: one format's reading, or none, with a sentence when they could mean several. */
export type ColumnDecision = { reading: ForeignReading | null; mixed: string | null };

const AGENT_COLUMNS = new Set<string>(AGENT_EVALUATION_COLUMNS);

/** The columns that tell formats apart: every format's own, but not an id they share. */
const TELLING_COLUMNS = new Map<string, FormatName[]>();
for (const format of FORMATS)
  for (const rule of format.rules)
    if (!rule.weak)
      for (const source of rule.sources)
        if (!AGENT_COLUMNS.has(source))
          TELLING_COLUMNS.set(source, [...(TELLING_COLUMNS.get(source) ?? []), format.name]);

/**
 * The reading for a file with these columns, or null when it is not (unambiguously) one foreign format.
 * `complete`: the columns are one JSON record's keys, not a header, so the format's other columns (of the
 * same Ragas generation) are read too when a later record has them: an optional column the first record
 * leaves out is not dropped for the whole file.
 */
export function detectForeignColumns(
  columns: readonly string[],
  options: { complete: boolean } = { complete: false },
): ForeignReading | null {
  return decideColumns(columns, options).reading;
}

/** As detectForeignColumns, and when no format fits but several formats' columns are there, says so. */
export function decideColumns(
  columns: readonly string[],
  options: { complete: boolean } = { complete: false },
): ColumnDecision {
  const present = new Set(columns);
  if (present.has("request")) return { reading: null, mixed: null };
  const readings = FORMATS.map((format) => readingFor(format, present, options.complete)).filter(
    (reading) => reading !== null,
  );
  // Formats that read the file's columns the same way (a lone `input`) are one reading: the first in FORMATS.
  const distinct = readings.filter(
    (reading, index) => readings.findIndex((other) => sameColumns(other, reading)) === index,
  );
  if (distinct.length === 1) return { reading: readings[0], mixed: null };
  return { reading: null, mixed: describeMixedColumns(columns, readings) };
}

function sameColumns(a: ForeignReading, b: ForeignReading): boolean {
  const pairs = (reading: ForeignReading) =>
    reading.mappings
      .filter((mapping) => mapping.inFirstRecord !== false && mapping.target !== "request_id")
      .map((mapping) => `${mapping.source}>${mapping.target}`)
      .sort()
      .join();
  return pairs(a) === pairs(b);
}

/** Null when the columns hold no two formats' own columns (a plain schema file, or an unknown one). */
function describeMixedColumns(columns: readonly string[], readings: ForeignReading[]): string | null {
  const named = columns.filter((column) => TELLING_COLUMNS.has(column));
  // Two formats are meant only when each has a column of its own here: a shared `input` beside the schema's
  // `response` is a schema file missing its request, not a mix of formats.
  const owning = new Set(
    named.map((column) => TELLING_COLUMNS.get(column) ?? []).flatMap((f) => (f.length === 1 ? f : [])),
  );
  if (readings.length < 2 && owning.size < 2) return null;
  const formats = new Set(named.flatMap((column) => TELLING_COLUMNS.get(column) ?? []));
  const labels = FORMATS.filter((format) => formats.has(format.name)).map((format) => format.label);
  return `The columns ${named.join(", ")} could mean more than one format (${labels.join(", ")}), so the file was read as the Agent Evaluation input schema's own columns. Keep one format's columns per file.`;
}

/** Ragas's v0.1 column names; the others are v0.2+. A file uses one generation. */
const RAGAS_V01 = new Set(["question", "answer", "contexts", "ground_truth", "ground_truths"]);

/** The column a rule reads in a file whose question column is `requestSource`. */
function sourceOfGeneration(format: ForeignFormat, rule: Rule, requestSource: string): string | undefined {
  if (format.name === "Ragas") {
    const v01 = RAGAS_V01.has(requestSource);
    return rule.sources.find((source) => RAGAS_V01.has(source) === v01);
  }
  // OpenAI evals: `prompt` goes with `completion`, `input` with `ideal`; neither pair is a different generation's column.
  return rule.sources[0];
}

function readingFor(format: ForeignFormat, present: Set<string>, complete: boolean): ForeignReading | null {
  const mappings: ColumnMapping[] = [];
  for (const rule of format.rules) {
    const found = rule.sources.filter((source) => present.has(source));
    if (found.length > 1 && rule.onSeveral === "either") return null;
    if (found.length === 0) continue;
    if (rule.target === "expected_facts" && mappings.some((mapping) => mapping.target === "expected_response"))
      continue;
    mappings.push({ source: found[0], target: rule.target, kind: rule.kind });
  }
  if (!mappings.some((mapping) => mapping.target === "request")) return null;
  // An Agent Evaluation column the format does not use itself (Ragas's `response` it does) makes the file mixed,
  // and so does a column that only other formats use (Braintrust's `output` beside DeepEval's `input`).
  const sources = new Set(mappings.map((mapping) => mapping.source));
  for (const column of present) {
    if (sources.has(column)) continue;
    if (AGENT_COLUMNS.has(column) || TELLING_COLUMNS.has(column)) return null;
  }
  const requestSource = mappings[0].source;
  if (complete) {
    const hadExpectedResponse = mappings.some((mapping) => mapping.target === "expected_response");
    for (const rule of format.rules) {
      if (mappings.some((mapping) => mapping.target === rule.target)) continue;
      if (rule.target === "expected_facts" && hadExpectedResponse) continue;
      const source = sourceOfGeneration(format, rule, requestSource);
      if (source !== undefined) mappings.push({ source, target: rule.target, kind: rule.kind, inFirstRecord: false });
    }
    // In the rules' order: retrieved context before the expected one (whose chunks may reuse its doc_uris).
    const order = format.rules.map((rule) => rule.target);
    mappings.sort((a, b) => order.indexOf(a.target) - order.indexOf(b.target));
  }
  const label =
    format.name === "Ragas"
      ? `${format.label} (${requestSource === "question" ? "v0.1" : "v0.2+"} column names)`
      : format.label;
  return { format: format.name, label, mappings, notes: { how: new Map(), ignored: new Set() } };
}

/** The columns that decide: a CSV's header, or a JSON record's keys (anything but an object has none). */
export function recordColumns(record: Exclude<RawRecord, { issue: RowIssue }>): string[] {
  if (record.format === "csv") return [...record.columns];
  const value = record.value;
  return value !== null && typeof value === "object" && !Array.isArray(value) ? Object.keys(value) : [];
}

/** What a mapping's column becomes, in the notice's words. */
function targetWords(mapping: ColumnMapping): string {
  if (mapping.kind === "expected") return `${mapping.target} (or expected_facts when it is a list)`;
  if (mapping.kind === "expectations") return "expected_response, expected_facts, expected_retrieved_context (by key)";
  return mapping.target;
}

/** The one notice an upload read this way carries: the format, each column it mapped, and how dict cells were read. */
export function describeForeignReading(reading: ForeignReading): string {
  const named = reading.mappings.filter((mapping) => mapping.inFirstRecord !== false);
  const others =
    reading.mappings.length > named.length ? "; the format's other columns are read where a record has them" : "";
  const pairs = named.map((mapping) => `${mapping.source} → ${targetWords(mapping)}`).join(", ") + others;
  const how = [...reading.notes.how].map(
    ([words, rows]) => `${words} (${rows.toLocaleString("en-US")} row${rows === 1 ? "" : "s"})`,
  );
  const read = how.length > 0 ? ` Read ${how.join(", ")}.` : "";
  const chunked = named.filter((mapping) => mapping.kind === "chunks");
  if (chunked.length === 0) return `Read as ${reading.label}: ${pairs}.${read}`;
  const retrieved = chunked.find((mapping) => mapping.target === "retrieved_context");
  const expected = chunked.find((mapping) => mapping.target === "expected_retrieved_context");
  const uris = chunked.map((mapping) => `"${mapping.source}[i]"`).join(" and ");
  const shared =
    retrieved && expected
      ? ` (a ${expected.source} passage with the same text as a retrieved one takes its doc_uri, so document recall counts passages retrieved word for word)`
      : "";
  return `Read as ${reading.label}: ${pairs}. Each passage became a chunk with doc_uri ${uris}${shared}.${read}`;
}

/** Keys of a dict cell that have no place in the schema (MLflow's guidelines): one warning, never silence. */
export function foreignWarnings(reading: ForeignReading): string[] {
  const ignored = [...reading.notes.ignored];
  if (ignored.length === 0) return [];
  return [
    `${ignored.length === 1 ? "The key" : "The keys"} ${ignored.join(", ")} ${ignored.length === 1 ? "was" : "were"} ignored: Assay reads expected_response, expected_facts and expected_retrieved_context from expectations.`,
  ];
}

/**
 * Validates one record of a file read in another tool's format: maps its columns,
 * validates the result as the Agent Evaluation input schema, and words every
 * issue with the user's column name.
 */
export function validateForeignRecord(
  reading: ForeignReading,
  record: Exclude<RawRecord, { issue: RowIssue }>,
  state: ValidationState,
  limits: IngestLimits,
): ReturnType<typeof validateRecord> {
  const value = record.value;
  if (value === null || typeof value !== "object" || Array.isArray(value)) return validateRecord(record, state, limits);
  const mapped = mapRecord(reading, value as Record<string, unknown>, record.format === "csv");
  const issues = mapped.issues.map((issue) => ({ row: record.row, line: record.line, ...issue }));
  const result = validateRecord(
    { row: record.row, line: record.line, format: record.format, value: mapped.value },
    state,
    limits,
  );
  // A row the mapping rejected does not hold its request_id: a later row may use it.
  if (issues.length > 0 && result.row) state.requestIds.delete(result.row.requestId);
  const all = [...issues, ...result.issues.map((issue) => inUserColumns(reading, issue))];
  return { row: all.length > 0 ? null : result.row, issues: all };
}

type CellIssue = { column: string; message: string };

function mapRecord(
  reading: ForeignReading,
  value: Record<string, unknown>,
  csv: boolean,
): { value: Record<string, unknown>; issues: CellIssue[] } {
  const issues: CellIssue[] = [];
  const sources = new Set(reading.mappings.map((mapping) => mapping.source));
  const out: Record<string, unknown> = {};
  for (const [key, cell] of Object.entries(value)) {
    if (sources.has(key)) continue;
    // Unknown columns pass through to the usual bounded warning; an Agent Evaluation column here would be read as something else.
    if (AGENT_COLUMNS.has(key)) {
      issues.push({
        column: key,
        message: `this file is read as ${reading.label} (decided from its first record), which have no ${key} column; use one column set per file`,
      });
      continue;
    }
    out[key] = cell;
  }
  let retrievedChunks: { content: string; doc_uri: string }[] = [];
  for (const mapping of reading.mappings) {
    const cell = value[mapping.source];
    // An empty response (DeepEval's actual_output "") stays one: DeepEval-exact judges it (validateRecord.ts).
    if (cell === "" && !csv && mapping.target === "response" && out.response === undefined) out.response = "";
    if (cell === undefined || cell === null || cell === "") continue;
    if (mapping.kind === "value") {
      out[mapping.target] = cell;
      continue;
    }
    if (mapping.kind !== "chunks") {
      const read = readCell(mapping, jsonOrText(cell, csv));
      if ("error" in read) {
        issues.push({ column: mapping.source, message: read.error });
        continue;
      }
      if (read.how) reading.notes.how.set(read.how, (reading.notes.how.get(read.how) ?? 0) + 1);
      for (const key of read.ignored ?? []) if (reading.notes.ignored.size < 20) reading.notes.ignored.add(key);
      // A CSV row stays a CSV row (its other cells are decoded as Assay's own CSV is), so structured values go back as JSON text.
      for (const [target, given] of Object.entries(read.values))
        out[target] = csv && typeof given !== "string" ? JSON.stringify(given) : given;
      continue;
    }
    const passages = readPassages(mapping.source, cell, csv);
    if ("error" in passages) {
      issues.push({ column: mapping.source, message: passages.error });
      continue;
    }
    const chunks = passages.texts.map((content, index) => ({
      content,
      doc_uri:
        (mapping.target === "expected_retrieved_context"
          ? retrievedChunks.find((chunk) => chunk.content === content)?.doc_uri
          : undefined) ?? `${mapping.source}[${index}]`,
    }));
    if (mapping.target === "retrieved_context") retrievedChunks = chunks;
    out[mapping.target] = csv ? JSON.stringify(chunks) : chunks;
  }
  return { value: out, issues };
}

function readCell(mapping: ColumnMapping, cell: unknown): CellReading {
  if (mapping.kind === "request") return readRequest(mapping.source, cell);
  if (mapping.kind === "response") return readResponse(mapping.source, cell);
  if (mapping.kind === "expected") return readExpected(mapping.source, cell);
  return readExpectations(mapping.source, cell);
}

/** The mapping whose column gave a schema column: by target, or the one cell that gives several (expected, expectations). */
function mappingOf(reading: ForeignReading, column: string | undefined): ColumnMapping | undefined {
  return (
    reading.mappings.find((candidate) => candidate.target === column) ??
    (column?.startsWith("expected_")
      ? reading.mappings.find((candidate) => candidate.kind === "expected" || candidate.kind === "expectations")
      : undefined)
  );
}

/** An issue about a mapped column names the user's column, including where its message starts with the column's name. */
function inUserColumns(reading: ForeignReading, issue: RowIssue): RowIssue {
  const mapping = mappingOf(reading, issue.column);
  if (!mapping || issue.column === undefined) return issue;
  // An expectations dict names its key: "expectations.expected_facts".
  const column = mapping.kind === "expectations" ? `${mapping.source}.${issue.column}` : mapping.source;
  const message = issue.message.startsWith(`${issue.column} `)
    ? `${column}${issue.message.slice(issue.column.length)}`
    : issue.message;
  return { ...issue, column, message };
}
