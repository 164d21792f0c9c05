/** The client address as reported by the reverse proxy, else a constant (one bucket for direct clients). */
export function clientAddress(request: Request): string {
  return request.headers.get("x-forwarded-for")?.split(",")[0]?.trim() || request.headers.get("x-real-ip") || "direct";
}
