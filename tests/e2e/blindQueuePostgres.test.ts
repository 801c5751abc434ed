// The labelling queue for several people on PostgreSQL (the walk: blindQueueWalk.ts).
import { describeBlindQueue } from "./blindQueueWalk";

describeBlindQueue("postgresql");
