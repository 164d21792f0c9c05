import { describe, expect, it } from "vitest";
import { checkSpecSchema } from "../model/check-spec";
import { checkEvidence } from "./evidence-check";
import type { RecordedToolCall, TrialRecord } from "./trial-record";

// The demo meeting-notes API's answer shape (lib/tools/demo-stub): one entry per asked ticket.
const MEETING_RESULT = JSON.stringify({
  results: [
    {
      ticket_id: "PX-17",
      notes: [
        {
          id: "MN-101",
          date: "2026-07-01",
          ticket_ids: ["PX-17"],
          excerpt: "PX-17 is waiting for the vendor contract to be signed before ledger access can be requested.",
        },
        {
          id: "MN-142",
          date: "2026-09-08",
          ticket_ids: ["PX-17", "PX-12"],
          excerpt:
            "The vendor contract is signed. PX-17 remains blocked: the access review for the ledger API has not been approved by the IAM team; expected next week.",
        },
      ],
    },
    { ticket_id: "PX-24", notes: [] },
  ],
  searched_collection: "demo meeting notes",
});

const meetingCall: RecordedToolCall = {
  nodeId: "agent",
  tool: "search_meeting_notes",
  arguments: { ticket_ids: ["PX-17", "PX-24"] },
  ok: true,
  result: MEETING_RESULT,
};

const check = checkSpecSchema.parse({
  kind: "evidence",
  name: "blockers-cite-notes",
  tool: "search_meeting_notes",
  requiredSubjects: ["PX-17", "PX-24"],
});
if (check.kind !== "evidence") throw new Error("unreachable");

function trial(answer: string, toolCalls: RecordedToolCall[] = [meetingCall]): TrialRecord {
  return {
    runId: "r",
    status: "succeeded",
    outputs: { report: answer },
    errorCode: null,
    cost: 0,
    latencyMs: 0,
    tokens: 0,
    tokensByMode: {},
    usesDemoModel: true,
    nodeRuns: [],
    toolCalls,
  };
}

const HONEST = [
  "Blocked tickets: PX-17, PX-24.",
  "PX-17: The vendor contract is signed. PX-17 remains blocked: the access review for the ledger API has not been approved by the IAM team; expected next week. (notes of 2026-09-08)",
  "PX-24: no explanation found in the searched meeting notes (gap; it may be discussed elsewhere)",
].join("\n");

describe("evidence check (seed 004)", () => {
  it("accepts a quoted explanation and an honest gap statement", () => {
    const result = checkEvidence(check, trial(HONEST));
    expect(result.reason).toBe("PX-17: quotes MN-142; PX-24: honest gap.");
    expect(result.passed).toBe(true);
  });

  it("accepts an explicitly quoted short span in prose", () => {
    const answer =
      'PX-17 is blocked because "the access review for the ledger API has not been approved". For PX-24 no explanation was found in the meeting notes.';
    expect(checkEvidence(check, trial(answer))).toMatchObject({ passed: true });
  });

  it("rejects an explanation borrowed from another ticket's snippet", () => {
    const answer = [
      "PX-17: the access review for the ledger API has not been approved by the IAM team.",
      "PX-24: remains blocked because the access review for the ledger API has not been approved by the IAM team.",
    ].join("\n");
    const result = checkEvidence(check, trial(answer));
    expect(result.passed).toBe(false);
    expect(result.reason).toBe("PX-24: the explanation is borrowed from MN-142, returned for PX-17, PX-12.");
  });

  it("rejects a confident explanation nothing supports", () => {
    const result = checkEvidence(
      check,
      trial(`${HONEST.split("\n").slice(0, 2).join("\n")}\nPX-24 is blocked because the queue vendor is late.`),
    );
    expect(result.passed).toBe(false);
    expect(result.reason).toContain("PX-24: the explanation quotes nothing search_meeting_notes returned for it");
  });

  it("rejects a gap statement when the tool did return a snippet, or was never asked", () => {
    const denies = checkEvidence(check, trial("PX-17: no explanation found.\nPX-24: no explanation found."));
    expect(denies.passed).toBe(false);
    expect(denies.reason).toContain("PX-17: a gap is stated, but search_meeting_notes returned MN-101, MN-142 for it");
    const unasked = checkEvidence(check, trial("PX-17: no explanation found.\nPX-24: no explanation found.", []));
    expect(unasked.reason).toContain("PX-24: a gap is stated, but search_meeting_notes was never asked about it");
  });

  it("fails when a required blocker is left out", () => {
    const result = checkEvidence(check, trial(HONEST.split("\n").slice(0, 1).join("\n").replace(", PX-24", "")));
    expect(result.passed).toBe(false);
    expect(result.reason).toContain("PX-24 is not in the answer");
  });

  it("a failed tool call is no evidence", () => {
    const failed = { ...meetingCall, ok: false };
    const result = checkEvidence(check, trial(HONEST, [failed]));
    expect(result.passed).toBe(false);
    expect(result.reason).toContain("PX-17: the explanation quotes nothing");
  });
});
