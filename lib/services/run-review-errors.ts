import "server-only";
import { TrellisError } from "../workflow/errors";

/** A comment mentions `@name` that is no member of the workspace. Code `unknown_mention` (422), field `body`. */
export class UnknownMentionError extends TrellisError {
  /** The form field at fault, and the names no member answers to. */
  readonly details: { field: string; mentions: string[] };

  constructor(mentions: string[]) {
    super(
      "unknown_mention",
      `No workspace member is called ${mentions.map((name) => `@${name}`).join(", ")}; mention a member by their name without spaces or their e-mail name.`,
    );
    this.details = { field: "body", mentions };
  }
}

/** A comment targets a node or node run the run does not have. Code `unknown_node_run` (422), naming the field. */
export class UnknownNodeRunError extends TrellisError {
  /** The field at fault (`nodeId` or `nodeRunId`). */
  readonly details: { field: string };

  constructor(field: "nodeId" | "nodeRunId", value: string) {
    super("unknown_node_run", `This run has no ${field === "nodeId" ? "node" : "node run"} "${value}".`);
    this.details = { field };
  }
}

/** A re-run cannot start from what was asked (no version to repeat, nothing published, a single-node run). Code `rerun_unavailable` (409). */
export class RerunUnavailableError extends TrellisError {
  /** The field at fault (`target`). */
  readonly details: { field: string };

  constructor(message: string) {
    super("rerun_unavailable", message);
    this.details = { field: "target" };
  }
}
