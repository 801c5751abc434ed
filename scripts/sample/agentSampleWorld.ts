// The world of the "Northwind ops agent" sample (scripts/sample/makeAgentSample.ts): the tools the agent is
// offered, the account its tools read (projects, buckets, invoices, region health) and the documentation
// passages search_docs returns. The passages are the ones the first sample (prisma/sample/sample-eval-set.jsonl)
// retrieves, word for word, so the two samples describe one product.

export type ToolName =
  "search_docs" | "get_bucket" | "list_buckets" | "get_invoice" | "create_ticket" | "get_region_status";

/** The tools, in OpenAI's function shape, as the agent's chat model is offered them. */
export const TOOLS = [
  tool("search_docs", "Search the Northwind documentation and return the most relevant passages.", {
    query: { type: "string", description: "What to look for, in a few words." },
  }),
  tool(
    "get_bucket",
    "Get a bucket's configuration and usage: region, storage class, versioning, size, objects, lifecycle rules, replication and Object Lock.",
    { name: { type: "string", description: "The bucket name." } },
  ),
  tool("list_buckets", "List the buckets of a project with their region and storage class.", {
    project: { type: "string", description: "The project name, e.g. web-prod." },
  }),
  tool("get_invoice", "Get the account's invoice for one month: total, line items and payment status.", {
    month: { type: "string", description: "The month, as YYYY-MM.", pattern: "^\\d{4}-\\d{2}$" },
  }),
  tool("create_ticket", "Open a ticket with Northwind support.", {
    summary: { type: "string", description: "One line saying what is wrong or what is needed." },
    severity: {
      type: "string",
      enum: ["sev1", "sev2", "sev3", "sev4"],
      description:
        "sev1: production down; sev2: production impaired; sev3: a problem with a workaround; sev4: a question or request.",
    },
  }),
  tool("get_region_status", "Get the current health of a Northwind region and its open incidents.", {
    region: { type: "string", enum: ["us-east-1", "us-west-2", "eu-central-1", "eu-west-1", "ap-southeast-1"] },
  }),
];

function tool(name: ToolName, description: string, properties: Record<string, unknown>) {
  return {
    type: "function",
    function: {
      name,
      description,
      parameters: { type: "object", properties, required: Object.keys(properties), additionalProperties: false },
    },
  };
}

const DOCS_BASE = "https://docs.northwind.example/";

