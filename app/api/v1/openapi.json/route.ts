import { serveOpenApiDocument } from "@/lib/api/openApiDocumentRoute";

export const dynamic = "force-dynamic";
export const GET = serveOpenApiDocument;
