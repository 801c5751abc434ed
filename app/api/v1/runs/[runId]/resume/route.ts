import { resumeRunRoute } from "@/lib/api/routes/runActionRoutes";

export const dynamic = "force-dynamic";
export const POST = resumeRunRoute.handler;
