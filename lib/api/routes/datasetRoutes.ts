import { z } from "zod";
import { getDb } from "@/lib/db/client";
import { countDatasetRuns, getDataset, listDatasets } from "@/lib/db/datasets/datasetQueries";
import { notFound } from "../apiErrors";
import { datasetDetailSchema, datasetListSchema, datasetSchema } from "../apiSchemas";
import { defineApiRoute } from "../defineApiRoute";

export const datasetIdParams = z.object({ datasetId: z.string().min(1).max(200) });

export const listDatasetsRoute = defineApiRoute(
  {
    method: "get",
    path: "/api/v1/datasets",
    operationId: "listDatasets",
    summary: "List datasets, newest first",
    tag: "Datasets",
    action: "data.read",
    response: datasetListSchema,
  },
  async () => {
    const datasets = await listDatasets(getDb());
    return { datasets: datasets.map((dataset) => apiDataset(dataset, dataset._count.runs)) };
  },
);

export const getDatasetRoute = defineApiRoute(
  {
    method: "get",
    path: "/api/v1/datasets/{datasetId}",
    operationId: "getDataset",
    summary: "Read one dataset",
    tag: "Datasets",
    action: "data.read",
    params: datasetIdParams,
    response: datasetDetailSchema,
    errors: [404],
  },
  async ({ params }) => {
    return readDatasetDetail(params.datasetId);
  },
);

type StoredDataset = {
  id: string;
  name: string;
  sourceFilename: string | null;
  sourceFormat: string | null;
  rowCount: number;
  createdAt: Date;
};

function apiDataset(dataset: StoredDataset, runCount: number): z.input<typeof datasetSchema> {
  return {
    id: dataset.id,
    name: dataset.name,
    sourceFilename: dataset.sourceFilename,
    sourceFormat: dataset.sourceFormat,
    rowCount: dataset.rowCount,
    runCount,
    createdAt: dataset.createdAt.toISOString(),
  };
}

/** A dataset as the API shows it, with its warnings and run count; 404 when it does not exist (or is not ready). */
export async function readDatasetDetail(datasetId: string): Promise<z.input<typeof datasetDetailSchema>> {
  const db = getDb();
  const dataset = await getDataset(db, datasetId);
  if (!dataset) throw notFound(`Dataset ${datasetId}`);
  return { ...apiDataset(dataset, (await countDatasetRuns(db, dataset.id)).total), warnings: dataset.warnings };
}
