// The datasets shipped with the example workflows (seeded beside them). They run against the demo
// tools; on the demo model they pass but for the demo's known failure (it ignores a similarly
// named project), which shows as a failure, not a pass.
import type { CheckSpecInput } from "./check-spec";
import type { DatasetCaseInput } from "./dataset";

/** A shipped dataset: its name, the example workflow's slug, and its cases. */
export interface ExampleDataset {
  name: string;
  workflowSlug: string;
  description: string;
  cases: DatasetCaseInput[];
}

/** Seed 004's evidence rule for the blocker explanations, shared by the ticket cases. */
const blockersCiteNotes = (requiredSubjects: string[]): CheckSpecInput => ({
  kind: "evidence",
  name: "explanations-cite-notes",
  field: "report",
  tool: "search_meeting_notes",
  snippetField: "excerpt",
  requiredSubjects,
});

const succeeded: CheckSpecInput = { kind: "run-status", name: "run-succeeded", statuses: ["succeeded"] };

/** Seed 004's fixture ideas against the demo ticket and meeting-notes API. */
export const ticketBlockersDataset: ExampleDataset = {
  name: "Ticket blockers",
  workflowSlug: "ticket-blockers",
  description:
    "Seed 004's fixtures: the right project among similar names, a stale meeting explanation, paged results (one ticket per page), a transient tool error (the ticket search fails once), and a blocker with no meeting. Every explanation must quote a note the tool returned for that ticket; an honest gap statement is accepted.",
  cases: [
    {
      id: "px-blockers",
      name: "Project PX: both blockers, each explained from its own notes or reported as a gap",
      inputs: { project: "PX" },
      tags: ["evidence"],
      checks: [
        succeeded,
        {
          kind: "tool-called",
          name: "searched-px-blocked",
          tool: "search_tickets",
          arguments: { project_id: "PX", status: "blocked" },
        },
        {
          kind: "tool-called",
          name: "notes-by-ticket-id",
          tool: "search_meeting_notes",
          arguments: { ticket_ids: "/PX-17/" },
        },
        blockersCiteNotes(["PX-17", "PX-24"]),
      ],
    },
    {
      id: "similar-project-pxl",
      name: "Two similarly named projects: PXL is not PX",
      inputs: { project: "PXL" },
      tags: ["project-identity", "known-demo-failure"],
      checks: [
        { kind: "tool-called", name: "searched-pxl", tool: "search_tickets", arguments: { project_id: "PXL" } },
        { kind: "tool-not-called", name: "not-px", tool: "search_tickets", arguments: { project_id: "PX" } },
        { kind: "contains", name: "reports-pxl-3", field: "report", values: ["PXL-3"], absent: ["PX-17", "PX-24"] },
      ],
    },
    {
      id: "stale-explanation",
      name: "PX-17: the July explanation is older than the ticket's latest update",
      inputs: { project: "PX" },
      tags: ["freshness"],
      checks: [
        succeeded,
        // MN-101 (July: "waiting for the vendor contract") was superseded by MN-142 (September).
        { kind: "contains", name: "not-the-stale-note", field: "report", absent: ["waiting for the vendor contract"] },
        { kind: "regex", name: "dates-the-note", field: "report", pattern: "2026-09-08" },
      ],
    },
    {
      id: "paged-results",
      name: "Paged ticket results: every blocked PX ticket, nothing from other pages or statuses",
      inputs: { project: "PX" },
      tags: ["pagination"],
      // One ticket per page: PX's two blocked tickets come on two pages; the second needs the cursor.
      fixture: { tools: [{ tool: "search_tickets", arguments: { page_size: 1 } }] },
      checks: [
        succeeded,
        { kind: "tool-called", name: "read-page-2", tool: "search_tickets", arguments: { cursor: "1" } },
        {
          kind: "contains",
          name: "all-blockers",
          field: "report",
          values: ["PX-17", "PX-24"],
          absent: ["PX-12", "PX-21", "PX-30", "PXL-3"],
        },
        { kind: "limits", name: "bounded", maxTokens: 20_000, maxLatencyMs: 60_000 },
      ],
    },
    {
      id: "transient-tool-error",
      name: "A transient tool error is retried, not reported as a finding",
      inputs: { project: "PX" },
      tags: ["resilience"],
      // The ticket search's first attempt answers a 503; the agent's guard retries it once.
      fixture: {
        tools: [
          {
            tool: "search_tickets",
            faults: [{ attempt: 1, error: "Service unavailable (503): injected transient failure, try again" }],
          },
        ],
      },
      checks: [
        { kind: "node-succeeded", name: "agent-succeeded", nodeId: "agent" },
        { kind: "contains", name: "found-the-blockers", field: "report", values: ["PX-17", "PX-24"] },
        {
          kind: "regex",
          name: "no-error-in-report",
          field: "report",
          pattern: "injected transient failure|503",
          negate: true,
        },
      ],
    },
    {
      id: "blocker-without-meeting",
      name: "PX-24 has no meeting: an honest gap, not a borrowed explanation",
      inputs: { project: "PX" },
      tags: ["evidence", "gap"],
      checks: [
        blockersCiteNotes(["PX-24"]),
        {
          kind: "regex",
          name: "states-the-gap",
          field: "report",
          pattern: "PX-24[^\\n]*no explanation found",
          flags: "i",
        },
      ],
    },
  ],
};

