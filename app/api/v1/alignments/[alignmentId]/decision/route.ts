import { decideAlignmentRoute } from "@/lib/api/routes/alignmentRoutes";

export const dynamic = "force-dynamic";
export const POST = decideAlignmentRoute.handler;
