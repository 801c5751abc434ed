// Two versions of an agent compared by what they did, on PostgreSQL (the walk: compareTrajectoriesWalk.ts).
import { describeCompareTrajectories } from "./compareTrajectoriesWalk";

describeCompareTrajectories("postgresql");
