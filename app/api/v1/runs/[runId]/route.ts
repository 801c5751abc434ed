import { getRunRoute } from "@/lib/api/routes/runRoutes";

export const dynamic = "force-dynamic";
export const GET = getRunRoute.handler;
