import { startAlignmentRoute } from "@/lib/api/routes/alignmentRoutes";

export const dynamic = "force-dynamic";
export const POST = startAlignmentRoute.handler;
