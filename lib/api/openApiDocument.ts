import { createDocument, type ZodOpenApiOperationObject, type ZodOpenApiPathsObject } from "zod-openapi";
import { z } from "zod";
import { apiErrorSchema } from "./apiErrors";
import type { ApiRoute } from "./defineApiRoute";
import { API_ROUTES } from "./routes/apiRoutes";

const ERROR_DESCRIPTIONS: Record<number, string> = {
  400: "The request is not valid (`invalid_request`), with each problem's field",
  401: "No session and no valid API key (`unauthorized`): missing, mistyped, revoked or expired",
  403: "The role cannot do this, or a browser request from another site (`forbidden`)",
  404: "It does not exist (`not_found`)",
  409: "It cannot be done in its current state (`conflict`)",
  413: "The body is over the server's limit (`payload_too_large`): an upload's file size limit, or 4 MB for a JSON body",
  422: "The uploaded file has problems (`invalid_upload`), each placed by row, line and column",
  429: "The API key is over its rate limit (`rate_limited`); Retry-After says when to try again",
  500: "The server failed (`server_error`); `ref` names the failure in the server's log",
};

/**
 * The OpenAPI 3.1 document of /api/v1, generated from the routes' own zod schemas (zod-openapi), so it says
 * exactly what the handlers validate and answer.
 */
export function openApiDocument(routes: readonly ApiRoute[] = API_ROUTES) {
  const paths: ZodOpenApiPathsObject = {};
  for (const route of routes) {
    const path = (paths[route.spec.path] ??= {});
    (path as Record<string, ZodOpenApiOperationObject>)[route.spec.method] = operationOf(route);
  }
  return createDocument({
    openapi: "3.1.0",
    info: {
      title: "Assay API",
      version: "1",
      description:
        "Datasets, runs and comparisons of Assay, for CI jobs and scripts. Authenticate with `Authorization: Bearer <API key>` (keys are made on the API keys page or with `npm run user:key`); while sign-in is off, requests from the server's own machine need no key. A key acts with its own role (viewer, runner or admin).",
    },
    servers: [{ url: "/" }],
    security: [{ apiKey: [] }],
    components: {
      securitySchemes: { apiKey: { type: "http", scheme: "bearer", description: "An Assay API key (assay_…)" } },
    },
    paths,
  });
}

function operationOf({ spec }: ApiRoute): ZodOpenApiOperationObject {
  // What defineApiRoute itself answers: 400 for a query or body that does not validate, 413 for a JSON body
  // over its limit, 404 for a path parameter that does not, and the refusals and failures every operation
  // can meet.
  const validated = [
    ...(spec.query || spec.body ? [400] : []),
    ...(spec.body ? [413] : []),
    ...(spec.params ? [404] : []),
  ];
  const errors = [...new Set([...(spec.errors ?? []), ...validated, 401, 403, 429, 500])].sort((a, b) => a - b);
  const success = String(spec.successStatus ?? 200);
  return {
    operationId: spec.operationId,
    summary: spec.summary,
    ...(spec.description ? { description: spec.description } : {}),
    tags: [spec.tag],
    ...(spec.params || spec.query
      ? {
          requestParams: {
            ...(spec.params ? { path: spec.params } : {}),
            ...(spec.query ? { query: spec.query } : {}),
          },
        }
      : {}),
    ...(spec.body
      ? { requestBody: { required: true, content: { "application/json": { schema: spec.body } } } }
      : spec.rawBody
        ? {
            requestBody: {
              required: true,
              description: spec.rawBody.description,
              content: Object.fromEntries(
                spec.rawBody.mediaTypes.map((type) => [type, { schema: z.string().meta({ format: "binary" }) }]),
              ),
            },
          }
        : {}),
    responses: {
      [success]: {
        description: spec.summary,
        content: {
          "application/json": { schema: spec.response },
          ...Object.fromEntries(
            (spec.alternativeMedia ?? []).map((media) => [
              media.mediaType,
              { schema: z.string().meta({ description: media.description }) },
            ]),
          ),
        },
      },
      ...Object.fromEntries(
        errors.map((status) => [
          String(status),
          {
            description: ERROR_DESCRIPTIONS[status] ?? "Error",
            content: { "application/json": { schema: apiErrorSchema } },
          },
        ]),
      ),
    },
  };
}
