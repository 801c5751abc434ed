/** How the server read another tool's file: one sentence, shown whether the upload worked or not. */
export function UploadNotice({ notice }: { notice: string }) {
  return (
    <p
      role="status"
      data-testid="upload-notice"
      className="mt-3 rounded-md border border-sky-200 bg-sky-50 px-3 py-2 text-sm break-words text-sky-900"
    >
      {notice}
    </p>
  );
}

/** The upload's warnings (unknown columns, ignored keys, skipped rows), shown on success and on failure alike. */
export function UploadWarnings({ warnings }: { warnings: readonly string[] }) {
  if (warnings.length === 0) return null;
  return (
    <ul
      data-testid="upload-warnings"
      aria-label="Upload warnings"
      className="mt-3 list-disc space-y-0.5 rounded-md border border-amber-200 bg-amber-50 py-2 pr-3 pl-7 text-sm break-words text-amber-900"
    >
      {warnings.map((warning) => (
        <li key={warning}>{warning}</li>
      ))}
    </ul>
  );
}
