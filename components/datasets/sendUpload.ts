import { uploadEventSchema, type UploadEvent } from "@/lib/ingest/uploadProtocol";
import { withParams } from "@/lib/urlState/withParams";

export type UploadProgress = { sentBytes: number; totalBytes: number; rowsRead: number };
export type UploadResult = Extract<UploadEvent, { type: "result" }>;

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
  let rowsRead = 0;
  let sentBytes = 0;
  let parsedUpTo = 0;
  let result: UploadResult | null = null;

  const readEvents = () => {
    const text = xhr.responseText;
    let newline = text.indexOf("\n", parsedUpTo);
    while (newline !== -1) {
      const line = text.slice(parsedUpTo, newline).trim();
      parsedUpTo = newline + 1;
      if (line) {
        try {
          const event = uploadEventSchema.parse(JSON.parse(line));
          if (event.type === "progress") rowsRead = event.rows;
          else result = event;
        } catch {
          // A partial or foreign line (e.g. a proxy error page) is ignored; the status check below reports it.
        }
      }
      newline = text.indexOf("\n", parsedUpTo);
    }
    options.onProgress({ sentBytes, totalBytes: file.size, rowsRead });
  };

  return new Promise((resolve) => {
    const fail = (message: string) =>
      resolve({ type: "result", ok: false, fileError: message, issues: [], issueCount: 0, warnings: [] });
    xhr.upload.onprogress = (event) => {
      sentBytes = event.loaded;
      options.onProgress({ sentBytes, totalBytes: file.size, rowsRead });
    };
    xhr.onprogress = readEvents;
    xhr.onload = () => {
      readEvents();
      if (result) resolve(result);
      else fail(`The server answered ${xhr.status} without a result. Nothing was stored; try again.`);
    };
    xhr.onerror = () => fail("The connection to the server was lost during the upload. Nothing was stored; try again.");
    xhr.open("POST", url);
    xhr.setRequestHeader("content-type", "application/octet-stream");
    xhr.send(file);
  });
}
