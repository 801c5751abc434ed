import type { Db } from "../client";
import type { StoredToolCall } from "@/lib/contract/toolCalls";

/** A row's stored tool calls (ToolCall rows), called then expected, each in order; JSON fields still text. */
export async function readRowToolCalls(db: Db, rowId: string): Promise<StoredToolCall[]> {
  return db.toolCall.findMany({
    where: { rowId },
    orderBy: [{ kind: "asc" }, { position: "asc" }],
    select: {
      kind: true,
      position: true,
      name: true,
      arguments: true,
      output: true,
      error: true,
      startMs: true,
      durationMs: true,
      spanId: true,
    },
  });
}
