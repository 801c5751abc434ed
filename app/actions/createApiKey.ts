"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { getAuth } from "@/lib/auth/appAuth";
import { ApiKeyRefusedError, createApiKey as createKey, newApiKeySchema } from "@/lib/auth/apiKeys";
import { checkRole } from "@/lib/auth/requireRole";
import { logServerError } from "@/lib/server/logError";

/** `key` is the raw key, set once, on the answer to the request that made it. */
export type CreateApiKeyState = { ok: boolean; message: string | null; key?: string };

const formSchema = z.object({
  name: z.string(),
  role: z.string(),
  expiresInDays: z
    .string()
    .trim()
    .transform((text) => (text === "" ? undefined : Number(text))),
});

/** Creates an API key for the signed-in user, with a role no higher than theirs; the key is shown once. */
export async function createApiKey(_previous: CreateApiKeyState, formData: FormData): Promise<CreateApiKeyState> {
  const access = await checkRole("apikeys.own");
  if (!access.ok) return { ok: false, message: access.message };
  if (access.user.local)
    return {
      ok: false,
      message: "Sign-in is off on this server: the API takes requests from this machine without a key.",
    };
  const form = formSchema.safeParse({
    name: formData.get("name") ?? "",
    role: formData.get("role") ?? "",
    expiresInDays: formData.get("expiresInDays") ?? "",
  });
  const input = form.success ? newApiKeySchema.safeParse(form.data) : null;
  if (!input?.success)
    return { ok: false, message: input?.error.issues[0]?.message ?? "Give the key a name, a role and an expiry." };
  try {
    const created = await createKey(getAuth(), access.user, input.data);
    revalidatePath("/settings/keys");
    return { ok: true, message: `Created “${input.data.name}” (${created.role}).`, key: created.key };
  } catch (error) {
    if (error instanceof ApiKeyRefusedError) return { ok: false, message: error.message };
    const ref = logServerError("create API key", error);
    return { ok: false, message: `The key could not be created because of a server error (ref ${ref}).` };
  }
}
