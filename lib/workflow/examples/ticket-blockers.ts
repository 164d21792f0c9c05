import type { ExampleWorkflow } from "./example-workflow";

/**
 * Seed 004's example: find blocked tickets, then the meeting notes that mention them, with
 * read-only tools only; tickets without notes are reported as gaps.
 */
export const ticketBlockersExample: ExampleWorkflow = {
  slug: "ticket-blockers",
  name: "Ticket blockers",
  description:
    "A function-calling agent restricted to read-only tools: search_tickets finds blocked tickets, search_meeting_notes looks up notes for those ticket IDs, and gaps are reported.",
  document: {
    schemaVersion: 3,
    nodes: [
      {
        id: "start",
        type: "start",
        position: { x: 0, y: 100 },
        data: {
          title: "Start",
          inputs: [{ name: "project", type: "string", required: true, default: "checkout" }],
        },
      },
      {
        id: "agent",
        type: "agent",
        position: { x: 300, y: 100 },
        data: {
          title: "Blocker analyst",
          mode: "function_call",
          model: { provider: "default", model: "gpt-4o-mini" },
          tools: ["search_tickets", "search_meeting_notes"],
          instructions:
            "Find the blocked tickets of the project, then search the meeting notes for those ticket IDs. Summarize each blocker with what the notes say, and list tickets that have no meeting notes as gaps.",
          query: "Which tickets are blocking the {{start.project}} project, and what was said about them in meetings?",
          limits: { maxIterations: 6, toolTimeoutMs: 15_000 },
          readOnlyOnly: true,
        },
      },
      {
        id: "end",
        type: "end",
        position: { x: 600, y: 100 },
        data: { title: "End", outputs: [{ name: "report", value: "{{agent.answer}}" }] },
      },
    ],
    edges: [
      { id: "e1", source: "start", target: "agent" },
      { id: "e2", source: "agent", target: "end" },
    ],
  },
};
