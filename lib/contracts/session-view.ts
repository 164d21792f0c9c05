/**
 * One of the signed-in user's sessions as the account page lists it (isomorphic: the sessions
 * service builds it, the account page renders it). The token never appears here.
 */
export interface SessionView {
  /** Session id (for revoking it). */
  id: string;
  /** The browser's user agent at sign-in, when it sent one. */
  userAgent: string | null;
  /** The client address at sign-in. */
  ipAddress: string | null;
  /** When the session started. */
  createdAt: string;
  /** Last seen (refreshed every few minutes while in use). */
  lastSeenAt: string;
  /** When it ends on its own. */
  expiresAt: string;
  /** Whether this is the session of the request. */
  current: boolean;
}
