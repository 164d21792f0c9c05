// Compliant: checks are isomorphic (no server-only guard needed) and import only isomorphic lib.
import { parseDocument } from "../../workflow/document";

export const contains = (text: string, value: string) => text.includes(value) && parseDocument !== undefined;
