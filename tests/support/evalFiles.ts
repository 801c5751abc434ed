/** Builds the same evaluation rows as JSONL, JSON and CSV text, and streams text as upload chunks. */
export type EvalObject = Record<string, unknown>;

export function toJsonl(rows: EvalObject[]): string {
  return rows.map((row) => JSON.stringify(row)).join("\n") + "\n";
}

export function toJsonArray(rows: EvalObject[]): string {
  return "[\n" + rows.map((row) => "  " + JSON.stringify(row, null, 1).replace(/\n/g, "\n  ")).join(",\n") + "\n]\n";
}

export function toCsv(rows: EvalObject[], columns?: string[]): string {
  const header = columns ?? [...new Set(rows.flatMap((row) => Object.keys(row)))];
  const cell = (value: unknown) => {
    if (value === undefined || value === null) return "";
    const text = typeof value === "string" ? value : JSON.stringify(value);
    return /[",\n\r]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
  };
  return (
    [header.join(","), ...rows.map((row) => header.map((column) => cell(row[column])).join(","))].join("\r\n") + "\r\n"
  );
}

/** Splits text into byte chunks of a given size, as a network upload would arrive (splits may cut characters). */
export async function* byteChunks(text: string | Uint8Array, size = 1024): AsyncGenerator<Uint8Array> {
  const bytes = typeof text === "string" ? new TextEncoder().encode(text) : text;
  for (let offset = 0; offset < bytes.length; offset += size) yield bytes.subarray(offset, offset + size);
}

export const SAMPLE_ROWS: EvalObject[] = [
  {
    request_id: "r1",
    request: "How do I enable versioning on a bucket?",
    response: "Run `nwcli bucket versioning enable my-bucket`.",
    expected_facts: ["versioning is enabled per bucket", "nwcli bucket versioning enable"],
    retrieved_context: [
      { content: "Versioning keeps every version of an object.", doc_uri: "docs://versioning.md" },
      { content: "Use nwcli bucket versioning enable <bucket>.", doc_uri: "docs://cli.md" },
    ],
    expected_retrieved_context: [{ doc_uri: "docs://versioning.md" }],
  },
  {
    request_id: 2,
    request: {
      messages: [
        { role: "system", content: "Be brief." },
        { role: "user", content: "What is the max object size?" },
      ],
    },
    response: "5 TB, uploaded in parts.",
    expected_response: "The maximum object size is 5 TB.",
  },
  {
    request: {
      query: "And for the EU region?",
      history: [
        { role: "user", content: "What is egress pricing?" },
        { role: "assistant", content: "$0.05 per GB in the US." },
      ],
    },
    response: 'In the EU it is $0.06 per GB, with a "quoted" note, and a comma.',
    retrieved_context: [{ content: "<b>EU egress</b>: $0.06/GB", doc_uri: "docs://pricing.md#eu" }],
  },
];
