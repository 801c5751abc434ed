import type { LabelEntry } from "@/lib/contract/labelEntry";
import { sqlOf, type Db } from "../client";
import { orderedUuid } from "../orderedUuid";
import type { SqlRunner } from "../store/sqlRunner";
import { bumpLabelsVersion, ONE_KEY, refreshGoldLabels } from "./goldLabels";
import { LabelTargetError } from "./labelWrites";

/**
 * An admin's deciding label for a key where people disagree (LabelAdjudication): it becomes the gold label
 * (gold 'adjudicated') whatever the people's labels say, until removed, when the key's gold label is the
 * people's again. Both are recorded in the key's history (source 'adjudication'), in one transaction.
 */
export type LabelKey = { datasetId: string; rowId: string; metric: string; chunkPosition: number };

const sameKey = `"rowId" = @rowId AND "metric" = @metric AND "chunkPosition" = @chunkPosition`;

async function nextRevision(tx: SqlRunner, key: LabelKey): Promise<number> {
  const row = await tx.get<{ next: number }>(
    `SELECT COALESCE(MAX("revision"), 0) + 1 AS "next" FROM "HumanLabelRevision" WHERE ${sameKey}`,
    { rowId: key.rowId, metric: key.metric, chunkPosition: key.chunkPosition },
  );
  return Number(row?.next ?? 1);
}

async function appendRevision(
  tx: SqlRunner,
  key: LabelKey,
  entry: {
    action: "set" | "cleared";
    value: LabelEntry["value"] | null;
    reason: string | null;
    by: string | null;
    at: Date;
  },
): Promise<number> {
  const revision = await nextRevision(tx, key);
  const { value } = entry;
  await tx.run(
    `INSERT INTO "HumanLabelRevision" ("id", "datasetId", "rowId", "metric", "chunkPosition", "revision", "action", "kind", "rating", "score", "reason", "labelledBy", "labelledAt", "source")
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'adjudication')`,
    [
      orderedUuid(),
      key.datasetId,
      key.rowId,
      key.metric,
      key.chunkPosition,
      revision,
      entry.action,
      value?.kind ?? null,
      value?.kind === "rating" ? value.rating : null,
      value?.kind === "score" ? value.score : null,
      entry.reason,
      entry.by,
      entry.at,
    ],
  );
  return revision;
}

/** Sets (or changes) the deciding label of a key some people labelled; refused on a key nobody labelled. */
export async function adjudicateLabel(
  db: Db,
  key: LabelKey,
  decision: { value: LabelEntry["value"]; reason: string; decidedBy: string | null; at?: Date },
): Promise<void> {
  const at = decision.at ?? new Date();
  const reason = decision.reason.trim();
  if (!reason) throw new LabelTargetError("an adjudication needs a reason");
  const params = { rowId: key.rowId, metric: key.metric, chunkPosition: key.chunkPosition };
  await sqlOf(db).transaction(async (tx) => {
    const people = await tx.get<{ labels: number; hash: string | null; kind: string | null }>(
      `SELECT COUNT(*) AS "labels", MAX("responseHash") AS "hash", MAX("kind") AS "kind" FROM "PersonLabel" WHERE "datasetId" = @datasetId AND ${sameKey}`,
      { ...params, datasetId: key.datasetId },
    );
    if (!people || Number(people.labels) === 0)
      throw new LabelTargetError("nobody labelled this; there is nothing to decide");
    const { value } = decision;
    if (people.kind !== value.kind) throw new LabelTargetError(`this metric takes a ${people.kind} label`);
    const rating = value.kind === "rating" ? value.rating : null;
    const score = value.kind === "score" ? value.score : null;
    await tx.run(
      `INSERT INTO "LabelAdjudication" ("id", "datasetId", "rowId", "metric", "chunkPosition", "kind", "rating", "score", "reason", "decidedBy", "decidedAt")
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT ("rowId", "metric", "chunkPosition") DO UPDATE SET "kind" = excluded."kind", "rating" = excluded."rating",
         "score" = excluded."score", "reason" = excluded."reason", "decidedBy" = excluded."decidedBy", "decidedAt" = excluded."decidedAt"`,
      [
        orderedUuid(),
        key.datasetId,
        key.rowId,
        key.metric,
        key.chunkPosition,
        value.kind,
        rating,
        score,
        reason,
        decision.decidedBy,
        at,
      ],
    );
    const revision = await appendRevision(tx, key, { action: "set", value, reason, by: decision.decidedBy, at });
    // The people's labels of a key judged one response; the deciding label judged the same.
    await tx.run(
      `INSERT INTO "HumanLabel" ("id", "datasetId", "rowId", "metric", "chunkPosition", "kind", "rating", "score", "reason", "labelledBy", "labelledAt", "source", "revision", "responseHash", "labels", "gold")
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'adjudication', ?, ?, ?, 'adjudicated')
       ON CONFLICT ("rowId", "metric", "chunkPosition") DO UPDATE SET "kind" = excluded."kind", "rating" = excluded."rating",
         "score" = excluded."score", "reason" = excluded."reason", "labelledBy" = excluded."labelledBy", "statedBy" = NULL,
         "labelledAt" = excluded."labelledAt", "source" = excluded."source", "revision" = excluded."revision",
         "responseHash" = excluded."responseHash", "hashPending" = FALSE, "labels" = excluded."labels", "gold" = excluded."gold"`,
      [
        orderedUuid(),
        key.datasetId,
        key.rowId,
        key.metric,
        key.chunkPosition,
        value.kind,
        rating,
        score,
        reason,
        decision.decidedBy,
        at,
        revision,
        key.chunkPosition < 0 ? people.hash : null,
        Number(people.labels),
      ],
    );
    await bumpLabelsVersion(tx, key.datasetId);
  });
}

/** Removes a key's deciding label: the people's labels decide its gold label again. */
export async function clearAdjudication(
  db: Db,
  key: LabelKey,
  author: { by: string | null; at?: Date },
): Promise<boolean> {
  const params = { rowId: key.rowId, metric: key.metric, chunkPosition: key.chunkPosition };
  return sqlOf(db).transaction(async (tx) => {
    const removed = await tx.run(`DELETE FROM "LabelAdjudication" WHERE "datasetId" = @datasetId AND ${sameKey}`, {
      ...params,
      datasetId: key.datasetId,
    });
    if (removed === 0) return false;
    await appendRevision(tx, key, {
      action: "cleared",
      value: null,
      reason: null,
      by: author.by,
      at: author.at ?? new Date(),
    });
    // The people's gold label again (or none, on a tie): the refresh replaces or removes the adjudicated one.
    await tx.run(`DELETE FROM "HumanLabel" WHERE ${sameKey}`, params);
    await refreshGoldLabels(tx, ONE_KEY, params, key.datasetId);
    return true;
  });
}
