"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { roleCan } from "@/lib/auth/permissions";
import { checkRole } from "@/lib/auth/requireRole";
import { revokeApiKey as revokeKey } from "@/lib/db/accounts/apiKeyQueries";
import { getDb } from "@/lib/db/client";

export type RevokeApiKeyState = { ok: boolean; message: string | null };

const inputSchema = z.object({ keyId: z.string().min(1).max(200) });

/** Revokes one of the user's own API keys (an admin: anyone's). A request that carries it is refused from now on. */
export async function revokeApiKey(_previous: RevokeApiKeyState, formData: FormData): Promise<RevokeApiKeyState> {
  const access = await checkRole("apikeys.own");
  if (!access.ok) return { ok: false, message: access.message };
  const input = inputSchema.safeParse({ keyId: formData.get("keyId") });
  if (!input.success) return { ok: false, message: "Which key?" };
  const owner = roleCan(access.user.role, "users.manage") ? null : access.user.id;
  if (!(await revokeKey(getDb(), input.data.keyId, owner)))
    return { ok: false, message: "That key does not exist, or is not yours to revoke." };
  revalidatePath("/settings/keys");
  return { ok: true, message: "Revoked." };
}
