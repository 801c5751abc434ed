import type { PairWinner } from "@/lib/contract/pairwise";
import { sqlOf, type Db } from "../client";
import { orderedUuid } from "../orderedUuid";
import { sqlFragments } from "../store/sqlFragments";

/** A person's A/B verdict on two responses to one request, keyed by the content compared and who chose. */
export type PairwisePreferenceKey = {
  baselineRowId: string;
  candidateRowId: string;
  baselineResponseHash: string;
  candidateResponseHash: string;
  labelledBy: string;
};

export type StoredPreference = PairwisePreferenceKey & {
  choice: PairWinner;
  reason: string | null;
  labelledAt: string;
  baselineRunId: string | null;
  candidateRunId: string | null;
};

/** Records (or changes) a person's verdict on these two responses; the runs it was given on are kept beside. */
export async function savePairwisePreference(
  db: Db,
  key: PairwisePreferenceKey,
  value: { choice: PairWinner; reason: string | null; baselineRunId: string; candidateRunId: string },
): Promise<void> {
  const sql = sqlOf(db);
  await sql.run(
    `INSERT INTO "PairwisePreference" ("id", "baselineRowId", "candidateRowId", "baselineResponseHash", "candidateResponseHash",
       "labelledBy", "choice", "reason", "baselineRunId", "candidateRunId", "labelledAt")
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ${sqlFragments(sql).storeTime()})
     ON CONFLICT ("baselineRowId", "candidateRowId", "baselineResponseHash", "candidateResponseHash", "labelledBy")
     DO UPDATE SET "choice" = excluded."choice", "reason" = excluded."reason", "labelledAt" = excluded."labelledAt",
       "baselineRunId" = excluded."baselineRunId", "candidateRunId" = excluded."candidateRunId"`,
    [
      orderedUuid(),
      key.baselineRowId,
      key.candidateRowId,
      key.baselineResponseHash,
      key.candidateResponseHash,
      key.labelledBy,
      value.choice,
      value.reason,
      value.baselineRunId,
      value.candidateRunId,
    ],
  );
}

/** Withdraws a person's verdict on these two responses. */
export async function clearPairwisePreference(db: Db, key: PairwisePreferenceKey): Promise<void> {
  await sqlOf(db).run(
    `DELETE FROM "PairwisePreference" WHERE "baselineRowId" = ? AND "candidateRowId" = ? AND "baselineResponseHash" = ?
       AND "candidateResponseHash" = ? AND "labelledBy" = ?`,
    [key.baselineRowId, key.candidateRowId, key.baselineResponseHash, key.candidateResponseHash, key.labelledBy],
  );
}

/** Every person's verdict on these two responses (the side-by-side page shows them). */
export async function listPreferencesOfPair(
  db: Db,
  pair: Omit<PairwisePreferenceKey, "labelledBy">,
): Promise<StoredPreference[]> {
  return sqlOf(db).all<StoredPreference>(
    `SELECT "baselineRowId", "candidateRowId", "baselineResponseHash", "candidateResponseHash", "labelledBy", "choice",
       "reason", "labelledAt", "baselineRunId", "candidateRunId"
     FROM "PairwisePreference" WHERE "baselineRowId" = ? AND "candidateRowId" = ? AND "baselineResponseHash" = ?
       AND "candidateResponseHash" = ? ORDER BY "labelledAt"`,
    [pair.baselineRowId, pair.candidateRowId, pair.baselineResponseHash, pair.candidateResponseHash],
  );
}

/**
 * People's verdicts that count for two runs: given on rows the two runs pair on, about exactly the responses
 * these runs have there (each run's generated response when it generates, else the dataset row's), whichever
 * runs they were given on. Oldest first.
 */
export async function listPreferencesForRuns(
  db: Db,
  runs: { baselineRunId: string; candidateRunId: string; baselineGenerates: boolean; candidateGenerates: boolean },
): Promise<StoredPreference[]> {
  const hash = (row: string, generation: string, generates: boolean) =>
    generates ? `${generation}."responseHash"` : `${row}."responseHash"`;
  return sqlOf(db).all<StoredPreference>(
    `SELECT p."baselineRowId", p."candidateRowId", p."baselineResponseHash", p."candidateResponseHash", p."labelledBy",
       p."choice", p."reason", p."labelledAt", p."baselineRunId", p."candidateRunId"
     FROM "PairwisePreference" p
     JOIN "DatasetRow" ra ON ra."id" = p."baselineRowId" AND ra."datasetId" = (SELECT "datasetId" FROM "Run" WHERE "id" = @baseline)
     JOIN "DatasetRow" rb ON rb."id" = p."candidateRowId" AND rb."datasetId" = (SELECT "datasetId" FROM "Run" WHERE "id" = @candidate)
     LEFT JOIN "Generation" ga ON ga."runId" = @baseline AND ga."rowId" = ra."id" AND ga."trial" = 1
     LEFT JOIN "Generation" gb ON gb."runId" = @candidate AND gb."rowId" = rb."id" AND gb."trial" = 1
     WHERE p."baselineResponseHash" = ${hash("ra", "ga", runs.baselineGenerates)}
       AND p."candidateResponseHash" = ${hash("rb", "gb", runs.candidateGenerates)}
     ORDER BY p."labelledAt", p."id"`,
    { baseline: runs.baselineRunId, candidate: runs.candidateRunId },
  );
}
