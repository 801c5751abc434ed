import { ApiClientError } from "./apiClient";
import { UsageError } from "./evalArgs";

/**
 * What the CLI prints for an error it knows, and its exit code: bad usage (2, with the usage), or a server's
 * refusal in the server's words with each problem's place (2 for the user's to fix, 4xx; 3 otherwise). Null
 * for any other error, which the caller reports. Shared by `npm run eval` and the served CI client.
 */
export function reportKnownCliError(error: unknown, usage: string, print: (line: string) => void): number | null {
  if (error instanceof UsageError) {
    if (error.message) print(`Error: ${error.message}\n`);
    print(usage);
    return 2;
  }
  if (error instanceof ApiClientError) {
    print(`Error: ${error.message}`);
    for (const issue of error.issues)
      print(
        `  ${[issue.row === undefined ? null : `row ${issue.row}`, issue.column ? `column ${issue.column}` : null, issue.field ?? null].filter(Boolean).join(", ") || "request"}: ${issue.message}`,
      );
    if (error.status === 401) print("Set ASSAY_TOKEN to an API key of that server (its API keys page).");
    return error.status >= 400 && error.status < 500 ? 2 : 3;
  }
  return null;
}
