import { createHash } from "node:crypto";
import { logServerError } from "@/lib/server/logError";
import { clientBundle } from "@/lib/server/clientBundle";
import { withTransportSecurity } from "@/lib/server/transportSecurity";

/** The path of the CI client, which the OpenAPI document does not list as one of its operations. */
export const CLIENT_BUNDLE_PATH = "/api/v1/client.mjs";

/**
 * GET /api/v1/client.mjs: the CI client as one file for plain `node` (scripts/assayClient.ts), public as the
 * OpenAPI document is: it holds no data and no secret (the key comes from ASSAY_TOKEN where it runs), only the
 * code that calls this API. Served with its hash as the ETag, so a CI cache can keep it until the server changes.
 */
export const serveClientBundle = withTransportSecurity(async (request: Request): Promise<Response> => {
  let code: string;
  try {
    code = await clientBundle();
  } catch (error) {
    const reference = logServerError("serving the CI client", error);
    return new Response(`The CI client could not be built (reference ${reference}).\n`, {
      status: 500,
      headers: { "content-type": "text/plain; charset=utf-8" },
    });
  }
  const etag = `"${createHash("sha256").update(code).digest("hex").slice(0, 32)}"`;
  if (request.headers.get("if-none-match") === etag) return new Response(null, { status: 304, headers: { etag } });
  return new Response(code, {
    status: 200,
    headers: {
      "content-type": "text/javascript; charset=utf-8",
      "content-disposition": 'attachment; filename="assay.mjs"',
      "cache-control": "no-cache",
      etag,
    },
  });
});
