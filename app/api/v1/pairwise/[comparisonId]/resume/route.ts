import { resumePairwiseRoute } from "@/lib/api/routes/pairwiseRoutes";

export const dynamic = "force-dynamic";
export const POST = resumePairwiseRoute.handler;
