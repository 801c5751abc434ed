// A reviewer reads a conversation and its judges' verdicts on PostgreSQL (the walk: conversationWalk.ts).
import { describeConversation } from "./conversationWalk";

describeConversation("postgresql");
