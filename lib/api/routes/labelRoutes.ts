import { labelExportFilename } from "@/lib/export/exportFilename";
import { z } from "zod";
import { getDb } from "@/lib/db/client";
import { getDataset } from "@/lib/db/datasets/datasetQueries";
import { FileError } from "@/lib/ingest/errors";
import { labelFilePieces } from "@/lib/labels/labelFile";
import { downloadResponse } from "@/lib/server/downloadResponse";
import { ImportAbandoned, runLabelFileUpload } from "@/lib/server/labelFileUpload";
import { ApiError, notFound, rowIssuesOf } from "../apiErrors";
import { defineApiRoute } from "../defineApiRoute";
import { uploadBodyOf } from "../uploadBody";
import { datasetIdParams } from "./datasetRoutes";

async function requireDataset(datasetId: string) {
  const dataset = await getDataset(getDb(), datasetId);
  if (!dataset) throw notFound(`Dataset ${datasetId}`);
  return dataset;
}

export const exportLabelsRoute = defineApiRoute(
  {
    method: "get",
    path: "/api/v1/datasets/{datasetId}/labels",
    operationId: "exportLabels",
    summary: "A dataset's current human labels, keyed by request_id, as CSV or JSON",
    tag: "Labels",
    action: "export",
    params: datasetIdParams,
    query: z.object({ format: z.enum(["csv", "json"]).default("json") }),
    response: z.array(z.record(z.string(), z.unknown())).meta({ id: "LabelRecords" }),
    alternativeMedia: [{ mediaType: "text/csv", description: "The same labels as CSV (format=csv)" }],
    errors: [404],
  },
  async ({ params, query }) => {
    const dataset = await requireDataset(params.datasetId);
    return downloadResponse(labelFilePieces(getDb(), dataset.id, query.format), {
      filename: labelExportFilename(dataset.name, query.format),
      contentType: query.format === "csv" ? "text/csv; charset=utf-8" : "application/json; charset=utf-8",
      context: `API label export of dataset ${dataset.id}`,
    });
  },
);

export const importLabelsRoute = defineApiRoute(
  {
    method: "post",
    path: "/api/v1/datasets/{datasetId}/labels",
    operationId: "importLabels",
    summary: "Import human labels into a dataset, all or nothing",
    description:
      "The body is a label file (CSV, a JSON array or JSON Lines) keyed by request_id, as the labels export writes it. Any problem writes nothing and answers 422 with every problem placed by row, line and column.",
    tag: "Labels",
    action: "labels.write",
    params: datasetIdParams,
    rawBody: {
      description: "The label file's bytes",
      mediaTypes: ["text/csv", "application/json", "application/x-ndjson"],
    },
    response: z
      .object({ ok: z.literal(true), records: z.number().int(), changed: z.number().int() })
      .meta({ id: "LabelImportResult" }),
    errors: [404, 413, 422],
  },
  async ({ params, user, request }) => {
    await requireDataset(params.datasetId);
    const { body, limits } = uploadBodyOf(request, "label file");
    try {
      const result = await runLabelFileUpload(getDb(), {
        datasetId: params.datasetId,
        body,
        contentType: request.headers.get("content-type"),
        importedBy: user.local ? null : (user.email ?? user.name),
        limits,
        signal: request.signal,
      });
      if (!result.ok)
        throw new ApiError(
          422,
          "invalid_upload",
          `${result.issueCount} problem${result.issueCount === 1 ? "" : "s"} in the label file; nothing was stored.`,
          rowIssuesOf(result.issues),
        );
      return result;
    } catch (error) {
      if (error instanceof FileError) throw new ApiError(400, "invalid_upload", error.message);
      if (error instanceof ImportAbandoned) throw new ApiError(400, "invalid_upload", error.message);
      throw error;
    }
  },
);