/** Documentation passages, keyed by the path of their doc_uri under DOCS_BASE. */
const PASSAGES: Record<string, string> = {
  "storage/regions#available-regions":
    "Northwind Cloud Storage is available in five regions: us-east-1 (Ashburn), us-west-2 (Portland), eu-central-1 (Frankfurt), eu-west-1 (Dublin), and ap-southeast-1 (Singapore). Regional endpoints follow the pattern https://storage.REGION.northwind.example.",
  "storage/buckets#bucket-regions":
    "A bucket's region is set when the bucket is created and cannot be changed later. To move data to another region, create a new bucket in the target region and copy the objects with nwcli storage sync or configure cross-region replication, then delete the original bucket once the migration is verified.",
  "storage/buckets#creating-buckets":
    "You can create a bucket from the console, with nwcli storage mb nw://my-bucket --region eu-west-1, or with any SDK. If you omit --region, nwcli uses the default region of your active profile and falls back to us-east-1. Each project can contain up to 100 buckets by default.",
  "billing/pricing#storage-classes":
    "### Storage pricing (per GB-month)\n\n| Region | Standard | Infrequent Access | Archive |\n|---|---|---|---|\n| us-east-1 | $0.020 | $0.0125 | $0.004 |\n| us-west-2 | $0.020 | $0.0125 | $0.004 |\n| eu-central-1 | $0.023 | $0.0140 | $0.0045 |\n| eu-west-1 | $0.022 | $0.0135 | $0.0045 |\n| ap-southeast-1 | $0.025 | $0.0150 | $0.005 |",
  "billing/pricing#metering":
    "Storage is metered hourly in GB-hours and billed as the monthly average; a GB is 2^30 bytes. Infrequent Access objects are billed for a minimum of 30 days and Archive objects for a minimum of 180 days, even if they are deleted earlier.",
  "billing/pricing#retrieval-fees":
    "Reading data from Infrequent Access costs $0.01/GB retrieved. Restoring from Archive costs $0.02/GB for Standard restores and $0.0025/GB for Bulk restores.",
  "billing/pricing#inter-region-transfer":
    "Transfer between Northwind regions, including cross-region replication, costs $0.02/GB. Transfer within the same region, whether between buckets or to Northwind Compute instances, is free.",
  "billing/pricing#egress":
    "The first 100 GB of data transferred out to the internet each month is free per account. After that, egress costs $0.05/GB for the next 10 TB, $0.04/GB for the next 40 TB, and $0.03/GB beyond 50 TB. Data transfer into Northwind is always free.",
  "security/access-keys#rotating-keys":
    "To rotate a key without downtime, create a second key, deploy it to every application, confirm from the key's Last used timestamp that the old key is no longer in use, deactivate the old key, and delete it after a grace period. Northwind recommends rotating access keys at least every 90 days.",
  "security/access-keys#creating-keys":
    "Access key IDs begin with NWAK and are 20 characters long; secret keys are 40 characters. The secret key is displayed only once, when the key is created, so store it in a secrets manager immediately. Each user or service account can have at most two active access keys.",
  "security/access-keys#root-keys":
    "Avoid creating access keys for the account root user. Root keys bypass bucket policies and cannot be scoped; use service accounts with least-privilege policies instead. Never share access keys in chat, tickets, or source control.",
  "storage/object-lock#retention-modes":
    "Object Lock supports two retention modes. In Governance mode, users with the storage:BypassGovernanceRetention permission can shorten or remove retention. In Compliance mode, no one, including the account root user, can delete a locked version or shorten its retention period until it expires.",
  "storage/object-lock#enabling":
    "Object Lock requires versioning and is enabled when the bucket is created (nwcli storage mb nw://my-bucket --object-lock). You can also place a legal hold on a version, which prevents deletion until the hold is removed, independent of any retention period.",
  "storage/versioning#deleting-versions":
    "A DELETE request without a version ID inserts a delete marker, which becomes the current version; the object disappears from normal listings but older versions remain. To permanently remove a version, send DELETE with its versionId. Each version is billed as a full object.",
  "storage/storage-classes#archive":
    "Archive objects must be restored before they can be read. Standard restores complete in 3-5 hours and Bulk restores within 12 hours. The restored copy is available for the number of days (1-30) you specify in the restore request.",
  "storage/storage-classes#overview":
    "Northwind offers three storage classes: Standard for frequently accessed data, Infrequent Access for data read less than once a month, and Archive for long-term retention. Infrequent Access and Archive have the same 11 nines of durability as Standard.",
  "storage/presigned-urls#expiration":
    "The default expiration is 3600 seconds (1 hour). The maximum is 604,800 seconds (7 days) for URLs signed with an access key. URLs signed with temporary session credentials stop working when the session expires, after at most 12 hours.",
  "storage/presigned-urls#overview":
    "A presigned URL grants time-limited access to a single object without requiring the caller to have Northwind credentials. Anyone who has the URL can use it until it expires, so treat presigned URLs like passwords.",
  "storage/quotas#request-rates":
    "Each bucket prefix supports at least 3,500 PUT/COPY/POST/DELETE and 5,500 GET/HEAD requests per second. Requests above these rates may be rejected with 503 SlowDown while the service scales; spread keys across more prefixes to increase throughput.",
  "sdk/python#retries":
    "The SDK retries throttled (503 SlowDown) and transient 5xx errors up to 3 times with exponential backoff and jitter. Configure this with Client(max_retries=...).",
  "storage/replication#requirements":
    "Both the source and the destination bucket must have versioning enabled before you can create a replication rule. The replication role must have storage:GetObjectVersion on the source bucket and storage:ReplicateObject on the destination bucket.",
  "storage/replication#cross-region":
    "Cross-region replication (CRR) asynchronously copies new objects to a bucket in another region; same-region replication (SRR) copies them to a bucket in the same region. CRR traffic is billed as inter-region transfer ($0.02/GB), plus storage in the destination bucket.",
  "storage/lifecycle-rules#evaluation":
    "Lifecycle rules are evaluated once per day, starting at 00:00 UTC. A new or changed rule is picked up at the next evaluation, and it can take up to 48 hours for all eligible objects to be processed. Rules apply to existing objects as well as to new ones.",
  "storage/lifecycle-rules#expiration":
    "The Expiration action deletes current object versions once they reach a given age, set with Days (counted from the object's creation time) or on a specific Date. In a versioned bucket, expiring a current version adds a delete marker instead of removing the data.",
  "storage/lifecycle-rules#managing-rules":
    "Apply a lifecycle configuration from a JSON file with nwcli storage lifecycle put --bucket my-bucket --config lifecycle.json. The new configuration replaces any existing one; run nwcli storage lifecycle get --bucket my-bucket to view the current rules.",
};

export type Passage = { docUri: string; content: string };

/** The passages of these doc paths (keys of PASSAGES), or a thrown error naming an unknown one. */
export function passages(paths: readonly string[]): Passage[] {
  return paths.map((path) => {
    const content = PASSAGES[path];
    if (content === undefined) throw new Error(`no passage ${path} in agentSampleWorld.ts`);
    return { docUri: DOCS_BASE + path, content };
  });
}

export function docUri(path: string): string {
  return passages([path])[0].docUri;
}

