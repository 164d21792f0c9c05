import "server-only";
import type { ModelToolSpec } from "../language-model";
import { extractTaskFacts, type TaskFacts } from "./task-facts";
import type { SeenCall } from "./transcript";

/** A tool call the demo model decides to make. */
export interface DemoCall {
  /** Tool name. */
  name: string;
  /** Arguments. */
  args: Record<string, unknown>;
}

/** The demo model's next move: calls, or an answer. */
export type DemoMove = { type: "calls"; calls: DemoCall[]; thought: string } | { type: "answer"; text: string };

/** The label every demo answer carries, so nobody mistakes it for a real model. */
export const DEMO_LABEL = "[demo model]";

type Role = "weather" | "currency" | "tickets" | "notes" | "calculator";

const ROLE_PATTERNS: Record<Role, (name: string) => boolean> = {
  weather: (name) => /weather/i.test(name),
  currency: (name) => /currenc|convert|exchange/i.test(name),
  tickets: (name) => /ticket/i.test(name) && !/note|meeting/i.test(name),
  notes: (name) => /note|meeting/i.test(name),
  calculator: (name) => /calc|math/i.test(name),
};

function toolFor(tools: ModelToolSpec[], role: Role): ModelToolSpec | undefined {
  return tools.find((tool) => ROLE_PATTERNS[role](tool.name));
}

function properties(tool: ModelToolSpec): Record<string, { type?: unknown; enum?: unknown[] }> {
  return ((tool.parameters as { properties?: Record<string, { type?: unknown; enum?: unknown[] }> }).properties ??
    {}) as Record<string, { type?: unknown; enum?: unknown[] }>;
}

function propertyNamed(tool: ModelToolSpec, pattern: RegExp): string | undefined {
  return Object.keys(properties(tool)).find((name) => pattern.test(name));
}

