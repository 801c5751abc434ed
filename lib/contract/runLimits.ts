/** The most LLM calls in flight a run may ask for, from the form, the API or the CLI alike; the endpoint's own limit (ASSAY_LLM_MAX_IN_FLIGHT) caps it further. */
export const MAX_RUN_CONCURRENCY = 256;

/** How many times a run may judge each row (trials): 1, the default, to 10. */
export const MIN_TRIALS = 1;
export const MAX_TRIALS = 10;
/** What a bad trials value is told, after the field's name ("trials: …", "--trials must be …"). */
export const TRIALS_RULE = `a whole number from ${MIN_TRIALS} to ${MAX_TRIALS}`;
