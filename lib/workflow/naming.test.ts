import { describe, expect, it } from "vitest";
import { slugify, uniqueName, uniqueSlug } from "./naming";

describe("workflow naming", () => {
  it("slugifies names to lowercase ASCII with single dashes", () => {
    expect(slugify("Ticket triage")).toBe("ticket-triage");
    expect(slugify("  Café — Müller's flow!! ")).toBe("cafe-muller-s-flow");
    expect(slugify("日本語")).toBe("workflow");
    expect(slugify(`${"a".repeat(59)} b`)).toBe("a".repeat(59));
  });

  it("finds the first free slug", () => {
    expect(uniqueSlug("triage", new Set())).toBe("triage");
    expect(uniqueSlug("triage", new Set(["triage", "triage-2"]))).toBe("triage-3");
  });

  it("gives an imported name a number when it is taken, case-insensitively", () => {
    expect(uniqueName("Ticket triage", ["Other"])).toBe("Ticket triage");
    expect(uniqueName("Ticket triage", ["ticket triage"])).toBe("Ticket triage (2)");
    expect(uniqueName("Ticket triage", ["Ticket triage", "Ticket triage (2)"])).toBe("Ticket triage (3)");
    expect(uniqueName("Ticket triage (2)", ["Ticket triage", "Ticket triage (2)"])).toBe("Ticket triage (3)");
  });
});
