/** The most LLM calls in flight a run may ask for, from the form, the API or the CLI alike; the endpoint's own limit (ASSAY_LLM_MAX_IN_FLIGHT) caps it further. */
export const MAX_RUN_CONCURRENCY = 256;
