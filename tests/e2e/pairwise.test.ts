// Pairwise judging on SQLite, the default store (the walk: pairwiseWalk.ts).
import { describePairwise } from "./pairwiseWalk";

describePairwise("sqlite");