/** Seed 003's bet: convert only when it rained. */
export const reactBetDataset: ExampleDataset = {
  name: "ReAct bet",
  workflowSlug: "react-bet",
  description:
    "Rain and no-rain cities from the demo weather stub. When it rained the stake is converted to USD at the demo rate (1.085); when the bet is lost nothing is converted.",
  cases: [
    {
      id: "athens-rain",
      name: "Athens, rain: won, 100 EUR → 108.50 USD",
      inputs: { city: "Athens", stake: 100 },
      tags: ["rain"],
      checks: [
        succeeded,
        { kind: "tool-called", name: "checked-weather", tool: "get_current_weather", arguments: { city: "/athens/i" } },
        { kind: "tool-called", name: "converted", tool: "convert_currency", arguments: { amount: 100 } },
        { kind: "numeric", name: "usd-amount", field: "answer", expected: 108.5, tolerance: 0.01, after: "EUR is" },
      ],
    },
    {
      id: "london-rain",
      name: "London, rain: won, 20 EUR → 21.70 USD",
      inputs: { city: "London", stake: 20 },
      tags: ["rain"],
      checks: [
        succeeded,
        { kind: "numeric", name: "usd-amount", field: "answer", expected: 21.7, tolerance: 0.01, after: "EUR is" },
      ],
    },
    {
      id: "cairo-dry",
      name: "Cairo, no rain: lost, no conversion",
      inputs: { city: "Cairo", stake: 50 },
      tags: ["no-rain"],
      checks: [
        succeeded,
        { kind: "tool-called", name: "checked-weather", tool: "get_current_weather" },
        { kind: "tool-not-called", name: "no-conversion-when-lost", tool: "convert_currency" },
        { kind: "regex", name: "says-lost", field: "answer", pattern: "\\blost\\b", flags: "i" },
      ],
    },
    {
      id: "madrid-dry",
      name: "Madrid, no rain: lost, no conversion",
      inputs: { city: "Madrid", stake: 100 },
      tags: ["no-rain"],
      checks: [
        { kind: "tool-not-called", name: "no-conversion-when-lost", tool: "convert_currency" },
        { kind: "contains", name: "no-usd-amount", field: "answer", absent: ["USD"] },
      ],
    },
  ],
};

/** Every shipped dataset. */
export const exampleDatasets: ExampleDataset[] = [ticketBlockersDataset, reactBetDataset];
