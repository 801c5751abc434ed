import { compareRoute } from "@/lib/api/routes/compareRoute";

export const dynamic = "force-dynamic";
export const GET = compareRoute.handler;
