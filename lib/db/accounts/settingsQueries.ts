import { z } from "zod";
import type { Db } from "../client";

/**
 * Settings an admin changes while the server runs, one row per key in the
 * Setting table. Each key has a schema and a default here, so a missing or
 * unreadable row reads as the default instead of failing the page.
 */
type SettingValues = {
  // Open sign-up (email and password, or a first OpenID Connect sign-in) is
  // off until an admin turns it on: the first admin comes from the CLI.
  signUpEnabled: boolean;
  // Domains sign-up is open to (lib/auth/emailDomains.ts); empty: any domain.
  allowedEmailDomains: string[];
  // Whether the start script has offered this store the sample dataset (scripts/prepare-db.ts): once, on the
  // first start that finds no dataset, whether the tables were made by that start or by `npm run db:deploy`.
  sampleOffered: boolean;
};

const SETTINGS: { [K in keyof SettingValues]: { schema: z.ZodType<SettingValues[K]>; fallback: SettingValues[K] } } = {
  signUpEnabled: { schema: z.boolean(), fallback: false },
  allowedEmailDomains: { schema: z.array(z.string().min(1).max(253)).max(50), fallback: [] },
  sampleOffered: { schema: z.boolean(), fallback: false },
};

export type SettingKey = keyof SettingValues;
export type SettingValue<K extends SettingKey> = SettingValues[K];

export async function readSetting<K extends SettingKey>(db: Db, key: K): Promise<SettingValue<K>> {
  const row = await db.setting.findUnique({ where: { key } });
  if (!row) return SETTINGS[key].fallback;
  const decoded = SETTINGS[key].schema.safeParse(safeJson(row.value));
  return decoded.success ? decoded.data : SETTINGS[key].fallback;
}

export async function writeSetting<K extends SettingKey>(
  db: Db,
  key: K,
  value: SettingValue<K>,
  updatedById: string | null,
): Promise<void> {
  const encoded = JSON.stringify(SETTINGS[key].schema.parse(value));
  await db.setting.upsert({
    where: { key },
    create: { key, value: encoded, updatedById },
    update: { value: encoded, updatedById },
  });
}

export function isSignUpEnabled(db: Db): Promise<boolean> {
  return readSetting(db, "signUpEnabled");
}

export function readAllowedEmailDomains(db: Db): Promise<string[]> {
  return readSetting(db, "allowedEmailDomains");
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
