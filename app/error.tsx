"use client";

import { Button, LinkButton } from "@/components/ui/Button";

/** Any server error on a page: no stack trace, a reference the server log also has, and a way on. */
export default function ErrorPage({ error, reset }: { error: Error & { digest?: string }; reset: () => void }) {
  return (
    <div className="mx-auto max-w-lg rounded-lg border border-red-200 bg-white p-6 text-center shadow-sm" role="alert">
      <h1 className="text-lg font-semibold text-red-800">Something went wrong on this page</h1>
      <p className="mt-1 text-sm text-slate-600">
        Nothing you uploaded or judged was lost: results are saved as they complete. Try again; if it keeps happening,
        the server log has the details
        {error.digest ? (
          <>
            {" "}
            under reference <code className="font-mono">{error.digest}</code>
          </>
        ) : null}
        .
      </p>
      <div className="mt-4 flex justify-center gap-2 text-sm">
        <Button type="button" onClick={reset} variant="primary" size="lg">
          Try again
        </Button>
        <LinkButton href="/datasets" size="lg">
          Datasets
        </LinkButton>
      </div>
    </div>
  );
}
