// The single-turn rows of the Northwind ops agent sample in which the agent goes wrong, each in its own way
// (scripts/sample/makeAgentSample.ts). `fault` says how; the expectations say what was right.
import { call, search, type RowSpec } from "./agentRowSpec";

const REGION_LOOKUP = call("get_region_status", { region: "ap-southeast-1" });

export const FAULT_ROWS: RowSpec[] = [
  {
    id: 4,
    kind: "wrong arguments",
    fault: "asks for July, the agent fetches the August invoice and reports it as July's",
    user: "What was the total on our July invoice?",
    steps: [[call("get_invoice", { month: "2026-08" })]],
    answer:
      "Your July invoice (INV-2026-08-0193) came to $1,574.55 and has been paid. The largest line was internet egress at $702.40.",
    expectedToolCalls: [{ name: "get_invoice", arguments: { month: "2026-07" } }],
    expectedFacts: ["The July 2026 invoice total was $1,169.20", "The July invoice has been paid"],
  },
  {
    id: 7,
    kind: "wrong tool",
    fault: "searches the docs instead of checking the region's status, and misses the open incident",
    user: "LIST requests on ml-datasets-sg have been really slow since last night. Is something going on in Singapore?",
    steps: [[search("slow LIST requests performance", ["storage/quotas#request-rates", "sdk/python#retries"])]],
    answer:
      "I couldn't find anything pointing to a problem on Northwind's side. Each bucket prefix supports at least 5,500 GET/HEAD requests per second, and requests above that may be throttled with 503 SlowDown while the service scales. If your LIST calls all hit the same prefix, spread your keys across more prefixes; the SDK also retries throttled requests up to 3 times with backoff.",
    expectedToolCalls: [{ name: "get_region_status", arguments: { region: "ap-southeast-1" } }],
    expectedFacts: [
      "ap-southeast-1 has an open incident, INC-2288: increased latency for LIST requests",
      "The incident started on 2026-10-13 at 22:05 UTC and a fix is being monitored",
    ],
  },
  {
    id: 14,
    kind: "wrong order",
    fault: "guesses a bucket name and calls get_bucket before list_buckets (order matters: names come from the list)",
    user: "Which buckets in the analytics project have versioning turned off?",
    steps: [
      [call("get_bucket", { name: "acme-analytics-raw" })],
      [call("list_buckets", { project: "analytics" })],
      [call("get_bucket", { name: "acme-analytics-curated" }), call("get_bucket", { name: "acme-analytics-archive" })],
    ],
    answer:
      "Only acme-analytics-curated (eu-central-1) has versioning turned off. acme-analytics-raw and acme-analytics-archive both have it enabled.",
    expectedToolCalls: [
      { name: "list_buckets", arguments: { project: "analytics" } },
      { name: "get_bucket", arguments: { name: "acme-analytics-raw" } },
      { name: "get_bucket", arguments: { name: "acme-analytics-curated" } },
      { name: "get_bucket", arguments: { name: "acme-analytics-archive" } },
    ],
    expectedResponse: "Only acme-analytics-curated has versioning turned off.",
  },
  {
    id: 16,
    kind: "ignores tool output",
    fault: "get_bucket says versioning is Suspended; the answer says it is enabled",
    user: "Is versioning on for nw-web-uploads? I need to be able to recover files users overwrite.",
    steps: [[call("get_bucket", { name: "nw-web-uploads" })]],
    answer:
      "Yes, versioning is enabled on nw-web-uploads, so every overwrite keeps the previous version. To recover a file, list its versions with nwcli storage ls --versions nw://nw-web-uploads/path/ and copy the version you need back over the current one.",
    expectedToolCalls: [{ name: "get_bucket", arguments: { name: "nw-web-uploads" } }],
    expectedFacts: [
      "Versioning on nw-web-uploads is Suspended, not enabled",
      "While versioning is suspended, an overwrite replaces the previous data, so overwritten files cannot be recovered",
      "Versioning can be re-enabled with nwcli storage versioning put --bucket nw-web-uploads --status Enabled",
    ],
  },
  {
    id: 19,
    kind: "wrong arguments",
    fault: "asks about Dublin (eu-west-1), the agent checks Frankfurt (eu-central-1)",
    user: "Is Dublin affected by any incident right now?",
    steps: [[call("get_region_status", { region: "eu-central-1" })]],
    answer: "No. The Dublin region is operational and has no open incidents.",
    expectedToolCalls: [{ name: "get_region_status", arguments: { region: "eu-west-1" } }],
    expectedFacts: [
      "eu-west-1 (Dublin) is degraded",
      "Incident INC-2291: elevated 503 SlowDown errors for PUT requests",
    ],
  },
  {
    id: 24,
    kind: "tool loop",
    fault: "polls get_region_status with identical arguments 5 times in one turn",
    user: "Is the Singapore LIST latency incident resolved yet?",
    steps: [[REGION_LOOKUP], [REGION_LOOKUP], [REGION_LOOKUP], [REGION_LOOKUP], [REGION_LOOKUP]],
    answer:
      "Not yet. INC-2288 (increased latency for LIST requests in ap-southeast-1) is still being monitored: a fix has been applied to the index service and Northwind is watching LIST latency recover.",
    expectedToolCalls: [{ name: "get_region_status", arguments: { region: "ap-southeast-1" } }],
    expectedResponse:
      "Not yet: INC-2288 in ap-southeast-1 is still in monitoring after a fix was applied to the index service.",
  },
  {
    id: 27,
    kind: "wrong arguments",
    fault: "asked for a sev1 ticket, the agent files it as sev3",
    user: "Production is down: every upload to nw-web-uploads is failing. Open a sev1 ticket right now.",
    steps: [
      [
        call(
          "create_ticket",
          { summary: "Production outage: all uploads to nw-web-uploads are failing", severity: "sev3" },
          { ticketId: "NW-48224" },
        ),
      ],
    ],
    answer:
      "I've opened ticket NW-48224 for the failing uploads to nw-web-uploads. The support team will respond within 8 business hours: https://support.northwind.example/tickets/NW-48224",
    expectedToolCalls: [
      {
        name: "create_ticket",
        arguments: { summary: "Production outage: all uploads to nw-web-uploads are failing", severity: "sev1" },
      },
    ],
    expectedFacts: ["A sev1 ticket was opened", "Sev1 tickets get a first response within 15 minutes"],
  },
  {
    id: 30,
    kind: "tool error, retried",
    fault: "the first get_invoice call fails (503 from the billing API); the agent retries once and succeeds",
    user: "Can you pull up our September invoice?",
    steps: [
      [
        call(
          "get_invoice",
          { month: "2026-09" },
          {
            error: {
              type: "BillingApiError",
              message: "503 Service Unavailable from the billing API (GET /v1/invoices/2026-09)",
            },
          },
        ),
      ],
      [call("get_invoice", { month: "2026-09" })],
    ],
    answer:
      "Your September 2026 invoice (INV-2026-09-0207) totals $1,277.36 and is still open, due 2026-10-31:\n\n- Storage: $474.65\n- Requests: $219.60\n- Internet egress (8,155 GB): $402.75\n- Inter-region transfer (4,968 GB): $99.36\n- Key management: $81.00",
    expectedToolCalls: [{ name: "get_invoice", arguments: { month: "2026-09" } }],
    expectedFacts: ["The September 2026 invoice total is $1,277.36", "It is open and due on 2026-10-31"],
  },
  {
    id: 35,
    kind: "missing call",
    fault: "checks the bucket but never calls create_ticket, then says it opened one",
    user: "nw-web-logs keeps growing. Check how big it is and open a sev3 ticket for the storage team to look into it.",
    steps: [[call("get_bucket", { name: "nw-web-logs" })]],
    answer:
      "nw-web-logs is now 1,843.0 GB across 52,118,904 objects in us-east-1. Its lifecycle rule expire-logs-30d (objects under logs/, after 30 days) was changed yesterday, so part of the growth may be objects it hasn't processed yet. I've opened a sev3 ticket for the storage team to look into it.",
    expectedToolCalls: [{ name: "get_bucket", arguments: { name: "nw-web-logs" } }, "create_ticket"],
    expectedFacts: [
      "nw-web-logs holds 1,843.0 GB in 52,118,904 objects",
      "A sev3 ticket was opened for the storage team",
    ],
  },
  {
    id: 38,
    kind: "missing call",
    fault: "calls no tool at all and makes up a third bucket",
    user: "How many buckets do we have in ml-training?",
    steps: [],
    answer: "You have 3 buckets in ml-training: ml-datasets-sg, ml-checkpoints and ml-features.",
    expectedToolCalls: [{ name: "list_buckets", arguments: { project: "ml-training" } }],
    expectedFacts: ["ml-training has 2 buckets: ml-datasets-sg and ml-checkpoints"],
  },
];
