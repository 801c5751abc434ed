import type { z } from "zod";
import { withTransportSecurity } from "@/lib/server/transportSecurity";
import type { AuthUser } from "@/lib/auth/guard";
import type { Action } from "@/lib/auth/permissions";
import { checkRouteRole } from "@/lib/auth/requireRole";
import { logServerError } from "@/lib/server/logError";
import { checkSameOrigin } from "@/lib/server/sameOrigin";
import { firstValues, searchParamsOf } from "@/lib/urlState/searchParams";
import { ApiError, errorResponse, issuesOf, refusalCode } from "./apiErrors";
import { readJsonBody } from "./jsonBody";

type Method = "get" | "post" | "delete";
type AnyObject = z.ZodObject<z.ZodRawShape>;

/**
 * One /api/v1 operation, as data: where it is, who may call it (the policy table's action, the same one the
 * pages and server actions check), and the zod schemas of its parameters, body and answer. The handler
 * validates with these schemas and the OpenAPI document (openApiDocument.ts) is generated from them: one
 * source for both, so the document cannot drift from what the server accepts and returns.
 */
export type ApiRouteSpec<P extends AnyObject, Q extends AnyObject, B extends z.ZodType, R extends z.ZodType> = {
  method: Method;
  /** OpenAPI's form: `/api/v1/runs/{runId}`. */
  path: string;
  operationId: string;
  summary: string;
  description?: string;
  tag: string;
  action: Action;
  params?: P;
  query?: Q;
  /** A JSON body. */
  body?: B;
  /** A body read as a stream by the handler (an upload): its media types, for the document. */
  rawBody?: { description: string; mediaTypes: string[] };
  /** The JSON answer on success (`successStatus`, 200 by default). */
  response: R;
  successStatus?: 200 | 201 | 202;
  /** Other successful media types the handler may answer with instead of JSON (a CSV export). */
  alternativeMedia?: { mediaType: string; description: string }[];
  /** Error statuses the operation can answer besides 401, 403, 429 and 500. */
  errors?: number[];
};

export type ApiInput<P extends AnyObject, Q extends AnyObject, B extends z.ZodType> = {
  params: z.infer<P>;
  query: z.infer<Q>;
  body: z.infer<B>;
  user: AuthUser;
  request: Request;
};

export type ApiRoute = {
  spec: ApiRouteSpec<AnyObject, AnyObject, z.ZodType, z.ZodType>;
  handler: (request: Request, context: { params: Promise<Record<string, string | string[]>> }) => Promise<Response>;
};

/**
 * A route handler for `spec`: refuses a cross-site request that rides a browser's cookie, then anyone the
 * policy table refuses (a session or an API key), validates the parameters, query and body (a JSON body read
 * only up to MAX_JSON_BODY_BYTES, jsonBody.ts), runs `handle`,
 * and answers its value as JSON (or the Response it returns). Every failure answers the one error shape
 * (apiErrors.ts); an unexpected one is logged with a reference and answered with that reference only.
 */
export function defineApiRoute<P extends AnyObject, Q extends AnyObject, B extends z.ZodType, R extends z.ZodType>(
  spec: ApiRouteSpec<P, Q, B, R>,
  handle: (input: ApiInput<P, Q, B>) => Promise<z.input<R> | Response>,
): ApiRoute {
  const answer = async (request: Request, context: { params: Promise<Record<string, string | string[]>> }) => {
    try {
      if (spec.method !== "get") {
        const origin = checkSameOrigin(request);
        if (!origin.ok) return errorResponse(403, { code: "forbidden", message: origin.message });
      }
      const access = await checkRouteRole(spec.action, request.headers);
      if (!access.ok)
        return errorResponse(
          access.status,
          { code: refusalCode(access.status), message: access.message },
          access.retryAfterSeconds ? { "retry-after": String(access.retryAfterSeconds) } : {},
        );
      const params = parsed(spec.params, await context.params, "path");
      const query = parsed(spec.query, firstValues(searchParamsOf(new URL(request.url))), "query");
      const body = spec.body ? parsed(spec.body, await readJsonBody(request), "body") : undefined;
      const result = await handle({
        params: params as z.infer<P>,
        query: query as z.infer<Q>,
        body: body as z.infer<B>,
        user: access.user,
        request,
      });
      if (result instanceof Response) return result;
      return Response.json(result, { status: spec.successStatus ?? 200, headers: { "cache-control": "no-store" } });
    } catch (error) {
      if (error instanceof ApiError)
        return errorResponse(error.status, {
          code: error.code,
          message: error.message,
          ...(error.issues ? { issues: error.issues } : {}),
        });
      const ref = logServerError(`${spec.method.toUpperCase()} ${spec.path}`, error);
      return errorResponse(500, { code: "server_error", message: `The server failed (ref ${ref}).`, ref });
    }
  };
  return { spec: spec as unknown as ApiRoute["spec"], handler: withTransportSecurity(answer) };
}

function parsed(schema: z.ZodType | undefined, value: unknown, where: "path" | "query" | "body"): unknown {
  if (!schema) return {};
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  // A path parameter that does not parse names nothing that exists.
  if (where === "path") throw new ApiError(404, "not_found", "No such resource.");
  throw new ApiError(400, "invalid_request", `The request's ${where} is not valid.`, issuesOf(result.error));
}
