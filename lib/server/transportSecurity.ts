/** One year: browsers that saw it keep to HTTPS that long. */
const HSTS = "max-age=31536000";

/** Whether Assay is served over HTTPS (ASSAY_BASE_URL names an https:// address). */
function servedOverHttps(): boolean {
  return process.env.ASSAY_BASE_URL?.trim().startsWith("https://") ?? false;
}

/** Adds Strict-Transport-Security to a response when Assay is served over HTTPS. */
export function addTransportSecurity<R extends { headers: Headers }>(response: R): R {
  if (servedOverHttps()) response.headers.set("strict-transport-security", HSTS);
  return response;
}

/**
 * A route handler whose every answer carries Strict-Transport-Security: for the routes proxy.ts does not
 * see (the streamed uploads and /api/v1, kept out of its matcher so their bodies are not buffered).
 */
export function withTransportSecurity<A extends unknown[]>(
  handler: (...args: A) => Promise<Response>,
): (...args: A) => Promise<Response> {
  return async (...args) => addTransportSecurity(await handler(...args));
}
