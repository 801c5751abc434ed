import { describeType } from "./normalizeRequest";
import type { InputColumn } from "@/lib/contract/normalizedRow";

/**
 * Reads one cell of another tool's format into Agent Evaluation input schema
 * values. Each reader returns the values it gives (one cell may give several
 * columns: MLflow's expectations) or an error worded for people, and notes
 * how it read the cell so the upload's one notice can say so.
 */

export type CellReading =
  { values: Partial<Record<InputColumn, unknown>>; how?: string; ignored?: string[] } | { error: string };

/** Dict keys that hold the question, in the order they are tried. */
const QUESTION_KEYS = ["question", "query", "input", "prompt", "user_input"] as const;
/** Dict keys that hold the answer, in the order they are tried. */
const ANSWER_KEYS = ["response", "output", "answer", "content", "text", "completion"] as const;

const isObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === "object" && !Array.isArray(value);

const isMessageList = (value: unknown): value is unknown[] =>
  Array.isArray(value) && value.length > 0 && value.every((item) => isObject(item) && "role" in item);

/** A CSV cell that holds a JSON object or array is read as one; any other text stays text. */
export function jsonOrText(cell: unknown, csv: boolean): unknown {
  if (!csv || typeof cell !== "string") return cell;
  const trimmed = cell.trim();
  if (!trimmed.startsWith("{") && !trimmed.startsWith("[")) return cell;
  try {
    return JSON.parse(trimmed);
  } catch {
    return cell;
  }
}

/**
 * The request: a string as is; a chat message list (OpenAI evals' `input`) as a chat request; a dict
 * (MLflow's `inputs`, Braintrust's `input`) by its `messages`, `query`+`history`, or first question key;
 * any other dict or value as its JSON text, so the judge still sees what the file holds.
 */
export function readRequest(source: string, cell: unknown): CellReading {
  if (typeof cell === "string") return { values: { request: cell } };
  if (isMessageList(cell)) return { values: { request: { messages: cell } }, how: `${source} as chat messages` };
  if (isObject(cell)) {
    if (Array.isArray(cell.messages))
      return { values: { request: { messages: cell.messages } }, how: `${source}.messages as chat messages` };
    if (typeof cell.query === "string" && Array.isArray(cell.history))
      return {
        values: { request: { query: cell.query, history: cell.history } },
        how: `${source}.query with its history`,
      };
    for (const key of QUESTION_KEYS)
      if (typeof cell[key] === "string") return { values: { request: cell[key] }, how: `${source}.${key}` };
  }
  if (cell === undefined) return { values: {} };
  return {
    values: { request: JSON.stringify(cell) },
    how: `${source} as JSON text (no question, query, input or messages key)`,
  };
}

/** The response: a string as is; a dict's answer key; anything else as its JSON text. */
export function readResponse(source: string, cell: unknown): CellReading {
  if (typeof cell === "string") return { values: { response: cell } };
  if (isObject(cell))
    for (const key of ANSWER_KEYS)
      if (typeof cell[key] === "string") return { values: { response: cell[key] }, how: `${source}.${key}` };
  return { values: { response: JSON.stringify(cell) }, how: `${source} as JSON text` };
}

/** The expected answer: a string is expected_response, a list of strings expected_facts, anything else its JSON text. */
export function readExpected(source: string, cell: unknown): CellReading {
  if (typeof cell === "string") return { values: { expected_response: cell } };
  if (Array.isArray(cell) && cell.length > 0 && cell.every((item) => typeof item === "string"))
    return { values: { expected_facts: cell }, how: `${source} lists as expected_facts` };
  if (isObject(cell))
    for (const key of ANSWER_KEYS)
      if (typeof cell[key] === "string") return { values: { expected_response: cell[key] }, how: `${source}.${key}` };
  return { values: { expected_response: JSON.stringify(cell) }, how: `${source} as JSON text` };
}

const EXPECTATION_KEYS = ["expected_response", "expected_facts", "expected_retrieved_context"] as const;

/**
 * MLflow 3's expectations dict. Its keys of the same names give expected_response, expected_facts
 * and expected_retrieved_context (chunks as `{content, doc_uri}` or plain passages); the others
 * (guidelines, custom expectations) have no place in the schema and are named in a warning.
 */
export function readExpectations(source: string, cell: unknown): CellReading {
  if (!isObject(cell))
    return {
      error: `expected a dict such as {"expected_response": ...} or {"expected_facts": [...]}, got ${describeType(cell)}`,
    };
  const values: Partial<Record<InputColumn, unknown>> = {};
  for (const key of EXPECTATION_KEYS) {
    const value = cell[key];
    if (value === undefined || value === null) continue;
    values[key] =
      key === "expected_retrieved_context" && Array.isArray(value)
        ? value.map((item, index) =>
            typeof item === "string" ? { content: item, doc_uri: `${source}.${key}[${index}]` } : item,
          )
        : value;
  }
  const ignored = Object.keys(cell).filter((key) => !(EXPECTATION_KEYS as readonly string[]).includes(key));
  return { values, ignored: ignored.map((key) => `${source}.${key}`) };
}

/** DeepEval and Ragas keep passages as an array of strings; in a CSV cell, as JSON text. */
export function readPassages(source: string, cell: unknown, csv: boolean): { texts: string[] } | { error: string } {
  let value = cell;
  if (csv && typeof cell === "string") {
    const trimmed = cell.trim();
    if (!trimmed.startsWith("["))
      return { error: 'expected a JSON array of strings in this cell, e.g. ["first", "second"]' };
    try {
      value = JSON.parse(trimmed);
    } catch {
      // pandas's to_csv writes a Python list, ['a', 'b'], which is not JSON.
      return {
        error: /^\[\s*'/.test(trimmed)
          ? 'the cell is a Python list (single quotes, as pandas writes one); write it as a JSON array with double quotes, e.g. ["first", "second"]'
          : "the cell looks like JSON but does not parse",
      };
    }
  }
  if (!Array.isArray(value)) return { error: `expected an array of strings, got ${describeType(value)}` };
  const texts: string[] = [];
  for (const [index, item] of value.entries()) {
    if (typeof item !== "string") return { error: `${source}[${index}] is ${describeType(item)}, expected a string` };
    texts.push(item);
  }
  return { texts };
}
