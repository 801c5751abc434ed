/**
 * The offline heuristic judge's model name, as runs record it and `--judge-model` may name it. Here, apart from
 * the judge's rules (lib/judges/heuristic), so what only names the judge (the CLI's run request, the remote
 * client) does not load them.
 */
export const HEURISTIC_MODEL = "heuristic-v1";
