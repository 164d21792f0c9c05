"use client";

import { useState } from "react";
import type { RunWaiting } from "../store/types";

/** Answers a human-input node so the waiting run resumes. */
export function HumanInputForm({ runId, waiting }: { runId: string; waiting: RunWaiting }) {
  const [answer, setAnswer] = useState("");
  const [error, setError] = useState<string | null>(null);
  const submit = async () => {
    const response = await fetch(`/api/runs/${runId}/resume`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ nodeId: waiting.nodeId, answer }),
    });
    if (!response.ok) setError(`Could not resume (${response.status})`);
  };
  return (
    <div className="human-input" data-testid="human-input-form">
      <p>
        <b>Waiting for you:</b> {waiting.prompt}
      </p>
      <textarea className="input" value={answer} onChange={(event) => setAnswer(event.target.value)} rows={2} />
      <button type="button" className="button button-primary" onClick={() => void submit()}>
        Send answer
      </button>
      {error && <span className="field-error">{error}</span>}
    </div>
  );
}
