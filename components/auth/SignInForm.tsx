"use client";

import { useState, type FormEvent } from "react";
import { Button } from "@/components/ui/Button";

const INPUT = "w-full rounded border border-slate-300 px-2 py-1.5 text-sm text-slate-900";

/**
 * Email and password, posted straight to Better Auth (/api/auth/sign-in/email)
 * rather than through a server action, so its per-address rate limit (three
 * attempts per ten seconds) applies. A failure says only that the pair is
 * wrong, never whether the email has an account.
 */
export function SignInForm({ next }: { next: string }) {
  const [message, setMessage] = useState<string | null>(null);
  const [pending, setPending] = useState(false);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    setPending(true);
    setMessage(null);
    try {
      const response = await fetch("/api/auth/sign-in/email", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ email: form.get("email"), password: form.get("password") }),
      });
      if (response.ok) {
        window.location.assign(next);
        return;
      }
      setMessage(
        response.status === 429
          ? "Too many attempts. Wait a few seconds, then try again."
          : "The email or password is not right.",
      );
    } catch {
      setMessage("The server could not be reached. Try again.");
    }
    setPending(false);
  }

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
