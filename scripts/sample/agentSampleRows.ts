// The single-turn rows of the Northwind ops agent sample in which the agent does the right thing
// (scripts/sample/makeAgentSample.ts). The rows where it goes wrong are in agentSampleFaults.ts, the
// conversations in agentSampleSessions.ts.
import { call, search, type RowSpec } from "./agentRowSpec";

export const CORRECT_ROWS: RowSpec[] = [
  {
    id: 1,
    kind: "correct",
    user: "Which regions can I create buckets in?",
    steps: [
      [
        search("available regions", [
          "storage/regions#available-regions",
          "storage/buckets#bucket-regions",
          "storage/buckets#creating-buckets",
        ]),
      ],
    ],
    answer:
      "You can create buckets in five regions:\n\n- us-east-1 (Ashburn)\n- us-west-2 (Portland)\n- eu-central-1 (Frankfurt)\n- eu-west-1 (Dublin)\n- ap-southeast-1 (Singapore)\n\nChoose carefully: a bucket's region is set when it is created and can't be changed later. If you don't pass --region, nwcli uses your profile's default region and falls back to us-east-1.",
    expectedToolCalls: ["search_docs"],
    expectedFacts: [
      "Buckets can be created in five regions: us-east-1, us-west-2, eu-central-1, eu-west-1 and ap-southeast-1",
      "A bucket's region cannot be changed after the bucket is created",
    ],
    expectedDocs: ["storage/regions#available-regions"],
  },
  {
    id: 2,
    kind: "correct",
    user: "List the buckets in our web-prod project.",
    steps: [[call("list_buckets", { project: "web-prod" })]],
    answer:
      "The web-prod project has 4 buckets:\n\n| Bucket | Region | Storage class |\n|---|---|---|\n| nw-web-assets | us-east-1 | Standard |\n| nw-web-uploads | eu-west-1 | Standard |\n| nw-web-logs | us-east-1 | Standard |\n| nw-web-backups | us-west-2 | Standard |",
    expectedToolCalls: [{ name: "list_buckets", arguments: { project: "web-prod" } }],
    expectedFacts: [
      "web-prod has 4 buckets: nw-web-assets, nw-web-uploads, nw-web-logs and nw-web-backups",
      "nw-web-uploads is in eu-west-1 and nw-web-backups in us-west-2",
    ],
  },
  {
    id: 3,
    kind: "correct",
    user: "Is versioning enabled on nw-web-assets?",
    steps: [[call("get_bucket", { name: "nw-web-assets" })]],
    answer:
      "Yes. Versioning is Enabled on nw-web-assets (us-east-1), so overwritten or deleted objects keep their earlier versions. Keep in mind that once enabled, versioning can only be suspended, never turned off, and every version is billed as a full object.",
    expectedToolCalls: [{ name: "get_bucket", arguments: { name: "nw-web-assets" } }],
    expectedResponse: "Yes, versioning is enabled on nw-web-assets.",
  },
  {
    id: 5,
    kind: "correct",
    user: "Is us-east-1 healthy right now?",
    steps: [[call("get_region_status", { region: "us-east-1" })]],
    answer: "Yes. us-east-1 (Ashburn) is operational and has no open incidents.",
    expectedToolCalls: [{ name: "get_region_status", arguments: { region: "us-east-1" } }],
    expectedResponse: "Yes, us-east-1 is operational with no open incidents.",
  },
  {
    id: 6,
    kind: "correct",
    user: "Our lifecycle rule on nw-web-logs isn't deleting logs older than 30 days. Please open a sev3 ticket.",
    steps: [
      [
        call("get_bucket", { name: "nw-web-logs" }),
        search("when does a new lifecycle rule take effect", [
          "storage/lifecycle-rules#evaluation",
          "storage/lifecycle-rules#expiration",
          "storage/lifecycle-rules#managing-rules",
        ]),
      ],
      [
        call(
          "create_ticket",
          {
            summary:
              "Lifecycle rule expire-logs-30d on nw-web-logs is not deleting objects under logs/ older than 30 days",
            severity: "sev3",
          },
          { ticketId: "NW-48207" },
        ),
      ],
    ],
    answer:
      "I checked nw-web-logs: its rule expire-logs-30d is Enabled and expires objects under logs/ 30 days after they were created, and it was last changed yesterday (2026-10-13, 15:42 UTC). Lifecycle rules are evaluated once a day starting at 00:00 UTC, and it can take up to 48 hours for all eligible objects to be processed, so the old logs should be gone by 2026-10-15. Only objects under the logs/ prefix match the rule.\n\nAs you asked, I opened ticket NW-48207 (sev3) so the storage team can confirm; the first response comes within 8 business hours.",
    expectedToolCalls: [{ name: "get_bucket", arguments: { name: "nw-web-logs" } }, "search_docs", "create_ticket"],
    expectedFacts: [
      "The expire-logs-30d rule on nw-web-logs is enabled and expires objects under logs/ after 30 days",
      "Lifecycle rules are evaluated once a day and can take up to 48 hours to process all eligible objects",
      "A sev3 ticket was opened",
    ],
    expectedDocs: ["storage/lifecycle-rules#evaluation"],
  },
  {
    id: 8,
    kind: "correct",
    user: "How much did we pay for June 2026?",
    steps: [[call("get_invoice", { month: "2026-06" })]],
    answer:
      "Your June 2026 invoice (INV-2026-06-0171) came to $1,110.02 and was paid on 2026-07-05:\n\n- Storage: $452.10\n- Requests: $205.42\n- Internet egress (6,130 GB): $301.50\n- Inter-region transfer (3,500 GB): $70.00\n- Key management: $81.00",
    expectedToolCalls: [{ name: "get_invoice", arguments: { month: "2026-06" } }],
    expectedFacts: ["The June 2026 invoice total was $1,110.02", "It was paid on 2026-07-05"],
  },
  {
    id: 9,
    kind: "correct",
    user: "How do I rotate an access key without downtime?",
    asMessages: true,
    steps: [
      [
        search("rotate access key without downtime", [
          "security/access-keys#rotating-keys",
          "security/access-keys#creating-keys",
          "security/access-keys#root-keys",
        ]),
      ],
    ],
    answer:
      "Rotate it in overlapping steps:\n\n1. Create a second access key (each user or service account can have two active keys).\n2. Deploy the new key to every application that uses the old one.\n3. Check the old key's Last used timestamp until it shows the key is no longer in use.\n4. Deactivate the old key, and delete it after a grace period.\n\nStore the new secret in a secrets manager right away: it is shown only once. Northwind recommends rotating keys at least every 90 days.",
    expectedFacts: [
      "Create a second key before removing the old one",
      "Deploy the new key to every application",
      "Confirm from the Last used timestamp that the old key is no longer used",
      "Deactivate the old key, then delete it after a grace period",
    ],
    expectedDocs: ["security/access-keys#rotating-keys"],
  },
  {
    id: 13,
    kind: "correct",
    user: "Which region is ml-checkpoints in, and how much data does it hold?",
    steps: [[call("get_bucket", { name: "ml-checkpoints" })]],
    answer:
      "ml-checkpoints is in us-west-2 (Portland). It holds 940.2 GB in 12,480 objects, in the Standard class with versioning enabled; noncurrent versions expire after 30 days.",
    expectedToolCalls: [{ name: "get_bucket", arguments: { name: "ml-checkpoints" } }],
    expectedFacts: ["ml-checkpoints is in us-west-2", "It holds 940.2 GB"],
  },
  {
    id: 15,
    kind: "correct",
    user: "Which buckets in ml-training aren't versioned?",
    steps: [
      [call("list_buckets", { project: "ml-training" })],
      [call("get_bucket", { name: "ml-datasets-sg" }), call("get_bucket", { name: "ml-checkpoints" })],
    ],
    answer:
      "One: ml-datasets-sg (ap-southeast-1) is unversioned. The other bucket in ml-training, ml-checkpoints, has versioning enabled.",
    expectedToolCalls: [
      { name: "list_buckets", arguments: { project: "ml-training" } },
      { name: "get_bucket", arguments: { name: "ml-datasets-sg" } },
      { name: "get_bucket", arguments: { name: "ml-checkpoints" } },
    ],
    expectedResponse: "ml-datasets-sg is the only unversioned bucket in ml-training; ml-checkpoints is versioned.",
  },
  {
    id: 17,
    kind: "correct",
    user: "What did request charges come to over June, July and August?",
    steps: [
      [
        call("get_invoice", { month: "2026-06" }),
        call("get_invoice", { month: "2026-07" }),
        call("get_invoice", { month: "2026-08" }),
      ],
    ],
    answer:
      "Request charges came to $640.87 over the three months: $205.42 in June, $211.30 in July and $224.15 in August. That is about $214 a month, rising slowly.",
    expectedToolCalls: [
      { name: "get_invoice", arguments: { month: "2026-06" } },
      { name: "get_invoice", arguments: { month: "2026-07" } },
      { name: "get_invoice", arguments: { month: "2026-08" } },
    ],
    expectedFacts: ["Request charges were $640.87 in total", "$205.42 in June, $211.30 in July and $224.15 in August"],
  },
  {
    id: 18,
    kind: "correct",
    user: "nw-web-logs is big. How much would we save per month by moving it to Infrequent Access?",
    steps: [
      [
        call("get_bucket", { name: "nw-web-logs" }),
        search("storage price per GB Standard Infrequent Access", [
          "billing/pricing#storage-classes",
          "billing/pricing#metering",
          "billing/pricing#retrieval-fees",
        ]),
      ],
    ],
    answer:
      "About $13.82 a month. nw-web-logs holds 1,843.0 GB in us-east-1, where Standard costs $0.020 per GB-month (about $36.86 a month) and Infrequent Access $0.0125 (about $23.04).\n\nTwo caveats: Infrequent Access is billed for at least 30 days per object, and reading it costs $0.01/GB. Since the bucket's lifecycle rule deletes logs after 30 days anyway, the minimum costs you little, but if you read the logs often the retrieval fee eats into the saving.",
    expectedToolCalls: [{ name: "get_bucket", arguments: { name: "nw-web-logs" } }, { name: "search_docs" }],
    expectedFacts: [
      "nw-web-logs holds 1,843.0 GB in us-east-1",
      "Moving it to Infrequent Access saves about $13.82 per month ($36.86 vs $23.04)",
      "Infrequent Access has a 30-day minimum and a $0.01/GB retrieval fee",
    ],
    expectedDocs: ["billing/pricing#storage-classes"],
  },
  {
    id: 23,
    kind: "correct",
    user: "Is anything wrong in Frankfurt?",
    steps: [[call("get_region_status", { region: "eu-central-1" })]],
    answer: "No. eu-central-1 (Frankfurt) is operational and has no open incidents.",
    expectedToolCalls: [{ name: "get_region_status", arguments: { region: "eu-central-1" } }],
    expectedResponse: "No, eu-central-1 (Frankfurt) is operational with no open incidents.",
  },
  {
    id: 25,
    kind: "correct",
    user: "Hi! What can you help me with?",
    steps: [],
    answer:
      "Hi! I'm Northwind's ops assistant. I can:\n\n- answer questions from the Northwind Cloud Storage documentation\n- look up your projects and buckets (region, size, versioning, lifecycle rules, replication)\n- pull up invoices and explain the charges\n- check a region's health and its open incidents\n- open support tickets for you\n\nWhat do you need?",
    expectedResponse:
      "A short list of what the assistant can do: search the documentation, look up projects and buckets, explain invoices, check region health and open support tickets.",
  },
  {
    id: 26,
    kind: "correct",
    user: "Does nw-web-backups have Object Lock? Can an admin delete an old version before its retention ends?",
    steps: [
      [
        call("get_bucket", { name: "nw-web-backups" }),
        search("object lock governance mode delete before retention", [
          "storage/object-lock#retention-modes",
          "storage/object-lock#enabling",
          "storage/versioning#deleting-versions",
        ]),
      ],
    ],
    answer:
      "Yes. nw-web-backups has Object Lock in Governance mode, with a default retention of 30 days. In Governance mode, a user with the storage:BypassGovernanceRetention permission can shorten or remove a version's retention and then delete it; without that permission, nobody can delete a locked version until its retention expires. (In Compliance mode not even the root user could.)",
    expectedToolCalls: [{ name: "get_bucket", arguments: { name: "nw-web-backups" } }, "search_docs"],
    expectedFacts: [
      "nw-web-backups has Object Lock in Governance mode with a 30-day default retention",
      "Users with storage:BypassGovernanceRetention can shorten or remove retention in Governance mode",
    ],
    expectedDocs: ["storage/object-lock#retention-modes"],
  },
  {
    id: 28,
    kind: "correct",
    user: "Check whether any region our web-prod buckets live in has an incident.",
    steps: [
      [call("list_buckets", { project: "web-prod" })],
      [
        call("get_region_status", { region: "us-east-1" }),
        call("get_region_status", { region: "eu-west-1" }),
        call("get_region_status", { region: "us-west-2" }),
      ],
    ],
    answer:
      "One does. web-prod's buckets are in three regions:\n\n- us-east-1 (nw-web-assets, nw-web-logs): operational\n- eu-west-1 (nw-web-uploads): degraded, incident INC-2291, elevated 503 SlowDown errors for PUT requests since 07:40 UTC\n- us-west-2 (nw-web-backups): operational\n\nUploads to nw-web-uploads may fail or need retries until INC-2291 is mitigated; the next update is due by 14:00 UTC.",
    expectedToolCalls: [
      { name: "list_buckets", arguments: { project: "web-prod" } },
      { name: "get_region_status", arguments: { region: "us-east-1" } },
      { name: "get_region_status", arguments: { region: "eu-west-1" } },
      { name: "get_region_status", arguments: { region: "us-west-2" } },
    ],
    expectedFacts: [
      "eu-west-1, where nw-web-uploads is, has an open incident (INC-2291) with elevated 503 SlowDown errors for PUT requests",
      "us-east-1 and us-west-2 are operational",
    ],
  },
  {
    id: 29,
    kind: "correct",
    user: "Why did we pay $98.10 for inter-region transfer in August?",
    steps: [
      [
        call("get_invoice", { month: "2026-08" }),
        search("inter-region transfer pricing", [
          "billing/pricing#inter-region-transfer",
          "storage/replication#cross-region",
          "billing/pricing#egress",
        ]),
      ],
    ],
    answer:
      "That line is 4,905 GB moved between Northwind regions in August, at $0.02/GB. Any transfer between regions is billed this way, including cross-region replication; transfer within one region is free. So look for replication rules or copy jobs (such as nwcli storage sync) whose source and destination buckets are in different regions. The amount has been steady (4,875 GB in July), so this looks like ongoing replication rather than a one-off.",
    expectedToolCalls: [{ name: "get_invoice", arguments: { month: "2026-08" } }, { name: "search_docs" }],
    expectedFacts: [
      "The charge is 4,905 GB of inter-region transfer at $0.02/GB",
      "Cross-region replication is billed as inter-region transfer",
      "Transfer within the same region is free",
    ],
    expectedDocs: ["billing/pricing#inter-region-transfer"],
  },
  {
    id: 34,
    kind: "correct",
    user: "Open a low-priority ticket asking billing to send invoice emails to finance@acme.example as well.",
    steps: [
      [
        call(
          "create_ticket",
          { summary: "Add finance@acme.example as a recipient of invoice notification emails", severity: "sev4" },
          { ticketId: "NW-48231" },
        ),
      ],
    ],
    answer:
      "Done: ticket NW-48231 (sev4) asks billing to add finance@acme.example to the invoice emails. Sev4 tickets get a first response within 2 business days: https://support.northwind.example/tickets/NW-48231",
    expectedResponse: "A sev4 ticket was opened asking billing to add finance@acme.example to invoice emails.",
  },
  {
    id: 36,
    kind: "correct",
    user: "How many objects are in acme-analytics-raw?",
    steps: [[call("get_bucket", { name: "acme-analytics-raw" })]],
    answer: "acme-analytics-raw holds 18,442,907 objects (6,210.0 GB) in eu-central-1.",
    expectedToolCalls: [{ name: "get_bucket", arguments: { name: "acme-analytics-raw" } }],
    expectedResponse: "acme-analytics-raw holds 18,442,907 objects.",
  },
  {
    id: 37,
    kind: "correct",
    user: "What's the longest I can make a presigned URL last?",
    steps: [
      [
        search(
          "presigned URL maximum expiration",
          ["storage/presigned-urls#expiration", "storage/presigned-urls#overview"],
          false,
        ),
      ],
    ],
    answer:
      "A presigned URL can last at most 7 days (604,800 seconds), when it is signed with an access key. The default is 1 hour. A URL signed with temporary session credentials stops working when the session expires, after at most 12 hours, whatever expiry you set.",
    expectedFacts: [
      "The maximum is 7 days (604,800 seconds) for URLs signed with an access key",
      "URLs signed with session credentials stop working when the session expires, at most 12 hours",
    ],
  },
  {
    id: 39,
    kind: "correct",
    user: "Which analytics buckets use the Archive class, and how long does it take to get data back from them?",
    steps: [
      [call("list_buckets", { project: "analytics" })],
      [
        search("archive restore time", [
          "storage/storage-classes#archive",
          "billing/pricing#retrieval-fees",
          "storage/storage-classes#overview",
        ]),
      ],
    ],
    answer:
      "Only acme-analytics-archive (eu-west-1) uses Archive. Archive objects must be restored before they can be read: Standard restores complete in 3-5 hours and Bulk restores within 12 hours, and the restored copy stays available for the 1-30 days you ask for. Restores cost $0.02/GB (Standard) or $0.0025/GB (Bulk).",
    expectedToolCalls: [{ name: "list_buckets", arguments: { project: "analytics" } }, "search_docs"],
    expectedFacts: [
      "acme-analytics-archive is the only Archive bucket",
      "Standard restores take 3-5 hours and Bulk restores up to 12 hours",
    ],
    expectedDocs: ["storage/storage-classes#archive"],
  },
  {
    id: 40,
    kind: "correct",
    user: "Is replication on nw-web-backups working?",
    steps: [[call("get_bucket", { name: "nw-web-backups" })]],
    answer:
      "Yes. nw-web-backups replicates to nw-web-backups-dr in us-east-1; the rule is Enabled, no objects are pending, and the last object was replicated less than a minute ago. Replication Time Control is off, so there is no 15-minute SLA on it.",
    expectedFacts: [
      "Replication from nw-web-backups to nw-web-backups-dr (us-east-1) is enabled and has no pending objects",
      "Replication Time Control is not enabled",
    ],
  },
];
