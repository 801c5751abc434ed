import { z } from "zod";
import { getDb } from "@/lib/db/client";
import { pruneTaggedDatasets } from "@/lib/db/datasets/datasetPruning";
import { defineApiRoute } from "../defineApiRoute";

const prunedDatasetSchema = z.object({
  id: z.string(),
  name: z.string(),
  createdAt: z.string(),
  runs: z.number().int(),
});

export const pruneDatasetsBodySchema = z
  .object({
    tag: z
      .string()
      .trim()
      .min(1)
      .max(60)
      .meta({ description: "Every run of a pruned dataset carries this whole tag (`ci`, `branch=feature-x`)" }),
    olderThanDays: z
      .number()
      .int()
      .min(1)
      .max(3650)
      .meta({ description: "Only datasets uploaded more than this many days ago" }),
    dryRun: z.boolean().default(false).meta({ description: "List what would be deleted; delete nothing" }),
  })
  .meta({ id: "PruneDatasetsRequest" });

/**
 * Old CI datasets, pruned: each build uploads its own file, so they pile up. Deletes (or with dryRun lists)
 * the datasets older than olderThanDays whose every run carries `tag`, with their runs; keeps, saying why, one
 * with a run in progress and the one holding the newest completed run with the tag (the gate's latest:
 * baseline). Admin only, as deleting a dataset is in the app.
 */
export const pruneDatasetsRoute = defineApiRoute(
  {
    method: "post",
    path: "/api/v1/datasets/prune",
    operationId: "pruneDatasets",
    summary: "Delete old datasets whose every run carries a tag (CI uploads)",
    description:
      "Deletes the datasets uploaded more than olderThanDays days ago whose every run carries `tag`, with their runs and judgments. A dataset with a run in progress is kept, and so is the one holding the newest completed run with the tag (what `--baseline latest:TAG` compares with); each kept dataset says why. dryRun lists without deleting.",
    tag: "Datasets",
    action: "dataset.delete",
    body: pruneDatasetsBodySchema,
    response: z
      .object({
        dryRun: z.boolean(),
        deleted: z.array(prunedDatasetSchema),
        kept: z.array(prunedDatasetSchema.extend({ reason: z.string() })),
      })
      .meta({ id: "PruneDatasetsResult" }),
  },
  async ({ body }) => ({ dryRun: body.dryRun, ...(await pruneTaggedDatasets(getDb(), body)) }),
);
