import { labelExportFilename } from "@/lib/export/exportFilename";
import { z } from "zod";
import { getDb } from "@/lib/db/client";
import { getDataset } from "@/lib/db/datasets/datasetQueries";
import { FileError } from "@/lib/ingest/errors";
import { labelFilePieces } from "@/lib/labels/labelFile";
import { downloadResponse } from "@/lib/server/downloadResponse";
import { ImportAbandoned, runLabelFileUpload } from "@/lib/server/labelFileUpload";
import { getDatasetPeopleAgreement } from "@/lib/labels/runPeopleAgreement";
import { peopleAgreementSchema } from "../agreementSchemas";
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
      "The body is a label file (CSV, a JSON array or JSON Lines) keyed by request_id, as the labels export writes it. Any problem writes nothing and answers 422 with every problem placed by row, line and column. Each record's `labelled_by` is the labeller when sign-in is off or an admin imports, so one file can carry several people's labels of a row (one per person and key); otherwise the importer labelled and `labelled_by` is kept as stated_by.",
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
        trustsLabelledBy: !user.local && user.role === "admin",
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

export const datasetAgreementRoute = defineApiRoute(
  {
    method: "get",
    path: "/api/v1/datasets/{datasetId}/agreement",
    operationId: "getDatasetAgreement",
    summary: "How far the people who labelled a dataset agree, per metric more than one person labelled",
    description:
      "Krippendorff's α at the label's level (nominal for yes/no, interval for scores; every level for scores in `byLevel`) over the rows two or more people labelled, with two 95 % intervals (Krippendorff's bootstrap of pairs and a bootstrap of rows), Fleiss' κ when every row has the same number of labellers, the labeller × labeller table and how each key's gold label was decided. A run's agreement (GET /api/v1/runs/{runId}/agreement) adds its judge.",
    tag: "Labels",
    action: "data.read",
    params: datasetIdParams,
    response: z.object({ people: z.array(peopleAgreementSchema) }).meta({ id: "DatasetAgreement" }),
    errors: [404],
  },
  async ({ params }) => {
    const dataset = await requireDataset(params.datasetId);
    return { people: await getDatasetPeopleAgreement(getDb(), dataset.id) };
  },
);
