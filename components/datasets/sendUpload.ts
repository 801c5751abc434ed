import { withParams } from "@/lib/urlState/withParams";
import { INITIAL_UPLOAD_STREAM, readUploadEvents, type UploadResult } from "./uploadEvents";

export type { UploadResult } from "./uploadEvents";
/** `queued`: the server's words while the upload waits for a free slot, null once it runs. */
export type UploadProgress = { sentBytes: number; totalBytes: number; rowsRead: number; queued: string | null };

/**
 * Sends a file as the raw request body (so the server can stream it) and
 * reads the NDJSON events as they arrive. XHR rather than fetch because only
 * XHR reports upload progress.
 */
export function sendUpload(
  file: File,
  options: { name: string; mode: "strict" | "validRowsOnly"; onProgress: (progress: UploadProgress) => void },
): Promise<UploadResult> {
  const url = withParams(
    "/api/datasets/upload",
    {},
    { filename: file.name, mode: options.mode, name: options.name.trim() },
  );
  const xhr = new XMLHttpRequest();
  let sentBytes = 0;
  let stream = INITIAL_UPLOAD_STREAM;
  const progress = (): UploadProgress => ({
    sentBytes,
    totalBytes: file.size,
    rowsRead: stream.rowsRead,
    queued: stream.queued,
  });

  const readEvents = () => {
    stream = readUploadEvents(xhr.responseText, stream);
    options.onProgress(progress());
  };

  return new Promise((resolve) => {
    const fail = (message: string) =>
      resolve({ type: "result", ok: false, fileError: message, issues: [], issueCount: 0, warnings: [] });
    xhr.upload.onprogress = (event) => {
      sentBytes = event.loaded;
      options.onProgress(progress());
    };
    xhr.onprogress = readEvents;
    xhr.onload = () => {
      readEvents();
      if (stream.result) resolve(stream.result);
      else fail(`The server answered ${xhr.status} without a result. Nothing was stored; try again.`);
    };
    xhr.onerror = () => fail("The connection to the server was lost during the upload. Nothing was stored; try again.");
    xhr.open("POST", url);
    xhr.setRequestHeader("content-type", "application/octet-stream");
    xhr.send(file);
  });
}
