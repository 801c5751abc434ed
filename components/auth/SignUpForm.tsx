"use client";

import { Button } from "@/components/ui/Button";
import { useAuthPost } from "./useAuthPost";

const INPUT = "w-full rounded border border-slate-300 px-2 py-1.5 text-sm text-slate-900";

/** Better Auth's error codes that may be shown as they are; any other refusal gets one answer that reveals nothing. */
function messageFor(status: number, code: string | undefined, minPasswordLength: number): string {
  if (status === 429) return "Too many attempts. Wait a few seconds, then try again.";
  if (status === 403) return "Sign-up is turned off on this server. Ask an admin for an account.";
  if (code === "PASSWORD_TOO_SHORT") return `The password needs at least ${minPasswordLength} characters.`;
  if (code === "PASSWORD_TOO_LONG") return "The password is too long.";
  if (code === "INVALID_EMAIL") return "That is not an email address.";
  return "The account could not be created. If you already have one, sign in instead.";
}

/**
 * Shown only while an admin has sign-up on. Posts to Better Auth
 * (/api/auth/sign-up/email), which rate-limits it and refuses it when sign-up
 * is off; a new account is a viewer until an admin changes its role.
 */
export function SignUpForm({ minPasswordLength }: { minPasswordLength: number }) {
  const { message, pending, submit } = useAuthPost({
    path: "/api/auth/sign-up/email",
    fields: ["name", "email", "password"],
    destination: "/datasets",
    refusal: async (response) => {
      const body: unknown = await response.json().catch(() => null);
      const code =
        body && typeof body === "object" && "code" in body && typeof body.code === "string" ? body.code : undefined;
      return messageFor(response.status, code, minPasswordLength);
    },
  });

  return (
    <form onSubmit={submit} className="space-y-3" data-testid="signup-form">
      <label className="block text-sm text-slate-700">
        Name
        <input name="name" autoComplete="name" required maxLength={200} className={INPUT} />
      </label>
      <label className="block text-sm text-slate-700">
        Email
        <input name="email" type="email" autoComplete="email" required maxLength={320} className={INPUT} />
      </label>
      <label className="block text-sm text-slate-700">
        Password (at least {minPasswordLength} characters)
        <input
          name="password"
          type="password"
          autoComplete="new-password"
          required
          minLength={minPasswordLength}
          maxLength={256}
          className={INPUT}
        />
      </label>
      {message && (
        <p role="alert" className="text-sm text-red-700">
          {message}
        </p>
      )}
      <Button disabled={pending} size="lg" className="w-full">
        {pending ? "Creating…" : "Create account"}
      </Button>
    </form>
  );
}
