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

/** The browser reads each event line through this, so a foreign line (e.g. a proxy's) is never taken for a result. */
export const uploadEventSchema = z.discriminatedUnion("type", [
  z.object({
    type: z.literal("progress"),
    bytes: z.number(),
    rows: z.number(),
    issues: z.number(),
    /** Set while the upload waits for a free slot (ASSAY_MAX_CONCURRENT_UPLOADS): says so, in words. */
    queued: z.string().optional(),
  }),
  z.object({
    type: z.literal("result"),
    ok: z.boolean(),
    datasetId: z.string().optional(),
    rowCount: z.number().optional(),
    skippedRows: z.number().optional(),
    fileError: z.string().nullable().optional(),
    /** Row problems, already worded with row, line and column. */
    issues: z.array(z.string()),
    issueCount: z.number(),
    rowsRead: z.number().optional(),
    validRows: z.number().optional(),
    rowsWithProblems: z.number().optional(),
    warnings: z.array(z.string()),
    /** How another tool's file was read (or that its columns could mean several formats), in words; absent or null otherwise. */
    notice: z.string().nullable().optional(),
  }),
]);
export type UploadEvent = z.infer<typeof uploadEventSchema>;
