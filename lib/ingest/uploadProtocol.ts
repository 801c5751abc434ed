import { z } from "zod";

/**
 * The upload route streams newline-delimited JSON events back while it reads
 * the file: progress while rows go in, then one result. Shared by the route
 * handler and the browser so both sides agree on the shape.
 */
export const uploadQuerySchema = z.object({
  filename: z.string().trim().min(1, "filename is required").max(255),
  name: z.string().trim().max(200).optional(),
  mode: z.enum(["strict", "validRowsOnly"]).default("strict"),
});

export type UploadEvent =
  | { type: "progress"; bytes: number; rows: number; issues: number }
  | {
      type: "result";
      ok: boolean;
      datasetId?: string;
      rowCount?: number;
      skippedRows?: number;
      fileError?: string | null;
      /** Row problems, already worded with row, line and column. */
      issues: string[];
      issueCount: number;
      rowsRead?: number;
      validRows?: number;
      warnings: string[];
    };
