// A reviewer reads a conversation and its judges' verdicts on SQLite (the walk: conversationWalk.ts).
import { describeConversation } from "./conversationWalk";

describeConversation("sqlite");