/** Parses a result text as JSON when it is JSON. */
export function parseResult(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function numberField(value: unknown, pattern: RegExp): number | undefined {
  if (!value || typeof value !== "object") return undefined;
  for (const [key, field] of Object.entries(value)) if (pattern.test(key) && typeof field === "number") return field;
  return undefined;
}

function failed(call: SeenCall): boolean {
  return /^Error \[/.test(call.result);
}

function weatherArgs(tool: ModelToolSpec, city: string) {
  return { [propertyNamed(tool, /city|location|place/i) ?? "city"]: city };
}

function callsFor(role: Role, seen: SeenCall[]): SeenCall[] {
  return seen.filter((call) => ROLE_PATTERNS[role](call.name));
}

function ticketIds(seen: SeenCall[]): string[] {
  const text = callsFor("tickets", seen)
    .filter((call) => !failed(call))
    .map((call) => call.result)
    .join("\n");
  return [...new Set(text.match(/\b[A-Z]{1,6}-\d+\b/g) ?? [])];
}

/** Most pages of one search the demo model reads. */
const MAX_PAGES = 10;

/**
 * The call for the next page when the last search answered a `next_cursor` (and the tool takes a
 * cursor): a paginated answer is not the whole answer.
 */
function nextPageCall(tool: ModelToolSpec, calls: SeenCall[]): DemoCall | undefined {
  const cursorProperty = propertyNamed(tool, /cursor|page_token/i);
  const last = calls.at(-1);
  if (!cursorProperty || !last || failed(last) || calls.length >= MAX_PAGES) return undefined;
  const answer = parseResult(last.result) as { next_cursor?: unknown; nextCursor?: unknown } | undefined;
  const cursor = answer?.next_cursor ?? answer?.nextCursor;
  if (typeof cursor !== "string" && typeof cursor !== "number") return undefined;
  return { name: tool.name, args: { ...last.args, [cursorProperty]: String(cursor) } };
}

/** The calls still needed for the task, given what has been seen; empty when it can answer. */
export function neededCalls(facts: TaskFacts, tools: ModelToolSpec[], seen: SeenCall[]): DemoCall[] {
  const needed: DemoCall[] = [];
  const weather = toolFor(tools, "weather");
  if (weather && facts.cities.length > 0 && (facts.weather || facts.rainBet)) {
    const done = new Set(
      callsFor("weather", seen).map((call) => String(Object.values(call.args)[0] ?? "").toLowerCase()),
    );
    for (const city of facts.cities)
      if (!done.has(city.toLowerCase())) needed.push({ name: weather.name, args: weatherArgs(weather, city) });
    if (needed.length > 0) return needed;
  }
  const currency = toolFor(tools, "currency");
  if (currency && facts.money && callsFor("currency", seen).length === 0) {
    const rained = callsFor("weather", seen).some(
      (call) => (numberField(parseResult(call.result), /precip|rain/i) ?? 0) > 0,
    );
    if (!facts.rainBet || rained) {
      needed.push({
        name: currency.name,
        args: {
          [propertyNamed(currency, /amount/i) ?? "amount"]: facts.money.amount,
          [propertyNamed(currency, /^from/i) ?? "from_currency"]: facts.money.from,
          [propertyNamed(currency, /^to/i) ?? "to_currency"]: facts.money.to,
        },
      });
      return needed;
    }
  }
  const tickets = toolFor(tools, "tickets");
  if (tickets && facts.tickets && callsFor("tickets", seen).length === 0) {
    const args: Record<string, unknown> = {};
    const project = propertyNamed(tickets, /project/i);
    if (project) args[project] = facts.projectId ?? "PX";
    const status = propertyNamed(tickets, /status/i);
    if (status && facts.ticketStatus) args[status] = facts.ticketStatus;
    return [{ name: tickets.name, args }];
  }
  const nextPage = tickets ? nextPageCall(tickets, callsFor("tickets", seen)) : undefined;
  if (nextPage) return [nextPage];
  const notes = toolFor(tools, "notes");
  const ids = ticketIds(seen);
  if (notes && facts.meetingNotes && ids.length > 0 && callsFor("notes", seen).length === 0) {
    const property = propertyNamed(notes, /ticket/i) ?? "ticket_ids";
    const isArray = properties(notes)[property]?.type === "array";
    return [{ name: notes.name, args: { [property]: isArray ? ids : ids.join(",") } }];
  }
  const calculator = toolFor(tools, "calculator");
  if (calculator && facts.expression && callsFor("calculator", seen).length === 0) {
    return [
      {
        name: calculator.name,
        args: { [propertyNamed(calculator, /expr|input|query/i) ?? "expression"]: facts.expression },
      },
    ];
  }
  return [];
}

function describeWeather(call: SeenCall): string {
  const result = parseResult(call.result);
  const city = String(Object.values(call.args)[0] ?? "the city");
  if (failed(call) || !result) return `${city}: no weather data (${call.result.slice(0, 80)})`;
  const temperature = numberField(result, /^temperature(_c)?$/i);
  const rain = numberField(result, /precip|rain/i);
  return `${city}: ${temperature ?? "?"} °C, ${rain ?? "?"} mm precipitation`;
}

function describeNotes(seen: SeenCall[], ids: string[]): string[] {
  const notesText = callsFor("notes", seen)
    .map((call) => call.result)
    .join("\n");
  const parsed = parseResult(callsFor("notes", seen)[0]?.result ?? "") as
    | { results?: { ticket_id: string; notes: { excerpt?: string; date?: string }[] }[] }
    | undefined;
  return ids.map((id) => {
    const entry = parsed?.results?.find((result) => result.ticket_id === id);
    if (entry && entry.notes.length > 0) {
      const latest = [...entry.notes].sort((a, b) => String(b.date ?? "").localeCompare(String(a.date ?? "")))[0];
      return `${id}: ${latest.excerpt ?? "discussed in the meeting notes"}${latest.date ? ` (notes of ${latest.date})` : ""}`;
    }
    if (!entry && new RegExp(`\\b${id}\\b`).test(notesText) && !parsed) return `${id}: mentioned in the meeting notes`;
    return `${id}: no explanation found in the searched meeting notes (gap; it may be discussed elsewhere)`;
  });
}

/** Writes the final answer from the calls seen, quoting their results. */
export function composeAnswer(facts: TaskFacts, seen: SeenCall[], task: string): string {
  const lines: string[] = [];
  const weatherCalls = callsFor("weather", seen);
  const conversion = callsFor("currency", seen).find((call) => !failed(call));
  const converted = conversion ? parseResult(conversion.result) : undefined;
  const convertedAmount = numberField(converted, /converted|result/i);
  if (facts.rainBet && weatherCalls.length > 0 && facts.money) {
    const city = String(Object.values(weatherCalls[0].args)[0] ?? facts.cities[0]);
    const rain = numberField(parseResult(weatherCalls[0].result), /precip|rain/i) ?? 0;
    lines.push(
      rain > 0
        ? `It rained in ${city} today (${rain} mm), so you won the bet: ${facts.money.amount} ${facts.money.from} is ${convertedAmount ?? "?"} ${facts.money.to}.`
        : `It did not rain in ${city} today (${rain} mm), so you lost the bet; no currency conversion needed.`,
    );
  } else {
    for (const call of weatherCalls) lines.push(describeWeather(call));
    if (facts.money && convertedAmount !== undefined) {
      lines.push(`${facts.money.amount} ${facts.money.from} = ${convertedAmount} ${facts.money.to}.`);
    }
  }
  const ids = ticketIds(seen);
  if (callsFor("tickets", seen).length > 0) {
    lines.push(
      ids.length > 0
        ? `${facts.ticketStatus ? `${facts.ticketStatus[0].toUpperCase()}${facts.ticketStatus.slice(1)} tickets` : "Tickets"}: ${ids.join(", ")}.`
        : "No matching tickets were found.",
    );
    if (callsFor("notes", seen).length > 0) lines.push(...describeNotes(seen, ids));
  }
  for (const call of callsFor("calculator", seen)) lines.push(`${facts.expression ?? "Result"} = ${call.result}`);
  const known = new Set([
    ...weatherCalls,
    ...callsFor("currency", seen),
    ...callsFor("tickets", seen),
    ...callsFor("notes", seen),
    ...callsFor("calculator", seen),
  ]);
  for (const call of seen)
    if (!known.has(call)) {
      const label =
        Object.keys(call.args).length > 0 ? `${call.name}(${JSON.stringify(call.args)}) returned` : call.name;
      lines.push(`${label}: ${call.result.slice(0, 200)}`);
    }
  if (lines.length === 0) {
    lines.push(
      `I am the offline demo model and cannot answer "${task.slice(0, 160)}" for real; configure a model provider for real answers.`,
    );
  }
  return `${DEMO_LABEL} ${lines.join("\n")}`;
}

/** Decides the next move for an agent turn. `parallel` lets it issue several calls at once. */
export function decideMove(
  task: string,
  tools: ModelToolSpec[],
  seen: SeenCall[],
  options: { parallel: boolean; mustAnswer: boolean },
): DemoMove {
  const facts = extractTaskFacts(task);
  const needed = options.mustAnswer ? [] : neededCalls(facts, tools, seen);
  if (needed.length === 0) {
    const answer = composeAnswer(facts, seen, task);
    const failures = seen.filter(failed).map((call) => `${call.name} result`);
    return {
      type: "answer",
      text: options.mustAnswer ? `${answer}\nMissing: ${failures.length > 0 ? failures.join(", ") : "none"}` : answer,
    };
  }
  const calls = options.parallel ? needed : needed.slice(0, 1);
  return {
    type: "calls",
    calls,
    thought: `I need ${calls.map((call) => `${call.name} ${JSON.stringify(call.args)}`).join(" and ")}.`,
  };
}
