import fs from "node:fs";
import { Readable } from "node:stream";
import { z } from "zod";
import { apiErrorSchema } from "@/lib/api/apiErrors";

/** An answer of the API that is not a success, with its error shape's code and placed issues. */
export class ApiClientError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly issues: { row?: number; line?: number; column?: string; field?: string; message: string }[] = [],
  ) {
    super(message);
    this.name = "ApiClientError";
  }
}

export type ApiClient = {
  /** The server's base URL, without a trailing slash. */
  base: string;
  /**
   * A JSON call whose answer is parsed with `schema` (the server's own response schema); rate limits (429)
   * are waited out as Retry-After says, a few times.
   */
  json<S extends z.ZodType>(method: "GET" | "POST", path: string, schema: S, body?: unknown): Promise<z.output<S>>;
  /** A file streamed as the request body (an upload). */
  upload<S extends z.ZodType>(path: string, file: string, schema: S): Promise<z.output<S>>;
  /** A download, as text pieces as they arrive (an export written to a file without holding it). */
  download(path: string): AsyncGenerator<string>;
};

const RETRIES = 4;

/**
 * The CLI's client of a server's /api/v1, with the token from ASSAY_TOKEN (never a flag: it would land in
 * shell history and CI logs). Every failure becomes an ApiClientError worded from the server's error shape.
 */
export function createApiClient(serverUrl: string, token: string | undefined): ApiClient {
  const base = serverUrl.replace(/\/+$/, "");
  const headers = (extra: Record<string, string> = {}) => ({
    ...(token ? { authorization: `Bearer ${token}` } : {}),
    ...extra,
  });
  async function send(path: string, init: RequestInit & { duplex?: "half" }, retryable: boolean): Promise<Response> {
    for (let attempt = 0; ; attempt++) {
      let response: Response;
      try {
        response = await fetch(`${base}${path}`, init);
      } catch (error) {
        const cause = (error as { cause?: { code?: string } }).cause?.code;
        throw new ApiClientError(0, "unreachable", `cannot reach ${base}${cause ? ` (${cause})` : ""}`);
      }
      if (response.status === 429 && retryable && attempt < RETRIES) {
        const seconds = Math.min(60, Number(response.headers.get("retry-after") ?? "1") || 1);
        await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
        continue;
      }
      if (response.ok) return response;
      throw await errorOf(response);
    }
  }
  return {
    base,
    async json<S extends z.ZodType>(method: "GET" | "POST", path: string, schema: S, body?: unknown) {
      const response = await send(
        path,
        {
          method,
          headers: headers(body === undefined ? {} : { "content-type": "application/json" }),
          ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        },
        true,
      );
      return schema.parse(await response.json());
    },
    async upload<S extends z.ZodType>(path: string, file: string, schema: S) {
      const size = fs.statSync(file).size;
      const response = await send(
        path,
        {
          method: "POST",
          headers: headers({ "content-type": "application/octet-stream", "content-length": String(size) }),
          body: Readable.toWeb(fs.createReadStream(file)) as ReadableStream<Uint8Array>,
          duplex: "half",
        },
        false,
      );
      return schema.parse(await response.json());
    },
    async *download(path: string): AsyncGenerator<string> {
      const response = await send(path, { headers: headers() }, true);
      if (!response.body) return;
      const decoder = new TextDecoder();
      for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>)
        yield decoder.decode(chunk, { stream: true });
      const rest = decoder.decode();
      if (rest) yield rest;
    },
  };
}

async function errorOf(response: Response): Promise<ApiClientError> {
  const text = await response.text();
  const parsed = apiErrorSchema.safeParse(parseJson(text));
  if (!parsed.success)
    return new ApiClientError(
      response.status,
      "http_error",
      `the server answered ${response.status}: ${text.slice(0, 200)}`,
    );
  const { error } = parsed.data;
  return new ApiClientError(response.status, error.code, error.message, error.issues ?? []);
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}
