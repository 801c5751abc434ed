// A reviewer reads an agent's tool calls and trajectory on SQLite (the walk: trajectoryWalk.ts).
import { describeTrajectory } from "./trajectoryWalk";

describeTrajectory("sqlite");
