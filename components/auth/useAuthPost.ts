"use client";

import { useState, type FormEvent } from "react";

/**
 * Posts a form's fields as JSON straight to a Better Auth endpoint (so its
 * rate limit applies), goes to `destination` when it succeeds, and otherwise
 * keeps the one message `refusal` chooses for the response.
 */
export function useAuthPost(options: {
  path: string;
  fields: readonly string[];
  destination: string;
  refusal: (response: Response) => string | Promise<string>;
}) {
  const [message, setMessage] = useState<string | null>(null);
  const [pending, setPending] = useState(false);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    setPending(true);
    setMessage(null);
    try {
      const response = await fetch(options.path, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(Object.fromEntries(options.fields.map((field) => [field, form.get(field)]))),
      });
      if (response.ok) {
        window.location.assign(options.destination);
        return;
      }
      setMessage(await options.refusal(response));
    } catch {
      setMessage("The server could not be reached. Try again.");
    }
    setPending(false);
  }

  return { message, pending, submit };
}
