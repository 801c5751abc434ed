"use server";

import { headers } from "next/headers";
import { redirect } from "next/navigation";
import { appAuthMode, getAuth } from "@/lib/auth/appAuth";

/** Ends the session (Better Auth deletes it and clears the cookie) and opens the sign-in page. */
export async function signOut(): Promise<void> {
  if (appAuthMode().kind === "on") await getAuth().api.signOut({ headers: await headers() });
  redirect("/signin");
}
