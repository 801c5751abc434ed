"use client";

import { useRouter } from "next/navigation";
import { useRef, useState, type DragEvent } from "react";
import { Button, LinkButton } from "@/components/ui/Button";
import { CardFrame } from "@/components/ui/Card";
import { ProgressBar } from "@/components/ui/ProgressBar";
import { UNSUPPORTED_TYPE_HINT, UPLOAD_EXTENSIONS } from "@/lib/ingest/formats";
import { describeUploadProblems } from "@/lib/ingest/uploadSummary";
import { sendUpload, type UploadProgress, type UploadResult } from "./sendUpload";
import { UploadNotice, UploadWarnings } from "./UploadNotice";
import { formatBytes, formatCount, formatInteger } from "@/lib/charts/format";

type Phase =
  | { kind: "idle" }
  | { kind: "uploading"; progress: UploadProgress }
  | { kind: "failed"; result: UploadResult }
  | { kind: "done"; result: UploadResult };

/** Pick or drop a CSV / JSON / JSONL / Parquet evaluation set, name it, upload it with progress, and see every error by row. */
export function UploadPanel({ maxBytes }: { maxBytes: number }) {
  const router = useRouter();
  const input = useRef<HTMLInputElement>(null);
  const [file, setFile] = useState<File | null>(null);
  const [name, setName] = useState("");
  const [dragging, setDragging] = useState(false);
  const [phase, setPhase] = useState<Phase>({ kind: "idle" });
  const [clientError, setClientError] = useState<string | null>(null);

  const choose = (picked: File | undefined) => {
    if (!picked) return;
    setPhase({ kind: "idle" });
    const ext = picked.name.includes(".") ? picked.name.slice(picked.name.lastIndexOf(".")).toLowerCase() : "";
    if (!UPLOAD_EXTENSIONS.includes(ext)) {
      setClientError(`Unsupported file type (${ext || "no extension"}). ${UNSUPPORTED_TYPE_HINT}`);
      setFile(null);
      return;
    }
    if (picked.size > maxBytes) {
      setClientError(`${picked.name} is ${formatBytes(picked.size)}, over the ${formatBytes(maxBytes)} upload limit.`);
      setFile(null);
      return;
    }
    setClientError(null);
    setFile(picked);
    setName(picked.name.replace(/\.[^.]+$/, ""));
  };

  const upload = async (mode: "strict" | "validRowsOnly") => {
    if (!file) return;
    setPhase({ kind: "uploading", progress: { sentBytes: 0, totalBytes: file.size, rowsRead: 0, queued: null } });
    const result = await sendUpload(file, {
      name,
      mode,
      onProgress: (progress) => setPhase({ kind: "uploading", progress }),
    });
    if (result.ok && result.datasetId) {
      setPhase({ kind: "done", result });
      // A file read in another tool's format, or with warnings, stays here so they are read before moving on.
      if (!staysOnPanel(result)) router.push(`/datasets/${result.datasetId}`);
      router.refresh();
    } else {
      setPhase({ kind: "failed", result });
    }
  };

  const onDrop = (event: DragEvent) => {
    event.preventDefault();
    setDragging(false);
    choose(event.dataTransfer.files[0]);
  };

  const busy = phase.kind === "uploading" || (phase.kind === "done" && !staysOnPanel(phase.result));
  return (
    <CardFrame aria-labelledby="upload-heading">
      <h2 id="upload-heading" className="text-sm font-semibold">
        Upload an evaluation set
      </h2>
      <p className="mt-0.5 text-xs text-slate-500">
        CSV, JSON (an array of objects), JSONL or Parquet with the columns <code className="font-mono">request</code>,{" "}
        <code className="font-mono">response</code>, <code className="font-mono">expected_facts</code> or{" "}
        <code className="font-mono">expected_response</code>, <code className="font-mono">retrieved_context</code>,{" "}
        <code className="font-mono">expected_retrieved_context</code>, <code className="font-mono">trace</code>; or a
        DeepEval, Ragas, MLflow 3, Braintrust, OpenAI evals or Langfuse dataset with their own column names. Up to{" "}
        {formatBytes(maxBytes)}.
      </p>

      <div
        onDragOver={(event) => {
          event.preventDefault();
          setDragging(true);
        }}
        onDragLeave={() => setDragging(false)}
        onDrop={onDrop}
        className={`mt-3 flex flex-col items-center justify-center gap-2 rounded-md border-2 border-dashed px-4 py-6 text-center text-sm ${dragging ? "border-indigo-400 bg-indigo-50" : "border-slate-300 bg-slate-50"}`}
      >
        <p className="text-slate-600">
          {file ? (
            <>
              <span className="font-medium text-slate-900">{file.name}</span> · {formatBytes(file.size)}
            </>
          ) : (
            "Drop a file here, or"
          )}
        </p>
        <Button type="button" disabled={busy} onClick={() => input.current?.click()} className="text-sm">
          {file ? "Choose another file" : "Choose a file"}
        </Button>
        <input
          ref={input}
          type="file"
          accept={UPLOAD_EXTENSIONS.join(",")}
          className="sr-only"
          // Named for assistive technology; out of the tab order, since the visible button above opens it.
          aria-label="Evaluation set file (CSV, JSON, JSONL or Parquet)"
          tabIndex={-1}
          data-testid="upload-input"
          onChange={(event) => choose(event.target.files?.[0])}
        />
      </div>

      {clientError && (
        <p role="alert" className="mt-3 rounded border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-800">
          {clientError}
        </p>
      )}

      {file && (
        <div className="mt-3 flex flex-wrap items-end gap-3">
          <label className="flex min-w-64 flex-1 flex-col gap-1 text-xs font-medium text-slate-600">
            Dataset name
            <input
              value={name}
              onChange={(event) => setName(event.target.value)}
              maxLength={200}
              disabled={busy}
              className="rounded border border-slate-300 px-2 py-1.5 text-sm font-normal text-slate-900"
            />
          </label>
          <Button
            type="button"
            disabled={busy || phase.kind === "done"}
            onClick={() => upload("strict")}
            variant="primary"
            size="xl"
            className="text-sm"
          >
            Upload
          </Button>
        </div>
      )}

      {phase.kind === "uploading" && <UploadProgressView progress={phase.progress} />}
      {phase.kind === "done" && !staysOnPanel(phase.result) && (
        <p className="mt-3 text-sm text-emerald-700">
          Imported {formatCount(phase.result.rowCount)} rows. Opening the dataset…
        </p>
      )}
      {phase.kind === "done" && staysOnPanel(phase.result) && (
        <>
          {phase.result.notice && <UploadNotice notice={phase.result.notice} />}
          <UploadWarnings warnings={phase.result.warnings} />
          <div className="mt-3 flex items-center gap-3">
            <p className="text-sm text-emerald-700" data-testid="upload-imported">
              Imported {formatCount(phase.result.rowCount)} rows.
            </p>
            <LinkButton href={`/datasets/${phase.result.datasetId}`} variant="primary" className="text-sm">
              Open the dataset
            </LinkButton>
          </div>
        </>
      )}
      {phase.kind === "failed" && phase.result.notice && <UploadNotice notice={phase.result.notice} />}
      {phase.kind === "failed" && <UploadWarnings warnings={phase.result.warnings} />}
      {phase.kind === "failed" && <UploadErrors result={phase.result} onImportValid={() => upload("validRowsOnly")} />}
    </CardFrame>
  );
}

