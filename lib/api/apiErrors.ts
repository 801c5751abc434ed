import { z } from "zod";
import type { RefusalStatus } from "@/lib/auth/guard";

/**
 * The one shape of every /api/v1 error: `{ "error": { "code", "message", "issues"?, "ref"? } }`. `code` is
 * stable for programs to branch on; `message` is for people; `issues` places each problem of an upload or a
 * request body (row, line and column of a file; the field of a JSON body); `ref` names a server error in
 * the server's log, which is all a client learns of it.
 */
export const API_ERROR_CODES = [
  "invalid_request",
  "invalid_upload",
  "unauthorized",
  "forbidden",
  "not_found",
  "conflict",
  "payload_too_large",
  "rate_limited",
  "unavailable",
  "server_error",
] as const;
export type ApiErrorCode = (typeof API_ERROR_CODES)[number];

export const apiIssueSchema = z
  .object({
    row: z.number().int().optional().meta({ description: "1-based data row of an uploaded file" }),
    line: z.number().int().optional().meta({ description: "Line of the file where that row starts, when it differs" }),
    column: z.string().optional().meta({ description: "The file's column (or JSON key) the problem is in" }),
    field: z.string().optional().meta({ description: "The request field, as a dotted path (`budget.usd`)" }),
    message: z.string(),
  })
  .meta({ id: "ApiIssue" });
export type ApiIssue = z.infer<typeof apiIssueSchema>;

export const apiErrorSchema = z
  .object({
    error: z.object({
      code: z.enum(API_ERROR_CODES),
      message: z.string(),
      issues: z.array(apiIssueSchema).optional(),
      ref: z.string().optional(),
    }),
  })
  .meta({ id: "Error" });

/** Thrown by a route's handler for an answer other than its success; defineApiRoute turns it into the error shape. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: ApiErrorCode,
    message: string,
    readonly issues?: ApiIssue[],
  ) {
    super(message);
    this.name = "ApiError";
  }
}

export function notFound(what: string): ApiError {
  return new ApiError(404, "not_found", `${what} does not exist.`);
}

const REFUSAL_CODES: Record<RefusalStatus, ApiErrorCode> = {
  401: "unauthorized",
  403: "forbidden",
  429: "rate_limited",
  503: "unavailable",
};

export function refusalCode(status: RefusalStatus): ApiErrorCode {
  return REFUSAL_CODES[status];
}

export function errorResponse(
  status: number,
  error: { code: ApiErrorCode; message: string; issues?: ApiIssue[]; ref?: string },
  headers: Record<string, string> = {},
): Response {
  return Response.json({ error }, { status, headers: { "cache-control": "no-store", ...headers } });
}

/** An upload's row problems (lib/ingest RowIssue) as API issues. */
export function rowIssuesOf(
  issues: readonly { row: number; line?: number; column?: string; message: string }[],
): ApiIssue[] {
  return issues.map((issue) => ({
    row: issue.row,
    ...(issue.line !== undefined ? { line: issue.line } : {}),
    ...(issue.column ? { column: issue.column } : {}),
    message: issue.message,
  }));
}

/** A zod failure as issues that name the request field (`budget.usd: Too small: expected number to be >=0`). */
export function issuesOf(error: z.ZodError): ApiIssue[] {
  return error.issues.map((issue) => ({
    ...(issue.path.length > 0 ? { field: issue.path.map(String).join(".") } : {}),
    message: issue.message,
  }));
}
