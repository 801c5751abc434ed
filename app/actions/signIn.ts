"use server";

import { headers } from "next/headers";
import { redirect } from "next/navigation";
import { z } from "zod";
import { isAPIError } from "better-auth/api";
import { appAuthMode, getAuth } from "@/lib/auth/appAuth";
import { safeNextPath } from "@/lib/auth/safeRedirect";
import { logServerError } from "@/lib/server/logError";

export type SignInState = { message: string | null };

const inputSchema = z.object({
  email: z.string().trim().min(1).max(320),
  password: z.string().min(1).max(256),
  next: z.string().max(2000).optional(),
});

/** One message for a wrong email and a wrong password alike, so the form never tells whether an account exists. */
const WRONG_CREDENTIALS = "The email or password is not right.";

/** Signs in with email and password; Better Auth sets the session cookie (nextCookies). */
export async function signIn(_previous: SignInState, formData: FormData): Promise<SignInState> {
  const input = inputSchema.safeParse({
    email: formData.get("email"),
    password: formData.get("password"),
    next: formData.get("next") ?? undefined,
  });
  if (!input.success) return { message: "Enter your email and password." };
  if (appAuthMode().kind !== "on") return { message: "Sign-in is off on this server; there is nothing to sign in to." };
  try {
    await getAuth().api.signInEmail({
      body: { email: input.data.email, password: input.data.password },
      headers: await headers(),
    });
  } catch (error) {
    if (isAPIError(error)) {
      if (error.statusCode === 429) return { message: "Too many attempts. Wait a minute, then try again." };
      return { message: WRONG_CREDENTIALS };
    }
    const ref = logServerError("sign-in failed", error);
    return { message: `Sign-in failed on the server (ref ${ref}).` };
  }
  redirect(safeNextPath(input.data.next));
}
