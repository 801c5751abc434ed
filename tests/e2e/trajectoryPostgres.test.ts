// A reviewer reads an agent's tool calls and trajectory on PostgreSQL (the walk: trajectoryWalk.ts).
import { describeTrajectory } from "./trajectoryWalk";

describeTrajectory("postgresql");
