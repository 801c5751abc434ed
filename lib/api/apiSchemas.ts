import { z } from "zod";
import { apiIssueSchema } from "./apiErrors";

/**
 * The JSON shapes /api/v1 answers with, as zod schemas: the route handlers build these values and the
 * OpenAPI document is generated from the same schemas (`id` makes each a named component). Dates are ISO
 * 8601 strings in UTC.
 */

const isoDate = z.iso.datetime({ offset: true }).meta({ description: "ISO 8601, UTC" });

export const datasetSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    sourceFilename: z.string().nullable(),
    sourceFormat: z.string().nullable().meta({ description: "The file's format as read: jsonl, json, csv, parquet…" }),
    rowCount: z.number().int(),
    runCount: z.number().int(),
    createdAt: isoDate,
  })
  .meta({ id: "Dataset" });

export const datasetListSchema = z.object({ datasets: z.array(datasetSchema) }).meta({ id: "DatasetList" });

export const datasetDetailSchema = datasetSchema
  .extend({ warnings: z.array(z.string()).meta({ description: "What the upload noticed but accepted" }) })
  .meta({ id: "DatasetDetail" });

export const uploadResultSchema = z
  .object({
    dataset: datasetDetailSchema,
    skippedRows: z
      .number()
      .int()
      .meta({ description: "Rows left out because they had problems (mode validRowsOnly); 0 in strict mode" }),
    issues: z
      .array(apiIssueSchema)
      .meta({ description: "The problems of the rows left out, with row, line and column" }),
    issueCount: z.number().int(),
    notice: z.string().nullable().meta({ description: "How another tool's file was read, in words" }),
  })
  .meta({ id: "UploadResult" });

const countsSchema = z.object({
  pending: z.number().int(),
  running: z.number().int(),
  done: z.number().int(),
  error: z.number().int(),
  skipped: z.number().int(),
  total: z.number().int(),
});

/** A run's states, from planning (its work still being written) to its end. */
export const RUN_STATUSES = ["planning", "pending", "running", "paused", "completed", "cancelled", "failed"] as const;

export const runSummarySchema = z
  .object({
    id: z.string(),
    name: z.string(),
    datasetId: z.string(),
    datasetName: z.string(),
    status: z.enum(RUN_STATUSES),
    tags: z
      .array(z.string())
      .meta({ description: "Free text; `key=value` tags can be filtered on (`tag=branch=main`)" }),
    judge: z.object({ provider: z.string(), model: z.string() }),
    generationModel: z.string().nullable(),
    createdAt: isoDate,
    finishedAt: isoDate.nullable(),
    url: z.string().meta({ description: "The run's page on this server" }),
  })
  .meta({ id: "RunSummary" });

export const runListSchema = z.object({ runs: z.array(runSummarySchema) }).meta({ id: "RunList" });

export const aggregateSchema = z
  .object({
    metric: z.string().meta({ example: "response/llm_judged/correctness" }),
    name: z.string().meta({
      description: "Agent Evaluation's aggregate name",
      example: "response/llm_judged/correctness/rating/percentage",
    }),
    kind: z.enum(["percentage", "average"]),
    value: z.number().nullable().meta({ description: "A share from 0 to 1, or an average; null before any judgment" }),
    numerator: z.number(),
    denominator: z.number(),
    errors: z.number().int(),
    skipped: z.number().int(),
    pending: z.number().int(),
    success: z
      .object({ name: z.string(), value: z.number().nullable(), numerator: z.number(), denominator: z.number() })
      .optional()
      .meta({ description: "DeepEval and Mastra scores: the share of scored rows at or past the pass mark" }),
  })
  .meta({ id: "Aggregate" });

export const runDetailSchema = runSummarySchema
  .extend({
    errorMessage: z.string().nullable(),
    pauseReason: z.string().nullable(),
    metrics: z.array(z.string()),
    progress: z.object({
      judgments: countsSchema,
      generations: countsSchema,
      fractionDone: z.number().meta({ description: "Finished judgments (done, error, skipped) over all, 0 to 1" }),
    }),
    aggregates: z.array(aggregateSchema),
  })
  .meta({ id: "RunDetail" });
