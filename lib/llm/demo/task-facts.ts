import "server-only";
/** What the demo model understands of a task; deliberately small and deterministic. */
export interface TaskFacts {
  /** Known city names, in order of mention. */
  cities: string[];
  /** An amount of money to convert, with source and target currency. */
  money?: { amount: number; from: string; to: string };
  /** The task is a bet on rain (seed 003): convert only if it rained. */
  rainBet: boolean;
  /** The task asks about weather. */
  weather: boolean;
  /** Project id for a ticket search. */
  projectId?: string;
  /** The task asks about tickets. */
  tickets: boolean;
  /** Ticket status the task asks for. */
  ticketStatus?: string;
  /** The task asks why / about meeting notes. */
  meetingNotes: boolean;
  /** An arithmetic expression in the task. */
  expression?: string;
}

const CITIES = [
  "Athens",
  "Cairo",
  "London",
  "Madrid",
  "Paris",
  "Berlin",
  "Tokyo",
  "New York",
  "Beijing",
  "Shanghai",
  "Hangzhou",
  "Rome",
  "Lisbon",
  "Sydney",
];
const CURRENCIES = ["EUR", "USD", "GBP", "JPY", "CHF", "EGP", "CNY"];
const CURRENCY_WORDS: Record<string, string> = {
  euro: "EUR",
  euros: "EUR",
  dollar: "USD",
  dollars: "USD",
  pound: "GBP",
  pounds: "GBP",
  yen: "JPY",
};

function currencyOf(word: string): string | undefined {
  const upper = word.toUpperCase();
  if (CURRENCIES.includes(upper)) return upper;
  return CURRENCY_WORDS[word.toLowerCase()];
}

function findMoney(task: string): TaskFacts["money"] {
  const amountMatch = /(\d+(?:\.\d+)?)\s*([A-Za-z]{3,7})\b/.exec(task.replace(/,(\d{3})/g, "$1"));
  const from = amountMatch ? currencyOf(amountMatch[2]) : undefined;
  if (!amountMatch || !from) return undefined;
  const rest = task.slice(amountMatch.index + amountMatch[0].length);
  const target = [...rest.matchAll(/\b([A-Za-z]{3,7})\b/g)]
    .map((match) => currencyOf(match[1]))
    .find((code) => code && code !== from);
  return target ? { amount: Number(amountMatch[1]), from, to: target } : undefined;
}

function findProjectId(task: string): string | undefined {
  const explicit = /project[ _-]?id\s*[:=]?\s*([A-Z][A-Z0-9]{0,9})\b/i.exec(task);
  if (explicit) return explicit[1].toUpperCase();
  const named = /\bproject\s+([A-Z][A-Z0-9]*)\b/.exec(task);
  if (!named) return undefined;
  // "Project X" is conventionally keyed "PX" in the demo data.
  return named[1].length === 1 ? `P${named[1]}` : named[1];
}

/** Reads the facts the demo model can act on from a task text. */
export function extractTaskFacts(task: string): TaskFacts {
  const cities = CITIES.filter((city) => new RegExp(`\\b${city}\\b`, "i").test(task)).sort(
    (a, b) => task.toLowerCase().indexOf(a.toLowerCase()) - task.toLowerCase().indexOf(b.toLowerCase()),
  );
  const expression = /(\d+(?:\.\d+)?(?:\s*[-+*/^]\s*\d+(?:\.\d+)?)+)/.exec(task)?.[1];
  return {
    cities,
    money: findMoney(task),
    rainBet: /\bbet\b/i.test(task) && /\brain/i.test(task),
    weather: /weather|rain|temperature|umbrella|sunny|天气|下雨/i.test(task),
    projectId: findProjectId(task),
    tickets: /ticket/i.test(task),
    ticketStatus: /block/i.test(task) ? "blocked" : /\bopen\b/i.test(task) ? "open" : undefined,
    meetingNotes: /meeting|notes|why/i.test(task),
    expression,
  };
}
