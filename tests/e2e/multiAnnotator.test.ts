// Several people's labels on SQLite, the embedded store (the walk: multiAnnotatorWalk.ts).
import { describeMultiAnnotator } from "./multiAnnotatorWalk";

describeMultiAnnotator("sqlite");