type Bucket = {
  name: string;
  project: string;
  region: string;
  storage_class: "Standard" | "Infrequent Access" | "Archive";
  versioning: "Unversioned" | "Enabled" | "Suspended";
  size_gb: number;
  object_count: number;
  created: string;
  block_public_access: boolean;
  encryption: "SSE-NW" | "SSE-KMS";
  lifecycle_rules: Record<string, unknown>[];
  replication: Record<string, unknown> | null;
  object_lock: { mode: "GOVERNANCE" | "COMPLIANCE"; default_retention_days: number } | null;
};

type BucketRow = [string, string, string, Bucket["storage_class"], Bucket["versioning"], number, number, string];

/** name, project, region, storage class, versioning, size (GB), objects, created. */
const BUCKET_ROWS: BucketRow[] = [
  ["nw-web-assets", "web-prod", "us-east-1", "Standard", "Enabled", 412.6, 1904233, "2024-03-11"],
  ["nw-web-uploads", "web-prod", "eu-west-1", "Standard", "Suspended", 88.2, 310442, "2025-01-20"],
  ["nw-web-logs", "web-prod", "us-east-1", "Standard", "Unversioned", 1843.0, 52118904, "2023-11-02"],
  ["nw-web-backups", "web-prod", "us-west-2", "Standard", "Enabled", 2210.4, 880213, "2024-06-03"],
  ["acme-analytics-raw", "analytics", "eu-central-1", "Standard", "Enabled", 6210.0, 18442907, "2024-09-17"],
  ["acme-analytics-curated", "analytics", "eu-central-1", "Standard", "Unversioned", 1150.5, 2310118, "2024-09-17"],
  ["acme-analytics-archive", "analytics", "eu-west-1", "Archive", "Enabled", 22400.0, 410552, "2025-02-04"],
  ["ml-datasets-sg", "ml-training", "ap-southeast-1", "Standard", "Unversioned", 3020.7, 9874001, "2025-05-12"],
  ["ml-checkpoints", "ml-training", "us-west-2", "Standard", "Enabled", 940.2, 12480, "2025-05-12"],
];

const noncurrentRule = (days: number) => ({
  id: `noncurrent-${days}d`,
  status: "Enabled",
  filter: { prefix: "" },
  noncurrent_version_expiration_days: days,
});

/** What sets a bucket apart beyond its row: lifecycle rules, replication, Object Lock, encryption. */
const BUCKET_EXTRAS: Record<string, Partial<Bucket>> = {
  "nw-web-assets": {
    lifecycle_rules: [{ id: "expire-tmp-7d", status: "Enabled", filter: { prefix: "tmp/" }, expiration_days: 7 }],
  },
  "nw-web-logs": {
    lifecycle_rules: [
      {
        id: "expire-logs-30d",
        status: "Enabled",
        filter: { prefix: "logs/" },
        expiration_days: 30,
        last_modified: "2026-10-13T15:42:00Z",
      },
    ],
  },
  "nw-web-backups": {
    encryption: "SSE-KMS",
    lifecycle_rules: [noncurrentRule(90)],
    replication: {
      status: "Enabled",
      destination_bucket: "nw-web-backups-dr",
      destination_region: "us-east-1",
      replication_time_control: false,
      pending_objects: 0,
    },
    object_lock: { mode: "GOVERNANCE", default_retention_days: 30 },
  },
  "ml-checkpoints": { lifecycle_rules: [noncurrentRule(30)] },
};

export const BUCKETS: Bucket[] = BUCKET_ROWS.map(
  ([name, project, region, storage_class, versioning, size_gb, object_count, created]) => ({
    name,
    project,
    region,
    storage_class,
    versioning,
    size_gb,
    object_count,
    created,
    block_public_access: true,
    encryption: "SSE-NW",
    lifecycle_rules: [],
    replication: null,
    object_lock: null,
    ...BUCKET_EXTRAS[name],
  }),
);

type Invoice = { id: string; lines: [string, string | null, number][]; paidOn: string | null; due: string };

/** Line items: [item, usage, amount in USD]. Egress and inter-region amounts follow billing/pricing. */
export const INVOICES: Record<string, Invoice> = {
  "2026-06": invoice("INV-2026-06-0171", [452.1, 205.42, 6130, 301.5, 3500, 70.0], "2026-07-05", "2026-07-31"),
  "2026-07": invoice("INV-2026-07-0182", [461.35, 211.3, 6461, 318.05, 4875, 97.5], "2026-08-05", "2026-08-31"),
  "2026-08": invoice("INV-2026-08-0193", [468.9, 224.15, 15100, 702.4, 4905, 98.1], "2026-09-05", "2026-09-30"),
  "2026-09": invoice("INV-2026-09-0207", [474.65, 219.6, 8155, 402.75, 4968, 99.36], null, "2026-10-31"),
};

