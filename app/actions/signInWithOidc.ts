"use server";

import { headers } from "next/headers";
import { redirect } from "next/navigation";
import { z } from "zod";
import { appAuthMode, getAuth } from "@/lib/auth/appAuth";
import { OIDC_PROVIDER_ID } from "@/lib/auth/oidcConfig";
import { safeNextPath } from "@/lib/auth/safeRedirect";
import { logServerError } from "@/lib/server/logError";

const inputSchema = z.object({ next: z.string().max(2000).optional() });

/** Starts the OpenID Connect flow: Better Auth sets the state cookie and answers the provider's authorization URL. */
export async function signInWithOidc(formData: FormData): Promise<void> {
  const input = inputSchema.safeParse({ next: formData.get("next") ?? undefined });
  const next = safeNextPath(input.success ? input.data.next : undefined);
  if (appAuthMode().kind !== "on") redirect(next);
  let url: string | undefined;
  try {
    const result = await getAuth().api.signInSocial({
      body: { provider: OIDC_PROVIDER_ID, callbackURL: next, errorCallbackURL: "/signin" },
      headers: await headers(),
    });
    url = result.url;
  } catch (error) {
    logServerError("OpenID Connect sign-in could not start", error);
  }
  redirect(url ?? "/signin?error=oidc_unavailable");
}
