import { sqlOf, type Db } from "../client";

/**
 * How many people should label each row of a dataset's metric (1–5), and whether labellers see the judge's
 * verdict before giving their own label. Absent: one label per row and the judge shown, as before several
 * people could label. With more than one label asked for, labelling is blind: a labeller sees the other
 * people's labels of a row only once they gave their own.
 */
export type LabelQueueSetting = { labelsPerRow: number; hideJudge: boolean };

export const DEFAULT_QUEUE_SETTING: LabelQueueSetting = { labelsPerRow: 1, hideJudge: false };
export const MAX_LABELS_PER_ROW = 5;

export async function readLabelQueueSettings(db: Db, datasetId: string): Promise<Map<string, LabelQueueSetting>> {
  const rows = await sqlOf(db).all<{ metric: string; labelsPerRow: number; hideJudge: number | boolean }>(
    `SELECT "metric", "labelsPerRow", "hideJudge" FROM "LabelQueueSetting" WHERE "datasetId" = ?`,
    [datasetId],
  );
  return new Map(
    rows.map((row) => [row.metric, { labelsPerRow: Number(row.labelsPerRow), hideJudge: Boolean(row.hideJudge) }]),
  );
}

export async function saveLabelQueueSetting(
  db: Db,
  key: { datasetId: string; metric: string },
  setting: LabelQueueSetting,
): Promise<void> {
  const labelsPerRow = Math.min(MAX_LABELS_PER_ROW, Math.max(1, Math.floor(setting.labelsPerRow)));
  await sqlOf(db).run(
    `INSERT INTO "LabelQueueSetting" ("datasetId", "metric", "labelsPerRow", "hideJudge", "updatedAt") VALUES (?, ?, ?, ?, ?)
     ON CONFLICT ("datasetId", "metric") DO UPDATE SET "labelsPerRow" = excluded."labelsPerRow",
       "hideJudge" = excluded."hideJudge", "updatedAt" = excluded."updatedAt"`,
    [key.datasetId, key.metric, labelsPerRow, setting.hideJudge, new Date()],
  );
}

/** Whether a labeller must label before seeing others' labels: when more than one label per row is asked for. */
export const isBlind = (setting: LabelQueueSetting | undefined): boolean => (setting?.labelsPerRow ?? 1) > 1;
