// A reviewer's whole day on PostgreSQL, the team store (the walk: reviewerDayWalk.ts).
import { describeReviewerDay } from "./reviewerDayWalk";

describeReviewerDay("postgresql");
