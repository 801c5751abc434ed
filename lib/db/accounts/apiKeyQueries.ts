import type { Db } from "../client";

/** A key as a list shows it: never its hash. `role` is what its metadata names (lib/auth/apiKeys.ts reads it). */
export type ApiKeySummary = {
  id: string;
  name: string | null;
  /** The key's first characters, prefix included: enough to tell keys apart, not to use one. */
  start: string | null;
  metadata: string | null;
  ownerId: string;
  ownerEmail: string;
  createdAt: Date;
  lastUsedAt: Date | null;
  expiresAt: Date | null;
};

const SUMMARY = {
  id: true,
  name: true,
  start: true,
  metadata: true,
  referenceId: true,
  createdAt: true,
  lastRequest: true,
  expiresAt: true,
  user: { select: { email: true } },
} as const;

type SummaryRecord = {
  id: string;
  name: string | null;
  start: string | null;
  metadata: string | null;
  referenceId: string;
  createdAt: Date;
  lastRequest: Date | null;
  expiresAt: Date | null;
  user: { email: string };
};

function toSummary(record: SummaryRecord): ApiKeySummary {
  return {
    id: record.id,
    name: record.name,
    start: record.start,
    metadata: record.metadata,
    ownerId: record.referenceId,
    ownerEmail: record.user.email,
    createdAt: record.createdAt,
    lastUsedAt: record.lastRequest,
    expiresAt: record.expiresAt,
  };
}

/** The keys of one user (`ownerId`), or of every user (null: an admin's view), newest first. */
export async function listApiKeys(db: Db, ownerId: string | null): Promise<ApiKeySummary[]> {
  const records = await db.apiKey.findMany({
    where: ownerId === null ? {} : { referenceId: ownerId },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    select: SUMMARY,
  });
  return records.map(toSummary);
}

export async function findApiKey(db: Db, id: string): Promise<ApiKeySummary | null> {
  const record = await db.apiKey.findUnique({ where: { id }, select: SUMMARY });
  return record ? toSummary(record) : null;
}

/**
 * Revokes a key: deletes it, so the next request that carries it is refused (verification reads the store
 * every time). Only its owner's, unless `ownerId` is null (an admin). Whether a key was deleted.
 */
export async function revokeApiKey(db: Db, id: string, ownerId: string | null): Promise<boolean> {
  const { count } = await db.apiKey.deleteMany({ where: ownerId === null ? { id } : { id, referenceId: ownerId } });
  return count > 0;
}
