"use server";

import { headers } from "next/headers";
import { redirect } from "next/navigation";
import { z } from "zod";
import { isAPIError } from "better-auth/api";
import { appAuthMode, getAuth } from "@/lib/auth/appAuth";
import { newUserSchema } from "@/lib/auth/createUserAccount";
import { logServerError } from "@/lib/server/logError";

export type SignUpState = { message: string | null };

const inputSchema = newUserSchema.extend({ name: z.string().trim().min(1, "Enter your name.").max(200) });

/**
 * Creates an account (role viewer) and signs it in, while an admin has sign-up
 * turned on. Better Auth refuses it otherwise (lib/auth/createAuth.ts).
 */
export async function signUp(_previous: SignUpState, formData: FormData): Promise<SignUpState> {
  const input = inputSchema.safeParse({
    name: formData.get("name"),
    email: formData.get("email"),
    password: formData.get("password"),
  });
  if (!input.success) return { message: input.error.issues[0]?.message ?? "Check the form." };
  if (appAuthMode().kind !== "on")
    return { message: "Sign-in is off on this server; there are no accounts to create." };
  try {
    await getAuth().api.signUpEmail({ body: input.data, headers: await headers() });
  } catch (error) {
    if (isAPIError(error)) {
      if (error.statusCode === 403)
        return { message: "Sign-up is turned off on this server. Ask an admin for an account." };
      // Taken email or otherwise: one answer, which does not say which.
      return { message: "The account could not be created. If you already have one, sign in instead." };
    }
    const ref = logServerError("sign-up failed", error);
    return { message: `Sign-up failed on the server (ref ${ref}).` };
  }
  redirect("/datasets");
}
