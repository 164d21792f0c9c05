import "server-only";
import type { ModelToolSpec } from "../language-model";
import { DEMO_LABEL, neededCalls } from "./demo-brain";
import { extractTaskFacts } from "./task-facts";
import type { DemoTranscript } from "./transcript";

/** A plan step as the demo planner writes it. */
interface DemoPlanStep {
  id: string;
  action: string;
  tool: string;
  input: Record<string, unknown>;
  dependsOn?: string[];
}

function findTool(tools: ModelToolSpec[], pattern: RegExp): ModelToolSpec | undefined {
  return tools.find((tool) => pattern.test(tool.name));
}

/**
 * A deterministic plan for a goal: weather per city (in parallel), then the conversion; or the
 * ticket search, then the notes for the tickets it finds (`{{t1.tickets.id}}`).
 */
export function planFor(goal: string, tools: ModelToolSpec[]): DemoPlanStep[] {
  const facts = extractTaskFacts(goal);
  const steps: DemoPlanStep[] = [];
  const weatherIds: string[] = [];
  for (const call of neededCalls({ ...facts, money: undefined, tickets: false, expression: undefined }, tools, [])) {
    const id = `w${weatherIds.length + 1}`;
    weatherIds.push(id);
    steps.push({
      id,
      action: `Get the current weather in ${Object.values(call.args)[0]}`,
      tool: call.name,
      input: call.args,
    });
  }
  const currency = findTool(tools, /currenc|convert|exchange/i);
  if (currency && facts.money) {
    const [conversion] = neededCalls({ ...facts, rainBet: false, cities: [] }, [currency], []);
    if (conversion) {
      steps.push({
        id: "c1",
        action: `Convert ${facts.money.amount} ${facts.money.from} to ${facts.money.to}`,
        tool: conversion.name,
        input: conversion.args,
        ...(weatherIds.length > 0 ? { dependsOn: weatherIds } : {}),
      });
    }
  }
  const tickets = findTool(tools, /ticket/i);
  const notes = findTool(tools, /note|meeting/i);
  if (tickets && facts.tickets) {
    const [search] = neededCalls({ ...facts, cities: [], money: undefined }, [tickets], []);
    steps.push({ id: "t1", action: "Find the tickets", tool: tickets.name, input: search?.args ?? {} });
    if (notes && facts.meetingNotes) {
      steps.push({
        id: "n1",
        action: "Search meeting notes for those tickets",
        tool: notes.name,
        input: { ticket_ids: "{{t1.tickets.id}}" },
        dependsOn: ["t1"],
      });
    }
  }
  if (steps.length === 0 && tools.length > 0) {
    const tool = tools[0];
    const property = Object.keys((tool.parameters as { properties?: object }).properties ?? {})[0];
    steps.push({
      id: "s1",
      action: `Use ${tool.name} for the goal`,
      tool: tool.name,
      input: property ? { [property]: goal } : {},
    });
  }
  return steps;
}

/** A replan: the steps that had not run (fresh ids), or the failed step once more when none remain. */
export function replanFor(transcript: DemoTranscript): DemoPlanStep[] {
  const replan = transcript.replan ?? {};
  const suffix = "_r";
  const source =
    replan.remaining && replan.remaining.length > 0 ? replan.remaining : replan.failed ? [replan.failed] : [];
  const ids = new Set(source.map((step) => String(step.id)));
  return source.map((step) => {
    const dependsOn = (step as { dependsOn?: string[] }).dependsOn;
    return {
      id: `${step.id}${suffix}`,
      action: `Retry: ${step.tool}`,
      tool: String(step.tool),
      input: (step.input as Record<string, unknown>) ?? {},
      ...(dependsOn
        ? { dependsOn: dependsOn.map((dependency) => (ids.has(dependency) ? `${dependency}${suffix}` : dependency)) }
        : {}),
    };
  });
}

/** The planner reply text (JSON only; the demo label goes in a field so the JSON stays valid). */
export function plannerReply(transcript: DemoTranscript): string {
  const steps = transcript.replan ? replanFor(transcript) : planFor(transcript.task, transcript.tools);
  return JSON.stringify({ note: `${DEMO_LABEL} deterministic plan`, steps });
}
