import { openApiRoute } from "@/lib/api/routes/openApiRoute";

export const dynamic = "force-dynamic";
export const GET = openApiRoute.handler;
