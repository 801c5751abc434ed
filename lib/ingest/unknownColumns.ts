import { AGENT_EVALUATION_COLUMNS, INPUT_COLUMNS } from "@/lib/contract/normalizedRow";

/**
 * The columns an upload has that the Agent Evaluation input schema does not.
 * They are ignored, and reported in ONE warning that names the first few and
 * counts the rest. A file can have any number of distinct keys (one 6 MB JSONL
 * line can hold 600,000), so both what is remembered and what is reported are
 * bounded: the first MAX_TRACKED distinct names are remembered; past them the
 * count is a lower bound, the largest number of unknown keys in one record
 * (exact when, as usual, one record has them all).
 */
export type UnknownColumns = {
  /** Distinct unknown names seen so far, at most MAX_TRACKED of them, in order of first appearance. */
  tracked: Set<string>;
  /** True once a name beyond MAX_TRACKED was seen: the count is then a lower bound. */
  overflowed: boolean;
  /** The most unknown keys one record had (keys within a record are distinct). */
  mostInOneRecord: number;
  /** How many records had unknown keys: with one, its key count is the exact total. */
  recordsWithUnknown: number;
};

const NAMED_IN_WARNING = 5;
const MAX_TRACKED = 1_000;
const MAX_NAME_CHARS = 60;
const KNOWN = new Set<string>(INPUT_COLUMNS);

export function newUnknownColumns(): UnknownColumns {
  return { tracked: new Set(), overflowed: false, mostInOneRecord: 0, recordsWithUnknown: 0 };
}

/** Notes the unknown keys of one record (known columns are skipped). */
export function noteUnknownColumns(unknown: UnknownColumns, record: object): void {
  let inThisRecord = 0;
  for (const key in record) {
    if (!Object.hasOwn(record, key) || KNOWN.has(key)) continue;
    inThisRecord += 1;
    if (unknown.tracked.has(key)) continue;
    if (unknown.tracked.size < MAX_TRACKED) unknown.tracked.add(key);
    else unknown.overflowed = true;
  }
  unknown.mostInOneRecord = Math.max(unknown.mostInOneRecord, inThisRecord);
  if (inThisRecord > 0) unknown.recordsWithUnknown += 1;
}

/** The one warning about unknown columns, or null when there were none. Its length is bounded whatever the file. */
export function describeUnknownColumns(unknown: UnknownColumns): string | null {
  const count = Math.max(unknown.tracked.size, unknown.mostInOneRecord);
  if (count === 0) return null;
  const named: string[] = [];
  for (const name of unknown.tracked) {
    if (named.length === NAMED_IN_WARNING) break;
    named.push(`"${name.length > MAX_NAME_CHARS ? `${name.slice(0, MAX_NAME_CHARS)}…` : name}"`);
  }
  const rest = count - named.length;
  const lowerBound = unknown.overflowed && unknown.recordsWithUnknown > 1;
  const others =
    rest === 0
      ? ""
      : ` and ${lowerBound ? "at least " : ""}${rest.toLocaleString("en-US")} other${rest === 1 ? "" : "s"}`;
  const subject = count === 1 ? "Unknown column" : "Unknown columns";
  return `${subject} ${named.join(", ")}${others} ${count === 1 ? "was" : "were"} ignored (Agent Evaluation input schema columns: ${AGENT_EVALUATION_COLUMNS.join(", ")}; plus human_labels, tool_calls, expected_tool_calls, session_id).`;
}
