"use client";

import { HumanInputAnswerForm } from "@/components/runs/human-input-answer-form";
import type { RunWaiting } from "../store/types";

/** Answers a human-input node so the waiting run resumes (the run page uses the same form). */
export function HumanInputForm({ runId, waiting }: { runId: string; waiting: RunWaiting }) {
  return <HumanInputAnswerForm runId={runId} waiting={waiting} />;
}
