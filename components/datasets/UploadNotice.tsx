/** How the server read a DeepEval or Ragas file's columns: one sentence, shown whether the upload worked or not. */
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
