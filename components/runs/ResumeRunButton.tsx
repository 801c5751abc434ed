import { resumeRun } from "@/app/actions/resumeRun";
import { Button } from "@/components/ui/Button";

/** Shown for a failed or paused run only: resuming keeps every finished judgment and judges the pending ones. */
export function ResumeRunButton({ runId, status }: { runId: string; status: string }) {
  if (status !== "failed" && status !== "paused") return null;
  return (
    <form action={resumeRun}>
      <input type="hidden" name="runId" value={runId} />
      <Button data-testid="resume-run">Resume run</Button>
    </form>
  );
}
