import { startRunRoute } from "@/lib/api/routes/runActionRoutes";
import { listRunsRoute } from "@/lib/api/routes/runRoutes";

export const dynamic = "force-dynamic";
export const GET = listRunsRoute.handler;
export const POST = startRunRoute.handler;
