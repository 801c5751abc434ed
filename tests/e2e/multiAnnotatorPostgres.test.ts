// Several people's labels on PostgreSQL, the team store (the walk: multiAnnotatorWalk.ts).
import { describeMultiAnnotator } from "./multiAnnotatorWalk";

describeMultiAnnotator("postgresql");
