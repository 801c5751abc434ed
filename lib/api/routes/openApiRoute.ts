import { z } from "zod";
import { defineApiRoute } from "../defineApiRoute";

/** The OpenAPI 3.1 document itself, built once per process from the routes' schemas. */
export const openApiRoute = defineApiRoute(
  {
    method: "get",
    path: "/api/v1/openapi.json",
    operationId: "getOpenApiDocument",
    summary: "This API's OpenAPI 3.1 document",
    tag: "Meta",
    action: "data.read",
    response: z.record(z.string(), z.unknown()).meta({ id: "OpenApiDocument" }),
  },
  async () => {
    // Imported here: the document lists this route too.
    const { openApiDocument } = await import("../openApiDocument");
    cached ??= openApiDocument() as unknown as Record<string, unknown>;
    return cached;
  },
);

let cached: Record<string, unknown> | undefined;
