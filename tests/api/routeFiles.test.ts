import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { openApiDocument } from "@/lib/api/openApiDocument";
import { OPEN_API_DOCUMENT_PATH, serveOpenApiDocument } from "@/lib/api/openApiDocumentRoute";
import { API_ROUTES } from "@/lib/api/routes/apiRoutes";
import { CLIENT_BUNDLE_PATH, serveClientBundle } from "@/lib/api/clientBundleRoute";

const ROOT = path.resolve(import.meta.dirname, "../..");
const API_DIR = path.join(ROOT, "app/api/v1");

/** Every route file under app/api/v1, as the OpenAPI path it serves (`[runId]` → `{runId}`). */
function routeFiles(dir = API_DIR): { file: string; path: string }[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return routeFiles(full);
    if (entry.name !== "route.ts") return [];
    const relative = path.relative(path.join(ROOT, "app"), path.dirname(full)).split(path.sep).join("/");
    return [{ file: full, path: `/${relative.replace(/\[([^\]]+)\]/g, "{$1}")}` }];
  });
}

describe("the API's routes and its OpenAPI document", () => {
  it("has every route file's handlers in the document, and every documented operation in a route file", async () => {
    const documented = API_ROUTES.map((route) => `${route.spec.method.toUpperCase()} ${route.spec.path}`).sort();
    const served: string[] = [];
    for (const { file, path: apiPath } of routeFiles()) {
      const module = (await import(file)) as Record<string, unknown>;
      // The document itself: public, served as it is, not one of the operations it lists.
      if (apiPath === OPEN_API_DOCUMENT_PATH) {
        expect(Object.keys(module).filter((name) => /^[A-Z]+$/.test(name))).toEqual(["GET"]);
        expect(module.GET).toBe(serveOpenApiDocument);
        continue;
      }
      // The CI client: public code, not an operation either.
      if (apiPath === CLIENT_BUNDLE_PATH) {
        expect(Object.keys(module).filter((name) => /^[A-Z]+$/.test(name))).toEqual(["GET"]);
        expect(module.GET).toBe(serveClientBundle);
        continue;
      }
      for (const method of ["GET", "POST", "PUT", "PATCH", "DELETE"]) {
        if (!(method in module)) continue;
        // Each handler is a defineApiRoute handler of a listed operation, at the path the file serves.
        const route = API_ROUTES.find((candidate) => candidate.handler === module[method]);
        expect(route, `${method} in ${path.relative(ROOT, file)} is a listed operation's handler`).toBeDefined();
        expect(route!.spec.path).toBe(apiPath);
        expect(route!.spec.method.toUpperCase()).toBe(method);
        served.push(`${method} ${apiPath}`);
      }
    }
    expect(served.sort()).toEqual(documented);
    const document = openApiDocument();
    const inDocument = Object.entries(document.paths ?? {}).flatMap(([apiPath, item]) =>
      Object.keys(item as object).map((method) => `${method.toUpperCase()} ${apiPath}`),
    );
    expect(inDocument.sort()).toEqual(documented);
  });

  it("names each operation once, and says what each can answer", () => {
    const ids = API_ROUTES.map((route) => route.spec.operationId);
    expect(new Set(ids).size).toBe(ids.length);
    const document = openApiDocument();
    for (const route of API_ROUTES) {
      const operation = (document.paths?.[route.spec.path] as Record<string, { responses: Record<string, unknown> }>)[
        route.spec.method
      ];
      expect(Object.keys(operation.responses), route.spec.operationId).toEqual(
        expect.arrayContaining([String(route.spec.successStatus ?? 200), "401", "403", "429", "500"]),
      );
    }
  });

  it("serves the document to anyone, without a key or a session", async () => {
    const response = await serveOpenApiDocument();
    expect(response.status).toBe(200);
    const document = (await response.json()) as { openapi: string; paths: Record<string, unknown> };
    expect(document.openapi).toBe("3.1.0");
    expect(Object.keys(document.paths)).toContain("/api/v1/runs");
    expect(Object.keys(document.paths)).not.toContain(OPEN_API_DOCUMENT_PATH);
  });
});
