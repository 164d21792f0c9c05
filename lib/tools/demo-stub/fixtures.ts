import "server-only";
/**
 * Deterministic data for the offline demo APIs. Cities are chosen so the seed examples have
 * both outcomes: rain in Athens and London, dry in Cairo and Madrid.
 */

/** A city the geocoding stub knows, with its fixed current weather. */
export interface DemoCity {
  id: number;
  name: string;
  country: string;
  country_code: string;
  latitude: number;
  longitude: number;
  timezone: string;
  temperature_c: number;
  precipitation_mm: number;
}

/** Cities answered by the geocoding stub. */
export const DEMO_CITIES: readonly DemoCity[] = [
  {
    id: 264371,
    name: "Athens",
    country: "Greece",
    country_code: "GR",
    latitude: 37.98376,
    longitude: 23.72784,
    timezone: "Europe/Athens",
    temperature_c: 17.4,
    precipitation_mm: 3.2,
  },
  {
    id: 360630,
    name: "Cairo",
    country: "Egypt",
    country_code: "EG",
    latitude: 30.06263,
    longitude: 31.24967,
    timezone: "Africa/Cairo",
    temperature_c: 34.1,
    precipitation_mm: 0,
  },
  {
    id: 2643743,
    name: "London",
    country: "United Kingdom",
    country_code: "GB",
    latitude: 51.50853,
    longitude: -0.12574,
    timezone: "Europe/London",
    temperature_c: 11.8,
    precipitation_mm: 1.1,
  },
  {
    id: 3117735,
    name: "Madrid",
    country: "Spain",
    country_code: "ES",
    latitude: 40.4165,
    longitude: -3.70256,
    timezone: "Europe/Madrid",
    temperature_c: 26.5,
    precipitation_mm: 0,
  },
  {
    id: 2988507,
    name: "Paris",
    country: "France",
    country_code: "FR",
    latitude: 48.85341,
    longitude: 2.3488,
    timezone: "Europe/Paris",
    temperature_c: 15.2,
    precipitation_mm: 0,
  },
  {
    id: 2950159,
    name: "Berlin",
    country: "Germany",
    country_code: "DE",
    latitude: 52.52437,
    longitude: 13.41053,
    timezone: "Europe/Berlin",
    temperature_c: 9.6,
    precipitation_mm: 0.4,
  },
  {
    id: 1850147,
    name: "Tokyo",
    country: "Japan",
    country_code: "JP",
    latitude: 35.6895,
    longitude: 139.69171,
    timezone: "Asia/Tokyo",
    temperature_c: 22.3,
    precipitation_mm: 5.8,
  },
  {
    id: 5128581,
    name: "New York",
    country: "United States",
    country_code: "US",
    latitude: 40.71427,
    longitude: -74.00597,
    timezone: "America/New_York",
    temperature_c: 19,
    precipitation_mm: 0,
  },
];

/** Fixed reference rates: units of each currency per 1 EUR. */
export const DEMO_RATES_PER_EUR: Readonly<Record<string, number>> = {
  EUR: 1,
  // Seed 003: 100 EUR is 108.50 USD at 1.085.
  USD: 1.085,
  GBP: 0.8531,
  JPY: 161.37,
  CHF: 0.9563,
  EGP: 52.41,
};

/** The fixed date the demo rates and weather are "as of". */
export const DEMO_DATE = "2026-09-14";

/** A demo ticket (seed 004: Project X). */
export interface DemoTicket {
  id: string;
  project_id: string;
  title: string;
  status: "open" | "blocked" | "closed";
  updated_at: string;
}

/** Tickets; PX and PXL are deliberately similar project IDs. */
export const DEMO_TICKETS: readonly DemoTicket[] = [
  { id: "PX-9", project_id: "PX", title: "Set up staging database", status: "closed", updated_at: "2026-08-02" },
  {
    id: "PX-12",
    project_id: "PX",
    title: "Rate-limit the public search endpoint",
    status: "open",
    updated_at: "2026-09-10",
  },
  {
    id: "PX-17",
    project_id: "PX",
    title: "Grant payments service access to the ledger API",
    status: "blocked",
    updated_at: "2026-09-11",
  },
  { id: "PX-21", project_id: "PX", title: "Dashboard for failed webhooks", status: "open", updated_at: "2026-09-05" },
  {
    id: "PX-24",
    project_id: "PX",
    title: "Migrate webhook retries to the new queue",
    status: "blocked",
    updated_at: "2026-09-12",
  },
  { id: "PX-30", project_id: "PX", title: "Document the retry policy", status: "open", updated_at: "2026-09-13" },
  {
    id: "PXL-3",
    project_id: "PXL",
    title: "Localization export for the mobile app",
    status: "blocked",
    updated_at: "2026-09-09",
  },
];

/** A meeting-notes excerpt linked to tickets. */
export interface DemoMeetingNote {
  id: string;
  date: string;
  meeting: string;
  ticket_ids: string[];
  excerpt: string;
}

/** Notes: PX-17 has a stale and a current explanation; PX-24 has none on purpose. */
export const DEMO_MEETING_NOTES: readonly DemoMeetingNote[] = [
  {
    id: "MN-101",
    date: "2026-07-01",
    meeting: "Project X planning",
    ticket_ids: ["PX-17"],
    excerpt: "PX-17 is waiting for the vendor contract to be signed before ledger access can be requested.",
  },
  {
    id: "MN-142",
    date: "2026-09-08",
    meeting: "Security sync",
    ticket_ids: ["PX-17", "PX-12"],
    excerpt:
      "The vendor contract is signed. PX-17 remains blocked: the access review for the ledger API has not been approved by the IAM team; expected next week.",
  },
  {
    id: "MN-150",
    date: "2026-09-12",
    meeting: "Localization stand-up",
    ticket_ids: ["PXL-3"],
    excerpt: "PXL-3 waits for translations from the agency.",
  },
];
