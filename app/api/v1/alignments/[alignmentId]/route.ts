import { getAlignmentRoute } from "@/lib/api/routes/alignmentRoutes";

export const dynamic = "force-dynamic";
export const GET = getAlignmentRoute.handler;