/**
 * A successful upload with a notice or a warning about the file waits on the panel until the user opens the
 * dataset. The "N invalid rows were skipped" line alone does not: the user just chose that with "Import only
 * the valid rows", and the dataset page lists it among its warnings.
 */
function staysOnPanel(result: UploadResult): boolean {
  const ownChoice = (result.skippedRows ?? 0) > 0 ? 1 : 0;
  return Boolean(result.notice) || result.warnings.length > ownChoice;
}

function UploadProgressView({ progress }: { progress: UploadProgress }) {
  const fraction = progress.totalBytes > 0 ? progress.sentBytes / progress.totalBytes : 0;
  if (progress.queued)
    return (
      <div className="mt-3" aria-live="polite" data-testid="upload-queued">
        {/* No aria-valuenow: an indeterminate bar, since nothing is read while the upload waits for a slot. */}
        <div
          role="progressbar"
          aria-label="Upload progress (queued)"
          className="h-2 w-full overflow-hidden rounded-full bg-slate-200"
        >
          <div className="h-full w-1/3 animate-pulse rounded-full bg-amber-400" />
        </div>
        <p className="mt-1 text-xs text-amber-800">{progress.queued}</p>
      </div>
    );
  return (
    <div className="mt-3" aria-live="polite">
      <ProgressBar value={fraction} label="Upload progress" />
      <p className="mt-1 text-xs text-slate-500">
        {fraction < 1 ? `Sent ${formatBytes(progress.sentBytes)} of ${formatBytes(progress.totalBytes)}` : "Finishing"}
        {progress.rowsRead > 0 && ` · ${formatInteger(progress.rowsRead)} rows read`}
      </p>
    </div>
  );
}

function UploadErrors({ result, onImportValid }: { result: UploadResult; onImportValid: () => void }) {
  const hidden = result.issueCount - result.issues.length;
  const validRows = result.validRows ?? 0;
  return (
    <div
      role="alert"
      className="mt-3 rounded-md border border-red-200 bg-red-50 p-3 text-sm text-red-900"
      data-testid="upload-errors"
    >
      {result.fileError && <p className="font-medium">{result.fileError}</p>}
      {result.issueCount > 0 && (
        <>
          <p className="font-medium" data-testid="upload-problem-summary">
            {describeUploadProblems(
              result.issueCount,
              result.rowsWithProblems ?? result.rowsRead ?? 0,
              result.rowsRead ?? 0,
            )}
          </p>
          <ul className="mt-2 max-h-72 list-disc space-y-0.5 overflow-y-auto pl-5 font-mono text-xs">
            {result.issues.map((issue, index) => (
              <li key={index}>{issue}</li>
            ))}
          </ul>
          {hidden > 0 && <p className="mt-1 text-xs">…and {formatInteger(hidden)} more.</p>}
        </>
      )}
      {!result.fileError && validRows > 0 && (
        <div className="mt-3 flex items-center gap-3">
          <Button type="button" onClick={onImportValid} variant="danger" className="text-sm">
            Import only the {formatInteger(validRows)} valid rows
          </Button>
          <span className="text-xs text-red-800">or fix the file and upload it again.</span>
        </div>
      )}
    </div>
  );
}
