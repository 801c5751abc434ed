// Pairwise judging on PostgreSQL, the team store (the walk: pairwiseWalk.ts).
import { describePairwise } from "./pairwiseWalk";

describePairwise("postgresql");
