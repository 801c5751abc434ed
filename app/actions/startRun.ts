"use server";

import { redirect } from "next/navigation";
import { checkRole } from "@/lib/auth/requireRole";
import { getDb } from "@/lib/db/client";
import { runRequestFromForm } from "@/lib/server/runForm/runRequestFromForm";
import { executeRunInBackground } from "@/lib/server/runScheduler";
import { startRunFromRequest } from "@/lib/server/startRunRequest";

export type StartRunState = { message: string | null; errors: string[] };

/**
 * Starts a run from the run form: reads its fields into a run request (the shape POST /api/v1/runs takes,
 * checked by the same zod schema), stores the run with its plan, starts executing it, and opens the run page.
 */
export async function startRun(_previous: StartRunState, formData: FormData): Promise<StartRunState> {
  const access = await checkRole("run.start");
  if (!access.ok) return { message: access.message, errors: [] };
  const read = runRequestFromForm(formData);
  if (!read.ok) return { message: read.message, errors: read.errors };
  const started = await startRunFromRequest(getDb(), access.user, read.request);
  if (!started.ok) return { message: started.message, errors: started.errors };
  executeRunInBackground(started.runId);
  redirect(`/runs/${started.runId}`);
}
