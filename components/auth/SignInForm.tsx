"use client";

import { Button } from "@/components/ui/Button";
import { useAuthPost } from "./useAuthPost";

const INPUT = "w-full rounded border border-slate-300 px-2 py-1.5 text-sm text-slate-900";

/**
 * Email and password, posted straight to Better Auth (/api/auth/sign-in/email)
 * rather than through a server action, so its per-address rate limit (three
 * attempts per ten seconds) and Assay's per-account throttle apply. A failure
 * says only that the pair is wrong, never whether the email has an account; a
 * paused account's refusal says until when (the server's message).
 */
export function SignInForm({ next }: { next: string }) {
  const { message, pending, submit } = useAuthPost({
    path: "/api/auth/sign-in/email",
    fields: ["email", "password"],
    destination: next,
    refusal: async (response) => {
      if (response.status !== 429) return "The email or password is not right.";
      const body = (await response.json().catch(() => null)) as { code?: unknown; message?: unknown } | null;
      return body?.code === "ACCOUNT_SIGN_IN_PAUSED" && typeof body.message === "string"
        ? body.message
        : "Too many attempts. Wait a few seconds, then try again.";
    },
  });

  return (
    <form onSubmit={submit} className="space-y-3" data-testid="signin-form">
      <label className="block text-sm text-slate-700">
        Email
        <input name="email" type="email" autoComplete="username" required maxLength={320} className={INPUT} />
      </label>
      <label className="block text-sm text-slate-700">
        Password
        <input
          name="password"
          type="password"
          autoComplete="current-password"
          required
          maxLength={256}
          className={INPUT}
        />
      </label>
      {message && (
        <p role="alert" className="text-sm text-red-700" data-testid="signin-error">
          {message}
        </p>
      )}
      <Button variant="primary" size="lg" disabled={pending} className="w-full">
        {pending ? "Signing in…" : "Sign in"}
      </Button>
    </form>
  );
}
