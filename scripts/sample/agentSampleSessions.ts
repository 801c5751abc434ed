// The conversations of the Northwind ops agent sample (scripts/sample/makeAgentSample.ts): three sessions of
// three turns, each turn its own row and trace. A later turn's request holds the earlier turns as chat
// messages. In session-3 the agent forgets, in turn 3, the constraint the user gave in turn 1.
import { call, search, type RowSpec } from "./agentRowSpec";

export type SessionSpec = { session: string; user: string; turns: RowSpec[] };

export const SESSIONS: SessionSpec[] = [
  {
    session: "session-1",
    user: "dana@acme.example",
    turns: [
      {
        id: 10,
        kind: "correct",
        user: "What was our invoice for August 2026?",
        steps: [[call("get_invoice", { month: "2026-08" })]],
        answer:
          "Your August 2026 invoice (INV-2026-08-0193) totals $1,574.55 and was paid on 2026-09-05:\n\n- Storage: $468.90\n- Requests: $224.15\n- Internet egress (15,100 GB): $702.40\n- Inter-region transfer (4,905 GB): $98.10\n- Key management: $81.00",
        expectedToolCalls: [{ name: "get_invoice", arguments: { month: "2026-08" } }],
        expectedFacts: ["The August 2026 invoice total was $1,574.55", "It was paid on 2026-09-05"],
      },
      {
        id: 11,
        kind: "correct",
        user: "That's a lot more than usual. What changed compared to July?",
        steps: [[call("get_invoice", { month: "2026-07" })]],
        answer:
          "August was $405.35 higher than July ($1,574.55 against $1,169.20), and almost all of it is internet egress: 15,100 GB in August against 6,461 GB in July, so egress went from $318.05 to $702.40 (+$384.35). The first 100 GB each month are free and the GB beyond 10 TB are billed at $0.04 instead of $0.05, which August reached. Storage (+$7.55), requests (+$12.85) and inter-region transfer (+$0.60) barely moved.",
        expectedToolCalls: [{ name: "get_invoice", arguments: { month: "2026-07" } }],
        expectedFacts: [
          "August was $405.35 more than July",
          "The increase is almost all internet egress: $702.40 in August against $318.05 in July",
          "Egress rose from 6,461 GB to 15,100 GB",
        ],
      },
      {
        id: 12,
        kind: "correct",
        user: "OK, please open a ticket with billing to review the August egress charge. Low priority is fine.",
        steps: [
          [
            call(
              "create_ticket",
              {
                summary:
                  "Billing review: August 2026 egress charge of $702.40 (15,100 GB, up from 6,461 GB in July) on invoice INV-2026-08-0193",
                severity: "sev4",
              },
              { ticketId: "NW-48214" },
            ),
          ],
        ],
        answer:
          "Done: I opened ticket NW-48214 (sev4) asking billing to review the $702.40 egress charge on invoice INV-2026-08-0193. Sev4 tickets get a first response within 2 business days; you can follow it at https://support.northwind.example/tickets/NW-48214",
        expectedToolCalls: [{ name: "create_ticket" }],
        expectedResponse: "A sev4 ticket was opened asking billing to review the August egress charge.",
      },
    ],
  },
  {
    session: "session-2",
    user: "lee@acme.example",
    turns: [
      {
        id: 20,
        kind: "correct",
        user: "Uploads to nw-web-uploads keep failing with 503 SlowDown since this morning. What's going on?",
        steps: [[call("get_bucket", { name: "nw-web-uploads" })], [call("get_region_status", { region: "eu-west-1" })]],
        answer:
          "nw-web-uploads is in eu-west-1 (Dublin), and that region has an open incident: INC-2291, elevated 503 SlowDown errors for PUT requests, since 07:40 UTC today. Northwind has identified the cause (a storage node rebalance is throttling writes in one availability zone) and is rolling out a mitigation; the next update is due by 14:00 UTC.\n\nUntil then, make sure your uploaders retry: the SDKs retry 503 SlowDown with exponential backoff.",
        expectedToolCalls: [
          { name: "get_bucket", arguments: { name: "nw-web-uploads" } },
          { name: "get_region_status", arguments: { region: "eu-west-1" } },
        ],
        expectedFacts: [
          "nw-web-uploads is in eu-west-1",
          "eu-west-1 has an open incident, INC-2291, with elevated 503 SlowDown errors for PUT requests",
          "The cause has been identified and a mitigation is rolling out",
        ],
      },
      {
        id: 21,
        kind: "correct",
        user: "Can we just move the bucket to Frankfurt until it's fixed?",
        steps: [
          [
            call("get_bucket", { name: "nw-web-uploads" }),
            search("move bucket to another region", [
              "storage/buckets#bucket-regions",
              "storage/replication#requirements",
              "storage/replication#cross-region",
            ]),
          ],
        ],
        answer:
          "Not in place: a bucket's region is fixed when it is created. Moving means creating a new bucket in eu-central-1 and copying the objects with nwcli storage sync, or setting up cross-region replication. Replication needs versioning enabled on both buckets, and nw-web-uploads has versioning Suspended, so you would have to re-enable it first; the copy is billed as inter-region transfer at $0.02/GB.\n\nFor an incident that is already being mitigated, pointing new uploads at a temporary bucket in eu-central-1 is a quicker fallback than migrating.",
        expectedFacts: [
          "A bucket's region cannot be changed after it is created",
          "Moving means creating a bucket in eu-central-1 and copying or replicating the objects",
          "Replication requires versioning on both buckets, and nw-web-uploads has versioning suspended",
        ],
        expectedDocs: ["storage/buckets#bucket-regions"],
      },
      {
        id: 22,
        kind: "correct",
        user: "OK, we'll wait. Open a sev2 ticket so we get updates on this, and mention the incident.",
        steps: [
          [
            call(
              "create_ticket",
              {
                summary:
                  "nw-web-uploads (eu-west-1): PUT requests failing with 503 SlowDown, related to incident INC-2291. Please send updates.",
                severity: "sev2",
              },
              { ticketId: "NW-48219" },
            ),
          ],
        ],
        answer:
          "Opened ticket NW-48219 (sev2), referencing INC-2291. Sev2 tickets get a first response within 1 hour: https://support.northwind.example/tickets/NW-48219",
        expectedResponse: "A sev2 ticket was opened that references incident INC-2291.",
      },
    ],
  },
  {
    session: "session-3",
    user: "priya@acme.example",
    turns: [
      {
        id: 31,
        kind: "correct",
        user: "Hi, I'm Priya from the data team. Our project is analytics, and for GDPR all of our data has to stay in the EU. Which regions can we use?",
        steps: [[search("regions in the EU", ["storage/regions#available-regions", "storage/buckets#bucket-regions"])]],
        answer:
          "Two Northwind regions are in the EU: eu-central-1 (Frankfurt) and eu-west-1 (Dublin). Create your buckets there from the start, because a bucket's region can't be changed after it is created.",
        expectedFacts: [
          "The EU regions are eu-central-1 (Frankfurt) and eu-west-1 (Dublin)",
          "A bucket's region cannot be changed after it is created",
        ],
        expectedDocs: ["storage/regions#available-regions"],
      },
      {
        id: 32,
        kind: "correct",
        user: "Which of our buckets are in the EU right now?",
        steps: [[call("list_buckets", { project: "analytics" })]],
        answer:
          "All three analytics buckets are in the EU: acme-analytics-raw and acme-analytics-curated in eu-central-1 (Frankfurt), and acme-analytics-archive in eu-west-1 (Dublin).",
        expectedToolCalls: [{ name: "list_buckets", arguments: { project: "analytics" } }],
        expectedFacts: [
          "All three analytics buckets are in EU regions",
          "acme-analytics-raw and acme-analytics-curated are in eu-central-1 and acme-analytics-archive in eu-west-1",
        ],
      },
      {
        id: 33,
        kind: "forgets an earlier turn",
        fault: "recommends us-east-1 though the user said in turn 1 that all data must stay in the EU",
        user: "We need a new Standard bucket for ML feature data. Which region is cheapest for storage?",
        steps: [
          [
            search("Standard storage price per region", [
              "billing/pricing#storage-classes",
              "billing/pricing#metering",
            ]),
          ],
        ],
        answer:
          "us-east-1 and us-west-2 are the cheapest for Standard storage, at $0.020 per GB-month, against $0.022 in eu-west-1, $0.023 in eu-central-1 and $0.025 in ap-southeast-1. I'd create the bucket in us-east-1.",
        expectedToolCalls: ["search_docs"],
        expectedResponse:
          "eu-west-1 (Dublin), at $0.022 per GB-month the cheapest EU region for Standard storage. us-east-1 and us-west-2 are cheaper ($0.020) but outside the EU, which the user's GDPR requirement rules out.",
        expectedDocs: ["billing/pricing#storage-classes"],
      },
    ],
  },
];