function invoice(id: string, figures: number[], paidOn: string | null, due: string): Invoice {
  const [storage, requests, egressGb, egress, transferGb, transfer] = figures;
  const gb = (n: number) => `${n.toLocaleString("en-US")} GB`;
  return {
    id,
    lines: [
      ["Storage", null, storage],
      ["Requests", null, requests],
      ["Data transfer out (internet)", gb(egressGb), egress],
      ["Inter-region transfer", gb(transferGb), transfer],
      ["Key management (NKM)", null, 81.0],
    ],
    paidOn,
    due,
  };
}

type Incident = { id: string; title: string; status: string; started_at: string; last_update: string };

export const REGIONS: Record<string, { city: string; incidents: Incident[] }> = {
  "us-east-1": { city: "Ashburn", incidents: [] },
  "us-west-2": { city: "Portland", incidents: [] },
  "eu-central-1": { city: "Frankfurt", incidents: [] },
  "eu-west-1": {
    city: "Dublin",
    incidents: [
      {
        id: "INC-2291",
        title: "Elevated 503 SlowDown errors for PUT requests",
        status: "identified",
        started_at: "2026-10-14T07:40:00Z",
        last_update:
          "11:45 UTC: a storage node rebalance is throttling writes in one availability zone. A mitigation is rolling out; next update by 14:00 UTC.",
      },
    ],
  },
  "ap-southeast-1": {
    city: "Singapore",
    incidents: [
      {
        id: "INC-2288",
        title: "Increased latency for LIST requests",
        status: "monitoring",
        started_at: "2026-10-13T22:05:00Z",
        last_update: "07:10 UTC: a fix has been applied to the index service; we are monitoring LIST latency.",
      },
    ],
  },
};

const FIRST_RESPONSE: Record<string, string> = {
  sev1: "15 minutes",
  sev2: "1 hour",
  sev3: "8 business hours",
  sev4: "2 business days",
};

export type ToolCallSpec = {
  name: ToolName;
  args: Record<string, unknown>;
  /** search_docs: the passages it finds (keys of PASSAGES), best first. */
  docs?: string[];
  /** search_docs: record the lookup as a RETRIEVER span under the tool's span too. */
  retriever?: boolean;
  /** create_ticket: the id the support system gives the ticket. */
  ticketId?: string;
  /** The call raises this exception instead of returning. */
  error?: { type: string; message: string };
};

/** What a tool returns for this call at this time (ISO). Unknown names throw: the rows are hand-written. */
export function runTool(call: ToolCallSpec, now: string): unknown {
  const arg = (key: string) => String(call.args[key]);
  const find = (name: string) => {
    const found = BUCKETS.find((each) => each.name === name);
    if (!found) throw new Error(`no bucket ${name} in agentSampleWorld.ts`);
    return found;
  };
  switch (call.name) {
    case "search_docs":
      return passages(call.docs ?? []).map((each) => ({ doc_uri: each.docUri, content: each.content }));
    case "get_bucket": {
      const found = find(arg("name"));
      const lastReplication = new Date(Date.parse(now) - 42_000).toISOString().replace(".000Z", "Z");
      return found.replication
        ? { ...found, replication: { ...found.replication, last_replication_at: lastReplication } }
        : found;
    }
    case "list_buckets": {
      const inProject = BUCKETS.filter((each) => each.project === arg("project"));
      if (inProject.length === 0) throw new Error(`no project ${arg("project")} in agentSampleWorld.ts`);
      return {
        project: arg("project"),
        buckets: inProject.map(({ name, region, storage_class, created }) => ({
          name,
          region,
          storage_class,
          created,
        })),
      };
    }
    case "get_invoice": {
      const found = INVOICES[arg("month")];
      if (!found) throw new Error(`no invoice ${arg("month")} in agentSampleWorld.ts`);
      const total = Math.round(found.lines.reduce((sum, [, , amount]) => sum + amount, 0) * 100) / 100;
      return {
        invoice_id: found.id,
        month: arg("month"),
        currency: "USD",
        total,
        status: found.paidOn ? "paid" : "open",
        due_date: found.due,
        paid_on: found.paidOn,
        lines: found.lines.map(([item, usage, amount]) => (usage ? { item, usage, amount } : { item, amount })),
      };
    }
    case "create_ticket": {
      const severity = arg("severity");
      return {
        ticket_id: call.ticketId,
        status: "open",
        severity,
        created_at: now,
        first_response_within: FIRST_RESPONSE[severity],
        url: `https://support.northwind.example/tickets/${call.ticketId}`,
      };
    }
    case "get_region_status": {
      const region = REGIONS[arg("region")];
      return {
        region: arg("region"),
        location: region.city,
        status: region.incidents.length > 0 ? "degraded" : "operational",
        checked_at: now,
        incidents: region.incidents,
      };
    }
  }
}
