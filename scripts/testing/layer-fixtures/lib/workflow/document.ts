// Compliant: an isomorphic module.
export function parseDocument(text: string): unknown {
  return JSON.parse(text);
}
