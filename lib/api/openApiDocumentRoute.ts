import { withTransportSecurity } from "@/lib/server/transportSecurity";
import { openApiDocument } from "./openApiDocument";

/** The path of the document, which the OpenAPI document does not list as one of its operations. */
export const OPEN_API_DOCUMENT_PATH = "/api/v1/openapi.json";

let cached: string | undefined;

/**
 * GET /api/v1/openapi.json: the OpenAPI 3.1 document, public, as API documents are by convention (a client
 * generator or a reviewer reads it before having a key). It says what the server accepts, never what it
 * holds: no dataset, run or account appears in it. Built once per process from the routes' schemas.
 */
export const serveOpenApiDocument = withTransportSecurity(async (): Promise<Response> => {
  cached ??= JSON.stringify(openApiDocument());
  return new Response(cached, {
    status: 200,
    headers: { "content-type": "application/json", "cache-control": "public, max-age=300" },
  });
});
