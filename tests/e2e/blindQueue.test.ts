// The labelling queue for several people on SQLite (the walk: blindQueueWalk.ts).
import { describeBlindQueue } from "./blindQueueWalk";

describeBlindQueue("sqlite");
