// A reviewer's whole day on SQLite, the default store (the walk: reviewerDayWalk.ts).
import { describeReviewerDay } from "./reviewerDayWalk";

describeReviewerDay("sqlite");
