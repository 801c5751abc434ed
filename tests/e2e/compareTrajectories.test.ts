// Two versions of an agent compared by what they did, on SQLite (the walk: compareTrajectoriesWalk.ts).
import { describeCompareTrajectories } from "./compareTrajectoriesWalk";

describeCompareTrajectories("sqlite");
