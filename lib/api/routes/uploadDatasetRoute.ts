import { describeRowIssue } from "@/lib/ingest/errors";
import { uploadQuerySchema } from "@/lib/ingest/uploadProtocol";
import { runDatasetUpload } from "@/lib/server/datasetUpload";
import { ApiError, rowIssuesOf } from "../apiErrors";
import { uploadResultSchema } from "../apiSchemas";
import { defineApiRoute } from "../defineApiRoute";
import { uploadBodyOf } from "../uploadBody";
import { readDatasetDetail } from "./datasetRoutes";

/**
 * Uploads an evaluation set as the request body (the file's bytes, any media type), streamed through the same
 * ingest as the browser's upload: bounded memory, every row validated, nothing stored unless the whole file
 * is (strict), or the valid rows only (validRowsOnly). A file with problems answers 422 `invalid_upload` with
 * each problem's row, line and column.
 */
export const uploadDatasetRoute = defineApiRoute(
  {
    method: "post",
    path: "/api/v1/datasets",
    operationId: "uploadDataset",
    summary: "Upload a dataset (JSONL, JSON, CSV or Parquet, in Agent Evaluation's input schema)",
    description:
      "The body is the file itself. `filename` tells its format by its extension. In strict mode (the default) a file with any problem stores nothing and answers 422 with every problem placed by row, line and column; validRowsOnly stores the valid rows and lists the others.",
    tag: "Datasets",
    action: "dataset.upload",
    query: uploadQuerySchema,
    rawBody: {
      description: "The file's bytes",
      mediaTypes: ["application/octet-stream", "application/x-ndjson", "application/json", "text/csv"],
    },
    response: uploadResultSchema,
    successStatus: 201,
    errors: [400, 413, 422],
  },
  async ({ query, user, request }) => {
    const { body, limits } = uploadBodyOf(request, "file");
    const result = await runDatasetUpload({
      body,
      filename: query.filename,
      name: query.name,
      mode: query.mode,
      createdById: user.local ? null : user.id,
      limits,
      signal: request.signal,
    });
    const issues = rowIssuesOf(result.issues);
    if (!result.ok) {
      const summary = result.fileError
        ? result.fileError
        : `${result.issueCount} problem${result.issueCount === 1 ? "" : "s"} in ${result.rowsWithProblems} of ${result.rowsRead} rows; nothing was stored. First: ${result.issues[0] ? describeRowIssue(result.issues[0]) : "—"}`;
      throw new ApiError(422, "invalid_upload", summary, issues);
    }
    return Response.json(
      {
        dataset: await readDatasetDetail(result.datasetId),
        skippedRows: result.skippedRows,
        issues,
        issueCount: result.issueCount,
        notice: result.notice,
      },
      { status: 201, headers: { "cache-control": "no-store", location: `/api/v1/datasets/${result.datasetId}` } },
    );
  },
);
